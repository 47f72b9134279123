import CartRenderTestSupport
import CartRenderRaster
import Foundation
import XCTest

/// `APNGEncoder` on small synthetic frames, read back by the test `APNGDecoder`.
final class APNGEncoderTests: XCTestCase {
    /// Opaque blue 4 × 3 px, with pixels set per frame.
    private static let blue = RGBAImage(width: 4, height: 3, pixels: Array([[UInt8]](repeating: [0, 0, 255, 255], count: 12).joined()))

    private static func with(_ image: RGBAImage, _ changes: [(x: Int, y: Int, rgba: [UInt8])]) -> RGBAImage {
        var copy = image
        for c in changes {
            let o = (c.y * image.width + c.x) * 4
            copy.pixels.replaceSubrange(o..<(o + 4), with: c.rgba)
        }
        return copy
    }

    private func encode(_ frames: [RGBAImage], fps: Int, options: APNGOptions = APNGOptions()) throws -> (bytes: [UInt8], summary: APNGSummary) {
        let encoder = try APNGEncoder(width: frames[0].width, height: frames[0].height, fps: fps, options: options)
        for f in frames { try encoder.add(f) }
        let summary = try encoder.finish()
        return (encoder.encodedBytes, summary)
    }

    /// Merged identical frames, changed rectangles, transparency replacing opaque pixels: every
    /// source frame is shown exactly, for exactly its time.
    func testEveryFrameShowsItsSourceExactly() throws {
        let f0 = Self.blue
        let f2 = Self.with(f0, [(2, 1, [255, 0, 0, 255])])
        let f3 = Self.with(f2, [(1, 0, [0, 0, 0, 0]), (3, 2, [10, 20, 30, 128])])
        let sources = [f0, f0, f2, f3, f3, f3, f0]
        let (bytes, summary) = try encode(sources, fps: 60)
        let apng = try APNGDecoder.decode(bytes)

        XCTAssertEqual(apng.frames.map(\.control.rect), [PixelRect(x: 0, y: 0, width: 4, height: 3), PixelRect(x: 2, y: 1, width: 1, height: 1),
                                                         PixelRect(x: 1, y: 0, width: 3, height: 3), PixelRect(x: 1, y: 0, width: 3, height: 3)],
                       "the first frame is the canvas, the others the bounding box of what changed")
        XCTAssertEqual(apng.frames.map { [$0.control.delayNumerator, $0.control.delayDenominator] }, [[1, 30], [1, 60], [1, 20], [1, 60]])
        XCTAssertEqual(apng.frames.map { [Int($0.control.dispose), Int($0.control.blend)] }, Array(repeating: [0, 0], count: 4), "dispose NONE, blend SOURCE")
        for (frame, run) in zip(apng.frames, try XCTUnwrap(apng.sourceRuns(fps: 60), "delays are whole frames")) {
            for i in run { XCTAssertEqual(frame.canvas, sources[i], "source frame \(i)") }
        }
        XCTAssertEqual(try XCTUnwrap(apng.sourceRuns(fps: 60), "delays are whole frames").last?.upperBound, sources.count, "delays add up to 7/60 s")
        XCTAssertEqual(summary, APNGSummary(sourceFrameCount: 7, writtenFrameCount: 4, mergedFrameCount: 3, byteCount: bytes.count))
        XCTAssertEqual(apng.numPlays, 0, "loops forever by default")
    }

    /// A frame showing n source frames lasts n/fps s, written as the reduced fraction.
    func testDelaysAreReducedFractionsOfTheFrameRate() throws {
        let table: [(fps: Int, holds: [Int], delays: [[Int]])] = [
            (60, [1, 2, 3, 30, 60, 90, 7], [[1, 60], [1, 30], [1, 20], [1, 2], [1, 1], [3, 2], [7, 60]]),
            (24, [10, 1, 48], [[5, 12], [1, 24], [2, 1]]),
            (1, [5], [[5, 1]]),
        ]
        for row in table {
            var frames: [RGBAImage] = []
            for (k, hold) in row.holds.enumerated() {
                frames += repeatElement(Self.with(Self.blue, [(0, 0, [UInt8(k), 0, 0, 255])]), count: hold)
            }
            let apng = try APNGDecoder.decode(try encode(frames, fps: row.fps).bytes)
            XCTAssertEqual(apng.frames.map { [$0.control.delayNumerator, $0.control.delayDenominator] }, row.delays, "\(row.fps) fps, holds \(row.holds)")
        }
    }

    /// 131 073 frames at 2 fps are 131073/2 s, a numerator past 16 bits: the hold is split into
    /// 65535/1 + 1/1 + 1/2 s, the parts after the first restating one pixel of the same image.
    func testAHoldTooLongForOneDelayIsSplit() throws {
        let a = Self.blue, b = Self.with(Self.blue, [(3, 2, [1, 2, 3, 4])])
        let encoder = try APNGEncoder(width: 4, height: 3, fps: 2)
        for _ in 0..<131_073 { try encoder.add(a) }
        try encoder.add(b)
        let summary = try encoder.finish()
        let apng = try APNGDecoder.decode(encoder.encodedBytes)
        XCTAssertEqual(apng.frames.map { [$0.control.delayNumerator, $0.control.delayDenominator] }, [[65535, 1], [1, 1], [1, 2], [1, 2]])
        XCTAssertEqual(apng.frames.map(\.canvas), [a, a, a, b])
        XCTAssertEqual(apng.frames[1].control.rect, PixelRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(apng.frames[3].control.rect, PixelRect(x: 3, y: 2, width: 1, height: 1), "the frame after the split stores its change")
        XCTAssertEqual(try XCTUnwrap(apng.sourceRuns(fps: 2), "delays are whole frames").last?.upperBound, 131_074)
        XCTAssertEqual(summary.writtenFrameCount, 4)
        XCTAssertEqual(summary.mergedFrameCount, 131_072)
    }

    /// `gAMA`/`sRGB`/`cHRM` as in `PNGEncoder`'s frames, `acTL` with the loop count, and the first
    /// frame's image data the very zlib stream of the PNG frame.
    func testHeaderAndFirstFrameAreThoseOfThePNGFrame() throws {
        let frames = [Self.blue, Self.with(Self.blue, [(0, 0, [9, 9, 9, 255])])]
        let apngBytes = try encode(frames, fps: 30, options: APNGOptions(loopCount: 3, compression: .small)).bytes
        let png = try APNGDecoder.chunks(PNGEncoder.encode(Self.blue, compression: .small))
        let apng = try APNGDecoder.chunks(apngBytes)
        XCTAssertEqual(apng.map(\.type), ["IHDR", "gAMA", "sRGB", "cHRM", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "IEND"])
        XCTAssertEqual(png.map(\.type), ["IHDR", "gAMA", "sRGB", "cHRM", "IDAT", "IEND"])
        for i in 0..<4 { XCTAssertEqual(apng[i].data, png[i].data, apng[i].type) }
        XCTAssertEqual(apng[6].data, png[4].data, "frame 0 is compressed as PNGEncoder compresses the PNG frame")
        XCTAssertEqual(apng[4].data, [0, 0, 0, 2, 0, 0, 0, 3], "num_frames 2, num_plays 3")
    }

    /// `APNGOptions.compression` is the zlib setting of the frames' data; the pixels stay exact.
    func testCompressionChangesBytesNotPixels() throws {
        let frames = (0..<6).map { k in Self.with(Self.blue, [(k % 4, k % 3, [UInt8(40 * k), 7, 7, 255])]) }
        let fast = try APNGDecoder.decode(try encode(frames, fps: 10, options: APNGOptions(compression: .fast)).bytes)
        let small = try APNGDecoder.decode(try encode(frames, fps: 10, options: APNGOptions(compression: .small)).bytes)
        XCTAssertNotEqual(fast.chunks.first { $0.type == "IDAT" }!.data, small.chunks.first { $0.type == "IDAT" }!.data)
        XCTAssertEqual(fast.frames.map(\.canvas), small.frames.map(\.canvas))
        XCTAssertEqual(fast.frames.map(\.canvas), frames)
    }

    func testSameFramesGiveSameBytesInMemoryAndInAFile() throws {
        let frames = [Self.blue, Self.blue, Self.with(Self.blue, [(1, 1, [0, 0, 0, 0])])]
        let a = try encode(frames, fps: 60).bytes
        XCTAssertEqual(try encode(frames, fps: 60).bytes, a)
        let dir = try makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        let encoder = try APNGEncoder(destination: .file(path: dir + "/a.png"), width: 4, height: 3, fps: 60)
        for f in frames { try encoder.add(f) }
        try encoder.finish()
        XCTAssertEqual(FileManager.default.contents(atPath: dir + "/a.png").map(Array.init), a)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["a.png"], "no temporary file left")
    }

    func testBadInputIsRefused() throws {
        let table: [(String, () throws -> Void, AnimationEncodingError)] = [
            ("no width", { _ = try APNGEncoder(width: 0, height: 3, fps: 60) }, .invalidCanvasSize(format: "APNG", width: 0, height: 3, limit: 16384)),
            ("too high", { _ = try APNGEncoder(width: 4, height: 16385, fps: 60) }, .invalidCanvasSize(format: "APNG", width: 4, height: 16385, limit: 16384)),
            ("fps 0", { _ = try APNGEncoder(width: 4, height: 3, fps: 0) },
             .invalidFrameRate(0)),
            ("loop -1", { _ = try APNGEncoder(width: 4, height: 3, fps: 60, options: APNGOptions(loopCount: -1)) },
             .invalidOption(name: "loopCount", reason: "must be 0 (forever) or 1…2147483647 plays, not -1")),
            ("no frames", { try APNGEncoder(width: 4, height: 3, fps: 60).finish() }, .noFrames),
            ("wrong size", { try APNGEncoder(width: 4, height: 3, fps: 60).add(RGBAImage(width: 3, height: 3)) },
             .frameSizeMismatch(frameIndex: 0, width: 3, height: 3, expectedWidth: 4, expectedHeight: 3)),
            ("add after finish", {
                let e = try APNGEncoder(width: 4, height: 3, fps: 60)
                try e.add(Self.blue); try e.finish(); try e.add(Self.blue)
            }, .alreadyFinished),
            ("finish twice", {
                let e = try APNGEncoder(width: 4, height: 3, fps: 60)
                try e.add(Self.blue); try e.finish(); try e.finish()
            }, .alreadyFinished),
        ]
        for (name, body, expected) in table {
            XCTAssertThrowsError(try body(), name) { XCTAssertEqual($0 as? AnimationEncodingError, expected, name) }
        }
    }
}
