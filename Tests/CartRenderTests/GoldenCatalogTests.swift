import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// The goldens as a whole: every file in `Goldens/` is used by a test (an orphan fails), the
/// tolerance catches a changed digit, and a few frames are checked at 3x as well as 1x.
final class GoldenCatalogTests: XCTestCase {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// Each `Goldens/NAME.png` is named, as the string literal `"NAME"`, in a test of this
    /// target: a golden no test compares against any more is an orphan and fails here.
    func testEveryGoldenIsUsedByATest() throws {
        let sources = try FileManager.default.contentsOfDirectory(atPath: Self.tests.path).filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: Self.tests.appendingPathComponent($0), encoding: .utf8) }.joined()
        let goldens = try FileManager.default.contentsOfDirectory(atPath: Golden.directory.path).filter { $0.hasSuffix(".png") }
        XCTAssertGreaterThan(goldens.count, 20)
        for file in goldens.sorted() {
            let name = String(file.dropLast(4))
            XCTAssertTrue(sources.contains("\"\(name)\""), "Goldens/\(file) is used by no test: remove it, or compare against it")
        }
    }

    /// The cart at rest with the first price changed by one digit ($10.00 → $19.00) fails the
    /// golden of the cart at rest: the tolerance is tighter than a digit.
    func testAChangedDigitFailsItsGolden() throws {
        let path = CartGoldenTests.examples.appendingPathComponent("cart-swipe.json").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains(#""price": "10.00""#))
        let changed = text.replacingOccurrences(of: #""price": "10.00""#, with: #""price": "19.00""#)
        let scene = try SceneDecoder.decode(Array(changed.utf8), file: path, baseDirectory: CartGoldenTests.examples.path, overrides: SceneOverrides(scale: 1))
        let image = try Renderer(scene: scene).makeWorker().image(at: 0)
        let failures = URL(fileURLWithPath: tempDir())
        let message = try XCTUnwrap(try Golden.check(image, named: "cart-swipe-0.000", failures: failures), "a changed digit passed the golden")
        XCTAssertTrue(message.hasPrefix("cart-swipe-0.000: "), message)
        // And the unchanged scene passes it.
        let same = try SceneDecoder.decode(Array(text.utf8), file: path, baseDirectory: CartGoldenTests.examples.path, overrides: SceneOverrides(scale: 1))
        XCTAssertNil(try Golden.check(try Renderer(scene: same).makeWorker().image(at: 0), named: "cart-swipe-0.000", failures: failures))
    }

    /// The fly button mid-flight and the cart row opening at 3x (1179 × 2556 px), the device's
    /// own scale: hairlines, shadows and glyphs at the size users see them.
    func testMidFlightAt3x() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(scale: 3), baseDirectory: "/")
        try Golden.assertMatches(try Renderer(scene: scene).makeWorker().image(at: 0.6), named: "shop-0.600@3x")
    }

    func testCartRowOpeningAt3x() throws {
        let path = CartGoldenTests.examples.appendingPathComponent("cart-swipe.json").path
        let scene = try SceneDecoder.load(path: path, overrides: SceneOverrides(scale: 3))
        try Golden.assertMatches(try Renderer(scene: scene).makeWorker().image(at: 0.75), named: "cart-swipe-0.750@3x")
    }
}
