@testable import CartRenderRaster
import CartRenderCore
import XCTest

/// Text attributes as iOS resolves them: the price's typeface, natural paragraph direction,
/// the bold faces of Devanagari and Thai; and the symbols' and corners' metrics as drawn.
final class TextFidelityTests: XCTestCase {
    private func rasterizer() throws -> FrameRasterizer {
        try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
    }

    private func cartLayout(_ json: String, measurer: any TextMeasuring) throws -> CartLayout {
        let scene = try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")
        return CartLayout(scene: scene, cart: try XCTUnwrap(scene.content as? CartContent), measurer: measurer)
    }

    /// The price is the system font's stand-in (Inter), `.subheadline` heavy: the seed's first
    /// `.font(.subheadline)` wins over its later `.custom("Jost-Bold", size: 15)` (was Jost).
    func testThePriceIsTheSystemFontSubheadlineHeavy() throws {
        let layout = try cartLayout(#"{"screen": "cart", "cart": {"items": \#(CartStackSharingTests.seedItems)}}"#, measurer: rasterizer())
        let prices = Set(layout.items.map { layout.currency($0.price) })
        let runs = textRuns(layout.displayList(for: layout.timeline().state(at: 0)).items).filter { prices.contains($0.text) }
        XCTAssertFalse(runs.isEmpty)
        for run in runs {
            XCTAssertEqual(run.font.family, .system, run.text)
            XCTAssertEqual(run.font.familyName, "Inter", run.text)
            XCTAssertEqual(run.font.size, 15, run.text)
            XCTAssertEqual(run.font.weight, .heavy, run.text)
        }
        let name = try XCTUnwrap(textRuns(layout.displayList(for: layout.timeline().state(at: 0)).items).first { $0.text == layout.items[0].name })
        XCTAssertEqual(name.font.family, .jost, "the names stay in the cart's family")
    }

    /// Natural paragraph direction: a name whose first strong character is Latin is a
    /// left-to-right paragraph in an Arabic layout ("!" at its end), still right-aligned
    /// (alignment follows the layout); an Arabic name is right to left; a text with no strong
    /// character takes the layout's direction; fa_IR's amount, led by a left-to-right mark, is
    /// left to right. In a left-to-right layout an Arabic name keeps the left edge.
    func testParagraphDirectionIsNatural() throws {
        let engine = try rasterizer().text
        let font = FontSpec(size: 18, weight: .semibold, family: .jost)
        func line(_ text: String, _ direction: LayoutDirection) throws -> TextEngine.DrawnLine {
            try XCTUnwrap(engine.drawnLines(TextRun(text, font: font, color: .black, origin: .zero, maxWidth: 300, direction: direction)).first)
        }
        let airPods = try line("AirPods (2nd gen)!", .rightToLeft)
        XCTAssertEqual(airPods.direction, .leftToRight)
        XCTAssertEqual(airPods.x + airPods.width, 300, accuracy: 0.01, "right-aligned in the Arabic layout")
        XCTAssertEqual(try line("سماعات AirPods", .rightToLeft).direction, .rightToLeft)
        XCTAssertEqual(try line("123 (45)", .rightToLeft).direction, .rightToLeft, "no strong character: the layout's")
        XCTAssertEqual(try line("123 (45)", .leftToRight).direction, .leftToRight)
        let amount = Formatting.currency(10, code: "IRR", locale: "fa_IR")
        XCTAssertEqual(amount.unicodeScalars.first, "\u{200E}")
        XCTAssertEqual(try line(amount, .rightToLeft).direction, .leftToRight, amount)
        let arabic = try line("سماعات AirPods", .leftToRight)
        XCTAssertEqual(arabic.direction, .rightToLeft)
        XCTAssertEqual(arabic.x, 0, accuracy: 0.01, "left-aligned in a left-to-right layout")
    }

    /// Ink (summed alpha) of `text` drawn black on clear at 2x.
    private func ink(_ text: String, _ font: FontSpec) throws -> Int {
        let list = DisplayList(size: Size(width: 200, height: 100), background: .clear,
                               items: [.text(TextRun(text, font: font, color: .black, origin: Point(x: 10, y: 10)))])
        let image = try rasterizer().rasterize(list, scale: 2)
        return stride(from: 3, to: image.pixels.count, by: 4).reduce(0) { $0 + Int(image.pixels[$1]) }
    }

    /// Bold Devanagari and Thai are drawn from their Bold faces: their strokes are wider
    /// (more ink) than the regular ones (they were the Regular face at every weight).
    func testDevanagariAndThaiHaveBold() throws {
        for text in ["हिन्दी", "ภาษาไทย"] {
            let regular = try ink(text, FontSpec(size: 30, weight: .regular))
            let bold = try ink(text, FontSpec(size: 30, weight: .bold))
            XCTAssertGreaterThan(Double(bold), Double(regular) * 1.2, "\(text): bold \(bold), regular \(regular)")
        }
        let files = try FontEnvironment.shared().files.map(\.path)
        XCTAssertTrue(files.contains { $0.hasSuffix("/NotoSansDevanagari-Bold.ttf") }, "listed in the manifest")
        XCTAssertTrue(files.contains { $0.hasSuffix("/NotoSansThai-Bold.ttf") }, "listed in the manifest")
    }

    /// The ink box (pt) of what `items` draw on a clear canvas at 4x: columns and rows with any
    /// pixel more than half covered.
    private func inkBox(_ items: [DisplayItem], size: Size) throws -> Rect {
        let scale = 4.0
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: [.symbol("cart.fill")]))
        let image = try rasterizer.rasterize(DisplayList(size: size, background: .clear, items: items), scale: scale)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels[(y * image.width + x) * 4 + 3] > 127 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return Rect(x: Double(minX) / scale, y: Double(minY) / scale, width: Double(maxX - minX + 1) / scale, height: Double(maxY - minY + 1) / scale)
    }

    /// `cart.fill` at `.title2` (22 pt) has SF Symbols' ink, 26.4 × 20.9 pt (to the half point
    /// its whole-point box allows; it was 20.7 × 20.7).
    func testCartFillHasSFSymbolsInk() throws {
        let box = ShopLayout.symbolSize(FontSpec(size: 22), of: .symbol("cart.fill"))
        let ink = try inkBox([.image(ImageDraw(source: .symbol("cart.fill"), frame: Rect(x: 10, y: 10, width: box.width, height: box.height), tint: .black))],
                             size: Size(width: 60, height: 50))
        XCTAssertEqual(ink.width, 26.4, accuracy: 0.5, "\(ink)")
        XCTAssertEqual(ink.height, 20.9, accuracy: 0.5, "\(ink)")
    }

    /// The stepper's minus and plus have 15 pt layout boxes (SF Symbols at 16 pt heavy), not 19.
    func testStepperSymbolsHaveFifteenPointBoxes() throws {
        let layout = try cartLayout(#"{"screen": "cart", "cart": {"items": \#(CartStackSharingTests.seedItems)}}"#, measurer: rasterizer())
        let stepper = layout.stepperFrames(quantity: layout.items[0].quantity, metrics: layout.rows[0])
        XCTAssertEqual(stepper.minus.width, 15)
        XCTAssertEqual(stepper.plus.width, 15)
        XCTAssertEqual(stepper.quantity.minX - stepper.minus.maxX, CartLook.controlSpacing, accuracy: 0.5)
    }

    /// The image container is drawn with continuous corners: 0.875 pt below its top edge the
    /// fill starts 22.5 pt in from its left edge, 1.125 pt below 21.3 pt (the reference curve;
    /// a circular arc: 21.1 and 20.1 pt).
    func testTheContainersCornerIsDrawnContinuous() throws {
        let frame = Rect(x: 10, y: 10, width: 120, height: 100)
        let image = try rasterizer().rasterize(DisplayList(size: Size(width: 140, height: 120), background: .clear,
                                                           items: [.fill(.continuousRoundedRect(frame, radius: 28), .color(.black))]), scale: 4)
        /// The inset (pt) of the fill in the pixel row whose center is `depth` pt below the top.
        func inset(depth: Double) -> Double {
            let y = Int((frame.minY + depth) * 4 - 0.5)
            var covered = 0.0
            for x in 0..<(image.width / 2) { covered += Double(image.pixels[(y * image.width + x) * 4 + 3]) / 255 }
            return Double(image.width / 2) / 4 - covered / 4 - frame.minX
        }
        XCTAssertEqual(inset(depth: 0.875), 22.55, accuracy: 0.3)
        XCTAssertEqual(inset(depth: 1.125), 21.32, accuracy: 0.3)
    }
}
