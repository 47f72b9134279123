@testable import CartRenderCore
import Foundation
import XCTest

/// Dynamic Type (docs/motion-and-look.md, “Dynamic Type”): Apple's table of text style sizes, custom fonts scaling with body,
/// fixed sizes that do not, the scene key, and layouts that grow with the text.
final class DynamicTypeTests: XCTestCase {
    func testTheTableAtLargeIsTheSizesOfSection3() {
        let large: [TextStyle: Double] = [.largeTitle: 34, .title: 28, .title2: 22, .title3: 20, .headline: 17, .body: 17,
                                          .callout: 16, .subheadline: 15, .footnote: 13, .caption: 12, .caption2: 11]
        for style in TextStyle.allCases {
            XCTAssertEqual(style.size(at: .large), large[style], style.rawValue)
            XCTAssertEqual(style.sizes.count, DynamicTypeSize.allCases.count, style.rawValue)
            XCTAssertEqual(style.sizes, style.sizes.sorted(), "\(style.rawValue) grows with the size")
        }
        XCTAssertEqual(TextStyle.largeTitle.size(at: .accessibility5), 60)
        XCTAssertEqual(TextStyle.body.size(at: .accessibility5), 53)
        XCTAssertEqual(TextStyle.body.size(at: .xSmall), 14)
        XCTAssertEqual(TextStyle.caption2.size(at: .accessibility3), 29)
        XCTAssertEqual(TextStyle.headline.weight, .semibold)
        XCTAssertTrue(DynamicTypeSize.accessibility1.isAccessibilitySize)
        XCTAssertFalse(DynamicTypeSize.xxxLarge.isAccessibilitySize)
    }

    func testCustomFontsScaleWithBodyAndFixedOnesDoNot() {
        let custom = ScalableFont.custom(size: 28, weight: .heavy)
        XCTAssertEqual(custom.resolved(.large), FontSpec(size: 28, weight: .heavy))
        XCTAssertEqual(custom.resolved(.accessibility5).size, 28 * 53 / 17, accuracy: 1e-12)
        XCTAssertEqual(custom.resolved(.xSmall).size, 28 * 14 / 17, accuracy: 1e-12)
        XCTAssertEqual(ScalableFont.system(size: 26, weight: .heavy).resolved(.accessibility5), FontSpec(size: 26, weight: .heavy))
        XCTAssertEqual(ScalableFont.style(.title2, .bold).resolved(.accessibility3), FontSpec(size: 44, weight: .bold, styleLineHeight: 52))
        XCTAssertEqual(ScalableFont.style(.headline).resolved(.xLarge), FontSpec(size: 19, weight: .semibold, styleLineHeight: 24))
    }

    private func decode(_ json: String) throws -> Scene {
        try SceneDecoder.decode(Array(json.utf8), file: "scene.json", baseDirectory: "/")
    }

    func testSceneKey() throws {
        XCTAssertEqual(try decode("{}").dynamicTypeSize, .large)
        XCTAssertEqual(try decode(#"{"dynamicTypeSize": "accessibility3"}"#).dynamicTypeSize, .accessibility3)
        XCTAssertThrowsError(try decode("{\n  \"dynamicTypeSize\": \"accessibilty3\"\n}")) { e in
            XCTAssertEqual((e as? SceneError)?.description,
                           #"scene.json:2:22: dynamicTypeSize: must be "xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge", "accessibility1", "accessibility2", "accessibility3", "accessibility4" or "accessibility5", got "accessibilty3"; did you mean "accessibility3"?"#)
        }
        XCTAssertThrowsError(try decode(#"{"dynamicTypeSize": 3}"#))
    }

    func testCanonicalFormNamesOnlyASizeOtherThanLarge() throws {
        func keys(_ s: Scene) -> [String] {
            guard case .object(let m) = s.canonicalJSON else { return [] }
            return m.map(\.0)
        }
        XCTAssertFalse(keys(try decode(#"{"dynamicTypeSize": "large"}"#)).contains("dynamicTypeSize"))
        XCTAssertEqual(try decode(#"{"dynamicTypeSize": "large"}"#), try decode("{}"))
        let big = try decode(#"{"dynamicTypeSize": "xSmall", "layoutDirection": "rightToLeft"}"#)
        XCTAssertEqual(Array(keys(big).prefix(9)), ["version", "screen", "device", "colorScheme", "reduceMotion", "locale", "layoutDirection", "dynamicTypeSize", "tint"])
        XCTAssertEqual(try decode(big.canonicalJSON.serialized()).dynamicTypeSize, .xSmall)
        XCTAssertNotEqual(big, try decode(#"{"layoutDirection": "rightToLeft"}"#))
    }

    // MARK: Layout

    private func shop(_ size: DynamicTypeSize) -> ShopLayout {
        var s = Scene()
        s.dynamicTypeSize = size
        return ShopLayout(scene: s, shop: ShopContent(), measurer: FixedMetrics())
    }

    /// Text styles and the symbols at them grow; so does the header, moving the flights' source.
    func testShopGrowsWithTheTextSize() {
        let large = shop(.large), ax3 = shop(.accessibility3), xs = shop(.xSmall)
        // Frames are on the 3x pixel grid: edges within half a pixel, lengths within one (1/3 pt).
        let px = 1.0 / 3
        XCTAssertEqual(ax3.titleFrame.height, 52 * 1.2, accuracy: px, "largeTitle at accessibility3")
        XCTAssertEqual(ax3.cartSymbolFrame.size, ShopLayout.symbolSize(FontSpec(size: 44), of: ShopLayout.cartSymbol), "the title2 symbol scales")
        XCTAssertEqual(ax3.imageContainerFrame.minY - large.imageContainerFrame.minY, (52 - 34) * 1.2, accuracy: px)
        XCTAssertEqual(xs.imageContainerFrame.minY - large.imageContainerFrame.minY, (31 - 34) * 1.2, accuracy: px)
        XCTAssertEqual(ax3.timeline().sourceCenter, ax3.imageContainerFrame.center)
        XCTAssertGreaterThan(ax3.nameFrame.height, large.nameFrame.height)
        XCTAssertEqual(ax3.badgeLineHeight, 29 * 1.2, "caption2 at accessibility3")
        XCTAssertEqual(ax3.buttonFrame.height, 40 * 1.2 + 14, "headline 40 pt: taller than the 44 pt minimum")
        XCTAssertEqual(large.buttonFrame.height, 44 + 14, "the 44 pt minimum at large")
    }

    private func cart(_ size: DynamicTypeSize) -> CartLayout {
        var s = Scene()
        s.dynamicTypeSize = size
        var c = CartContent()
        c.items = [CartItem(id: "a", name: "Tek Product 1", details: "Gift", image: .symbol("bag.fill"), price: Decimal(string: "10.00")!, quantity: 1)]
        s.content = c
        return CartLayout(scene: s, cart: c, measurer: WrappingMetrics())
    }

    func testCartGrowsWithTheTextSize() {
        let large = cart(.large), ax1 = cart(.accessibility1)
        XCTAssertEqual(large.rows[0].nameFrame.height, (1.25 * 18).rounded(.up), "18 pt at large")
        XCTAssertEqual(ax1.rows[0].nameFrame.height, (1.25 * 18 * 28 / 17).rounded(.up), "custom 18 pt scaled by body 28/17")
        XCTAssertGreaterThan(ax1.rows[0].height, large.rows[0].height)
        XCTAssertGreaterThan(ax1.checkoutFrame.height, large.checkoutFrame.height)
        XCTAssertEqual(ax1.chevronFrame.size, large.chevronFrame.size, "the chevron has a fixed size")
        XCTAssertEqual(ax1.font(CartLook.trashSymbolFont).size, 38, "trash at .title")
        XCTAssertEqual(ax1.font(CartLook.priceFont).size, 25, "price at .subheadline")
    }

    /// "Check out" wraps inside its button when it does not fit on one line, to the lines its
    /// share of the page's `VStack` holds: at accessibility5, one (the bottom area is offered
    /// less than its least height), ending in "…".
    func testCheckoutTitleWrapsInItsButton() {
        let ax5 = cart(.accessibility5)
        let font = ax5.font(CartLook.checkoutFont)
        XCTAssertGreaterThan(0.55 * font.size * 9, ax5.checkoutFrame.width, "one line would not fit")
        XCTAssertEqual(ax5.checkoutMaxLines, 1)
        XCTAssertEqual(ax5.checkoutTitleFrame.height, (1.25 * font.size).rounded(.up))
    }
}
