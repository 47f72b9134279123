/// Sets of pixel rows as sorted, disjoint ranges (`[Range<Int>]`): the bands a damaged draw
/// redraws (``DamageBands``) and the rows an animation encoder gets with a frame as changed.
enum RowRanges {
    /// `rows` sorted, with ranges that overlap or touch merged into one and empty ones dropped.
    static func merged(_ rows: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for band in rows.sorted(by: { $0.lowerBound < $1.lowerBound }) where !band.isEmpty {
            if let last = merged.last, band.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, band.upperBound)
            } else {
                merged.append(band)
            }
        }
        return merged
    }

    /// The rows of `a` and `b`, `merged`; nil when either is nil (not known).
    static func union(_ a: [Range<Int>]?, _ b: [Range<Int>]?) -> [Range<Int>]? {
        guard let a, let b else { return nil }
        return merged(a + b)
    }

    /// `rows` clipped to a canvas of `height` px, `merged`.
    static func clamped(_ rows: [Range<Int>], height: Int) -> [Range<Int>] {
        merged(rows.map { max(0, min(height, $0.lowerBound))..<max(0, min(height, $0.upperBound)) })
    }
}
