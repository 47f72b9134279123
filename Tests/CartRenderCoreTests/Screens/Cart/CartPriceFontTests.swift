@testable import CartRenderCore
import XCTest

/// The family of each of the cart page's fonts (`CartLook.family(of:cart:)`): the seed's
/// `Font.custom` faces take the cart's family, text styles (the price) the system font.
final class CartPriceFontTests: XCTestCase {
    func testThePriceIsInTheSystemFamilyWhateverTheCartsFamily() throws {
        for family in [FontFamily.jost, .named("Noto Serif")] {
            var scene = try SceneDecoder.decode(Array(#"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1"}]}}"#.utf8), file: "s.json", baseDirectory: "/")
            var cart = try XCTUnwrap(scene.content as? CartContent)
            cart.font = family
            scene.content = cart
            let layout = CartLayout(scene: scene, cart: cart, measurer: FixedMetrics())
            XCTAssertEqual(layout.font(CartLook.priceFont).family, .system, family.text)
            XCTAssertEqual(layout.font(CartLook.priceFont).familyName, "Inter", family.text)
            XCTAssertEqual(layout.font(CartLook.nameFont).family, cart.font, family.text)
        }
    }
}
