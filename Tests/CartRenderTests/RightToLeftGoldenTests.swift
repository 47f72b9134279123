import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// Golden frames of right-to-left scenes (docs/motion-and-look.md, “Right to left”) at scale 1, from `Examples/`: the shop in
/// Arabic mid-flight and in Hebrew with the badge rolling at the cart's top-left corner, the cart
/// page in Arabic with a row swiped open to the right and one swiped away, and in Hebrew.
final class RightToLeftGoldenTests: XCTestCase {
    private func frame(_ example: String, at t: Double) throws -> RGBAImage {
        let path = CartGoldenTests.examples.appendingPathComponent(example).path
        let scene = try SceneDecoder.load(path: path, overrides: SceneOverrides(scale: 1))
        XCTAssertEqual(scene.layoutDirection, .rightToLeft, "\(example) is right to left by its locale")
        return try Renderer(scene: scene).makeWorker().image(at: t)
    }

    /// ar_SA: two flights arcing leftward into the cart at the top-left, the title at the right,
    /// the button's icon right of its title, right-aligned Arabic text.
    func testArabicShopMidFlight() throws {
        try Golden.assertMatches(frame("rtl-ar.json", at: 0.6), named: "shop-rtl-ar-0.600")
    }

    /// he_IL: the first landing (0.95 s) rolls 9 → 10 in a badge at the cart's top-left corner,
    /// grown rightward; the second flight about to land.
    func testHebrewShopBadgeRoll() throws {
        try Golden.assertMatches(frame("rtl-he.json", at: 1.05), named: "shop-rtl-he-1.050")
    }

    /// ar_SA: tek3 released at 0.6 s after a 120 pt rightward swipe, easing toward +90: the trash
    /// button at the left on the gradient that starts light blue at the right; the chevron points
    /// right, steppers at the left.
    func testArabicCartRowOpening() throws {
        try Golden.assertMatches(frame("cart-rtl-ar.json", at: 0.75), named: "cart-rtl-ar-0.750")
    }

    /// ar_SA: tek4 released at 2.15 s after 280 pt to the right, flying off toward +1000 while its
    /// slot collapses.
    func testArabicCartFullSwipeAway() throws {
        try Golden.assertMatches(frame("cart-rtl-ar.json", at: 2.25), named: "cart-rtl-ar-2.250")
    }

    /// he_IL / ILS: tek2 opened by a 150 pt rightward swipe.
    func testHebrewCartOpenRow() throws {
        try Golden.assertMatches(frame("cart-rtl-he.json", at: 1.0), named: "cart-rtl-he-1.000")
    }
}
