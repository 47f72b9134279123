import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// Text at the extremes with the real fonts: prices and totals are drawn whole, whatever the
/// quantity (docs/scene-file.md, “Limits”): one line where they fit their share of the row,
/// else wrapped in it (seed 003 sets no `lineLimit`), never cut with "…".
final class ExtremeValuesTests: XCTestCase {
    private func scene(_ example: String, locale: String? = nil) throws -> Scene {
        var s = try SceneDecoder.load(path: CartGoldenTests.examples.appendingPathComponent(example).path, overrides: SceneOverrides(scale: 1))
        if let locale { s.locale = locale; s.layoutDirection = LayoutDirection(locale: locale) }
        return s
    }

    /// Every price in view and the total, as drawn at `t`, are whole: one line when they fit
    /// their width, else wrapped in it to every line they need (as tall as the text measured
    /// at that width without a line limit), no line wider than the width.
    private func assertAmountsWhole(_ scene: Scene, at t: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let cart = scene.content as? CartContent else { return XCTFail("a cart scene", file: file, line: line) }
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        let layout = CartLayout(scene: scene, cart: cart, measurer: rasterizer)
        let state = layout.timeline().state(at: t)
        let amounts = Set(cart.items.map { layout.currency($0.price) } + [layout.currency(state.total)])
        var runs: [TextRun] = []
        func collect(_ items: [DisplayItem]) {
            for item in items {
                switch item {
                case .text(let run) where amounts.contains(run.text): runs.append(run)
                case .group(_, _, _, let children): collect(children)
                default: break
                }
            }
        }
        collect(layout.displayList(for: state).items)
        XCTAssertTrue(runs.contains { $0.text == layout.currency(state.total) }, "the total is drawn", file: file, line: line)
        XCTAssertGreaterThan(runs.count, 1, "and prices of the rows in view", file: file, line: line)
        for run in runs {
            let one = rasterizer.measure(run.text, font: run.font, maxWidth: nil)
            let drawn = rasterizer.measure(run.text, font: run.font, maxWidth: run.maxWidth, maxLines: run.maxLines)
            let whole = rasterizer.measure(run.text, font: run.font, maxWidth: run.maxWidth, maxLines: nil)
            XCTAssertEqual(drawn.height, whole.height, "\(run.text) not cut", file: file, line: line)
            if let w = run.maxWidth {
                if one.width <= w + 1e-9 { XCTAssertEqual(drawn.height, one.height, "\(run.text) on one line where it fits", file: file, line: line) }
                XCTAssertLessThanOrEqual(drawn.width, w + 1e-9, "\(run.text) drawn within its width", file: file, line: line)
            } else {
                XCTAssertEqual(drawn.height, one.height, "\(run.text) on one line", file: file, line: line)
            }
        }
    }

    func testMillionQuantitiesAndHugePricesKeepAmountsWhole() throws {
        let s = try scene("cart-extremes.json")
        try assertAmountsWhole(s, at: 0)
        try assertAmountsWhole(s, at: 1)
    }

    /// ar_SA prices end in "ر.س.": with Arabic-Indic digits and separators they are drawn whole,
    /// on one line where they fit, wrapped where they do not.
    func testArabicRiyalPricesAreDrawnWhole() throws {
        try assertAmountsWhole(scene("cart-rtl-ar.json"), at: 0)
        var s = try scene("cart-extremes.json", locale: "ar_SA")
        guard var cart = s.content as? CartContent else { return XCTFail("a cart scene") }
        cart.currencyCode = "SAR"
        s.content = cart
        try assertAmountsWhole(s, at: 1)
    }

    /// The quantity of 1,000,000 row, after the plus taps that stop at the limit.
    func testMillionQuantityRow() throws {
        let renderer = try Renderer(scene: scene("cart-extremes.json"))
        try Golden.assertMatches(renderer.makeWorker().image(at: 1), named: "cart-extremes-1.000")
    }
}
