import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// Golden frames of the cart page (seed 003) at scale 1, rendered in process from the scenes in
/// `Examples/`: the list at rest, a row swiping open, a trash deletion and a full swipe-away
/// half-way, the final total, and the dark and German variants. Each golden checks one moment.
final class CartGoldenTests: XCTestCase {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    private func frame(_ example: String, at t: Double) throws -> RGBAImage {
        let path = Self.examples.appendingPathComponent(example).path
        let scene = try SceneDecoder.load(path: path, overrides: SceneOverrides(scale: 1))
        let renderer = try Renderer(scene: scene)
        return try renderer.makeWorker().image(at: t)
    }

    func testListAtRest() throws {
        try Golden.assertMatches(frame("cart-swipe.json", at: 0), named: "cart-swipe-0.000")
    }

    /// tek3 released at 0.6 s past 50 pt, easing out toward −90 (trash revealed).
    func testRowOpening() throws {
        try Golden.assertMatches(frame("cart-swipe.json", at: 0.75), named: "cart-swipe-0.750")
    }

    /// The trash tap at 1.2 s, half-way through its 0.35 s `.easeIn`: tek3 fading, tek4 and tek5
    /// moving up over it, the total already $341.98.
    func testTrashDeletionHalfWay() throws {
        try Golden.assertMatches(frame("cart-swipe.json", at: 1.375), named: "cart-swipe-1.375")
    }

    /// tek4 released at 2.15 s after a 280 pt swipe: flying off to −1000 while its slot collapses.
    func testFullSwipeAway() throws {
        try Golden.assertMatches(frame("cart-swipe.json", at: 2.25), named: "cart-swipe-2.250")
    }

    func testFinalTotal() throws {
        try Golden.assertMatches(frame("cart-swipe.json", at: 3.9), named: "cart-swipe-3.900")
    }

    /// Dark appearance, symbol images: an open row dragged further (−90 shift).
    func testDarkOpenRowDraggedFurther() throws {
        try Golden.assertMatches(frame("cart-dark.json", at: 1.6), named: "cart-dark-1.600")
    }

    /// de_DE / EUR: `441,98 €`, "Gesamt" and "Zur Kasse".
    func testGermanLocale() throws {
        try Golden.assertMatches(frame("cart-locale-de.json", at: 0), named: "cart-locale-de-0.000")
    }

    /// Emoji in a name, a detail and the title at the size of the text around them, Jost; the
    /// row with "🕹️ Joystick" as tall as the one with "Joystick".
    func testEmojiInNames() throws {
        try Golden.assertMatches(frame("cart-emoji.json", at: 0), named: "cart-emoji-0.000")
    }

    /// zh_CN / CNY: 购物车 with the built-in 合计 and 去结算 (CJK from the fallback fonts).
    func testSimplifiedChineseLocale() throws {
        try Golden.assertMatches(frame("cart-locale-zh.json", at: 0), named: "cart-locale-zh-0.000")
    }

    /// The golden check itself must be able to fail: a frame one row's offset away is rejected.
    func testAMovedRowIsNotWithinTolerance() throws {
        let a = try frame("cart-swipe.json", at: 0.75)
        let b = try frame("cart-swipe.json", at: 0.80)
        let comparison = try Golden.strategy(record: false).diffing.compare(a, b)
        XCTAssertEqual(comparison.status, .fail)
        XCTAssertGreaterThan(try XCTUnwrap(comparison.result).differingPixels, 150)
    }
}
