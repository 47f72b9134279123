@testable import CartRenderRaster
import CImageQuant
import XCTest

/// `GIFQuantizer`: a region's own palette holds one transparent entry at most and only the
/// colors used; transparent pixels always get the transparent index, opaque ones never.
final class GIFQuantizerTests: XCTestCase {
    private func rgba(_ pixels: [(UInt8, UInt8, UInt8, UInt8)]) -> [UInt8] { pixels.flatMap { [$0.0, $0.1, $0.2, $0.3] } }

    func testAFullyTransparentRegionIsOneTransparentIndex() throws {
        let q = try GIFQuantizer.quantizeLocal(rgba: rgba(Array(repeating: (9, 9, 9, 0), count: 6)), width: 3, height: 2,
                                               options: GIFOptions(), frameIndex: 0)
        XCTAssertEqual(q.indices, [0, 0, 0, 0, 0, 0])
        XCTAssertEqual(q.transparentIndex, 0)
        XCTAssertEqual(q.localColors, [0, 0, 0, 0, 0, 0])
    }

    func testFewColorsKeepTheirExactValuesAndTransparencyItsOwnIndex() throws {
        let red: (UInt8, UInt8, UInt8, UInt8) = (255, 0, 0, 255), blue: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 255, 255), clear: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let pixels = [red, blue, clear, red, blue, clear]
        let q = try GIFQuantizer.quantizeLocal(rgba: rgba(pixels), width: 3, height: 2, options: GIFOptions(), frameIndex: 0)
        let colors = try XCTUnwrap(q.localColors)
        let transparent = try XCTUnwrap(q.transparentIndex)
        for (p, pixel) in pixels.enumerated() {
            let i = Int(q.indices[p])
            if pixel.3 == 0 {
                XCTAssertEqual(i, transparent, "pixel \(p)")
            } else {
                XCTAssertNotEqual(i, transparent, "pixel \(p)")
                XCTAssertEqual(Array(colors[i * 3..<i * 3 + 3]), [pixel.0, pixel.1, pixel.2], "pixel \(p)")
            }
        }
        XCTAssertEqual(colors.count, 3 * 3, "red, blue and one transparent entry")
    }

    func testCompactDropsUnusedEntriesAndMovesOpaquePixelsOffTransparentEntries() {
        // libimagequant's palette: an unused green, a transparent entry, red. The second pixel is
        // opaque but dithered onto the transparent entry: it takes the nearest opaque color.
        let palette = [liq_color(r: 0, g: 255, b: 0, a: 255), liq_color(r: 0, g: 0, b: 0, a: 0), liq_color(r: 250, g: 0, b: 0, a: 255)]
        let q = GIFQuantizer.compact(liqIndices: [2, 1, 1], palette: palette,
                                     rgba: rgba([(250, 0, 0, 255), (240, 10, 0, 255), (0, 0, 0, 0)]), width: 3, height: 1)
        XCTAssertEqual(q.localColors, [0, 0, 0, 250, 0, 0], "the transparent entry, then red; green is unused")
        XCTAssertEqual(q.transparentIndex, 0)
        XCTAssertEqual(q.indices, [1, 1, 0])
    }

    func testNearestEntryIsTheClosestCandidate() {
        let palette = [liq_color(r: 0, g: 0, b: 0, a: 255), liq_color(r: 200, g: 200, b: 200, a: 255), liq_color(r: 255, g: 0, b: 0, a: 255)]
        XCTAssertEqual(GIFQuantizer.nearestEntry(r: 210, g: 190, b: 205, in: palette, among: [0, 1, 2]), 1)
        XCTAssertEqual(GIFQuantizer.nearestEntry(r: 240, g: 20, b: 0, in: palette, among: [0, 1, 2]), 2)
        XCTAssertEqual(GIFQuantizer.nearestEntry(r: 240, g: 20, b: 0, in: palette, among: [0, 1]), 0, "only among the candidates")
    }
}
