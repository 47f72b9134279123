import CartRenderCore
import XCTest

/// SwiftUI's HStack space sharing (`HStackSizing`), with the cases of Apple's HStack and
/// `layoutPriority(_:)` documentation and *The SwiftUI Field Guide*.
final class HStackSizingTests: XCTestCase {
    func testSharing() {
        let cases: [(String, [HStackSizing.Child], Double, Double, [Double])] = [
            // (what, children, spacing, proposal, widths)
            ("two texts that both fit keep their widths",
             [.text(ideal: 50), .text(ideal: 70)], 10, 300, [50, 70]),
            ("one long, one short: the short keeps its width, the long gets the rest",
             [.text(ideal: 300), .text(ideal: 40)], 10, 210, [160, 40]),
            ("both long: an equal split",
             [.text(ideal: 300), .text(ideal: 400)], 10, 210, [100, 100]),
            ("a fixed-size child first, whatever its place",
             [.text(ideal: 300), .fixed(60), .text(ideal: 300)], 10, 200, [60, 60, 60]),
            ("a fixed-size child wider than the stack overflows it; texts get nothing",
             [.fixed(64), .text(ideal: 100)], 6, 24, [64, 0]),
            ("a spacer takes what the others leave",
             [.text(ideal: 50), .spacer(minLength: 0), .text(ideal: 70)], 8, 300, [50, 164, 70]),
            ("a spacer is not counted in the division: a text truncates only when the two do not fit",
             [.text(ideal: 200), .spacer(minLength: 0), .text(ideal: 80)], 8, 296, [200, 0, 80]),
            ("a spacer keeps its minimum length",
             [.text(ideal: 200), .spacer(minLength: 12), .text(ideal: 200)], 8, 216, [94, 12, 94]),
            ("a flexible child's minimum holds",
             [.flexible(minimum: 20, ideal: 90), .text(ideal: 100)], 0, 30, [20, 10]),
            ("equal flexibility keeps the children's order",
             [.text(ideal: 100), .text(ideal: 100), .text(ideal: 100)], 0, 200, [66.666666666666671, 66.666666666666657, 66.666666666666671]),
            ("the cart row: price, Spacer(minLength: 0), minus, quantity box, plus",
             [.text(ideal: 156.75), .spacer(minLength: 0), .fixed(19), .flexible(minimum: 20, ideal: 30), .fixed(19)], 15, 216,
             [88, 0, 19, 30, 19]),
        ]
        for (what, children, spacing, proposal, expected) in cases {
            let widths = HStackSizing.widths(children, spacing: spacing, proposal: proposal)
            XCTAssertEqual(widths.count, expected.count, what)
            for (w, e) in zip(widths, expected) { XCTAssertEqual(w, e, accuracy: 1e-9, what) }
        }
        XCTAssertEqual(HStackSizing.widths([], spacing: 8, proposal: 100), [])
    }
}
