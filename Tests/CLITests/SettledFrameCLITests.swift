import CartRenderCore
import Foundation
import XCTest

/// `--at end` and `--at start` for render, verify and audit (one settled frame as a flake-free
/// snapshot), and `verify --at T` comparing the state at the time its baseline frame shows.
final class SettledFrameCLITests: XCTestCase {
    private var dir = ""

    /// The fly button at 20 fps, one tap at 0.3 s, open-ended: the render ends 0.5 s after the
    /// flight lands (``Renderer/tail``).
    private let scene = #"{"screen": "shop", "fps": 20, "events": [{"at": 0.3, "tap": "add"}]}"#

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory()
        try scene.write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func run(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Binary.Result {
        try Binary.run(args, in: dir, environment: ["CI": "true"], timeout: 300, file: file, line: line)
    }

    private func manifest(_ path: String) throws -> Manifest {
        try Manifest(json: Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + path + "/manifest.json"))))
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: dir + "/" + path)) }

    /// `--at end` is the last frame index showing the settled state (the same pixels and state as
    /// a whole render's last frame), `--at start` frame 0 at 0 s; before, both were usage errors.
    func testRenderAtEndAndStartWriteOneSettledFrame() throws {
        let all = try run(["render", "scene.json", "--scale", "1", "--quiet", "-o", "all"])
        XCTAssertEqual(all.status, 0, all.stderr)
        let whole = try manifest("all")
        let last = try XCTUnwrap(whole.frames.last)

        let end = try run(["render", "scene.json", "--scale", "1", "--quiet", "-o", "end", "--at", "end"])
        XCTAssertEqual(end.status, 0, end.stderr)
        let settled = try manifest("end")
        XCTAssertEqual(settled.frames.map(\.index), [last.index])
        XCTAssertEqual(settled.frames[0].state, last.state, "the settled state")
        XCTAssertEqual(settled.frames[0].time, Double(last.index) / 20, accuracy: 0.025 + 1e-9, "the end of the timeline")
        let name = last.files[0].name
        XCTAssertEqual(try bytes("end/" + name), try bytes("all/" + name))

        let start = try run(["render", "scene.json", "--scale", "1", "--quiet", "-o", "start", "--at", "start"])
        XCTAssertEqual(start.status, 0, start.stderr)
        XCTAssertEqual(try manifest("start").frames.map(\.index), [0])
        XCTAssertEqual(try manifest("start").frames[0].time, 0)
        XCTAssertEqual(try bytes("start/" + whole.frames[0].files[0].name), try bytes("all/" + whole.frames[0].files[0].name))

        let bad = try run(["render", "scene.json", "--at", "later"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.hasPrefix(#"cartrender: --at: expected a time in seconds ≥ 0, start or end, got "later""#), bad.stderr)
    }

    /// A baseline from `render --at end` verifies with `verify --at end`, and one from a whole
    /// render too (its last frame).
    func testVerifyAtEndAgainstASettledBaseline() throws {
        XCTAssertEqual(try run(["render", "scene.json", "--scale", "1", "--quiet", "-o", "settled", "--at", "end"]).status, 0)
        let settled = try run(["verify", "scene.json", "--scale", "1", "--quiet", "--baseline", "settled", "--at", "end", "--record", "never"])
        XCTAssertEqual(settled.status, 0, settled.stdout + settled.stderr)
        XCTAssertTrue(settled.stdout.hasPrefix("cartrender verify: passed"), settled.stdout)

        XCTAssertEqual(try run(["render", "scene.json", "--scale", "1", "--quiet", "-o", "whole"]).status, 0)
        let whole = try run(["verify", "scene.json", "--scale", "1", "--quiet", "--baseline", "whole", "--at", "end", "--at", "start",
                             "--record", "never", "--report", "r2"])
        XCTAssertEqual(whole.status, 0, whole.stdout + whole.stderr)
    }

    /// A baseline from `render --at 0.325` (frame 7 at 20 fps, mid-flight) verified with
    /// `verify --at 0.325` compares the state at 0.325 s, not at frame 7's 0.35 s: it passes and
    /// blames no motion. Before, it said "state diverges at frame 7 (t=0.35 s)".
    func testVerifyAtATimeComparesTheStateAtTheBaselinesTime() throws {
        let render = try run(["render", "scene.json", "--scale", "1", "--quiet", "-o", "mid", "--at", "0.325"])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertEqual(try manifest("mid").frames.map(\.time), [0.325])
        let verify = try run(["verify", "scene.json", "--scale", "1", "--quiet", "--baseline", "mid", "--at", "0.325", "--record", "never", "--json"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["passed"] as? Bool, true)
        XCTAssertTrue(report["stateDivergence"] is NSNull, "\(report["stateDivergence"] ?? "")")
        let lines = try run(["verify", "scene.json", "--scale", "1", "--quiet", "--baseline", "mid", "--at", "0.325", "--record", "never"])
        XCTAssertFalse(lines.stdout.contains("diverges"), lines.stdout)
        XCTAssertEqual(lines.status, 0, lines.stdout)
    }

    /// `audit --at end` audits the one settled frame.
    func testAuditAtEndAuditsOneFrame() throws {
        let out = try run(["audit", "scene.json", "--at", "end", "--quiet", "--json"])
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any], out.stderr)
        XCTAssertEqual(report["frames"] as? Int, 1, out.stdout)
    }
}
