@testable import CartRenderRaster
import CartRenderCore
import XCTest

/// The add button's title is drawn whole at every text size: the lines the raster layer draws
/// for it are the lines that sized the button (one measurement for layout and drawing), so
/// every word of "Add to Cart" is drawn, inside the button (seed 000's `Label` has no line limit).
final class AddButtonTitleTests: XCTestCase {
    /// Every Dynamic Type size, the three devices at 2x and 3x, and a 1400 pt wide screen: the
    /// drawn lines hold the title's words in order, and there are no more of them than the
    /// title's box is tall (a line more would be drawn below it, white on the page).
    func testEveryWordOfTheTitleIsDrawnInsideTheButton() throws {
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        let wide = Device(name: nil, width: 1400, height: 900, scale: 2, safeAreaTop: 20, safeAreaBottom: 20)
        for device in [Device.iPhone16, .iPhone16ProMax, .iPhoneSE, wide] {
            for scale in [2.0, 3.0] {
                for size in DynamicTypeSize.allCases {
                    let json = #"{"screen": "shop", "dynamicTypeSize": "\#(size.rawValue)"}"#
                    var scene = try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")
                    scene.device = Device(name: device.name, width: device.width, height: device.height, scale: scale,
                                          safeAreaTop: device.safeAreaTop, safeAreaBottom: device.safeAreaBottom)
                    let shop = try XCTUnwrap(scene.content as? ShopContent)
                    let layout = ShopLayout(scene: scene, shop: shop, measurer: rasterizer)
                    let runs = textRuns(layout.displayList(for: layout.timeline().state(at: 0)).items).filter { $0.text == shop.buttonTitle }
                    let what = "\(device.name ?? "1400 pt") @\(Int(scale))x \(size.rawValue)"
                    let run = try XCTUnwrap(runs.first, "\(what): the title is drawn")
                    let lines = rasterizer.text.drawnLines(run).map(\.text)
                    let drawnWords = lines.flatMap { $0.split(separator: " ").map(String.init) }
                    XCTAssertEqual(drawnWords, shop.buttonTitle.split(separator: " ").map(String.init), "\(what): \(lines)")
                    let lineHeight = rasterizer.measure("A", font: run.font, maxWidth: nil).height
                    XCTAssertLessThanOrEqual(Double(lines.count) * lineHeight, layout.buttonTitleFrame.height + 1e-6, "\(what): \(lines) in the box")
                    XCTAssertLessThanOrEqual(layout.buttonTitleFrame.maxY, layout.buttonFrame.maxY + 1e-6, "\(what): in the button")
                }
            }
        }
    }
}

/// Every text run of `items`, groups included, back to front.
func textRuns(_ items: [DisplayItem]) -> [TextRun] {
    items.flatMap { item -> [TextRun] in
        switch item {
        case .text(let run): return [run]
        case .group(_, _, _, let children): return textRuns(children)
        default: return []
        }
    }
}

/// The add button's title box takes the width of the lines drawn in it (a `Text`'s frame is its
/// measured size): Pango picks a line's break from the unbroken text's glyphs and shapes the
/// line again, a fraction of a point wider than the width it was broken in (and a line it ends
/// with a space counts the space), and that line is inside the box, not cut by it. Before, the
/// box was clamped to the width the lines were broken in and such lines overflowed it by up to
/// 0.4 pt (at 2x, "Add to Cart" on a 127 pt screen at `large`: "dd " 68…89.002, box 68…89).
final class AddButtonTitleFitTests: XCTestCase {
    /// Titles: the seed's, a long Latin one that wraps between words, one word too long for a
    /// line (broken between characters), Japanese (no spaces) and Arabic (right to left).
    static let titles: [(title: String, locale: String)] = [
        ("Add to Cart", "en_US"),
        ("Add this wonderful product to your shopping cart right now", "en_US"),
        ("Supercalifragilisticexpialidocious", "en_US"),
        ("カートに追加して今すぐ購入手続きへ進む", "ja_JP"),
        ("أضف هذا المنتج إلى سلة التسوق الآن", "ar_SA"),
    ]

    /// What of the title's drawn lines is outside its box or the button: a line's logical
    /// extents (where its alignment puts it) outside the title's box or the button, its ink
    /// outside the button (more than 1e-9 pt), or the box outside the button. The ink may reach
    /// past the box as glyphs reach past their advance: an Arabic letter broken off its word
    /// keeps its joining stroke, up to 1.7 pt beyond the line's logical edge.
    private func overflows(title: String, locale: String, width: Double, size: DynamicTypeSize, scale: Double,
                           rasterizer: FrameRasterizer) throws -> [String] {
        let json = #"{"screen": "shop", "locale": "\#(locale)", "dynamicTypeSize": "\#(size.rawValue)", "#
            + #""device": {"width": \#(width), "height": 900, "scale": \#(scale), "safeArea": {"top": 20, "bottom": 0}}, "#
            + #""shop": {"buttonTitle": "\#(title)"}}"#
        let scene = try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")
        let shop = try XCTUnwrap(scene.content as? ShopContent)
        let layout = ShopLayout(scene: scene, shop: shop, measurer: rasterizer)
        let what = "\(title.prefix(12)) on \(width) pt @\(Int(scale))x \(size.rawValue)"
        guard let run = textRuns(layout.displayList(for: layout.timeline().state(at: 0)).items).first(where: { $0.text == title }) else {
            return layout.buttonTitlePlacement == nil ? [] : ["\(what): placed but not drawn"]
        }
        let box = layout.buttonTitleFrame, button = layout.buttonFrame
        func outside(_ a: Double, _ b: Double, _ r: Rect) -> Bool { a < r.minX - 1e-9 || b > r.maxX + 1e-9 }
        var out: [String] = []
        if outside(box.minX, box.maxX, button) { out.append("\(what): box \(box.minX)…\(box.maxX) outside the button \(button.minX)…\(button.maxX)") }
        for line in rasterizer.text.drawnLines(run) {
            let minX = run.origin.x + line.x, maxX = minX + line.width
            let inkMin = run.origin.x + line.inkX, inkMax = inkMin + line.inkWidth
            if outside(minX, maxX, box) || outside(minX, maxX, button) {
                out.append("\(what): line \"\(line.text)\" \(minX)…\(maxX) outside its box \(box.minX)…\(box.maxX) (button \(button.minX)…\(button.maxX))")
            }
            if line.inkWidth > 0 && outside(inkMin, inkMax, button) {
                out.append("\(what): ink of \"\(line.text)\" \(inkMin)…\(inkMax) outside the button \(button.minX)…\(button.maxX)")
            }
        }
        return out
    }

    /// Every Dynamic Type size, the five titles, screens from 100 to 430 pt (9 pt apart, and
    /// the three devices' widths) at 2x, and every 27 pt at 3x.
    func testTitleLinesStayInTheirBoxAndTheButton() throws {
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        let widths2x = Array(stride(from: 100.0, through: 430, by: 9)) + [Device.iPhoneSE.width, Device.iPhone16.width, Device.iPhone16ProMax.width]
        let widths3x = Array(stride(from: 100.0, through: 430, by: 27))
        var problems: [String] = []
        for (title, locale) in Self.titles {
            for size in DynamicTypeSize.allCases {
                for width in widths2x { problems += try overflows(title: title, locale: locale, width: width, size: size, scale: 2, rasterizer: rasterizer) }
                for width in widths3x { problems += try overflows(title: title, locale: locale, width: width, size: size, scale: 3, rasterizer: rasterizer) }
            }
        }
        XCTAssertTrue(problems.isEmpty, "\(problems.count) overflows:\n" + problems.prefix(20).joined(separator: "\n"))
    }
}
