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
}
