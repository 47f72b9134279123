import CartRenderRaster
import CartRenderTestSupport
import XCTest

final class WebPEncoderTests: XCTestCase {
    /// Source frame i starts at round(i × 1000 / 60) ms.
    private static let startMilliseconds = (0..<60).map { Int((Double($0) * 1000 / 60 + 0.5).rounded(.down)) }

    static let lossless: Result<(bytes: [UInt8], summary: WebPSummary), Error> = Result { try UIAnimationFixture.encodeWebP() }

    /// Lossless is exact: every decoded frame equals its source frame byte for byte (the frames
    /// are opaque, so no RGB hides under transparency). libwebp merges frames 41…59, identical
    /// to frame 40, into frame 40.
    func testLosslessRoundTripIsExactWithExactTimestamps() throws {
        let (bytes, summary) = try Self.lossless.get()
        XCTAssertEqual(summary, WebPSummary(sourceFrameCount: 60, durationMilliseconds: 1000, byteCount: bytes.count))
        let webp = try WebPAnimationDecoder.decode(bytes)
        XCTAssertEqual(webp.width, 197)
        XCTAssertEqual(webp.height, 426)
        XCTAssertEqual(webp.loopCount, 0)
        XCTAssertEqual(webp.durationMilliseconds, 1000)
        XCTAssertEqual(webp.frames.map(\.startMilliseconds), Array(Self.startMilliseconds.prefix(41)))
        XCTAssertEqual(webp.frames.last?.durationMilliseconds, 1000 - Self.startMilliseconds[40])
        for (index, frame) in webp.frames.enumerated() {
            XCTAssertTrue(frame.image == UIAnimationFixture.frames[index], "frame \(index) differs from its source")
        }
    }

    /// Quality floor 0.99 for lossy quality 90: measured 0.9993 at 3x (1179 × 2556 px); VP8 at
    /// q90 smooths edges slightly but keeps structure. The neighbour check catches a frame shown
    /// at the wrong time.
    func testLossyFramesStandForTheirSourceFrames() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(12))
        let (bytes, _) = try UIAnimationFixture.encodeWebP(WebPOptions(lossless: false, quality: 90), frames: frames)
        XCTAssertLessThan(bytes.count, try UIAnimationFixture.encodeWebP(frames: frames).bytes.count, "lossy is smaller")
        let webp = try WebPAnimationDecoder.decode(bytes)
        XCTAssertEqual(webp.frames.map(\.startMilliseconds), Array(Self.startMilliseconds.prefix(12)))
        for (index, frame) in webp.frames.enumerated() {
            assertStandsFor(frame.image, sources: frames, index: index, floor: 0.99, neighbourhood: 1, "lossy WebP frame \(index)")
        }
    }

    func testEncodingTwiceGivesIdenticalBytes() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(8))
        for options in [WebPOptions(), WebPOptions(lossless: false)] {
            XCTAssertEqual(try UIAnimationFixture.encodeWebP(options, frames: frames).bytes,
                           try UIAnimationFixture.encodeWebP(options, frames: frames).bytes, "lossless: \(options.lossless)")
        }
    }

    /// Frames are compressed `jobs` at a time, each on its own: the file is the same for 1, 2 and
    /// 4 threads, lossless, lossy and with key frames.
    func testJobsDoNotChangeBytes() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(16))
        for options in [WebPOptions(), WebPOptions(lossless: false), WebPOptions(keyframeInterval: 3...4)] {
            let one = try UIAnimationFixture.encodeWebP(options, frames: frames, jobs: 1)
            for jobs in [2, 4] {
                XCTAssertEqual(try UIAnimationFixture.encodeWebP(options, frames: frames, jobs: jobs).bytes, one.bytes,
                               "lossless \(options.lossless), key frames \(String(describing: options.keyframeInterval)), jobs \(jobs)")
            }
        }
    }

    /// A frame stores only the rectangle that changed: one changed pixel costs a few bytes, not a
    /// frame. Key frames store the whole frame again, so they make the file larger, and every
    /// frame still decodes exactly.
    /// Frames handed with the rows that changed since the frame before (exactly those, or
    /// more) give the file of frames compared in full, lossless and lossy, with key frames.
    func testChangedRowsGiveTheBytesOfComparingEveryRow() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(30))
        let rows = UIAnimationFixture.changedRows(frames)
        for options in [WebPOptions(), WebPOptions(lossless: false), WebPOptions(keyframeInterval: 6...10)] {
            let reference = try UIAnimationFixture.encodeWebP(options, frames: frames)
            for changed in [rows.exact, rows.grown] {
                let handed = try UIAnimationFixture.encodeWebP(options, frames: frames, changedRows: changed)
                XCTAssertEqual(handed.bytes, reference.bytes, "lossless \(options.lossless)")
                XCTAssertEqual(handed.summary, reference.summary)
            }
        }
    }

    func testChangedRectanglesAndKeyFrames() throws {
        let noise = RGBAImage(width: 64, height: 64, pixels: (0..<(64 * 64 * 4)).map { $0 % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
        let frames = (0..<6).map { setting(noise, x: 10 + $0 * 7, y: 33, to: [255, 0, UInt8($0 * 40), 255]) }
        let one = try UIAnimationFixture.encodeWebP(frames: [frames[0]], fps: 10).bytes.count
        let all = try UIAnimationFixture.encodeWebP(frames: frames, fps: 10)
        XCTAssertLessThan(all.bytes.count, one + 5 * 200, "five one-pixel changes: \(all.bytes.count) B against \(one) B for the first frame")
        let keyed = try UIAnimationFixture.encodeWebP(WebPOptions(keyframeInterval: 2...3), frames: frames, fps: 10)
        XCTAssertGreaterThan(keyed.bytes.count, all.bytes.count + one / 2, "frame 3 is whole again")
        for bytes in [all.bytes, keyed.bytes] {
            let webp = try WebPAnimationDecoder.decode(bytes)
            XCTAssertEqual(webp.frames.map(\.durationMilliseconds), Array(repeating: 100, count: 6))
            for (index, frame) in webp.frames.enumerated() {
                XCTAssertTrue(frame.image == frames[index], "frame \(index) differs from its source")
            }
        }
    }

    /// Transparent pixels survive lossless encoding (their hidden RGB may not, which is allowed).
    func testTransparencyIsKept() throws {
        let frames = [solidImage(width: 6, height: 6, 0, 0, 0, 0),
                      setting(solidImage(width: 6, height: 6, 0, 0, 0, 0), x: 2, y: 3, to: [200, 100, 50, 255]),
                      setting(solidImage(width: 6, height: 6, 0, 0, 0, 0), x: 4, y: 1, to: [10, 20, 30, 128])]
        let webp = try WebPAnimationDecoder.decode(UIAnimationFixture.encodeWebP(frames: frames, fps: 10).bytes)
        XCTAssertEqual(webp.frames.map(\.durationMilliseconds), [100, 100, 100])
        for (index, frame) in webp.frames.enumerated() {
            for y in 0..<6 {
                for x in 0..<6 {
                    let got = frame.image[x, y], want = frames[index][x, y]
                    XCTAssertEqual(got.a, want.a, "frame \(index) (\(x), \(y)) alpha")
                    if want.a > 0 {
                        XCTAssertTrue(got == want, "frame \(index) (\(x), \(y)): \(got) ≠ \(want)")
                    }
                }
            }
        }
    }

    func testLoopCountAndFileDestination() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/animation.webp"
        let encoder = try WebPEncoder(destination: .file(path: path), width: 2, height: 2, fps: 24, options: WebPOptions(loopCount: 3))
        try encoder.add(solidImage(width: 2, height: 2, 255, 0, 0))
        try encoder.add(solidImage(width: 2, height: 2, 0, 0, 255))
        let summary = try encoder.finish()
        XCTAssertEqual(summary.durationMilliseconds, 83)   // 2 / 24 s = 83.3 ms
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["animation.webp"])
        let webp = try WebPAnimationDecoder.decode(contentsOf: path)
        XCTAssertEqual(webp.loopCount, 3)
        XCTAssertEqual(webp.frames.map(\.durationMilliseconds), [42, 41])   // 41.67 → 42, then 83 − 42
    }

    func testErrorsAreOneClearSentence() {
        func message(_ body: () throws -> Void) -> String {
            do { try body(); return "no error" } catch { return "\(error)" }
        }
        let table: [(String, () throws -> Void, UInt)] = [
            ("WebP canvas of 20000×10 px is not allowed: each side must be 1…16383 px.",
             { _ = try WebPEncoder(width: 20000, height: 10, fps: 30) }, #line),
            ("Option method must be 0…6, not 7.",
             { _ = try WebPEncoder(width: 4, height: 4, fps: 30, options: WebPOptions(method: 7)) }, #line),
            ("Option keyframeInterval must be kmin…kmax with kmax > kmin ≥ kmax / 2 + 1, not 2...17.",
             { _ = try WebPEncoder(width: 4, height: 4, fps: 30, options: WebPOptions(keyframeInterval: 2...17)) }, #line),
            ("The animation has no frames.", { try WebPEncoder(width: 4, height: 4, fps: 30).finish() }, #line),
            ("Frame 0 is 3×4 px but the animation is 4×4 px.",
             { try WebPEncoder(width: 4, height: 4, fps: 30).add(solidImage(width: 3, height: 4, 0, 0, 0)) }, #line),
            ("WebP data cannot be decoded: libwebp failed in WebPAnimDecoderNew: not a valid WebP file.",
             { _ = try WebPAnimationDecoder.decode(Array("RIFF....WEBPVP8 nonsense".utf8)) }, #line),
        ]
        for (expected, body, line) in table {
            XCTAssertEqual(message(body), expected, line: line)
        }
    }
}
