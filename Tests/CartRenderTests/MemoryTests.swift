import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// Resident memory does not grow with the number of renders in one process.
final class MemoryTests: XCTestCase {
    /// VmRSS of this process (KiB).
    func residentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    /// Each `FontEnvironment` used to keep about 0.6 MB alive after its renderer was gone
    /// (fontconfig and Pango hold on to a configuration's fonts): 30 renderers grew the process
    /// by about 19 MB. They now share one environment.
    func testRenderersDoNotAccumulateMemory() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 20, scale: 1), baseDirectory: "/")
        func renderOne() throws { _ = try Renderer(scene: scene).makeWorker().image(at: 0.6) }
        for _ in 0..<10 { try renderOne() }
        let before = try residentKiB()
        for _ in 0..<30 { try renderOne() }
        let growth = try residentKiB() - before
        XCTAssertLessThan(growth, 6 * 1024, "30 renderers grew the process by \(growth) KiB")
    }

    /// Drawing and encoding frames keeps nothing per frame: once every frame of the timeline
    /// has been drawn (filling Pango's and Cairo's font and glyph caches, which are bounded, for
    /// each scale of the animated text), drawing the timeline twice more leaves the resident size
    /// where it was. SVG frames grow by Cairo 1.16's leak of 472 bytes per translucent group
    /// (Scripts/repro/cairo-svg-group-leak.c): about 160 KiB for these 396 frames.
    func testFramesDoNotAccumulateMemory() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 60, scale: 1), baseDirectory: "/")
        let renderer = try Renderer(scene: scene)
        let worker = try renderer.makeWorker()
        for format in [OutputFormat.png, .svg] {
            func renderTimeline() throws {
                for i in 0..<renderer.frameCount {
                    let (display, _) = worker.frame(at: renderer.time(ofFrame: i))
                    switch format {
                    case .png: _ = try PNGEncoder.encode(try worker.rasterize(display))
                    case .svg: _ = try worker.svg(display)
                    default: XCTFail("animations are not per-frame formats")
                    }
                }
            }
            try renderTimeline()
            let before = try residentKiB()
            try renderTimeline()
            try renderTimeline()
            let growth = try residentKiB() - before
            print("MemoryTests: \(2 * renderer.frameCount) more \(format) frames changed the resident size by \(growth) KiB")
            XCTAssertLessThan(growth, format == .png ? 512 : 1024, "\(2 * renderer.frameCount) \(format) frames grew the process by \(growth) KiB")
        }
    }
}
