import CartRenderRaster
import Foundation
import XCTest

/// PNGs here are built by `TinyPNGWriter` (no libpng), so encoder and decoder are independent.
final class PNGDecoderTests: XCTestCase {
    /// Deterministic bytes from a 32-bit LCG (Numerical Recipes constants), seeded per test.
    private func noise(_ count: Int, seed: UInt32, below limit: Int = 256) -> [Int] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int(state >> 16) % limit
        }
    }

    private func assertDecodes(_ png: TinyPNGWriter, to expected: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        do {
            let image = try PNGDecoder.decode(png.encode())
            XCTAssertEqual(image.width, png.width, file: file, line: line)
            XCTAssertEqual(image.height, png.height, file: file, line: line)
            XCTAssertEqual(image.pixels, expected, file: file, line: line)
        } catch {
            XCTFail("decoding failed: \(error)", file: file, line: line)
        }
    }

    private func assertFails(_ data: [UInt8], kind: ImageDecodingError.Kind, description: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try PNGDecoder.decode(data), file: file, line: line) { error in
            guard let error = error as? ImageDecodingError else {
                return XCTFail("unexpected error type \(error)", file: file, line: line)
            }
            XCTAssertEqual(error.kind, kind, file: file, line: line)
            XCTAssertEqual(error.description, description, file: file, line: line)
        }
    }

    // MARK: Color types and bit depths

    func testRGBA8RoundTripsExactlyIncludingTransparentColors() {
        let samples = noise(7 * 5 * 4, seed: 1)
        let png = TinyPNGWriter(width: 7, height: 5, colorType: .rgba, bitDepth: 8, samples: samples)
        assertDecodes(png, to: samples.map { UInt8($0) })
    }

    func testRGB8GetsOpaqueAlpha() {
        let samples = noise(4 * 3 * 3, seed: 2)
        let png = TinyPNGWriter(width: 4, height: 3, colorType: .rgb, bitDepth: 8, samples: samples)
        var expected: [UInt8] = []
        for p in stride(from: 0, to: samples.count, by: 3) {
            expected += [UInt8(samples[p]), UInt8(samples[p + 1]), UInt8(samples[p + 2]), 255]
        }
        assertDecodes(png, to: expected)
    }

    func testRGBWithColorKeyTransparency() {
        // tRNS for RGB: the 16-bit sample values of the one transparent color.
        let samples = [10, 20, 30, 40, 50, 60]
        var png = TinyPNGWriter(width: 2, height: 1, colorType: .rgb, bitDepth: 8, samples: samples)
        png.transparency = [0, 40, 0, 50, 0, 60]
        assertDecodes(png, to: [10, 20, 30, 255, 40, 50, 60, 0])
    }

    func testPalette2BitWithTransparency() {
        let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (17, 34, 51)]
        let indices = [0, 1, 2, 3, 3, 2, 1, 0, 1]
        var png = TinyPNGWriter(width: 3, height: 3, colorType: .palette, bitDepth: 2, samples: indices)
        png.palette = palette
        png.transparency = [255, 128, 0]  // entry 3 has no tRNS value: opaque
        let alpha: [UInt8] = [255, 128, 0, 255]
        let expected = indices.flatMap { [palette[$0].0, palette[$0].1, palette[$0].2, alpha[$0]] }
        assertDecodes(png, to: expected)
    }

    func testGray1BitExpandsToBlackAndWhite() {
        let bits = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1]  // 10 px wide: a partial last byte per row
        let png = TinyPNGWriter(width: 10, height: 1, colorType: .gray, bitDepth: 1, samples: bits)
        assertDecodes(png, to: bits.flatMap { $0 == 1 ? [255, 255, 255, 255] : [0, 0, 0, 255] })
    }

    func testGray4BitScalesToEightBits() {
        let levels = Array(0..<16)
        let png = TinyPNGWriter(width: 16, height: 1, colorType: .gray, bitDepth: 4, samples: levels)
        assertDecodes(png, to: levels.flatMap { level -> [UInt8] in
            let v = UInt8(level * 17)
            return [v, v, v, 255]
        })
    }

    func testGrayAlpha8() {
        let samples = noise(5 * 2 * 2, seed: 3)
        let png = TinyPNGWriter(width: 5, height: 2, colorType: .grayAlpha, bitDepth: 8, samples: samples)
        var expected: [UInt8] = []
        for p in stride(from: 0, to: samples.count, by: 2) {
            let g = UInt8(samples[p])
            expected += [g, g, g, UInt8(samples[p + 1])]
        }
        assertDecodes(png, to: expected)
    }

    func testRGBA16WithoutGammaIsTakenAsSRGBAndScaledExactly() {
        // v16 = v8 × 257 is the exact 16-bit image of v8; decoding must give v8 back (no linear-light
        // assumption, which libpng's simplified API makes for 16-bit data by default).
        let eight = noise(6 * 4 * 4, seed: 4)
        let png = TinyPNGWriter(width: 6, height: 4, colorType: .rgba, bitDepth: 16, samples: eight.map { $0 * 257 })
        assertDecodes(png, to: eight.map { UInt8($0) })
    }

    func testRGB16AndGray16() {
        let rgb = noise(3 * 3 * 3, seed: 5)
        let rgbPNG = TinyPNGWriter(width: 3, height: 3, colorType: .rgb, bitDepth: 16, samples: rgb.map { $0 * 257 })
        var expected: [UInt8] = []
        for p in stride(from: 0, to: rgb.count, by: 3) {
            expected += [UInt8(rgb[p]), UInt8(rgb[p + 1]), UInt8(rgb[p + 2]), 255]
        }
        assertDecodes(rgbPNG, to: expected)

        let gray = [0, 1, 127, 128, 254, 255]
        let grayPNG = TinyPNGWriter(width: 6, height: 1, colorType: .gray, bitDepth: 16, samples: gray.map { $0 * 257 })
        assertDecodes(grayPNG, to: gray.flatMap { [UInt8($0), UInt8($0), UInt8($0), 255] })
    }

    func testInterlacedDecodesLikeNonInterlaced() {
        let samples = noise(11 * 9 * 4, seed: 6)
        var png = TinyPNGWriter(width: 11, height: 9, colorType: .rgba, bitDepth: 8, samples: samples)
        png.interlaced = true
        assertDecodes(png, to: samples.map { UInt8($0) })
    }

    func testSRGBGammaChunkLeavesSamplesUnchanged() {
        let samples = noise(4 * 4 * 4, seed: 7)
        var png = TinyPNGWriter(width: 4, height: 4, colorType: .rgba, bitDepth: 8, samples: samples)
        png.gamma = 45_455  // 1/2.2, what ImageMagick and most encoders write
        assertDecodes(png, to: samples.map { UInt8($0) })
    }

    /// 8-bit RGBA, the PNGs cartrender writes, are inflated by libdeflate and unfiltered without
    /// libpng: every filter type, image data split over IDAT chunks, an sRGB gamma, all decode to
    /// the samples; 16-bit RGBA beside it (libpng's) too.
    func testEveryRowFilterAndSplitImageDataDecode() {
        let samples = noise(13 * 9 * 4, seed: 21)
        for split in [nil, 1, 50] as [Int?] {
            var png = TinyPNGWriter(width: 13, height: 9, colorType: .rgba, bitDepth: 8, samples: samples)
            png.filters = [0, 1, 2, 3, 4, 4, 3, 2, 1]
            png.idatChunkBytes = split
            png.gamma = 45_455
            assertDecodes(png, to: samples.map { UInt8($0) })
        }
        // The ancillary chunks ImageMagick and others write around such data change no pixel.
        var tagged = TinyPNGWriter(width: 13, height: 9, colorType: .rgba, bitDepth: 8, samples: samples)
        tagged.filters = [2]
        tagged.extraChunks = [("cHRM", [0, 0, 122, 38, 0, 0, 128, 132, 0, 0, 250, 0, 0, 0, 128, 232, 0, 0, 117, 48, 0, 0, 234, 96, 0, 0, 58, 152, 0, 0, 23, 112]), ("bKGD", [0, 255, 0, 255, 0, 255]),
                              ("tIME", [7, 234, 12, 5, 1, 2, 3]), ("tEXt", Array("Software\u{0}test".utf8))]
        assertDecodes(tagged, to: samples.map { UInt8($0) })
        var rgb = TinyPNGWriter(width: 5, height: 4, colorType: .rgb, bitDepth: 8, samples: noise(5 * 4 * 3, seed: 22))
        rgb.filters = [1, 4, 3, 2]
        var expected: [UInt8] = []
        for i in 0..<20 { expected += rgb.samples[(i * 3)..<(i * 3 + 3)].map { UInt8($0) } + [255] }
        assertDecodes(rgb, to: expected)
    }

    /// What the libdeflate path does not decode, libpng does, and says why it cannot: a bad CRC
    /// in the image data, a bad Adler-32, a gamma other than sRGB's (converted by libpng).
    func testWhatTheFastPathRefusesIsLibpngs() {
        let samples = noise(6 * 4 * 4, seed: 23)
        var data = TinyPNGWriter(width: 6, height: 4, colorType: .rgba, bitDepth: 8, samples: samples).encode()
        let iend = data.count - 12
        data[iend - 1] ^= 0xFF  // the IDAT chunk's CRC
        assertFails(data, kind: .corrupt, description: "cannot decode PNG data: corrupt PNG data (libpng: IDAT: CRC error)")
        var bad = TinyPNGWriter(width: 6, height: 4, colorType: .rgba, bitDepth: 8, samples: samples)
        bad.gamma = 100_000  // linear light: libpng converts it to sRGB
        let converted = try? PNGDecoder.decode(bad.encode())
        XCTAssertNotNil(converted)
        XCTAssertNotEqual(converted?.pixels, samples.map { UInt8($0) }, "converted, not passed through")
    }

    // MARK: Bad input

    func testNonPNGDataIsRejected() {
        assertFails(Array("GIF89a, not a PNG at all".utf8), kind: .notPNG,
                    description: "cannot decode PNG data: not a PNG file")
        assertFails([], kind: .notPNG, description: "cannot decode PNG data: not a PNG file")
    }

    func testTruncatedDataIsRejectedWhereverItIsCut() {
        let full = TinyPNGWriter(width: 8, height: 8, colorType: .rgba, bitDepth: 8,
                                 samples: noise(8 * 8 * 4, seed: 8)).encode()
        for length in 1 ..< full.count {
            assertFails(Array(full.prefix(length)), kind: .truncated,
                        description: "cannot decode PNG data: truncated PNG data")
        }
    }

    func testBytesAfterIENDAreTolerated() {
        let samples = noise(2 * 2 * 4, seed: 11)
        let png = TinyPNGWriter(width: 2, height: 2, colorType: .rgba, bitDepth: 8, samples: samples).encode()
        XCTAssertEqual(try PNGDecoder.decode(png + [0, 1, 2]).pixels, samples.map { UInt8($0) })
    }

    func testBadChecksumReportsLibpngsMessage() {
        var data = TinyPNGWriter(width: 2, height: 2, colorType: .rgb, bitDepth: 8, samples: noise(12, seed: 9)).encode()
        data[29] ^= 0xFF  // last byte of the IHDR CRC (8 signature + 4 length + 4 type + 13 data)
        assertFails(data, kind: .corrupt, description: "cannot decode PNG data: corrupt PNG data (libpng: IHDR: CRC error)")
    }

    func testImagesOverTheSizeLimitsAreRefusedBeforeDecoding() {
        var wide = TinyPNGWriter(width: 1, height: 1, colorType: .gray, bitDepth: 8, samples: [0])
        wide.declaredSize = (16_385, 1)
        assertFails(wide.encode(), kind: .tooLarge,
                    description: "cannot decode PNG data: image is 16385×1 px, over the limit of 16384 px a side")

        var big = TinyPNGWriter(width: 1, height: 1, colorType: .gray, bitDepth: 8, samples: [0])
        big.declaredSize = (16_384, 8_193)  // 16384 × 8193 × 4 bytes = 512 MiB + 64 KiB
        assertFails(big.encode(), kind: .tooLarge,
                    description: "cannot decode PNG data: image of 16384×8193 px would take 512 MiB decoded, over the limit of 256 MiB")
    }

    func testDecodingAFileNamesItInErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("PNGDecoderTests-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        let samples = noise(3 * 2 * 4, seed: 10)
        let good = dir.appendingPathComponent("good.png").path
        try Data(TinyPNGWriter(width: 3, height: 2, colorType: .rgba, bitDepth: 8, samples: samples).encode())
            .write(to: URL(fileURLWithPath: good))
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: good).pixels, samples.map { UInt8($0) })

        let text = dir.appendingPathComponent("notes.png").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        XCTAssertThrowsError(try PNGDecoder.decode(contentsOf: text)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .notPNG)
            XCTAssertEqual("\(error)", "cannot decode PNG \(text): not a PNG file")
        }

        let missing = dir.appendingPathComponent("missing.png").path
        XCTAssertThrowsError(try PNGDecoder.decode(contentsOf: missing)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .unreadable)
            XCTAssertEqual("\(error)", "cannot decode PNG \(missing): no such file")
        }
    }

    /// A FIFO (with no writer, opening it would block forever) is refused at once, on another
    /// thread so that a regression fails the test instead of hanging it.
    func testDecodingAFIFOFailsAtOnce() throws {
        let fifo = NSTemporaryDirectory() + "PNGDecoderTests-\(UUID().uuidString).png"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        defer { unlink(fifo) }
        final class Box: @unchecked Sendable { var error: Error? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { _ = try PNGDecoder.decode(contentsOf: fifo) } catch { box.error = error }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "decoding a FIFO did not return within 10 s")
        XCTAssertEqual((box.error as? ImageDecodingError)?.kind, .unreadable)
        XCTAssertEqual(box.error.map { "\($0)" }, "cannot decode PNG \(fifo): is a FIFO (named pipe), not a regular file")
    }
}
