import CartRender
import CartRenderCore
import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// The GIF and WebP a render writes, decoded again and compared with the frames they stand for.
final class AnimationOutputTests: XCTestCase {
    /// GIF only (no PNG frames): ordered delivery to the encoder must not stall with several workers.
    func testGIFAndWebPMatchTheFrames() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 30, scale: 1), baseDirectory: "/")
        let r = try Renderer(scene: scene)
        var o = RenderOptions(); o.outputDirectory = tempDir(); o.formats = [.gif, .webp]; o.jobs = 3
        let result = try r.render(o)
        let frames = try (0..<r.frameCount).map { i in try r.makeWorker().image(at: r.time(ofFrame: i)) }

        let gif = try GIFDecoder.decode(contentsOf: o.outputDirectory + "/animation.gif")
        XCTAssertEqual(gif.loopCount, 0, "loops forever")
        XCTAssertEqual(gif.durationCentiseconds, Int((Double(r.frameCount) * 100 / 30).rounded()), "total duration exact")
        XCTAssertEqual(result.summary(GIFSummary.self)?.sourceFrameCount, r.frameCount)
        XCTAssertLessThan(gif.frames.count, r.frameCount, "identical frames merged")
        XCTAssertEqual(gif.frames.map(\.hasLocalColorTable), [true] + Array(repeating: false, count: gif.frames.count - 1),
                       "one global color table: only the first image has its own")
        for f in TestSweep.sample(gif.frames) {
            // The source frame this GIF frame starts with: frame i starts at round(i × 100 / fps) cs.
            let source = frames[min(r.frameCount - 1, Int((Double(f.startCentiseconds) * 30 / 100).rounded()))]
            // Floor: palettes with dithering on flat UI colors measure ≥ 0.99 here; 0.98 leaves room.
            XCTAssertGreaterThan(ImageSimilarity.meanSSIM(f.image, source), 0.98, "GIF frame at \(f.startCentiseconds) cs")
        }

        let webp = try WebPAnimationDecoder.decode(contentsOf: o.outputDirectory + "/animation.webp")
        XCTAssertEqual(webp.frames.last.map { $0.startMilliseconds + $0.durationMilliseconds }, Int((Double(r.frameCount) * 1000 / 30).rounded()))
        for f in webp.frames {
            let source = frames[Int((Double(f.startMilliseconds) * 30 / 1000).rounded())]
            XCTAssertEqual(f.image, source, "lossless WebP frame at \(f.startMilliseconds) ms is exact")
        }
        let m = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.manifestPath))) as! [String: Any]
        XCTAssertEqual((m["outputs"] as! [[String: String]]).map { $0["file"]! }, ["animation.gif", "animation.webp"])
    }

    func testAnimationsAreDeterministicAcrossJobs() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 20, scale: 1), baseDirectory: "/")
        let r = try Renderer(scene: scene)
        var a = RenderOptions(); a.outputDirectory = tempDir(); a.formats = [.gif, .webp]; a.jobs = 1
        _ = try r.render(a)
        for jobs in [2, 4] {
            var b = a; b.outputDirectory = tempDir(); b.jobs = jobs
            _ = try r.render(b)
            for name in ["animation.gif", "animation.webp", "manifest.json"] {
                XCTAssertEqual(FileManager.default.contents(atPath: a.outputDirectory + "/" + name), FileManager.default.contents(atPath: b.outputDirectory + "/" + name), "\(name), jobs \(jobs)")
            }
        }
    }

    /// A render with fewer than twelve frames shows each frame once, not some twice.
    func testContactSheetOfAShortRenderShowsEveryFrameOnce() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 2, scale: 1), baseDirectory: "/")
        let r = try Renderer(scene: scene)
        XCTAssertLessThan(r.frameCount, 12)
        XCTAssertEqual(try r.contactSheet(), try r.contactSheet(times: (0..<r.frameCount).map(r.time(ofFrame:))))
    }
}
