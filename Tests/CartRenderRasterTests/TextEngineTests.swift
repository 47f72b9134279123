@testable import CartRenderRaster
import CartRenderCore
import CPango
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

    /// A one-line run truncated at its width (`maxWidth` with `maxLines: 1`) loses the end of
    /// its text in reading order, in both directions: the right-to-left amount keeps the start
    /// of its number. It is drawn within its width in every alignment, and `measure` with the
    /// same width and limit gives the width drawn: the ink spans the measured width, flush with
    /// the edge the alignment names.
    func testTailTruncationIsDrawnWithinItsWidthAndMeasuredAsDrawn() throws {
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        let engine = try TextEngine(fonts: FontEnvironment.shared())
        let font = FontSpec(size: 15, weight: .heavy)
        let arabic = Formatting.currency(Decimal(string: "999999999999.99")!, code: "SAR", locale: "ar_SA")
        let cut = try XCTUnwrap(engine.tailTruncated("$999,999,999,999.99", font: font, width: 60, direction: .leftToRight))
        XCTAssertTrue(cut.hasPrefix("$99") && cut.hasSuffix("…") && cut.count < 19, cut)
        XCTAssertEqual(engine.tailTruncated(arabic, font: font, width: 60, direction: .rightToLeft).map { $0.hasSuffix("…") && !$0.contains("ر") }, true,
                       "the currency, at the end in reading order, goes first")
        XCTAssertNil(engine.tailTruncated("$1.00", font: font, width: 60, direction: .leftToRight), "a text that fits is whole")
        for (text, direction) in [("$999,999,999,999.99", LayoutDirection.leftToRight), (arabic, .rightToLeft)] {
            for alignment in [TextRun.Alignment.leading, .center, .trailing] {
                let width = 60.0, x = 50.0
                let size = rasterizer.measure(text, font: font, maxWidth: width, maxLines: 1)
                XCTAssertEqual(size.height, rasterizer.measure(text, font: font, maxWidth: nil).height, "\(text) \(alignment): one line")
                XCTAssertLessThanOrEqual(size.width, width, "\(text) \(alignment): within its width")
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
                XCTAssertEqual(right - left, size.width, accuracy: 2.5, "\(text) \(alignment): the ink spans the measured width")
                let flushLeft = (alignment == .leading) != direction.isRightToLeft
                if alignment != .center {
                    if flushLeft { XCTAssertEqual(left, x, accuracy: 1.5, "\(text) \(alignment): at the left edge") }
                    else { XCTAssertEqual(right, x + width, accuracy: 1.5, "\(text) \(alignment): at the right edge") }
                }
            }
        }
    }

    /// The first paragraph's direction, found from the text before any line breaking, is the
    /// direction Pango's layout resolves for its first line (which the alignment is swapped
    /// by): strong characters of either direction first, a left-to-right mark, digits and
    /// punctuation only (neutral: the context's), and a neutral first paragraph before a
    /// Hebrew one (right-to-left: the layout starts with the whole text's first strong direction).
    func testFirstParagraphDirectionIsTheLayoutsWithoutLayingOut() throws {
        let engine = try TextEngine(fonts: FontEnvironment.shared())
        let cases: [(String, PangoDirection)] = [
            ("AirPods (2nd gen)!", PANGO_DIRECTION_LTR), ("שלום world", PANGO_DIRECTION_RTL), ("123 שלום", PANGO_DIRECTION_RTL),
            ("\u{200E}١٢٫٥٠ ر.س.", PANGO_DIRECTION_LTR), ("$12.50", PANGO_DIRECTION_NEUTRAL), ("", PANGO_DIRECTION_NEUTRAL),
            ("12\nשלום", PANGO_DIRECTION_RTL), ("12\n34", PANGO_DIRECTION_NEUTRAL), ("مرحبا\nhello", PANGO_DIRECTION_RTL),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(TextEngine.firstParagraphDirection(text), expected, text)
            for direction in [LayoutDirection.leftToRight, .rightToLeft] {
                let made = engine.layout(text, font: font, maxWidth: 100, maxLines: nil, alignment: .leading, direction: direction, newItemsAt: [])
                let resolved = pango_layout_get_line_readonly(made.pointer, 0).map { pango_layout_line_get_resolved_direction($0) }
                let context = direction.isRightToLeft ? PANGO_DIRECTION_RTL : PANGO_DIRECTION_LTR
                XCTAssertEqual(resolved, expected == PANGO_DIRECTION_NEUTRAL ? context : expected, "\(text) in \(direction)")
            }
        }
    }
}
