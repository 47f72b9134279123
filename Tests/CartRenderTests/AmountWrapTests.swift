@testable import CartRender
@testable import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// Amounts across the Dynamic Type sizes and on a 320 pt screen (an iPhone SE under Display
/// Zoom), with the real fonts: seed 003's texts have no `lineLimit`, so nothing is cut for
/// lack of width. Prices, quantities and the total wrap in their share of their `HStack`
/// (`HStackSizing`) where they used to end in "…" ("$…", "$4…", "$100.…", an empty quantity box).
/// The one exception is SwiftUI's vertical sharing: where the root `VStack` offers the bottom
/// area less height than its texts need (accessibility3 and larger on an iPhone 16), those texts
/// are cut to the lines that fit, ending in "…" (`VStackSizing`; heights in CartStackSharingTests).
final class AmountWrapTests: XCTestCase {
    private static let narrow = #"{"width": 320, "height": 568, "scale": 2, "safeArea": {"top": 20, "bottom": 0}}"#

    /// `example` with `extra` members added at its top level; a `"device"` or `"colorScheme"`
    /// among them replaces the example's.
    private func scene(_ example: String, _ extra: String) throws -> Scene {
        let url = CartGoldenTests.examples.appendingPathComponent(example)
        var text = try String(contentsOf: url, encoding: .utf8)
        if extra.contains("\"device\"") { text = text.replacingOccurrences(of: "\"device\": \"iphone-16\",", with: "") }
        if extra.contains("\"colorScheme\"") { text = text.replacingOccurrences(of: "\"colorScheme\": \"light\",", with: "") }
        text = text.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 1, \(extra),")
        return try SceneDecoder.decode(Array(text.utf8), file: example, baseDirectory: CartGoldenTests.examples.path)
    }

    /// The variants: accessibility3, accessibility5 and xxxLarge on an iPhone 16, the 320 pt
    /// screen in English, Hebrew and Arabic (right to left, dark), and accessibility3 in dark.
    private var variants: [(String, Scene)] {
        get throws {
            [
                ("accessibility3", try scene("cart-swipe.json", #""dynamicTypeSize": "accessibility3""#)),
                ("accessibility5", try scene("cart-swipe.json", #""dynamicTypeSize": "accessibility5""#)),
                ("xxxLarge", try scene("cart-swipe.json", #""dynamicTypeSize": "xxxLarge""#)),
                ("320 pt", try scene("cart-swipe.json", #""device": \#(Self.narrow)"#)),
                ("320 pt, he_IL", try scene("cart-rtl-he.json", #""device": \#(Self.narrow)"#)),
                ("320 pt, ar_SA, dark", try scene("cart-rtl-ar.json", #""device": \#(Self.narrow), "colorScheme": "dark""#)),
                ("accessibility3, dark", try scene("cart-swipe.json", #""dynamicTypeSize": "accessibility3", "colorScheme": "dark""#)),
            ]
        }
    }

    /// Every text run is drawn whole: where it has a line limit (the lines that fit a height),
    /// its text needs no more lines than that, no run's box is narrower than its widest
    /// character, and the audit finds no truncation. The one exception, at accessibility3 and
    /// larger: the bottom area's texts are cut to the lines its share of the page holds — and
    /// there at least one of them is cut, and the audit reports it.
    func testNoAmountEndsInAnEllipsis() throws {
        for (what, s) in try variants {
            let worker = try Renderer(scene: s).makeWorker()
            guard let cart = s.content as? CartContent else { return XCTFail("a cart scene") }
            let layout = CartLayout(scene: s, cart: cart, measurer: worker.rasterizer)
            let stackShared = s.dynamicTypeSize >= .accessibility3
            for t in [0, 0.75, 1.5] {
                let frame = worker.model.frame(at: t)
                let runs = FrameAuditor.textRuns(in: frame.display.items)
                XCTAssertTrue(runs.contains { $0.run.text == layout.currency(layout.timeline().state(at: t).total) }, "\(what) at \(t): the total is drawn")
                if layout.listFrame.height >= layout.rows[0].height {
                    XCTAssertTrue(runs.contains { $0.run.text == layout.currency(cart.items[0].price) }, "\(what) at \(t): the first row's price is drawn")
                }
                // The bottom area's texts (below the list), which the stack may cut to its share.
                func inBottomArea(_ placed: FrameAuditor.PlacedText) -> Bool {
                    placed.transform.apply(placed.run.origin).y >= layout.listFrame.maxY
                }
                var cutInBottomArea: [String] = []
                for placed in runs {
                    let r = placed.run
                    if let limit = r.maxLines {
                        let cut = worker.rasterizer.measure(r.text, font: r.font, maxWidth: r.maxWidth, maxLines: limit)
                        let whole = worker.rasterizer.measure(r.text, font: r.font, maxWidth: r.maxWidth, maxLines: nil)
                        if stackShared && inBottomArea(placed) {
                            if cut.height < whole.height - 0.5 { cutInBottomArea.append(r.text) }
                        } else {
                            XCTAssertEqual(cut.height, whole.height, accuracy: 0.5, "\(what) at \(t): \(r.text) is not cut at \(limit) lines")
                        }
                    }
                    if let w = r.maxWidth {
                        XCTAssertGreaterThanOrEqual(w, worker.rasterizer.minimumWidth(r.text, font: r.font) - 1e-6, "\(what) at \(t): \(r.text) fits its box")
                    }
                }
                let findings = try FrameAuditor(worker: worker).audit(frame.display, state: frame.state, level: .aa)
                let truncated = findings.filter { $0.kind == .truncation }.map(\.subject)
                let bottomTexts = Set(runs.filter(inBottomArea).map(\.run.text))
                XCTAssertEqual(truncated.filter { !(stackShared && bottomTexts.contains($0)) }, [],
                               "\(what) at \(t): nothing truncated but the bottom area's share")
                if stackShared {
                    XCTAssertFalse(cutInBottomArea.isEmpty, "\(what) at \(t): the bottom area's share cuts a text")
                    XCTAssertFalse(truncated.filter(bottomTexts.contains).isEmpty, "\(what) at \(t): the audit reports the bottom area's cut")
                }
            }
        }
    }

    /// On the 320 pt screen the one-digit quantity keeps its box's width (it is the least
    /// flexible text of the row) and its digit is drawn: the box has ink; the price wraps in
    /// what is left, beside the stepper, and its row grows to hold it.
    func testTheQuantityShowsOnANarrowScreen() throws {
        for example in ["cart-swipe.json", "cart-rtl-he.json", "cart-rtl-ar.json"] {
            let s = try scene(example, #""device": \#(Self.narrow)"#)
            guard let cart = s.content as? CartContent else { return XCTFail("a cart scene") }
            let worker = try Renderer(scene: s).makeWorker()
            let layout = CartLayout(scene: s, cart: cart, measurer: worker.rasterizer)
            let m = layout.rows[0]
            let stepper = layout.stepperFrames(quantity: cart.items[0].quantity, metrics: m)
            let quantityText = worker.rasterizer.measure(layout.quantityText(cart.items[0].quantity), font: layout.font(CartLook.quantityFont), maxWidth: nil)
            XCTAssertGreaterThanOrEqual(stepper.quantity.width, quantityText.width + 2 * CartLook.quantityPaddingH, "\(example): the box holds its digit")
            let top = layout.slots(for: layout.timeline().state(at: 0))[0].y
            let box = Rect(x: stepper.quantity.x, y: top + stepper.quantity.y, width: stepper.quantity.width, height: stepper.quantity.height)
            let image = try worker.image(at: 0)
            let scale = s.device.scale
            var ink = 0
            for y in Int((box.minY + 2) * scale)..<Int((box.maxY - 2) * scale) {
                for x in Int((box.minX + 2) * scale)..<Int((box.maxX - 2) * scale) where image[x, y].r < 100 && image[x, y].g < 100 {
                    ink += 1
                }
            }
            XCTAssertGreaterThan(ink, 40, "\(example): the quantity's digit is drawn in its box")
            // The price wraps in its share beside the stepper: taller than a line, never past it.
            let price = layout.currency(cart.items[0].price)
            let oneLine = worker.rasterizer.measure(price, font: layout.font(CartLook.priceFont), maxWidth: nil)
            XCTAssertGreaterThan(m.priceFrame.height, oneLine.height, "\(example): the price wraps")
            if s.layoutDirection.isRightToLeft {
                XCTAssertGreaterThanOrEqual(m.priceFrame.minX + 1e-9, stepper.plus.maxX + CartLook.controlSpacing, "\(example): beside the stepper")
            } else {
                XCTAssertLessThanOrEqual(m.priceFrame.maxX, stepper.minus.minX - CartLook.controlSpacing + 1e-9, "\(example): beside the stepper")
            }
            XCTAssertGreaterThanOrEqual(m.height, m.controlsFrame.maxY + CartLook.padding, "\(example): the row holds the price")
        }
    }
}
