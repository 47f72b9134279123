import CartRenderCore
import XCTest

/// A text measurer that counts what layout asks of it: calls, and characters measured.
final class CountingMetrics: TextMeasuring, @unchecked Sendable {
    private(set) var calls = 0
    private(set) var characters = 0
    func measure(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?) -> Size {
        calls += 1
        characters += text.count
        return WrappingMetrics().measure(text, font: font, maxWidth: maxWidth, maxLines: maxLines)
    }
    func firstBaseline(_ text: String, font: FontSpec) -> Double {
        calls += 1
        characters += text.count
        return WrappingMetrics().firstBaseline(text, font: font)
    }
}

/// Layout of a very long word is linear in its length (issue 12 item 7): the screens measure a
/// text a fixed number of times whatever its length, in a layout made once for all frames — never a prefix per character, as a
/// truncation or line search by characters would — so a 10,000-character word costs ten times
/// a 1,000-character one. (The raster layer's own side is `TextEngineTests`.)
final class LongTextLayoutTests: XCTestCase {
    private func work(_ scene: String) throws -> (calls: Int, characters: Int) {
        let s = try SceneDecoder.decode(Array(scene.utf8), file: "s.json", baseDirectory: "/")
        let metrics = CountingMetrics()
        let model = Screens.model(for: s, measurer: metrics)
        for t in [0.0, 0.5, 1.0] { _ = model.frame(at: t) }
        return (metrics.calls, metrics.characters)
    }

    func testMeasuringIsLinearInTheLengthOfAWord() throws {
        let scenes: [(String, (String) -> String)] = [
            ("cart item name", { #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "\#($0)", "image": "symbol:gift.fill", "price": "1"}]}}"# }),
            ("cart item details", { #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "details": "\#($0)", "image": "symbol:gift.fill", "price": "1"}]}}"# }),
            ("shop product name", { #"{"shop": {"productName": "\#($0)"}}"# }),
            ("shop description", { #"{"shop": {"productDescription": "\#($0)"}}"# }),
        ]
        for (what, scene) in scenes {
            let short = try work(scene(String(repeating: "a", count: 1000)))
            let long = try work(scene(String(repeating: "a", count: 10_000)))
            XCTAssertEqual(long.calls, short.calls, "\(what): as many measurements for 10,000 characters as for 1,000")
            // Laid out once for all frames, the word is measured a few times in all (once today).
            XCTAssertLessThanOrEqual(long.characters - short.characters, 9_000 * 3,
                                     "\(what): characters measured grow with the length, not its square")
        }
    }
}
