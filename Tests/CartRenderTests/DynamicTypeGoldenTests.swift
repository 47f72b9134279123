import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// Golden frames at other Dynamic Type sizes (docs/motion-and-look.md, “Dynamic Type”), at scale 1: the default shop
/// mid-flight at accessibility3 and at xSmall, the cart page with a row opening at
/// accessibility1 and at accessibility5 (where the seed's bottom area leaves its list no room
/// on an iPhone 16: the total breaks between characters and "Check out" wraps).
final class DynamicTypeGoldenTests: XCTestCase {
    /// `example` with `"dynamicTypeSize": size` added.
    private func frame(_ example: String, _ size: DynamicTypeSize, at t: Double) throws -> RGBAImage {
        let url = CartGoldenTests.examples.appendingPathComponent(example)
        let text = try String(contentsOf: url, encoding: .utf8)
            .replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 1, \"dynamicTypeSize\": \"\(size.rawValue)\",")
        let scene = try SceneDecoder.decode(Array(text.utf8), file: example, baseDirectory: CartGoldenTests.examples.path,
                                            overrides: SceneOverrides(scale: 1))
        XCTAssertEqual(scene.dynamicTypeSize, size)
        return try Renderer(scene: scene).makeWorker().image(at: t)
    }

    func testShopAtAccessibility3() throws {
        try Golden.assertMatches(frame("fly-button.json", .accessibility3, at: 0.6), named: "shop-accessibility3-0.600")
    }

    func testShopAtXSmall() throws {
        try Golden.assertMatches(frame("fly-button.json", .xSmall, at: 0.6), named: "shop-xSmall-0.600")
    }

    func testCartAtAccessibility1() throws {
        try Golden.assertMatches(frame("cart-swipe.json", .accessibility1, at: 0.75), named: "cart-accessibility1-0.750")
    }

    func testCartAtAccessibility5() throws {
        try Golden.assertMatches(frame("cart-swipe.json", .accessibility5, at: 0.75), named: "cart-accessibility5-0.750")
    }
}
