/// How SwiftUI's `VStack` shares its height among its children, for the cart page's root stack
/// (header, scroll view, bottom area) and its bottom area (total line, "Check out").
///
/// The algorithm is `HStackSizing`'s along the other axis (`StackSharing`, the one both use; Apple, "VStack" and
/// `layoutPriority(_:)`; OpenSwiftUI's `StackLayout`, a reimplementation of SwiftUI's):
/// 1. The spacing between adjacent children is taken off the proposed height first.
/// 2. The children are ordered by flexibility — the difference between the tallest and the
///    shortest height a child takes (proposed ∞ and 0) — least flexible first, in their order
///    among equals. A scroll view takes any height: it is the most flexible and comes last.
/// 3. Each child in that order is offered the remaining height divided by the number of
///    children not yet sized, and takes what it does at that offer (a text offered less than its
///    lines shows the lines that fit, the last ending in "…", and at least one line: Apple,
///    `fixedSize()`: text "wraps and truncates its string to remain within its parent's
///    bounds"); the remaining height shrinks by what it took.
///
/// So a bottom area whose texts want more than half the room below a one-line header gets
/// about half of it, its texts truncated, and the list the rest. Layout priorities are not
/// modelled (the seeds set none).
public enum VStackSizing {
    /// One child of the stack, by the heights it takes (pt).
    public struct Child {
        /// The height the child takes proposed 0 (its least, pt).
        public var minimum: Double
        /// The height the child takes proposed ∞ (its ideal, pt; `.infinity` for a scroll view).
        public var ideal: Double
        /// The height the child takes when proposed a height (pt): `minimum` … `ideal`.
        public var sized: (Double) -> Double

        /// A child of the given least and ideal heights taking `sized(offer)`.
        public init(minimum: Double, ideal: Double, sized: @escaping (Double) -> Double) {
            self.minimum = minimum; self.ideal = ideal; self.sized = sized
        }

        /// A scroll view: it takes whatever it is offered.
        public static let scrollView = Child(minimum: 0, ideal: .infinity) { max(0, $0) }

        /// A child that shows from 1 to `lines` lines of `line` pt (their height rounded up to
        /// whole points, as the screens round text heights) with `fixed` pt of paddings, and is
        /// at least `floor` pt tall (a symbol's box beside its text): offered a height it shows
        /// the lines that fit, at least one.
        public static func lines(_ lines: Int, of line: Double, plus fixed: Double, atLeast floor: Double = 0) -> Child {
            let n = max(1, lines)
            func height(_ k: Int) -> Double { max(floor, fixed + (Double(k) * line).rounded(.up)) }
            return Child(minimum: height(1), ideal: height(n)) { offer in
                height(min(n, fittingLines(offer - fixed, line: line)))
            }
        }
    }

    /// How many lines of `line` pt fit in `height` pt: at least one.
    public static func fittingLines(_ height: Double, line: Double) -> Int {
        guard line > 0, height.isFinite else { return height.isFinite ? 1 : Int.max / 2 }
        return max(1, Int((height / line + 1e-9).rounded(.down)))
    }

    /// The height (pt) each child takes, in `children` order, when the stack is proposed
    /// `proposal` pt with `spacing` pt between adjacent children.
    /// - Complexity: O(n log n) in the number of children.
    public static func heights(_ children: [Child], spacing: Double, proposal: Double) -> [Double] {
        guard !children.isEmpty else { return [] }
        return StackSharing.share(children.map { $0.ideal - $0.minimum }, length: proposal - spacing * Double(children.count - 1)) { i, offer in
            children[i].sized(offer)
        }.lengths
    }
}
