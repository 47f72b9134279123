@testable import CartRenderRaster
import CartRenderCore
import Foundation
import XCTest

/// Text layout in time linear in the text's length: a run too long for its line is broken into
/// pieces first (`TextEngine.pieceStarts`), with the same lines as Pango's own layout. (How
/// long the longest word takes is a line of `cartrender-bench`.)
final class TextEngineTests: XCTestCase {
    let font = FontSpec(size: 17)

    /// A word longer than its line: the layout with pieces has the size of Pango's own layout
    /// (same lines, same widths), one piece per line after the first.
    func testALongWordHasPangosLines() throws {
        let engine = try TextEngine(fonts: FontEnvironment.shared())
        for (text, width) in [(String(repeating: "a", count: 2000), 353.0), (String(repeating: "WAVE", count: 300), 120),
                              ("Twenty liters " + String(repeating: "é", count: 700) + " and light", 353)] {
            let pangos = engine.size(text, font: font, maxWidth: width, maxLines: nil, newItemsAt: [])
            XCTAssertEqual(engine.measure(text, font: font, maxWidth: width), pangos, "\(text.prefix(20))… at \(width) pt")
            let lines = Int((pangos.height / engine.measure("a", font: font, maxWidth: nil).height).rounded())
            let word = text.unicodeScalars.count > 1000 ? lines : lines - 2
            XCTAssertEqual(engine.pieceStarts(text, font: font, maxWidth: width).count, word - 1, "one piece per line of the word")
        }
    }

    /// Texts without a run of more than 64 characters that has no break opportunity are laid
    /// out as Pango lays them out, without pieces: their frames do not change.
    func testOrdinaryTextsHaveNoPieces() throws {
        let engine = try TextEngine(fonts: FontEnvironment.shared())
        let words = (0..<1000).map { ["light", "enough", "for", "every", "day,", "Twenty-liter"][$0 % 6] }.joined(separator: " ")
        for text in [words, "Twenty liters, water resistant and light enough for every day.", String(repeating: "x", count: 64)] {
            XCTAssertEqual(engine.pieceStarts(text, font: font, maxWidth: 100), [], String(text.prefix(20)))
        }
    }

    /// A one-line run truncated at its width (`maxWidth` with `maxLines: 1`, Pango's end
    /// ellipsis) is drawn within that width, in both directions and every alignment, and
    /// `measure` with the same width and limit gives the box that is drawn: Pango widens the
    /// "…" glyph to fill the gap it leaves, so a truncated line is exactly `maxWidth` wide and
    /// starts at its leading edge whatever the alignment; the "…" ink ends a few points before
    /// the trailing edge (the widened glyph's blank).
    func testTailTruncationIsDrawnWithinItsWidthAndMeasuredAsDrawn() throws {
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        let font = FontSpec(size: 15, weight: .heavy)
        for (text, direction) in [("$999,999,999,999.99", LayoutDirection.leftToRight), ("\u{200F}٩٩٩٬٩٩٩٬٩٩٩٬٩٩٩٫٩٩ ر.س.\u{200F}", .rightToLeft)] {
            for alignment in [TextRun.Alignment.leading, .center, .trailing] {
                let width = 60.0, x = 50.0
                let size = rasterizer.measure(text, font: font, maxWidth: width, maxLines: 1)
                XCTAssertEqual(size.height, rasterizer.measure(text, font: font, maxWidth: nil).height, "\(text) \(alignment): one line")
                XCTAssertEqual(size.width, width, "\(text) \(alignment): the truncated line fills its width")
                let run = TextRun(text, font: font, color: .black, origin: Point(x: x, y: 5), maxWidth: width, alignment: alignment, maxLines: 1,
                                  direction: direction)
                let image = try rasterizer.rasterize(DisplayList(size: Size(width: 160, height: 40), background: .white, items: [.text(run)]), scale: 2)
                var columns: [Int] = []
                for px in 0..<image.width {
                    let inked = (0..<image.height).contains { py in image.pixels[(py * image.width + px) * 4] < 200 }
                    if inked { columns.append(px) }
                }
                let left = Double(columns.min() ?? 0) / 2, right = Double((columns.max() ?? 0) + 1) / 2
                XCTAssertGreaterThanOrEqual(left, x - 0.5, "\(text) \(alignment): no ink left of the box")
                XCTAssertLessThanOrEqual(right, x + width + 0.5, "\(text) \(alignment): no ink right of the box")
                // The text starts at its leading edge (side bearing aside) and the ink covers most of the box.
                if direction.isRightToLeft { XCTAssertEqual(right, x + width, accuracy: 1.5, "\(text) \(alignment)") }
                else { XCTAssertEqual(left, x, accuracy: 1.5, "\(text) \(alignment)") }
                XCTAssertGreaterThan(right - left, width - 8, "\(text) \(alignment): the ink spans the box but for the … glyph's blank")
            }
        }
    }
}
