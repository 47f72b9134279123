import CartRenderRaster
import Foundation
import XCTest

/// The striped PNG writer: valid PNGs with the right pixels, and the same bytes whether stripes
/// come from the cache or are compressed again, in any frame order.
final class PNGEncoderTests: XCTestCase {
    /// Deterministic RGBA noise from a 32-bit LCG, seeded per image.
    private func noise(width: Int, height: Int, seed: UInt32) -> RGBAImage {
        var state = seed
        let pixels = (0..<width * height * 4).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// A flat UI-like frame: a background, a bar, and a `size` px square at (x, y).
    private func frame(width: Int = 60, height: Int = 150, squareAt x: Int, _ y: Int, size: Int = 9) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for py in 0..<height {
            for px in 0..<width {
                var c: [UInt8] = py < 20 ? [240, 240, 245, 255] : [255, 255, 255, 255]
                if (x..<x + size).contains(px) && (y..<y + size).contains(py) { c = [0, 122, 255, 200] }
                image.pixels.replaceSubrange((py * width + px) * 4..<(py * width + px) * 4 + 4, with: c)
            }
        }
        return image
    }

    func testEveryCompressionRoundTripsAtStripeBoundarySizes() throws {
        // Heights around the 32-row stripe: one row, a partial stripe, exact stripes, one past.
        for (width, height) in [(1, 1), (7, 31), (5, 32), (3, 33), (9, 64), (4, 97)] {
            let image = noise(width: width, height: height, seed: UInt32(width * 1000 + height))
            for compression in PNGEncoder.Compression.allCases {
                let decoded = try PNGDecoder.decode(try PNGEncoder.encode(image, compression: compression))
                XCTAssertEqual(decoded, image, "\(width)×\(height) px, \(compression)")
            }
        }
    }

    func testStripesFromTheCacheGiveTheSameBytesInAnyOrder() throws {
        // The square crosses stripe boundaries (rows 31/32, 63/64) and sits on them.
        let frames = [(5, 5), (8, 25), (11, 28), (14, 31), (14, 31), (20, 56), (25, 63), (30, 100), (30, 128), (5, 5)]
            .map { frame(squareAt: $0.0, $0.1) }
        let expected = try frames.map { try PNGEncoder.encode($0) }
        for order in [Array(frames.indices), frames.indices.reversed(), [3, 0, 9, 1, 8, 2, 7, 4, 6, 5]] {
            let cache = PNGStripeCache(depth: 2)
            for i in order {
                let bytes = try frames[i].withRows { try PNGEncoder.encode($0, reusing: cache) }
                XCTAssertEqual(bytes, expected[i], "frame \(i) in order \(order)")
            }
            XCTAssertGreaterThan(cache.statistics.reused, 0, "order \(order)")
        }
    }

    /// A cache smaller than a frame drops its oldest stripes: memory stays under the limit and
    /// the bytes do not change.
    func testACacheOverItsByteLimitDropsTheOldestStripes() throws {
        let frames = [(5, 5), (8, 25), (5, 5), (30, 100), (5, 5)].map { frame(squareAt: $0.0, $0.1) }
        // Five stripes a frame (150 rows); room for six of 33 rows × 60 px.
        let limit = 6 * 33 * 60 * 4
        let cache = PNGStripeCache(depth: 3, byteLimit: limit)
        for f in frames {
            let bytes = try f.withRows { try PNGEncoder.encode($0, reusing: cache) }
            XCTAssertEqual(bytes, try PNGEncoder.encode(f))
            XCTAssertLessThanOrEqual(cache.statistics.bytesHeld, limit)
        }
        XCTAssertGreaterThan(cache.statistics.reused, 0, "stripes of the previous frame are still reused")
        XCTAssertGreaterThan(cache.statistics.compressed, 6, "more stripes were added than the cache holds")
    }

    func testAStripeIsNotReusedWhenOnlyTheRowAboveItChanged() throws {
        // Row 31 is the last row of stripe 0 and the Up filter's reference for stripe 1's first row.
        let a = frame(squareAt: 40, 23), b = frame(squareAt: 40, 31, size: 1)
        let cache = PNGStripeCache()
        _ = try a.withRows { try PNGEncoder.encode($0, reusing: cache) }
        let bytes = try b.withRows { try PNGEncoder.encode($0, reusing: cache) }
        XCTAssertEqual(bytes, try PNGEncoder.encode(b))
        XCTAssertEqual(try PNGDecoder.decode(bytes), b)
    }

    func testACacheOnlyServesImagesOfTheSizeAndCompressionItStartedWith() throws {
        let cache = PNGStripeCache()
        let wide = frame(width: 61, squareAt: 5, 5), small = frame(squareAt: 5, 5)
        _ = try small.withRows { try PNGEncoder.encode($0, reusing: cache) }
        for (image, compression) in [(wide, PNGEncoder.Compression.default), (small, .fast), (small, .default)] {
            let bytes = try image.withRows { try PNGEncoder.encode($0, compression: compression, reusing: cache) }
            XCTAssertEqual(bytes, try PNGEncoder.encode(image, compression: compression))
        }
        XCTAssertEqual(cache.statistics.reused, 5, "only the last image, 150 rows = 5 stripes, reuses")
    }

    func testPremultipliedRowsAreDividedByAlphaWithRounding() throws {
        // Cairo ARGB32 words (alpha high byte, premultiplied colour) → straight RGBA.
        let table: [(word: UInt32, rgba: [UInt8])] = [
            (0xFF10_2030, [0x10, 0x20, 0x30, 0xFF]), // opaque: unchanged
            (0x0000_0000, [0, 0, 0, 0]),             // transparent
            (0x8040_2000, [128, 64, 0, 128]),        // (64 × 255 + 64) / 128 = 128
            (0x0101_0101, [255, 255, 255, 1]),       // (1 × 255 + 0) / 1
            (0x7F7F_0000, [255, 0, 0, 127]),         // full red at half alpha
            (0x4020_1008, [128, 64, 32, 64]),        // (32 × 255 + 32) / 64 = 128
        ]
        var words = table.map(\.word)
        let expected = RGBAImage(width: table.count, height: 1, pixels: table.flatMap(\.rgba))
        try words.withUnsafeMutableBytes { buf in
            let rows = PixelRows(base: UnsafeRawPointer(buf.baseAddress!), width: table.count, height: 1,
                                 stride: buf.count, format: .premultipliedARGB32)
            XCTAssertEqual(RGBAImage(rows), expected)
            for compression in PNGEncoder.Compression.allCases {
                let bytes = try PNGEncoder.encode(rows, compression: compression)
                XCTAssertEqual(bytes, try PNGEncoder.encode(expected, compression: compression), "\(compression)")
                XCTAssertEqual(try PNGDecoder.decode(bytes), expected, "\(compression)")
            }
        }
    }

    /// Opaque rows are filtered straight from Cairo's words (the filter commutes with the byte
    /// order swap); a row that is translucent, or lies below one, is divided by alpha first.
    /// Both give the bytes of encoding the straight image, and decode to it.
    func testPremultipliedRowsBesideTranslucentRowsFilterLikeStraightRows() throws {
        let width = 7, height = 70
        var state: UInt32 = 11
        var words: [UInt32] = []
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let color = state >> 8 & 0xFF_FFFF
                switch y % 9 {
                case 4 where x == 3: words.append(0x8040_2000)                  // one translucent pixel
                case 7: words.append(0)                                          // a transparent row
                default: words.append(0xFF00_0000 | color)                      // opaque, any colour
                }
            }
        }
        try words.withUnsafeMutableBytes { buf in
            let rows = PixelRows(base: UnsafeRawPointer(buf.baseAddress!), width: width, height: height,
                                 stride: width * 4, format: .premultipliedARGB32)
            let straight = RGBAImage(rows)
            for compression in PNGEncoder.Compression.allCases {
                let bytes = try PNGEncoder.encode(rows, compression: compression)
                XCTAssertEqual(bytes, try PNGEncoder.encode(straight, compression: compression), "\(compression)")
                XCTAssertEqual(try PNGDecoder.decode(bytes), straight, "\(compression)")
            }
        }
    }

    func testRowsWithPaddingAreReadWithoutIt() throws {
        // A stride wider than the row (as Cairo may use) must not leak padding into the image.
        let image = noise(width: 3, height: 40, seed: 7)
        var padded = [UInt8](repeating: 0xEE, count: 40 * 16)
        for y in 0..<40 { padded.replaceSubrange(y * 16..<y * 16 + 12, with: image.pixels[y * 12..<y * 12 + 12]) }
        let bytes = try padded.withUnsafeBytes {
            try PNGEncoder.encode(PixelRows(base: $0.baseAddress!, width: 3, height: 40, stride: 16, format: .straightRGBA))
        }
        XCTAssertEqual(bytes, try PNGEncoder.encode(image))
    }

    /// A palette PNG where the image has at most 256 colors (palette in order of first
    /// appearance, tRNS only for translucent colors), RGBA beyond: either way the same pixels.
    func testIndexedEncodingIsLosslessAndFallsBackPast256Colors() throws {
        var few = RGBAImage(width: 40, height: 30, pixels: [UInt8](repeating: 255, count: 40 * 30 * 4))
        for i in 0..<(40 * 30) where i % 7 == 0 { few.pixels[i * 4] = UInt8(i % 200); few.pixels[i * 4 + 3] = i % 3 == 0 ? 128 : 255 }
        let png = try PNGEncoder.encodeIndexed(few)
        XCTAssertEqual(png[25], 3, "color type 3")
        XCTAssertEqual(try PNGDecoder.decode(png), few)
        XCTAssertEqual(try PNGEncoder.encodeIndexed(few), png, "same pixels, same bytes")
        let opaque = RGBAImage(width: 3, height: 1, pixels: [255, 0, 0, 255, 9, 9, 9, 255, 255, 0, 0, 255])
        let small = try PNGEncoder.encodeIndexed(opaque)
        XCTAssertNil(small.firstRange(of: Array("tRNS".utf8)), "no tRNS for opaque colors")
        XCTAssertEqual(try PNGDecoder.decode(small), opaque)
        let many = noise(width: 40, height: 30, seed: 5)
        let rgba = try PNGEncoder.encodeIndexed(many)
        XCTAssertEqual(rgba[25], 6, "over 256 colors: RGBA")
        XCTAssertEqual(try PNGDecoder.decode(rgba), many)
    }
}
