import CartRenderRaster
import XCTest

/// The one conversion between straight and premultiplied alpha, both directions, with the
/// rounding documented at `PixelRows.Format`.
final class PixelRowsTests: XCTestCase {
    /// Straight (c, a) → premultiplied c' = (c · a + 127) / 255: rounded to nearest.
    func testPremultiplyingRoundsToNearest() {
        let table: [(c: UInt8, a: UInt8, expected: UInt8, line: UInt)] = [
            (200, 0, 0, #line),      // transparent: colour is dropped
            (255, 1, 1, #line),      // 255 / 255 = 1
            (128, 1, 1, #line),      // 128 / 255 = 0.502 → 1
            (127, 1, 0, #line),      // 127 / 255 = 0.498 → 0
            (255, 128, 128, #line),  // 32640 / 255 = 128
            (100, 128, 50, #line),   // 12800 / 255 = 50.196 → 50
            (1, 128, 1, #line),      // 128 / 255 = 0.502 → 1
            (37, 64, 9, #line),      // 2368 / 255 = 9.286 → 9
            (200, 255, 200, #line),  // opaque: unchanged
            (0, 255, 0, #line),
        ]
        for row in table {
            let word = premultiplied([row.c, row.c / 2, 255 - row.c, row.a])
            let expectedGreen = UInt8((UInt32(row.c / 2) * UInt32(row.a) + 127) / 255)
            let expectedBlue = UInt8((UInt32(255 - row.c) * UInt32(row.a) + 127) / 255)
            XCTAssertEqual(word >> 24, UInt32(row.a), "alpha of (\(row.c), \(row.a))", line: row.line)
            XCTAssertEqual(UInt8((word >> 16) & 0xFF), row.expected, "red of (\(row.c), \(row.a))", line: row.line)
            XCTAssertEqual(UInt8((word >> 8) & 0xFF), expectedGreen, line: row.line)
            XCTAssertEqual(UInt8(word & 0xFF), expectedBlue, line: row.line)
        }
    }

    /// Premultiplied (c', a) → straight c = min(255, (c' · 255 + a / 2) / a): rounded to nearest,
    /// halves up, as `cairo_surface_write_to_png`.
    func testDividingByAlphaRoundsToNearestHalvesUp() {
        let table: [(c: UInt8, a: UInt8, expected: UInt8, line: UInt)] = [
            (0, 0, 0, #line),        // transparent
            (1, 1, 255, #line),      // 255 / 1
            (0, 1, 0, #line),
            (1, 2, 128, #line),      // 127.5: half up
            (64, 128, 128, #line),   // 16320 / 128 = 127.5 → 128
            (63, 128, 126, #line),   // 16065 / 128 = 125.51 → 126
            (128, 128, 255, #line),  // 32640 / 128 = 255
            (200, 128, 255, #line),  // not valid premultiplied (c' > a): clamped
            (200, 255, 200, #line),  // opaque: unchanged
        ]
        for row in table {
            let word = UInt32(row.a) << 24 | UInt32(row.c) << 16 | UInt32(row.c) << 8 | UInt32(row.c)
            let rgba = straight(word)
            XCTAssertEqual(rgba, [row.expected, row.expected, row.expected, row.a], "(\(row.c), \(row.a))", line: row.line)
        }
    }

    /// Opaque pixels survive a round trip; every alpha keeps its value both ways.
    func testARoundTripIsExactWhereOpaque() {
        for c in 0...255 {
            XCTAssertEqual(straight(premultiplied([UInt8(c), 3, 250, 255])), [UInt8(c), 3, 250, 255])
        }
        for a in 0...255 {
            XCTAssertEqual(straight(premultiplied([255, 255, 255, UInt8(a)]))[3], UInt8(a))
        }
    }

    /// Rows already in the target format are copied as they are, and only `width × 4` bytes of
    /// each row are read and written (padding on either side stays untouched).
    func testCopyingKeepsPaddingAndSameFormatBytes() {
        let source: [UInt8] = [1, 2, 3, 4, 99, 99, 5, 6, 7, 8, 99, 99]  // 1 px rows, 6-byte stride
        var out = [UInt8](repeating: 0xEE, count: 10)                    // 5-byte stride
        source.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                PixelRows(base: src.baseAddress!, width: 1, height: 2, stride: 6, format: .premultipliedARGB32)
                    .copy(to: dst.baseAddress!, stride: 5, format: .premultipliedARGB32)
            }
        }
        XCTAssertEqual(out, [1, 2, 3, 4, 0xEE, 5, 6, 7, 8, 0xEE])
    }

    private func premultiplied(_ rgba: [UInt8]) -> UInt32 {
        var word: UInt32 = 0
        rgba.withUnsafeBytes { src in
            withUnsafeMutableBytes(of: &word) { dst in
                PixelRows(base: src.baseAddress!, width: 1, height: 1, stride: 4, format: .straightRGBA)
                    .copy(to: dst.baseAddress!, stride: 4, format: .premultipliedARGB32)
            }
        }
        return word
    }

    private func straight(_ word: UInt32) -> [UInt8] {
        var word = word
        return withUnsafeBytes(of: &word) { src in
            RGBAImage(PixelRows(base: src.baseAddress!, width: 1, height: 1, stride: 4, format: .premultipliedARGB32)).pixels
        }
    }
}
