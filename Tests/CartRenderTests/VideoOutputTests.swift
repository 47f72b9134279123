import CartRender
import CartRenderCore
import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// The MP4 and WebM a render writes (`--format mp4,webm`), decoded by FFmpeg and compared with
/// the PNG frames of the same run.
final class VideoOutputTests: XCTestCase {
    private func render(fps: Int = 10, _ configure: (inout RenderOptions) -> Void = { _ in }) throws -> (Renderer, RenderOptions, RenderResult) {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: fps, scale: 1), baseDirectory: "/")
        let r = try Renderer(scene: scene)
        var o = RenderOptions(); o.outputDirectory = tempDir(); o.formats = [.png, .mp4, .webm]; o.jobs = 2
        configure(&o)
        return (r, o, try r.render(o))
    }

    private func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func pngFrames(_ o: RenderOptions, count: Int) throws -> [RGBAImage] {
        try (0..<count).map { try PNGDecoder.decode(contentsOf: o.outputDirectory + String(format: "/frame_%04d.png", $0)) }
    }

    /// The lowest mean SSIM of the decoded frames (their top-left 393 × 852 px) against the PNG
    /// frame of the same index; a pair equal to the pair before it is not measured again.
    private func lowestSSIM(_ frames: [DecodedVideoFrame], _ pngs: [RGBAImage]) -> (ssim: Double, frame: Int) {
        var lowest = (ssim: 1.0, frame: -1)
        var last: (RGBAImage, RGBAImage)?
        for (i, (frame, png)) in zip(frames, pngs).enumerated() where TestSweep.includes(i, of: frames.count) {
            let decoded = frame.image(width: png.width, height: png.height)
            if let last, last.0 == decoded, last.1 == png { continue }
            let ssim = ImageSimilarity.meanSSIM(decoded, png)
            if ssim < lowest.ssim { lowest = (ssim, i) }
            last = (decoded, png)
        }
        return lowest
    }

    /// One render, both videos, each frame drawn once. MP4: H.264 High, yuv420p with BT.709 tags
    /// in limited range, 393 px padded to 394, every frame at i/fps (none merged, the holds
    /// included), the moov box before the media data, no version string or date; WebM: VP9
    /// profile 0 with the same tags and timing. Both stay close to the PNG frames: each frame's
    /// mean SSIM (`ImageSimilarity`, luma) is at least 0.98 here, a floor well below what
    /// `Benchmarks/video-speed.sh` measures (docs/documentation-outputs.md).
    func testMP4AndWebMHoldEveryFrameWithBT709Tags() throws {
        let (r, o, result) = try render()
        XCTAssertLessThan(result.framesDrawn, r.frameCount, "identical frames drawn once for all three formats")
        let pngs = try pngFrames(o, count: r.frameCount)
        for (file, format, codec, profile) in [("animation.mp4", "mov,mp4,m4a,3gp,3g2,mj2", "h264", "High"),
                                               ("animation.webm", "matroska,webm", "vp9", "Profile 0")] {
            let (info, frames) = try VideoDecoder.decode(contentsOf: o.outputDirectory + "/" + file)
            XCTAssertEqual([info.formatName, info.codecName, info.profileName, info.pixelFormat], [format, codec, profile, "yuv420p"], file)
            XCTAssertEqual([info.colorPrimaries, info.colorTransfer, info.colorSpace, info.colorRange, info.chromaLocation],
                           ["bt709", "bt709", "bt709", "tv", "center"], file)
            XCTAssertEqual([info.width, info.height], [394, 852], "\(file): the odd width is padded by one column")
            XCTAssertEqual([info.averageFrameRate, info.realFrameRate], ["10/1", "10/1"], file)
            XCTAssertEqual(frames.count, r.frameCount, "\(file): every frame, none merged or dropped")
            XCTAssertEqual(frames.map(\.time), (0..<r.frameCount).map { Double($0) / 10 }, file)
            XCTAssertEqual(info.durationSeconds, Double(r.frameCount) / 10, accuracy: 1e-6, file)
            XCTAssertNil(info.metadata["creation_time"], file)
            let lowest = lowestSSIM(frames, pngs)
            XCTAssertGreaterThanOrEqual(lowest.ssim, 0.98, "\(file): frame \(lowest.frame) against its PNG frame")
        }
        let mp4 = try bytes(o.outputDirectory + "/animation.mp4")
        XCTAssertEqual(VideoDecoder.mp4TopLevelBoxes(mp4), ["ftyp", "moov", "free", "mdat"], "+faststart: the index comes first")
        let text = String(decoding: mp4, as: UTF8.self)
        XCTAssertFalse(text.contains("x264") || text.contains("Lavf"), "no encoder or muxer version in the MP4")
        XCTAssertEqual(result.summaries.compactMap { $0 as? VideoSummary }.map(\.frameCount), [r.frameCount, r.frameCount])

        let m = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.manifestPath))) as! [String: Any]
        XCTAssertEqual(m["outputs"] as! [[String: String]],
                       try ["animation.mp4", "animation.webm"].map { ["file": $0, "sha256": Checksum.sha256(try bytes(o.outputDirectory + "/" + $0))] })
    }

    /// `--lossless`: VP9 profile 1, planar RGB at the render's own 393 × 852 px, and every
    /// decoded frame equals its PNG frame byte for byte.
    func testLosslessWebMDecodesToThePNGFrames() throws {
        let (r, o, _) = try render { $0.formats = [.png, .webm]; $0.webm.lossless = true }
        let (info, frames) = try VideoDecoder.decode(contentsOf: o.outputDirectory + "/animation.webm")
        XCTAssertEqual([info.codecName, info.profileName, info.pixelFormat, info.colorSpace, info.colorRange], ["vp9", "Profile 1", "gbrp", "gbr", "pc"])
        XCTAssertEqual([info.width, info.height], [393, 852])
        XCTAssertEqual(frames.count, r.frameCount)
        for (i, (frame, png)) in zip(frames, try pngFrames(o, count: r.frameCount)).enumerated() {
            XCTAssertTrue(frame.image == png, "frame \(i) differs from frame_\(i).png")
        }
    }

    /// The same scene gives the same video bytes in every run, at --jobs 1 and 2, alone or
    /// beside other formats.
    func testVideosAreDeterministicAcrossRunsAndJobs() throws {
        let runs = try [(1, [OutputFormat.mp4, .webm]), (2, [.png, .gif, .mp4, .webm]), (2, [.webm, .mp4])].map { jobs, formats in
            try render(fps: 20) { $0.formats = formats; $0.jobs = jobs }.1.outputDirectory
        }
        for file in ["animation.mp4", "animation.webm"] {
            let first = try bytes(runs[0] + "/" + file)
            for run in runs.dropFirst() { XCTAssertEqual(try bytes(run + "/" + file), first, file) }
        }
    }

    /// An option the encoder refuses fails the render before any frame is drawn, and the output
    /// directory stays as it was.
    func testARefusedOptionLeavesTheDirectoryAsItWas() throws {
        let (r, o, _) = try render { $0.formats = [.png]; $0.frames = .range(0, 2) }
        let before = try files(o.outputDirectory)
        var bad = o
        bad.formats = [.png, .mp4]
        bad.mp4.crf = 52
        XCTAssertThrowsError(try r.render(bad)) {
            XCTAssertEqual(($0 as? ReportableError)?.sentence, "Option crf must be a whole number from 0 to 51 for H.264, not 52.")
            XCTAssertEqual(($0 as? ReportableError)?.exitCode, .usage)
        }
        XCTAssertEqual(try files(o.outputDirectory), before)
    }
}
