@testable import CartRenderRaster
import CartRenderCore
import XCTest

/// The cart page's root `VStack { header; ScrollView; bottom area }` shares the safe area's
/// height as SwiftUI's stack does (`VStackSizing`): least flexible child first, each offered its
/// share of what is left; the bottom area's texts truncate to the lines its share holds. The
/// expected heights are computed here by hand from the line heights.
final class CartStackSharingTests: XCTestCase {
    /// Seed 003's five items (a total of $441.98), with symbol images.
    static let seedItems = #"[{"id": "tek1", "name": "Tek Product 1", "details": "Gift", "image": "symbol:bag.fill", "price": "10.00", "quantity": 1}, {"id": "tek2", "name": "Tek Product 2", "details": "Gift", "image": "symbol:bag.fill", "price": "90.99", "quantity": 2}, {"id": "tek3", "name": "Tek Product 3", "details": "Gift", "image": "symbol:bag.fill", "price": "100.00", "quantity": 1}, {"id": "tek4", "name": "Tek Product 4", "details": "Royal", "image": "symbol:bag.fill", "price": "50.00", "quantity": 1}, {"id": "tek5", "name": "Tek Product 5", "details": "Royal", "image": "symbol:bag.fill", "price": "100.00", "quantity": 1}]"#

    private func layout(_ size: DynamicTypeSize) throws -> (CartLayout, FrameRasterizer) {
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        let json = #"{"screen": "cart", "dynamicTypeSize": "\#(size.rawValue)", "cart": {"items": \#(Self.seedItems)}}"#
        let scene = try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")
        return (CartLayout(scene: scene, cart: try XCTUnwrap(scene.content as? CartContent), measurer: rasterizer), rasterizer)
    }

    /// One line (pt, rounded up) of a 28 pt Jost heavy text at `size`.
    private func line(_ size: DynamicTypeSize, _ r: FrameRasterizer) -> Double {
        r.measure("0", font: CartLook.totalFont.resolved(size).family(.jost), maxWidth: nil).height.rounded(.up)
    }

    /// accessibility5 on the iPhone 16 (safe area 852 − 59 − 34 = 759 pt, two spacings of 8 pt):
    /// the header (one title line, padded 16 + 16) is the least flexible and takes its height;
    /// the bottom area is offered half of the rest, less than its least height (the total line's
    /// 16 pt padding and one line, 8 pt, "Check out"'s one line padded 16 + 16), and takes that
    /// least height; the list takes the rest — about 277 pt, where it had 24–46 pt.
    func testAccessibility5() throws {
        let (l, r) = try layout(.accessibility5)
        let line = line(.accessibility5, r)
        let header = 16 + line + 16
        let bottom = 16 + line + 8 + (line + 32)
        XCTAssertGreaterThan(bottom, (759 - 16 - header) / 2, "offered less than its least height")
        let list = 759 - 16 - header - bottom
        XCTAssertEqual(l.listFrame.height, list, accuracy: 1, "the list")
        XCTAssertEqual(l.listFrame.height, 277, accuracy: 3, "about 277 pt, SwiftUI's")
        XCTAssertEqual(l.checkoutFrame.height, line + 32, accuracy: 1, "Check out on one line")
        XCTAssertEqual(l.checkoutFrame.maxY, 852 - 34, accuracy: 0.5)
        XCTAssertEqual(l.titleMaxLines, 1)
        let total = l.totalLine(for: l.timeline().state(at: 0))
        XCTAssertEqual(total.maxLines, 1, "the total truncates to one line")
    }

    /// accessibility3: the bottom area is offered half of what the header leaves, more than its
    /// least height; inside it "Check out" (one line, inflexible) takes its height first and the
    /// total line gets the rest, which holds one line of the total (it wanted two): "…". The
    /// list is about 369 pt (it was 274 pt, the total on two lines).
    func testAccessibility3() throws {
        let (l, r) = try layout(.accessibility3)
        let line = line(.accessibility3, r)
        let header = 16 + line + 16
        let offer = (759 - 16 - header) / 2
        let checkout = line + 32
        let totalRoom = offer - 8 - checkout - 16
        XCTAssertLessThan(totalRoom, 2 * line, "room for one line of the total only")
        let bottom = 16 + line + 8 + checkout
        XCTAssertEqual(l.listFrame.height, 759 - 16 - header - bottom, accuracy: 1, "the list")
        XCTAssertEqual(l.listFrame.height, 369, accuracy: 3, "about 369 pt, SwiftUI's")
        let total = l.totalLine(for: l.timeline().state(at: 0))
        XCTAssertEqual(total.maxLines, 1)
        XCTAssertEqual(total.list, l.listFrame, "the total line does not grow over the list")
        let runs = textRuns(l.displayList(for: l.timeline().state(at: 0)).items)
        let drawn = try XCTUnwrap(runs.first { $0.text == total.text })
        XCTAssertEqual(drawn.maxLines, 1)
        XCTAssertEqual(r.measure(drawn.text, font: drawn.font, maxWidth: drawn.maxWidth, maxLines: drawn.maxLines).height.rounded(.up), line,
                       "one line, ending in …")
    }
}
