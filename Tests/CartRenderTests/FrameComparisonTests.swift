import CartRender
import CartRenderCore
import CartRenderRaster
import XCTest

/// The comparison of one expected frame with one actual frame, on PNG bytes as `verify` sees them.
final class FrameComparisonTests: XCTestCase {
    private func image(_ pixels: TestPixels) -> RGBAImage {
        RGBAImage(width: pixels.width, height: pixels.height, pixels: pixels.bytes)
    }

    private func png(_ pixels: TestPixels) throws -> [UInt8] { try PNGEncoder.encode(image(pixels)) }

    private let navy: (UInt8, UInt8, UInt8) = (20, 30, 90)
    private let white: (UInt8, UInt8, UInt8) = (255, 255, 255)

    func testIdenticalBytesPassWithoutDecoding() throws {
        let bytes = try png(TestImages.noise(width: 30, height: 20, seed: 7))
        let c = try FrameComparison.compare(expected: bytes, actual: bytes, options: ComparisonOptions())
        XCTAssertEqual(c.status, .pass)
        XCTAssertTrue(c.byteEqual)
        XCTAssertEqual(c.result, DiffResult(differingPixels: 0, antialiasedPixels: 0, totalPixels: 600))
        XCTAssertEqual(c.expectedSize, PixelSize(width: 30, height: 20))
    }

    func testByteEqualFastPathDoesNotDecode() throws {
        // Equal bytes that libpng would reject (a bad CRC in IDAT) still pass: nothing was decoded.
        var bytes = try png(TestImages.noise(width: 8, height: 8, seed: 3))
        bytes[bytes.count - 20] ^= 0xFF
        XCTAssertThrowsError(try PNGDecoder.decode(bytes))
        let c = try FrameComparison.compare(expected: bytes, actual: bytes, options: ComparisonOptions())
        XCTAssertEqual(c.status, .pass)
        XCTAssertTrue(c.byteEqual)
    }

    func testSamePixelsInDifferentBytesPass() throws {
        let pixels = TestImages.rectangles(width: 40, height: 30, count: 5, seed: 11)
        let a = try PNGEncoder.encode(image(pixels), compression: .fast)
        let b = try PNGEncoder.encode(image(pixels), compression: .small)
        XCTAssertNotEqual(a, b)
        let c = try FrameComparison.compare(expected: a, actual: b, options: ComparisonOptions())
        XCTAssertEqual(c.status, .pass)
        XCTAssertFalse(c.byteEqual)
        XCTAssertEqual(c.result?.differingPixels, 0)
    }

    func testOnePixelChangeFails() throws {
        let first = TestPixels(width: 9, height: 9, fill: (240, 240, 240, 255))
        var second = first
        second[4, 4] = (10, 10, 10, 255)
        let c = try FrameComparison.compare(expected: png(first), actual: png(second), options: ComparisonOptions(), keepImages: true)
        XCTAssertEqual(c.status, .fail)
        XCTAssertEqual(c.result, DiffResult(differingPixels: 1, antialiasedPixels: 0, totalPixels: 81))
        let diff = try XCTUnwrap(c.images?.diff)
        XCTAssertTrue(diff[4, 4] == (255, 0, 0, 255), "the differing pixel is red in the diff image")
        XCTAssertEqual(diff[0, 0].r, diff[0, 0].g, "the rest is gray")
        XCTAssertGreaterThan(diff[0, 0].r, 200, "and faded")
    }

    func testAntialiasedEdgeShiftedByOnePixelPassesOnlyWithDetection() throws {
        let first = try png(TestImages.verticalEdge(width: 40, height: 20, edgeX: 20.5, color: navy, background: white))
        let second = try png(TestImages.verticalEdge(width: 40, height: 20, edgeX: 21.5, color: navy, background: white))

        let detected = try FrameComparison.compare(expected: first, actual: second, options: ComparisonOptions(), keepImages: true)
        XCTAssertEqual(detected.status, .pass)
        XCTAssertEqual(detected.result, DiffResult(differingPixels: 0, antialiasedPixels: 40, totalPixels: 800))
        XCTAssertTrue(detected.images == nil, "no images are kept for a passing frame")

        let counted = try FrameComparison.compare(expected: first, actual: second, options: ComparisonOptions(includeAA: true), keepImages: true)
        XCTAssertEqual(counted.status, .fail)
        XCTAssertEqual(counted.result?.differingPixels, 40)
        XCTAssertTrue(try XCTUnwrap(counted.images?.diff)[20, 5] == (255, 0, 0, 255))
    }

    func testAntialiasedPixelsAreYellowInTheDiffOfAFailingFrame() throws {
        var first = TestImages.verticalEdge(width: 40, height: 20, edgeX: 20.5, color: navy, background: white)
        let second = TestImages.verticalEdge(width: 40, height: 20, edgeX: 21.5, color: navy, background: white)
        first[2, 12] = (0, 0, 0, 255)
        let c = try FrameComparison.compare(expected: png(first), actual: png(second), options: ComparisonOptions(), keepImages: true)
        XCTAssertEqual(c.status, .fail)
        let diff = try XCTUnwrap(c.images?.diff)
        XCTAssertTrue(diff[2, 12] == (255, 0, 0, 255))
        XCTAssertTrue(diff[20, 5] == (255, 255, 0, 255))
    }

    func testGrayChangeJustUnderAndJustOverTheThreshold() throws {
        // maxDelta = 35215 × 0.1² = 352.15; a gray step d has delta ≈ 0.5053 d²: 341.6 (d = 26), 368.4 (d = 27).
        let base = TestPixels(width: 9, height: 9, fill: (128, 128, 128, 255))
        var under = base, over = base
        under[4, 4] = (154, 154, 154, 255)
        over[4, 4] = (155, 155, 155, 255)
        XCTAssertEqual(try FrameComparison.compare(expected: png(base), actual: png(under), options: ComparisonOptions()).status, .pass)
        XCTAssertEqual(try FrameComparison.compare(expected: png(base), actual: png(over), options: ComparisonOptions()).status, .fail)
        // threshold 0 is exact
        XCTAssertEqual(try FrameComparison.compare(expected: png(base), actual: png(under), options: ComparisonOptions(threshold: 0)).status, .fail)
    }

    func testSizeMismatchIsItsOwnStatus() throws {
        let a = try png(TestPixels(width: 4, height: 4))
        let b = try png(TestPixels(width: 4, height: 5))
        let c = try FrameComparison.compare(expected: a, actual: b, options: ComparisonOptions(), keepImages: true)
        XCTAssertEqual(c.status, .sizeMismatch)
        XCTAssertNil(c.result)
        XCTAssertEqual(c.expectedSize, PixelSize(width: 4, height: 4))
        XCTAssertEqual(c.actualSize, PixelSize(width: 4, height: 5))
        XCTAssertNotNil(c.images)
        XCTAssertNil(c.images?.diff)
    }

    func testCorruptExpectedFrameThrowsNamingTheFile() throws {
        let good = try png(TestPixels(width: 4, height: 4))
        XCTAssertThrowsError(try FrameComparison.compare(expected: Array("not a png".utf8), actual: good, options: ComparisonOptions(),
                                                         expectedPath: "base/frame_0001.png")) { error in
            let e = error as? ImageDecodingError
            XCTAssertEqual(e?.kind, .notPNG)
            XCTAssertEqual(e?.path, "base/frame_0001.png")
        }
    }

    // MARK: Limits

    func testMaxDiffPixelsAndRatio() {
        let r = DiffResult(differingPixels: 10, antialiasedPixels: 3, totalPixels: 1000)
        let table: [(ComparisonOptions, Bool)] = [
            (ComparisonOptions(), false),                                   // default: 0 px
            (ComparisonOptions(maxDiffPixels: 9), false),
            (ComparisonOptions(maxDiffPixels: 10), true),
            (ComparisonOptions(maxDiffRatio: 0.0099), false),
            (ComparisonOptions(maxDiffRatio: 0.01), true),                  // ratio alone: no pixel limit
            (ComparisonOptions(maxDiffPixels: 100, maxDiffRatio: 0.005), false),  // both must hold
        ]
        for (n, (options, expected)) in table.enumerated() {
            XCTAssertEqual(options.accepts(r), expected, "row \(n)")
        }
        XCTAssertTrue(ComparisonOptions().accepts(DiffResult(differingPixels: 0, antialiasedPixels: 50, totalPixels: 1000)),
                      "anti-aliased pixels never count")
    }

    func testOptionRangesAreValidated() {
        XCTAssertThrowsError(try ComparisonOptions(threshold: 1.5).validate())
        XCTAssertThrowsError(try ComparisonOptions(threshold: .nan).validate())
        XCTAssertThrowsError(try ComparisonOptions(maxDiffPixels: -1).validate())
        XCTAssertThrowsError(try ComparisonOptions(maxDiffRatio: 2).validate())
        XCTAssertNoThrow(try ComparisonOptions(threshold: 0, maxDiffRatio: 1).validate())
    }

    // MARK: Masks

    func testMasksInPointsCoverEveryTouchedPixel() {
        let table: [(Rect, Double, PixelRect)] = [
            (Rect(x: 10, y: 20, width: 30, height: 40), 3, PixelRect(x: 30, y: 60, width: 90, height: 120)),
            (Rect(x: 0.5, y: 0.5, width: 1, height: 1), 1, PixelRect(x: 0, y: 0, width: 2, height: 2)),
            (Rect(x: 0.1, y: 0.1, width: 0.1, height: 0.1), 3, PixelRect(x: 0, y: 0, width: 1, height: 1)),
            (Rect(x: 1, y: 2, width: 0, height: 5), 2, PixelRect(x: 2, y: 4, width: 0, height: 10)),
        ]
        for (points, scale, pixels) in table {
            XCTAssertEqual(ComparisonOptions.pixelMasks(points: [points], scale: scale), [pixels], "\(points) @\(scale)x")
        }
    }

    func testMaskedPixelsDoNotCount() throws {
        let first = TestPixels(width: 9, height: 9, fill: (240, 240, 240, 255))
        var second = first
        second[4, 4] = (10, 10, 10, 255)
        let masked = ComparisonOptions(masks: [PixelRect(x: 3, y: 3, width: 2, height: 2)])
        XCTAssertEqual(try FrameComparison.compare(expected: png(first), actual: png(second), options: masked).status, .pass)
        let elsewhere = ComparisonOptions(masks: [PixelRect(x: 5, y: 5, width: 2, height: 2)])
        XCTAssertEqual(try FrameComparison.compare(expected: png(first), actual: png(second), options: elsewhere).status, .fail)
    }

    // MARK: Record modes

    func testRecordModeResolution() throws {
        let table: [(RecordMode?, [String: String], RecordMode)] = [
            (nil, [:], .missing),
            (nil, ["CI": "true"], .never),
            (nil, ["CI": "1"], .never),
            (nil, ["CI": ""], .missing),
            (nil, ["CI": "false"], .missing),
            (nil, ["CARTRENDER_RECORD": "all", "CI": "true"], .all),
            (nil, ["CARTRENDER_RECORD": "FAILED"], .failed),
            (.never, ["CARTRENDER_RECORD": "all"], .never),
            (.all, ["CI": "true"], .all),
        ]
        for (explicit, env, expected) in table {
            XCTAssertEqual(try RecordMode.resolve(explicit, environment: env), expected, "\(String(describing: explicit)) \(env)")
        }
        XCTAssertThrowsError(try RecordMode.resolve(nil, environment: ["CARTRENDER_RECORD": "sometimes"])) { error in
            XCTAssertEqual((error as? UsageError)?.message, "CARTRENDER_RECORD: expected all, missing, failed or never, got \"sometimes\"")
        }
    }
}
