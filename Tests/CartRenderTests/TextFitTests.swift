@testable import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// Text at the extremes with the real fonts (issue 12 item 7): no text run's box, measured as it
/// is drawn (its width, line limit and alignment), runs past the screen's left or right edge, or
/// on the cart page below the screen outside the clipping list; the rows' texts stay inside their rows; and the
/// shop's add button keeps its label on a 100 pt screen at accessibility5.
final class TextFitTests: XCTestCase {
    private func scene(_ json: String) throws -> Scene {
        try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: CartGoldenTests.examples.path)
    }

    private static let long66 = String(repeating: "Grand total of everything ", count: 3).prefix(66)
    private static let extremeItems = #"""
        [{"id": "a", "name": "\#(String(repeating: "Supercalifragilistic", count: 500))", "details": "Gift", "image": "images/tek1.svg", "price": "999999999999.99", "quantity": 1000000},
         {"id": "b", "name": "Paper clips", "details": "By the million", "image": "images/tek5.svg", "price": "0.01", "quantity": 999999}]
        """#

    /// Cart scenes at the extremes: a 10,000-character name, a 1,000,000 quantity, a huge price,
    /// 66-character labels, at accessibility5, right to left in ar_SA, on narrow screens.
    private var extremeScenes: [(String, String)] {
        let labels = #""totalLabel": "\#(Self.long66)", "checkoutTitle": "\#(Self.long66)""#
        func cart(_ extra: String, device: String = #""iphone-16""#, type: String = "large") -> String {
            #"{"screen": "cart", "device": \#(device), "dynamicTypeSize": "\#(type)", \#(extra) "cart": {\#(labels), "items": \#(Self.extremeItems)}}"#
        }
        return [
            ("labels and a long name", cart("")),
            ("accessibility5", cart("", type: "accessibility5")),
            ("ar_SA", cart(#""locale": "ar_SA", "#)),
            ("iPhone SE", cart("", device: #""iphone-se""#)),
            ("100 pt", cart("", device: #"{"width": 100, "height": 600, "scale": 2, "safeArea": {"top": 20, "bottom": 0}}"#)),
        ]
    }

    /// The boxes (screen pt) of the frame's text runs at rest, and the clip each is drawn in.
    private func boxes(_ s: Scene, at t: Double) throws -> [(text: String, box: Rect, clip: Rect?)] {
        let worker = try Renderer(scene: s).makeWorker()
        let display = worker.model.frame(at: t).display
        return FrameAuditor.textRuns(in: display.items).map { placed in
            let r = placed.run
            let size = worker.rasterizer.measure(r.text, font: r.font, maxWidth: r.maxWidth, maxLines: r.maxLines)
            return (String(r.text.prefix(30)), placed.transform.boundingBox(of: FrameAuditor.textBox(r, size: size)), placed.screenClip)
        }
    }

    /// Shop scenes with 66-character texts, at the default size and on a 100 pt screen at accessibility5.
    private var extremeShopScenes: [(String, String)] {
        let texts = #""title": "\#(Self.long66)", "buttonTitle": "\#(Self.long66)", "productName": "\#(String(repeating: "W", count: 10_000))""#
        return [
            ("shop, long texts", #"{"shop": {\#(texts)}}"#),
            ("shop, 100 pt, accessibility5", #"{"device": {"width": 100, "height": 700, "scale": 2, "safeArea": {"top": 20, "bottom": 0}}, "dynamicTypeSize": "accessibility5", "shop": {\#(texts)}}"#),
            ("shop, ar_SA", #"{"locale": "ar_SA", "shop": {\#(texts)}}"#),
        ]
    }

    func testNoTextRunsPastTheScreen() throws {
        for (what, json) in extremeScenes + extremeShopScenes {
            let s = try scene(json)
            let runs = try boxes(s, at: 0)
            XCTAssertFalse(runs.isEmpty, what)
            for run in runs {
                XCTAssertGreaterThanOrEqual(run.box.minX, -0.5, "\(what): \(run.text) starts inside the screen")
                XCTAssertLessThanOrEqual(run.box.maxX, s.device.width + 0.5, "\(what): \(run.text) ends inside the screen (\(run.box))")
                let bottom = min(s.device.height, run.clip?.maxY ?? s.device.height)
                // The shop's name and description are in a scroll view: they may run below the screen.
                if run.clip == nil, s.content is CartContent {
                    XCTAssertLessThanOrEqual(run.box.maxY, bottom + 0.5, "\(what): \(run.text) above the screen's bottom")
                }
            }
        }
    }

    /// The rows' texts and stepper inside their rows and the screen's width; the bottom area
    /// below the header.
    func testRowTextsStayInTheirRows() throws {
        for (what, json) in extremeScenes {
            let s = try scene(json)
            guard let cart = s.content as? CartContent else { return XCTFail("a cart scene") }
            let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
            let l = CartLayout(scene: s, cart: cart, measurer: rasterizer)
            let width = s.device.width
            for (i, m) in l.rows.enumerated() {
                for (frame, name) in [(m.nameFrame, "name"), (m.detailsFrame, "details"), (m.priceFrame, "price"), (m.controlsFrame, "controls")] {
                    XCTAssertGreaterThanOrEqual(frame.minY, 0, "\(what) row \(i) \(name)")
                    XCTAssertLessThanOrEqual(frame.maxY, m.height, "\(what) row \(i) \(name) inside the row")
                }
                if m.priceFrame.width > 0 {
                    XCTAssertGreaterThanOrEqual(m.priceFrame.minX, 0, "\(what) row \(i): price")
                    XCTAssertLessThanOrEqual(m.priceFrame.maxX, width + 1e-9, "\(what) row \(i): price")
                }
                let stepper = l.stepperFrames(quantity: cart.items[i].quantity, metrics: m)
                XCTAssertLessThanOrEqual(stepper.quantity.width, m.quantityWidth + 1e-9, "\(what) row \(i): the box within its share")
            }
            let line = l.totalLine(for: l.timeline().state(at: 0))
            XCTAssertGreaterThanOrEqual(line.label.minY, l.titleFrame.maxY, "\(what): the bottom area below the header")
        }
    }

    /// A 66-character "Total" used to be one line 1,982 pt wide, clipped at both edges, then two
    /// lines ending in "…": it wraps, whole, in its share beside the whole total (the less
    /// flexible of the two); the button's title wraps too, in the lines the bottom area's share
    /// of the page leaves it (the seed sets no `lineLimit`; SwiftUI's VStack sharing cuts it).
    func testLongTotalLabelWrapsInItsShare() throws {
        let s = try scene(#"{"screen": "cart", "cart": {"totalLabel": "\#(Self.long66)", "checkoutTitle": "\#(Self.long66)"}}"#)
        guard let cart = s.content as? CartContent else { return XCTFail("a cart scene") }
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        let l = CartLayout(scene: s, cart: cart, measurer: rasterizer)
        let line = l.totalLine(for: l.timeline().state(at: 0))
        let total = rasterizer.measure(line.text, font: CartLook.totalFont.resolved(.large).family(cart.font), maxWidth: nil)
        let f = CartLook.totalFont.resolved(.large).family(cart.font)
        XCTAssertEqual(line.value.width, total.width, "the total keeps its width")
        let whole = rasterizer.measure(l.labels.total, font: f, maxWidth: line.label.width, maxLines: nil)
        XCTAssertEqual(line.label.height, whole.height.rounded(.up), accuracy: 1e-9, "every line of the label")
        XCTAssertEqual(whole.height / rasterizer.measure("0", font: f, maxWidth: nil).height, 4, accuracy: 1e-9, "four lines, no longer cut at two")
        XCTAssertEqual(line.maxLines, 4, "the share of the page holds them")
        XCTAssertLessThanOrEqual(line.label.maxX + 2 * CartLook.stackSpacing, line.value.minX + 1e-9)
        // The button's title gets what the bottom area's share of the page holds (SwiftUI's
        // VStack sharing, CartStackSharingTests): here two lines of the 66 characters' three,
        // cut with "…", its box as wide as the button's inner width, the lines centered in it.
        let checkoutFont = CartLook.checkoutFont.resolved(.large).family(cart.font)
        let checkoutWidth = l.checkoutFrame.width
        let checkoutLines = rasterizer.measure(l.labels.checkout, font: checkoutFont, maxWidth: checkoutWidth, maxLines: nil).height
            / rasterizer.measure("0", font: checkoutFont, maxWidth: nil).height
        XCTAssertEqual(checkoutLines, 3, accuracy: 1e-9, "the whole title: three lines")
        XCTAssertEqual(l.checkoutMaxLines, 2, "its share: two")
        let cut = rasterizer.measure(l.labels.checkout, font: checkoutFont, maxWidth: checkoutWidth, maxLines: 2)
        XCTAssertEqual(l.checkoutTitleFrame.height, cut.height.rounded(.up), accuracy: 1e-9, "two lines tall")
        XCTAssertEqual(l.checkoutTitleFrame.width, checkoutWidth, accuracy: 1e-9, "as wide as the button's inner width")
        XCTAssertEqual(l.checkoutTitleFrame.midX, l.checkoutFrame.midX, accuracy: 1e-9)
        let run = FrameAuditor.textRuns(in: l.displayList(for: l.timeline().state(at: 0)).items).last { $0.run.text == l.labels.checkout }?.run  // "Total" has the same text; the button is drawn last
        XCTAssertEqual(run?.alignment, .center)
        XCTAssertEqual(run?.maxLines, 2)
        XCTAssertEqual(run?.maxWidth, l.checkoutTitleFrame.width)
    }

    /// On a 100 pt wide screen at accessibility5 the add button's icon alone is wider than the
    /// button: its title has no room to show, yet the button is labelled by it (VoiceOver reads a
    /// `Label`'s title whatever its layout), and nothing is drawn outside the screen. On 240 pt the
    /// title wraps inside the button, to as many lines as it needs.
    func testAddButtonTitleTruncatesInsideTheButton() throws {
        for width in [100, 240] {
            let s = try scene(#"{"device": {"width": \#(width), "height": 700, "scale": 2, "safeArea": {"top": 20, "bottom": 0}}, "dynamicTypeSize": "accessibility5"}"#)
            let worker = try Renderer(scene: s).makeWorker()
            let frame = worker.model.frame(at: 0)
            let findings = try FrameAuditor(worker: worker).audit(frame.display, state: frame.state, level: .aa)
            XCTAssertFalse(findings.contains { $0.kind == .label && $0.subject == "add button" }, "\(width) pt: labelled")
            XCTAssertFalse(findings.contains { $0.detail == "clipped" }, "\(width) pt: nothing clipped: \(findings.map(\.subject))")
            guard let shop = s.content as? ShopContent else { return XCTFail("a shop scene") }
            let layout = ShopLayout(scene: s, shop: shop, measurer: worker.rasterizer)
            let title = FrameAuditor.textRuns(in: frame.display.items).first { $0.run.text == shop.buttonTitle }
            if width == 100 {
                XCTAssertNil(title, "no room for the title")
                XCTAssertNil(layout.buttonTitlePlacement, "no placement for it either")
            } else {
                let run = try XCTUnwrap(title).run
                XCTAssertNil(run.maxLines, "no line limit")
                // The run is the one placed at layout: its width the title's share, its lines
                // leading-aligned (it wraps).
                let placement = try XCTUnwrap(layout.buttonTitlePlacement)
                XCTAssertEqual(run.origin, placement.origin)
                XCTAssertEqual(run.maxWidth, placement.wrapWidth)
                XCTAssertEqual(run.alignment, .leading)
                XCTAssertEqual(placement.alignment, .leading)
                let size = worker.rasterizer.measure(run.text, font: run.font, maxWidth: run.maxWidth, maxLines: run.maxLines)
                let box = FrameAuditor.textBox(run, size: size)
                XCTAssertGreaterThanOrEqual(box.minX, layout.buttonFrame.minX, "inside the button")
                XCTAssertLessThanOrEqual(box.maxX, layout.buttonFrame.maxX, "inside the button")
            }
        }
    }

    /// One extreme cart row: a 10,000-character name, a 1,000,000 quantity and a huge price,
    /// with 66-character labels.
    func testExtremeRowGolden() throws {
        var s = try scene(#"{"screen": "cart", "cart": {"totalLabel": "\#(Self.long66)", "checkoutTitle": "\#(Self.long66)", "items": \#(Self.extremeItems)}}"#)
        s.device.scale = 1
        try Golden.assertMatches(Renderer(scene: s).makeWorker().image(at: 0), named: "cart-extreme-row-0.000")
    }
}
