@testable import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// ``Renderer``: frame planning (selections, `--at`, their errors).
final class RendererTests: XCTestCase {
    func testSelectionsArePlannedOnceInIndexOrderAndCheckedInOnePlace() throws {
        let r = try Renderer(scene: DefaultScene.scene(overrides: SceneOverrides(fps: 10, scale: 1), baseDirectory: "/"))
        XCTAssertEqual(try r.plan([]).count, r.frameCount)
        XCTAssertEqual(try r.plan([.range(3, 5)]).map(\.index), [3, 4, 5])
        // Render: `--at` shows the exact time under the nearest index; verify: that frame's time.
        XCTAssertEqual(try r.plan([.at(0.34)]), [PlannedFrame(index: 3, time: 0.34)])
        XCTAssertEqual(try r.plan([.at(0.34)], exactTimes: false), [PlannedFrame(index: 3, time: 0.3)])
        XCTAssertEqual(try r.plan([.range(4, 6), .at(0.34), .range(2, 4)], exactTimes: false).map(\.index), [2, 3, 4, 5, 6])
        XCTAssertEqual(try r.plan([.at(r.endTime)]).map(\.index), [r.frameCount - 1])
        // `--at end`: the last index, showing the end of the timeline as the decoder resolves it.
        XCTAssertEqual(try r.plan([.end]), [PlannedFrame(index: r.frameCount - 1, time: r.duration)])
        XCTAssertEqual(try r.plan([.range(0, 1), .end], exactTimes: false).map(\.index), [0, 1, r.frameCount - 1])
        let table: [(FrameSelection, String)] = [
            (.range(0, r.frameCount), "--frames: the render has frames 0-\(r.frameCount - 1), got \(r.frameCount) as the last"),
            (.at(r.endTime + 0.01), "--at: the render ends at \(JSONValue.format(r.endTime, decimals: 6)) s, got \(JSONValue.format(r.endTime + 0.01, decimals: 6))"),
            (.at(-1), "--at: times start at 0 s, got -1"),
        ]
        for (selection, message) in table {
            for exact in [true, false] {
                XCTAssertThrowsError(try r.plan([selection], exactTimes: exact)) { XCTAssertEqual("\($0)", message) }
            }
        }
    }
}
