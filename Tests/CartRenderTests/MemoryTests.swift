import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// Resident memory does not grow with the number of renders in one process (issue #7).
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
}
