/// The sharing SwiftUI's `HStack` and `VStack` do along their axis, one algorithm for both
/// (`HStackSizing.widths`, `VStackSizing.heights`): the children shared are ordered by
/// flexibility, least flexible first, in their order among equals; each in that order is
/// offered the remaining length divided by the number of children not yet sized, and the
/// remaining length shrinks by what it takes.
enum StackSharing {
    /// The length (pt) each child takes, in `flexibilities` order (0 for a child not shared,
    /// whose flexibility is nil: a spacer), and the length left over (pt, negative when the
    /// children overflow `length`).
    /// - Parameters:
    ///   - flexibilities: each child's flexibility (pt: its longest length minus its shortest),
    ///     nil for a child left out of the sharing.
    ///   - length: the length to share (pt): the proposal less the spacing and what the children
    ///     left out take.
    ///   - take: the length (pt) child `index` takes when offered `offer` pt.
    /// - Complexity: O(n log n) in the number of children.
    static func share(_ flexibilities: [Double?], length: Double, take: (_ index: Int, _ offer: Double) -> Double) -> (lengths: [Double], left: Double) {
        var remaining = length
        var lengths = [Double](repeating: 0, count: flexibilities.count)
        var order: [(index: Int, flexibility: Double)] = []
        for (i, f) in flexibilities.enumerated() {
            if let f { order.append((i, f)) }
        }
        order.sort { a, b in a.flexibility < b.flexibility || (a.flexibility == b.flexibility && a.index < b.index) }
        for (k, entry) in order.enumerated() {
            let offer = max(0, remaining) / Double(order.count - k)
            let taken = take(entry.index, offer)
            lengths[entry.index] = taken
            remaining -= taken
        }
        return (lengths, remaining)
    }
}
