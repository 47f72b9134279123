@testable import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// `VideoEncoder`: what a decoder reads back from its MP4 and WebM files.
final class VideoEncoderTests: XCTestCase {
    private func encode(_ frames: [RGBAImage], fps: Int = 60, _ codec: VideoCodec) throws -> (bytes: [UInt8], summary: VideoSummary) {
        let encoder = try VideoEncoder(width: frames[0].width, height: frames[0].height, fps: fps, codec: codec)
        for frame in frames { try encoder.add(frame) }
        let summary = try encoder.finish()
        return (encoder.encodedBytes, summary)
    }

    /// Writes `bytes` to a temporary file (FFmpeg's demuxers read files) and decodes it.
    private func decode(_ bytes: [UInt8], _ name: String) throws -> (info: VideoStreamInfo, frames: [DecodedVideoFrame]) {
        let dir = try makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/" + name))
        return try VideoDecoder.decode(contentsOf: dir + "/" + name)
    }

    /// BT.709, limited range: Y = 16 + 219·Y′, Cb = 128 + 224·(B′ − Y′)/1.8556, Cr = 128 + 224·(R′ − Y′)/1.5748
    /// with Y′ = 0.2126 R′ + 0.7152 G′ + 0.0722 B′ (ITU-R BT.709-6, table 3), rounded.
    private static func bt709(_ r: Double, _ g: Double, _ b: Double) -> [Int] {
        let (r, g, b) = (r / 255, g / 255, b / 255)
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        return [16 + 219 * y, 128 + 224 * (b - y) / 1.8556, 128 + 224 * (r - y) / 1.5748].map { Int($0.rounded()) }
    }

    /// The RGB → YUV conversion uses BT.709's matrix into limited range: at crf 0 (lossless in
    /// YUV) flat frames decode to the table's Y, Cb, Cr within the rounding of libswscale's
    /// fixed point. BT.601's matrix would put red's Y at 81, not 63.
    func testH264ConvertsWithTheBT709MatrixIntoLimitedRange() throws {
        let colors: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [0, 0, 0], [88, 86, 214], [255, 59, 48]]
        let frames = colors.map { solidImage(width: 16, height: 16, $0[0], $0[1], $0[2]) }
        let video = try decode(try encode(frames, .h264(H264Options(crf: 0))).bytes, "flat.mp4")
        XCTAssertEqual(video.frames.count, colors.count)
        for (color, frame) in zip(colors, video.frames) {
            let expected = Self.bt709(Double(color[0]), Double(color[1]), Double(color[2]))
            for (plane, value) in zip(frame.planes, expected) {
                XCTAssertTrue(plane.allSatisfy { abs(Int($0) - value) <= 1 }, "\(color): plane \(plane.prefix(4)) is not \(value) (BT.709, limited)")
            }
        }
        XCTAssertEqual(Self.bt709(255, 0, 0), [63, 102, 240])
    }

    /// 4:2:0 needs even sides: a 5 × 3 px frame becomes a 6 × 4 px video whose extra column and
    /// row repeat the last ones (exact in Y at crf 0).
    func testOddSidesArePaddedWithTheLastColumnAndRow() throws {
        var frame = RGBAImage(width: 5, height: 3)
        for y in 0..<3 { for x in 0..<5 { frame = setting(frame, x: x, y: y, to: [UInt8(40 * x + 10 * y), UInt8(40 * x + 10 * y), UInt8(40 * x + 10 * y), 255]) } }
        let (bytes, summary) = try encode([frame], .h264(H264Options(crf: 0)))
        XCTAssertEqual([summary.codedWidth, summary.codedHeight], [6, 4])
        let video = try decode(bytes, "odd.mp4")
        XCTAssertEqual([video.info.width, video.info.height], [6, 4])
        let luma = video.frames[0].planes[0]
        func y(_ x: Int, _ row: Int) -> Int { Int(luma[row * 6 + x]) }
        for row in 0..<4 {
            XCTAssertEqual(y(5, row), y(4, row), "row \(row): the extra column repeats the last")
            for x in 0..<5 {
                let gray = Double(40 * x + 10 * min(row, 2))
                XCTAssertLessThanOrEqual(abs(y(x, row) - Self.bt709(gray, gray, gray)[0]), 1, "(\(x), \(row))")
            }
        }
        XCTAssertEqual(luma[18..<24], luma[12..<18], "the extra row repeats the last")
    }

    /// Lossless VP9 stores planar RGB at the frames' own size (odd sides too): every decoded
    /// frame equals its source, byte for byte.
    func testLosslessVP9IsExactAtOddSizes() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(12))
        let (bytes, summary) = try encode(frames, .vp9(VP9Options(lossless: true)))
        XCTAssertEqual([summary.codedWidth, summary.codedHeight], [197, 426])
        let video = try decode(bytes, "lossless.webm")
        XCTAssertEqual([video.info.pixelFormat, video.info.profileName, video.info.colorSpace, video.info.colorRange], ["gbrp", "Profile 1", "gbr", "pc"])
        XCTAssertEqual(video.frames.count, frames.count)
        for (i, (decoded, source)) in zip(video.frames, frames).enumerated() {
            XCTAssertTrue(decoded.image == source, "frame \(i) differs from its source")
        }
    }

    /// Every frame is a frame of its own at i/fps, identical ones included: nothing merged or
    /// dropped, and the video lasts frames/fps.
    func testIdenticalFramesAreKeptAtAConstantRate() throws {
        let a = solidImage(width: 32, height: 32, 255, 255, 255), b = solidImage(width: 32, height: 32, 88, 86, 214)
        for codec in [VideoCodec.h264(H264Options()), .vp9(VP9Options())] {
            let (bytes, summary) = try encode([a, a, a, b, b, a], fps: 25, codec)
            XCTAssertEqual(summary.frameCount, 6)
            let video = try decode(bytes, codec.containerName == "MP4" ? "rate.mp4" : "rate.webm")
            XCTAssertEqual(video.frames.map(\.time), (0..<6).map { Double($0) / 25 }, "\(codec.containerName)")
            XCTAssertEqual(video.info.averageFrameRate, "25/1", "\(codec.containerName)")
            XCTAssertEqual(video.info.durationSeconds, 6.0 / 25, accuracy: 1e-6, "\(codec.containerName)")
        }
    }

    /// Lossy 4:2:0 stays close to its sources on the UI animation (odd width: compared on the
    /// frame's own 197 × 426 px): measured mean SSIM ≥ 0.997 at the defaults; 0.98 leaves room.
    func testLossyFramesStandForTheirSources() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(12))
        for codec in [VideoCodec.h264(H264Options()), .vp9(VP9Options())] {
            let video = try decode(try encode(frames, codec).bytes, codec.containerName == "MP4" ? "ui.mp4" : "ui.webm")
            XCTAssertEqual([video.info.width, video.info.height], [198, 426])
            XCTAssertEqual(video.frames.count, frames.count)
            for (i, frame) in video.frames.enumerated() {
                assertStandsFor(frame.image(width: 197, height: 426), sources: frames, index: i, floor: 0.98, "\(codec.containerName) frame \(i)")
            }
        }
    }

    /// Same frames, same bytes; and no version string of libx264 or libavformat, no date.
    func testBytesAreDeterministicAndCarryNoVersionOrDate() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(8))
        for codec in [VideoCodec.h264(H264Options()), .vp9(VP9Options()), .vp9(VP9Options(lossless: true))] {
            let first = try encode(frames, codec).bytes, second = try encode(frames, codec).bytes
            XCTAssertEqual(first, second, "\(codec)")
            let text = String(decoding: first, as: UTF8.self)
            for word in ["x264", "Lavf5", "libvpx", "creation_time"] { XCTAssertFalse(text.contains(word), "\(codec) carries \(word)") }
        }
    }

    /// Frames converted on several threads at once and in reverse order
    /// (`convert(_:changedRows:frameIndex:)`, from premultiplied canvas rows as the drawing workers
    /// have them), then added in order (`add(converted:)`, nil for a repeat), give the bytes of
    /// `add(_:changedRows:)` and of `add(_:)`, at an odd size (padding) and for every codec.
    func testFramesConvertedOnOtherThreadsGiveTheSameBytes() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(10))
        let held = [frames[0]] + frames[1...4] + [frames[4]] + frames[5...]
        let changed = UIAnimationFixture.changedRows(held).grown
        for codec in [VideoCodec.h264(H264Options()), .vp9(VP9Options()), .vp9(VP9Options(lossless: true))] {
            let whole = try encode(held, codec).bytes
            let byRows = try VideoEncoder(width: 197, height: 426, fps: 60, codec: codec)
            for (frame, rows) in zip(held, changed) { try byRows.add(frame, changedRows: rows) }
            try byRows.finish()
            let encoder = try VideoEncoder(width: 197, height: 426, fps: 60, codec: codec)
            let canvases = held.map { frame in frame.withRows { rows in [UInt8](unsafeUninitializedCapacity: frame.pixels.count) { buffer, count in
                rows.copy(to: buffer.baseAddress!, stride: frame.rowBytes, format: .premultipliedARGB32)
                count = frame.pixels.count
            } } }
            let converted = LockedResults(count: held.count)
            DispatchQueue.concurrentPerform(iterations: held.count) { k in
                let i = held.count - 1 - k
                guard changed[i] != [] else { return }
                converted.set(i, Result { try canvases[i].withUnsafeBytes { bytes in
                    try encoder.convert(PixelRows(base: bytes.baseAddress!, width: 197, height: 426, stride: 197 * 4, format: .premultipliedARGB32),
                                        changedRows: changed[i], frameIndex: i)
                } })
            }
            for i in held.indices { try encoder.add(converted: converted.get(i)?.get()) }
            try encoder.finish()
            XCTAssertEqual(encoder.encodedBytes, whole, "\(codec)")
            XCTAssertEqual(byRows.encodedBytes, whole, "\(codec)")
        }
    }

    func testBadOptionsAndMisuseAreErrors() throws {
        let frame = solidImage(width: 4, height: 4, 0, 0, 0)
        XCTAssertThrowsError(try VideoEncoder(width: 4, height: 4, fps: 60, codec: .h264(H264Options(crf: 52)))) {
            XCTAssertEqual($0 as? AnimationEncodingError, .invalidOption(name: "crf", reason: "must be a whole number from 0 to 51 for H.264, not 52"))
            XCTAssertEqual(($0 as? AnimationEncodingError)?.exitCode, .usage)
        }
        XCTAssertThrowsError(try VideoEncoder(width: 4, height: 4, fps: 60, codec: .vp9(VP9Options(crf: 64)))) {
            XCTAssertEqual($0 as? AnimationEncodingError, .invalidOption(name: "crf", reason: "must be a whole number from 0 to 63 for VP9, not 64"))
        }
        XCTAssertThrowsError(try VideoEncoder(width: 0, height: 4, fps: 60, codec: .h264(H264Options()))) {
            XCTAssertEqual($0 as? AnimationEncodingError, .invalidCanvasSize(format: "MP4", width: 0, height: 4, limit: 16_384))
        }
        XCTAssertThrowsError(try VideoEncoder(width: 4, height: 4, fps: 0, codec: .vp9(VP9Options())))
        let encoder = try VideoEncoder(width: 4, height: 4, fps: 60, codec: .vp9(VP9Options()))
        XCTAssertThrowsError(try encoder.add(solidImage(width: 5, height: 4, 0, 0, 0))) {
            XCTAssertEqual($0 as? AnimationEncodingError, .frameSizeMismatch(frameIndex: 0, width: 5, height: 4, expectedWidth: 4, expectedHeight: 4))
        }
        XCTAssertThrowsError(try encoder.finish()) { XCTAssertEqual($0 as? AnimationEncodingError, .noFrames) }
        XCTAssertThrowsError(try encoder.add(frame)) { XCTAssertEqual($0 as? AnimationEncodingError, .alreadyFinished) }
    }

    /// A failure of FFmpeg is one sentence with `av_strerror`'s text, exit 70.
    func testLibraryFailuresNameTheLibraryAndItsReason() {
        let error = VideoEncoder.failure("libavcodec", "avcodec_send_frame (libx264)", -EINVAL)
        XCTAssertEqual(error.sentence, "internal error: libavcodec failed in avcodec_send_frame (libx264): Invalid argument.")
        XCTAssertEqual(error.exitCode, .software)
        XCTAssertEqual(VideoEncoder.describe(-ENOMEM), "Cannot allocate memory")
    }
}

/// Results set from several threads, by index.
private final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<VideoFramePatch, Error>?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ result: Result<VideoFramePatch, Error>) { lock.withLock { results[i] = result } }
    func get(_ i: Int) -> Result<VideoFramePatch, Error>? { lock.withLock { results[i] } }
}
