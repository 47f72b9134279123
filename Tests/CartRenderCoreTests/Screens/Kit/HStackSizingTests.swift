import CartRenderCore
import XCTest

/// SwiftUI's HStack space sharing (`HStackSizing`), with the cases of Apple's HStack and
/// `layoutPriority(_:)` documentation and *The SwiftUI Field Guide*.
final class HStackSizingTests: XCTestCase {
    /// Texts whose characters are all 10 pt wide, wrapped between any two characters.
    struct TenPointCharacters: TextMeasuring {
        func measure(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?) -> Size {
            let n = Double(text.count)
            guard let w = maxWidth, 10 * n > w else { return Size(width: 10 * n, height: 20) }
            let perLine = max(1, (w / 10).rounded(.down))
            return Size(width: 10 * perLine, height: 20 * (n / perLine).rounded(.up))
        }
        func firstBaseline(_ text: String, font: FontSpec) -> Double { 16 }
    }

    /// `Text` children without a line limit (`.text`): each at least its widest character,
    /// taking the width of its wrapped lines.
    private var wrappingCases: [(String, [HStackSizing.Child], Double, Double, [Double])] {
        let m = TenPointCharacters()
        func text(_ s: String) -> HStackSizing.Child { .text(s, font: FontSpec(size: 17), measurer: m) }
        return [
            ("a text's minimum is its widest character",
             [text("$10.00")], 0, 0, [10]),
            ("the cart row on a 320 pt screen: the one-digit quantity box (29 pt, no flexibility) keeps its width, the price wraps in the 16 pt left, one character a line",
             [text("$10.00"), .spacer(minLength: 0), .fixed(19), .flexible(minimum: 29, ideal: 29), .fixed(19)], 15, 143,
             [10, 6, 19, 29, 19]),
            ("a quantity box that would get 0 pt with a minimum of 0 takes its widest digit plus padding",
             [text("$100.00"), .spacer(minLength: 0), .fixed(19), .flexible(minimum: 30, ideal: 40), .fixed(19)], 15, 120,
             [10, 0, 19, 30, 19]),
            ("Total and the total at accessibility5: the less flexible label wraps in half and takes its lines' width, the total wraps in the rest",
             [text("Total"), .spacer(minLength: 0), text("$441.98")], 8, 90, [30, 4, 40]),
            ("both fit: each its one-line width",
             [text("Total"), .spacer(minLength: 0), text("$441.98")], 8, 200, [50, 64, 70]),
            ("minimums that do not fit overflow the stack",
             [.fixed(64), text("Add to Cart")], 6, 24, [64, 10]),
        ]
    }

    func testSharing() {
        let cases: [(String, [HStackSizing.Child], Double, Double, [Double])] = [
            // (what, children, spacing, proposal, widths)
            ("two texts that both fit keep their widths",
             [.flexible(minimum: 0, ideal: 50), .flexible(minimum: 0, ideal: 70)], 10, 300, [50, 70]),
            ("one long, one short: the short keeps its width, the long gets the rest",
             [.flexible(minimum: 0, ideal: 300), .flexible(minimum: 0, ideal: 40)], 10, 210, [160, 40]),
            ("both long: an equal split",
             [.flexible(minimum: 0, ideal: 300), .flexible(minimum: 0, ideal: 400)], 10, 210, [100, 100]),
            ("a fixed-size child first, whatever its place",
             [.flexible(minimum: 0, ideal: 300), .fixed(60), .flexible(minimum: 0, ideal: 300)], 10, 200, [60, 60, 60]),
            ("a fixed-size child wider than the stack overflows it; texts get nothing",
             [.fixed(64), .flexible(minimum: 0, ideal: 100)], 6, 24, [64, 0]),
            ("a spacer takes what the others leave",
             [.flexible(minimum: 0, ideal: 50), .spacer(minLength: 0), .flexible(minimum: 0, ideal: 70)], 8, 300, [50, 164, 70]),
            ("a spacer is not counted in the division: a text truncates only when the two do not fit",
             [.flexible(minimum: 0, ideal: 200), .spacer(minLength: 0), .flexible(minimum: 0, ideal: 80)], 8, 296, [200, 0, 80]),
            ("a spacer keeps its minimum length",
             [.flexible(minimum: 0, ideal: 200), .spacer(minLength: 12), .flexible(minimum: 0, ideal: 200)], 8, 216, [94, 12, 94]),
            ("a flexible child's minimum holds",
             [.flexible(minimum: 20, ideal: 90), .flexible(minimum: 0, ideal: 100)], 0, 30, [20, 10]),
            ("equal flexibility keeps the children's order",
             [.flexible(minimum: 0, ideal: 100), .flexible(minimum: 0, ideal: 100), .flexible(minimum: 0, ideal: 100)], 0, 200, [66.666666666666671, 66.666666666666657, 66.666666666666671]),
            ("the cart row: price, Spacer(minLength: 0), minus, quantity box, plus",
             [.flexible(minimum: 0, ideal: 156.75), .spacer(minLength: 0), .fixed(19), .flexible(minimum: 20, ideal: 30), .fixed(19)], 15, 216,
             [88, 0, 19, 30, 19]),
        ]
        for (what, children, spacing, proposal, expected) in cases + wrappingCases {
            let widths = HStackSizing.widths(children, spacing: spacing, proposal: proposal, measurer: TenPointCharacters())
            XCTAssertEqual(widths.count, expected.count, what)
            for (w, e) in zip(widths, expected) { XCTAssertEqual(w, e, accuracy: 1e-9, what) }
        }
        XCTAssertEqual(HStackSizing.widths([], spacing: 8, proposal: 100), [])
    }
}
