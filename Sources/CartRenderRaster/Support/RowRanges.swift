/// Sets of pixel rows as sorted, disjoint ranges (`[Range<Int>]`), as the animation encoders
/// get them with a frame (the rows that changed since the frame before).
enum RowRanges {
    /// The rows of `a` and `b`, sorted and disjoint (ranges that overlap or touch are merged);
    /// nil when either is nil (not known).
    static func union(_ a: [Range<Int>]?, _ b: [Range<Int>]?) -> [Range<Int>]? {
        guard let a, let b else { return nil }
        var merged: [Range<Int>] = []
        for band in (a + b).sorted(by: { $0.lowerBound < $1.lowerBound }) where !band.isEmpty {
            if let last = merged.last, band.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, band.upperBound)
            } else {
                merged.append(band)
            }
        }
        return merged
    }

    /// `rows` clipped to a canvas of `height` px, sorted and disjoint.
    static func clamped(_ rows: [Range<Int>], height: Int) -> [Range<Int>] {
        union(rows.map { max(0, min(height, $0.lowerBound))..<max(0, min(height, $0.upperBound)) }, [])!
    }
}
