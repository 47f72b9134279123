@testable import CartRenderCore
import XCTest

/// Fixed text metrics, so layout tests do not depend on fonts: line height 1.2 × size,
/// width 0.5 × size per character, baseline 1 × size below the top, no wrapping.
struct FixedMetrics: TextMeasuring {
    func measure(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?) -> Size {
        Size(width: Double(text.count) * font.size * 0.5, height: font.size * 1.2)
    }
    func firstBaseline(_ text: String, font: FontSpec) -> Double { font.size }
}

final class ShopLayoutTests: XCTestCase {
    func layout(_ device: Device, cartFrame: ShopContent.CartFrame = .measured) -> ShopLayout {
        var s = Scene()
        s.device = device
        var shop = ShopContent()
        shop.cartFrame = cartFrame
        s.content = shop
        return ShopLayout(scene: s, shop: shop, measurer: FixedMetrics())
    }

    /// The image container: full content width (screen − 2 × 24 pt), 260 pt tall, below the
    /// header (safe area + 8 pt), the scroll padding (24 pt) and the fly button's top padding (48 pt).
    func testImageContainerFramePerDevice() {
        let header = 34 * 1.2  // largeTitle line, taller than the 38 pt cart icon
        let table: [(Device, Rect)] = [
            (.iPhone16, Rect(x: 24, y: 59 + 8 + header + 72, width: 345, height: 260)),
            (.iPhone16ProMax, Rect(x: 24, y: 62 + 8 + header + 72, width: 392, height: 260)),
            (.iPhoneSE, Rect(x: 24, y: 20 + 8 + header + 72, width: 327, height: 260)),
        ]
        for (device, unrounded) in table {
            let l = layout(device)
            let expected = unrounded.roundedToPixels(scale: device.scale)  // on the device's pixel grid
            XCTAssertEqual(l.imageContainerFrame.x, expected.x, accuracy: 1e-9, device.name!)
            XCTAssertEqual(l.imageContainerFrame.y, expected.y, accuracy: 1e-9, device.name!)
            XCTAssertEqual(l.imageContainerFrame.width, expected.width, accuracy: 1e-9, device.name!)
            XCTAssertEqual(l.imageContainerFrame.height, 260, device.name!)
        }
    }

    /// `"measured"` is the cart icon's frame: the title2 symbol box plus 8 pt padding, trailing
    /// edge 24 pt from the screen edge, centered in the header row.
    func testMeasuredCartFrame() {
        let l = layout(.iPhone16)
        let symbol = ShopLayout.symbolSize(ScalableFont.style(.title2).resolved(.large), of: ShopLayout.cartSymbol)
        let header = 34 * 1.2
        let expected = Rect(x: 393 - 24 - (symbol.width + 16), y: 59 + 8 + (header - (symbol.height + 16)) / 2,
                            width: symbol.width + 16, height: symbol.height + 16).roundedToPixels(scale: 3)  // on the 3x pixel grid
        XCTAssertEqual(l.cartFrame, expected)
        XCTAssertEqual(l.cartIconFrame, expected)
    }

    func testExplicitAndMissingCartFrames() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertEqual(layout(.iPhone16, cartFrame: .rect(r)).cartFrame, r)
        XCTAssertNil(layout(.iPhone16, cartFrame: .none).cartFrame)
    }

    func testButtonBelowTheImageContainer() {
        let l = layout(.iPhone16)
        XCTAssertEqual(l.buttonFrame.minY, l.imageContainerFrame.maxY + 20, accuracy: 1e-9)
        XCTAssertEqual(l.buttonFrame.height, 44 + 2 * Look.buttonPaddingV, accuracy: 1e-9, "minHeight 44 plus the button's padding")
        XCTAssertEqual(l.nameFrame.minY, l.buttonFrame.maxY + 8 + 12, accuracy: 1e-9)
    }

    /// A Label's icon is centered on its title's first line: with a title that wraps to two
    /// lines the icon sits beside the first, not between the two.
    func testButtonIconIsCenteredOnTheTitlesFirstLine() {
        var s = Scene()
        var shop = ShopContent()
        shop.buttonTitle = String(repeating: "Add to Cart ", count: 8)
        s.content = shop
        let l = ShopLayout(scene: s, shop: shop, measurer: WrappingMetrics())
        let line = 1.25 * 17.0   // WrappingMetrics' line at the headline's 17 pt
        XCTAssertGreaterThan(l.buttonTitleFrame.height, 1.5 * line, "the title wraps")
        XCTAssertEqual(l.buttonIconFrame.midY, l.buttonTitleFrame.minY + line / 2, accuracy: 0.5)
        let one = layout(.iPhone16)
        XCTAssertEqual(one.buttonIconFrame.midY, one.buttonTitleFrame.midY, accuracy: 0.5, "one line: both centered")
    }

    /// A symbol's box: 1.2 × 1.0 of the point size, `cart.badge.plus` 1.35 × 1.06 (about
    /// 23 × 18 pt at the headline's 17 pt, as SF Symbols draws it).
    func testSymbolBoxes() {
        XCTAssertEqual(ShopLayout.symbolSize(FontSpec(size: 22), of: .symbol("cart.fill")), Size(width: 26, height: 21), "1.2 × 0.95: SF's ink")
        XCTAssertEqual(ShopLayout.symbolSize(FontSpec(size: 17), of: .symbol("cart.badge.plus")), Size(width: 23, height: 18))
        XCTAssertEqual(layout(.iPhone16).buttonIconFrame.size, Size(width: 23, height: 18))
    }

    func testBadgeWidthHasAMinimumOf18() {
        let l = layout(.iPhone16)
        XCTAssertEqual(l.badgeWidth("1"), 18)
        XCTAssertEqual(l.badgeWidth("1,000"), 5 * 11 * 0.5 + 10)
    }

    /// Flights are drawn last, above the header and the cart icon.
    func testFlightsAreDrawnAboveEverything() {
        var s = Scene()
        s.events = [SceneEvent(at: 0.3, action: ShopAction.tapAdd, index: 0)]
        let screen = ShopModel(scene: s, shop: ShopContent(), measurer: FixedMetrics())
        let list = screen.frame(at: 0.6).display
        guard case .group(let t, _, _, let items)? = list.items.last else { return XCTFail("last item is not the flight") }
        XCTAssertEqual(items.count, 3)
        let flight = screen.timeline.state(at: 0.6).flights[0]
        XCTAssertEqual(t.tx, flight.center.x)
        XCTAssertEqual(t.a, flight.scale)
    }

    /// Rolling digits blur by `ShopLook.digitRollBlurFraction` × the font size × (1 − opacity): the
    /// leaving 9 of 9 → 10 blurs as it fades, the arriving 1 and 0 sharpen as they appear; nothing
    /// is blurred at rest, at progress 0 or at progress 1.
    func testRollingDigitsBlurAsTheyFade() {
        let l = layout(.iPhone16)
        func blurs(from: Int, to: Int, progress: Double) -> [(radius: Double, opacity: Double)] {
            let state = ShopState(time: 0, count: to, badgeScale: 1, digits: ShopState.DigitTransition(from: from, to: to, progress: progress), flights: [],
                                  buttonPressed: false)
            var found: [(Double, Double)] = []
            func walk(_ items: [DisplayItem]) {
                for item in items {
                    switch item {
                    case .blur(let r, let children):
                        guard case .group(_, let o, _, _)? = children.first, children.count == 1 else { return XCTFail("a blur of one faded glyph") }
                        found.append((r, o))
                    case .group(_, _, _, let children): walk(children)
                    default: break
                    }
                }
            }
            walk(l.displayList(for: state).items)
            return found
        }
        let size = ShopLook.badgeFont.resolved(.large).size
        for p in [0.25, 0.5, 0.8] {
            let found = blurs(from: 9, to: 10, progress: p)
            XCTAssertEqual(found.count, 3, "the 9 leaving, the 1 and the 0 arriving at \(p)")
            for (radius, opacity) in found {
                XCTAssertEqual(radius, ShopLook.digitRollBlurFraction * size * (1 - opacity), accuracy: 1e-12)
            }
            for (o, expected) in zip(found.map(\.opacity).sorted(), [p, p, 1 - p].sorted()) { XCTAssertEqual(o, expected, accuracy: 1e-12) }
        }
        // At the middle of the fade σ is half its peak: 0.55 pt for 11 pt caption2 digits.
        XCTAssertEqual(size, 11)
        for (radius, _) in blurs(from: 9, to: 10, progress: 0.5) { XCTAssertEqual(radius, 0.55, accuracy: 1e-12) }
        for p in [0.0, 1.0, 1.02] { XCTAssertTrue(blurs(from: 9, to: 10, progress: p).isEmpty, "sharp at \(p)") }
        // 10 → 11: the left 1 stays, sharp.
        XCTAssertEqual(blurs(from: 10, to: 11, progress: 0.5).count, 2)
    }

    func testBadgeTextUsesTheLocale() {
        var s = Scene()
        s.locale = "en_US"
        XCTAssertEqual(ShopLayout(scene: s, shop: ShopContent(), measurer: FixedMetrics()).badgeText(1000), "1,000")
        s.locale = "de_DE"
        XCTAssertEqual(ShopLayout(scene: s, shop: ShopContent(), measurer: FixedMetrics()).badgeText(1000), "1.000")
    }

    func testAccessibilityValues() {
        let l = layout(.iPhone16)
        func value(_ count: Int) -> String? {
            let state = ShopState(time: 0, count: count, badgeScale: 1, digits: nil, flights: [], buttonPressed: false)
            return l.accessibility(for: state).cart.value
        }
        XCTAssertEqual(value(1), "1 item")
        XCTAssertEqual(value(0), "0 items")
        XCTAssertEqual(value(3), "3 items")
    }
}

final class ShopLayoutWrappingTests: XCTestCase {
    /// A long title wraps beside the cart icon and pushes the content down, as SwiftUI's Text does.
    func testLongTitleWrapsBesideTheCart() {
        let s = Scene()
        var shop = ShopContent()
        let short = ShopLayout(scene: s, shop: shop, measurer: WrappingMetrics())
        shop.title = "Summer Collection Sale And More"
        let long = ShopLayout(scene: s, shop: shop, measurer: WrappingMetrics())
        XCTAssertEqual(long.titleFrame.width, 345 - long.cartIconFrame.width - 8)
        XCTAssertGreaterThan(long.titleFrame.height, short.titleFrame.height)
        XCTAssertGreaterThan(long.imageContainerFrame.minY, short.imageContainerFrame.minY)
        XCTAssertLessThanOrEqual(long.titleFrame.maxX, long.cartIconFrame.minX)
    }
}

/// The product image's accessibility label: the scene's `imageLabel`, else the product's name
/// (it was "Trail backpack" whatever the product).
final class ProductImageLabelTests: XCTestCase {
    func testTheLabelDefaultsToTheProductName() throws {
        for (json, label) in [(#"{"screen": "shop", "shop": {"productName": "Kettle"}}"#, "Kettle"),
                              (#"{"screen": "shop", "shop": {"productName": "Kettle", "imageLabel": "A steel kettle"}}"#, "A steel kettle")] {
            let scene = try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")
            let shop = try XCTUnwrap(scene.content as? ShopContent)
            let layout = ShopLayout(scene: scene, shop: shop, measurer: FixedMetrics())
            XCTAssertEqual(layout.accessibility(for: layout.timeline().state(at: 0)).productImage.label, label, json)
            guard case .object(let members) = shop.canonicalJSON(image: { _ in .null }) else { return XCTFail("an object") }
            XCTAssertEqual(members.first { $0.0 == "imageLabel" }?.1, .string(label), "the canonical scene names the label read")
        }
    }
}
