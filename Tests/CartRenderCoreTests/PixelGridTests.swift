@testable import CartRenderCore
import XCTest

/// Layout frames on the device's pixel grid, as SwiftUI rounds layout (docs/motion-and-look.md, “Pixel grid”).
final class PixelGridTests: XCTestCase {
    func testRoundedToPixelsTable() {
        let table: [(Rect, Double, Rect)] = [
            (Rect(x: 68.4, y: 10.1, width: 42, height: 38.05), 3, Rect(x: 205.0 / 3, y: 10, width: 42, height: 115.0 / 3)),
            (Rect(x: 0.25, y: 0.75, width: 10.5, height: 1), 2, Rect(x: 0.5, y: 1, width: 10.5, height: 1)),
            (Rect(x: 0.5, y: 1.49, width: 2, height: 2), 1, Rect(x: 1, y: 1, width: 2, height: 2)),
            (Rect(x: 0.3, y: 0.3, width: 0.1, height: 0.1), 2.5, Rect(x: 0.4, y: 0.4, width: 0.4, height: 0.4)),
            (Rect(x: 0, y: 0, width: 0.1 * 3, height: 40.8), 10, Rect(x: 0, y: 0, width: 0.3, height: 40.8)),
            (Rect(x: 16, y: 134, width: 130, height: 130), 3, Rect(x: 16, y: 134, width: 130, height: 130)),
        ]
        for (r, scale, expected) in table {
            let rounded = r.roundedToPixels(scale: scale)
            for (a, b) in [(rounded.x, expected.x), (rounded.y, expected.y), (rounded.width, expected.width), (rounded.height, expected.height)] {
                XCTAssertEqual(a, b, accuracy: 1e-9, "\(r) at \(scale)")
            }
        }
    }

    private func onGrid(_ r: Rect, _ scale: Double, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for v in [r.minX, r.minY, r.maxX, r.maxY] {
            XCTAssertEqual((v * scale).rounded(), v * scale, accuracy: 1e-6, "\(what) edge \(v) pt at \(scale)x", file: file, line: line)
        }
    }

    /// The shop's frames at each device scale: the header's fractional centering (largeTitle
    /// 40.8 pt beside the 38 pt cart icon) lands on pixel edges.
    func testShopFramesAreOnThePixelGrid() {
        for scale in [1.0, 2, 3, 2.5] {
            var s = Scene()
            s.device.scale = scale
            let l = ShopLayout(scene: s, shop: ShopContent(), measurer: FixedMetrics())
            for (frame, name) in [(l.titleFrame, "title"), (l.cartIconFrame, "cart icon"), (l.cartSymbolFrame, "cart symbol"),
                                  (l.imageContainerFrame, "image container"), (l.buttonFrame, "button"), (l.buttonIconFrame, "button icon"),
                                  (l.buttonTitleFrame, "button title"), (l.nameFrame, "name"), (l.descriptionFrame, "description")] {
                onGrid(frame, scale, name)
            }
        }
        // At 3x the cart icon's top, 59 + 8 + (40.8 − 37) / 2 = 68.9 pt, rounds to 207 px.
        var s = Scene()
        s.device.scale = 3
        XCTAssertEqual(ShopLayout(scene: s, shop: ShopContent(), measurer: FixedMetrics()).cartIconFrame.minY * 3, 207, accuracy: 1e-9)
    }

    /// The cart page at a fractional scale and on a screen of fractional width.
    func testCartFramesAreOnThePixelGrid() {
        for scale in [2.5, 3] {
            var s = Scene()
            s.device = Device(name: nil, width: 393.3, height: 852, scale: scale, safeAreaTop: 59.2, safeAreaBottom: 34)
            var cart = CartContent()
            cart.items = [CartItem(id: "a", name: "A", details: "", image: .symbol("bag.fill"), price: 1, quantity: 3)]
            s.content = cart
            let l = CartLayout(scene: s, cart: cart, measurer: FixedMetrics())
            for (frame, name) in [(l.chevronFrame, "chevron"), (l.titleFrame, "title"), (l.totalLabelFrame, "Total"),
                                  (l.rows[0].imageFrame, "image"), (l.rows[0].priceFrame, "price"), (l.rows[0].trashFrame, "trash")] {
                onGrid(frame, scale, name)
            }
        }
    }
}
