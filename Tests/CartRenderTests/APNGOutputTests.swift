import CartRenderTestSupport
import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// The APNG a render writes (`--format apng`), decoded and compared with the PNG frames.
final class APNGOutputTests: XCTestCase {
    private func render(fps: Int = 10, _ configure: (inout RenderOptions) -> Void = { _ in }) throws -> (Renderer, RenderOptions, RenderResult) {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: fps, scale: 1), baseDirectory: "/")
        let r = try Renderer(scene: scene)
        var o = RenderOptions(); o.outputDirectory = tempDir(); o.formats = [.png, .apng]; o.jobs = 2
        configure(&o)
        return (r, o, try r.render(o))
    }

    private func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Lossless: the canvas shown at every source frame's time equals that frame's PNG, byte for
    /// byte in RGBA; delays are n/fps and add up to the render; holds are merged and each later
    /// frame stores exactly the rectangle that changed.
    func testEveryFrameEqualsThePNGFrameOfItsTime() throws {
        let (r, o, result) = try render()
        let apng = try APNGDecoder.decode(try bytes(o.outputDirectory + "/animation.png"))
        XCTAssertEqual([apng.width, apng.height], [393, 852])
        XCTAssertEqual(apng.numPlays, 0, "loops forever by default")
        let runs = try XCTUnwrap(apng.sourceRuns(fps: 10), "delays are whole frames")
        XCTAssertEqual(runs.last?.upperBound, r.frameCount, "delays add up to frameCount / fps s")
        for (k, (frame, run)) in zip(apng.frames, runs).enumerated() {
            var (a, b) = (frame.control.delayNumerator, frame.control.delayDenominator)
            while b != 0 { (a, b) = (b, a % b) }
            XCTAssertEqual(a, 1, "frame \(k): delay \(frame.control.delayNumerator)/\(frame.control.delayDenominator) is reduced")
            XCTAssertEqual(frame.control.delayNumerator * 10, run.count * frame.control.delayDenominator, "frame \(k) lasts \(run.count)/10 s")
            for i in run {
                let png = try PNGDecoder.decode(contentsOf: o.outputDirectory + String(format: "/frame_%04d.png", i))
                XCTAssertEqual(frame.canvas, png, "APNG frame \(k) at source frame \(i)")
            }
            XCTAssertEqual([frame.control.dispose, frame.control.blend], [0, 0])
            if k > 0 {
                XCTAssertNotEqual(frame.canvas, apng.frames[k - 1].canvas, "frame \(k) repeats the one before: not merged")
                XCTAssertEqual(frame.control.rect, Self.changedBounds(apng.frames[k - 1].canvas, frame.canvas), "frame \(k) stores what changed, no more")
            }
        }
        XCTAssertLessThan(apng.frames.count, r.frameCount)
        XCTAssertGreaterThan(runs.first?.count ?? 0, 1, "the hold before the first tap is one frame")
        XCTAssertGreaterThan(runs.last?.count ?? 0, 1, "the settled tail is one frame")
        XCTAssertEqual(result.summary(APNGSummary.self).map { [$0.sourceFrameCount, $0.writtenFrameCount] }, [r.frameCount, apng.frames.count])
        XCTAssertEqual(result.notices, [])

        let m = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.manifestPath))) as! [String: Any]
        XCTAssertEqual(m["outputs"] as! [[String: String]],
                       [["file": "animation.png", "sha256": Checksum.sha256(try bytes(o.outputDirectory + "/animation.png"))]])
    }

    func testLoopSetsNumPlays() throws {
        let (_, o, _) = try render { $0.formats = [.apng]; $0.frames = .range(0, 4); $0.apng.loopCount = 3 }
        XCTAssertEqual(try APNGDecoder.decode(try bytes(o.outputDirectory + "/animation.png")).numPlays, 3)
    }

    /// Same scene, same bytes, whatever the number of workers; also beside GIF and WebP.
    func testAPNGIsDeterministicAcrossJobs() throws {
        let (_, a, _) = try render(fps: 20) { $0.formats = [.apng]; $0.jobs = 1 }
        let (_, b, _) = try render(fps: 20) { $0.formats = [.gif, .apng, .webp]; $0.jobs = 2 }
        XCTAssertEqual(try bytes(a.outputDirectory + "/animation.png"), try bytes(b.outputDirectory + "/animation.png"))
    }

    /// The bounding rectangle of the pixels that differ, or nil.
    static func changedBounds(_ a: RGBAImage, _ b: RGBAImage) -> PixelRect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<a.height where a.pixels[(y * a.rowBytes)..<((y + 1) * a.rowBytes)] != b.pixels[(y * a.rowBytes)..<((y + 1) * a.rowBytes)] {
            for x in 0..<a.width where a[x, y] != b[x, y] {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
