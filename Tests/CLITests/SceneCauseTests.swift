import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// A scene-wide change (the tint, orange → teal) fails every frame for one cause: verify names
/// it once (`scene changed: tint orange → teal`) before a few frame lines, the JUnit cases point
/// at the scene file relative to the workspace, on the changed member's line, however the scene
/// path was spelled; a change every frame passes is a warning; the report says what happened
/// in neutral colours.
final class SceneCauseTests: XCTestCase {
    static let options = ["--fps", "4", "--scale", "1", "--quiet"]

    override func setUp() { signal(SIGINT, SIG_DFL) }

    /// `scenes/a.json` (orange) with its baseline recorded into `base`, then the tint changed to
    /// teal; returns the 1-based line of `"tint"` in the scene file.
    private func recordThenChangeTint(in dir: String) throws -> Int {
        try FileManager.default.createDirectory(atPath: dir + "/scenes/sub", withIntermediateDirectories: true)
        try OptimisedBaselineTests.writeScenes(in: dir + "/scenes")
        try FileManager.default.moveItem(atPath: dir + "/scenes/orange.json", toPath: dir + "/scenes/a.json")
        let record = try Binary.run(["verify", "scenes/a.json", "--baseline", "base", "--record", "all"] + Self.options, in: dir)
        XCTAssertEqual(record.status, 0, record.stderr)
        try FileManager.default.removeItem(atPath: dir + "/scenes/a.json")
        try FileManager.default.moveItem(atPath: dir + "/scenes/teal.json", toPath: dir + "/scenes/a.json")
        let text = try String(contentsOfFile: dir + "/scenes/a.json", encoding: .utf8)
        return try XCTUnwrap(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("\"tint\"") }) + 1
    }

    /// `./scenes/a.json`, an absolute path from another working directory with
    /// `GITHUB_WORKSPACE` set, and `scenes/sub/../a.json`: every JUnit case says
    /// `file="scenes/a.json"`, and every failing one `line` = the tint's line (there was no
    /// `file` but the path as given, and no `line`). The console names the change once, then
    /// five frame lines and "… and N more".
    func testJUnitFileAndLineForThreePathSpellings() throws {
        let dir = Binary.tempDir(self)
        let tintLine = try recordThenChangeTint(in: dir)
        let runs: [(scene: String, cwd: String, env: [String: String])] = [
            ("./scenes/a.json", dir, [:]),
            (dir + "/scenes/a.json", dir + "/scenes", ["GITHUB_WORKSPACE": dir]),
            ("scenes/sub/../a.json", dir, [:]),
        ]
        for (k, run) in runs.enumerated() {
            let report = dir + "/report\(k)"
            let r = try Binary.run(["verify", run.scene, "--baseline", dir + "/base", "--report", report] + Self.options,
                                   in: run.cwd, environment: run.env.merging(["CI": "true"]) { $1 })
            XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
            let lines = r.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "scene changed: tint orange → teal", run.scene)
            XCTAssertEqual(lines.filter { $0.hasPrefix("FAIL") }.count, 5, r.stdout)
            XCTAssertTrue(lines.contains { $0.hasPrefix("… and ") && $0.hasSuffix(" more (every frame is in the report and junit.xml)") }, r.stdout)
            let junit = try String(contentsOfFile: report + "/junit.xml", encoding: .utf8)
            let cases = junit.split(separator: "\n").filter { $0.contains("<testcase ") }
            XCTAssertFalse(cases.isEmpty)
            for c in cases {
                XCTAssertTrue(c.contains(" file=\"scenes/a.json\""), "\(run.scene): \(c)")
                if !c.hasSuffix("/>") { XCTAssertTrue(c.contains(" line=\"\(tintLine)\""), "\(run.scene): \(c)") }
            }
            XCTAssertTrue(cases.contains { !$0.hasSuffix("/>") }, "some frames fail")
            let json = try String(contentsOfFile: report + "/report.json", encoding: .utf8)
            XCTAssertTrue(json.contains("\n  \"annotationLine\": \(tintLine),\n"), json)
            XCTAssertTrue(json.contains("\"summary\": \"scene changed: tint orange → teal\""), json)
        }
    }

    /// A scene piped into `verify -` is located in the bytes verify read and decoded: the
    /// change's line is the tint's line there. Before, the scene file was read again by the
    /// name messages give it, `<stdin>`: a file of that name in the working directory (here
    /// one with the tint on another line) was read instead, and without one there was no line.
    func testAChangeOnStandardInputIsLocatedInTheBytesDecoded() throws {
        let dir = Binary.tempDir(self)
        let tintLine = try recordThenChangeTint(in: dir)
        let decoy = String(repeating: "\n", count: tintLine + 5) + #"{"tint": "teal"}"#
        try decoy.write(toFile: dir + "/scenes/<stdin>", atomically: true, encoding: .utf8)
        let r = try Binary.run(["-c", #""$CARTRENDER" verify - --baseline ../base --report ../report "$@" < a.json"#, "bash"] + Self.options,
                               in: dir + "/scenes", environment: ["CARTRENDER": Binary.url.path, "CI": "true"], executable: "/bin/bash")
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("scene changed: tint orange → teal\n"), r.stdout)
        let json = try String(contentsOfFile: dir + "/report/report.json", encoding: .utf8)
        XCTAssertTrue(json.contains("\n  \"annotationLine\": \(tintLine),\n"), json)
        XCTAssertEqual(try String(contentsOfFile: dir + "/scenes/<stdin>", encoding: .utf8), decoy)
    }

    /// The action's annotation is on the same file and line as JUnit's, with the change named.
    func testTheActionAnnotatesTheChangedMember() throws {
        let dir = Binary.tempDir(self)
        let tintLine = try recordThenChangeTint(in: dir)
        let root = URL(fileURLWithPath: #filePath).appendingPathComponent("../../..").standardized.path
        let env = ["GITHUB_ACTION_PATH": root, "GITHUB_OUTPUT": dir + "/output.txt", "GITHUB_WORKSPACE": dir, "CI": "true",
                   "CARTRENDER": Binary.url.path, "INPUT_MODE": "verify", "INPUT_SCENE": "./scenes/sub/../a.json", "INPUT_BASELINE": "base",
                   "INPUT_REPORT": "report", "INPUT_RECORD": "", "INPUT_FPS": "4", "INPUT_SCALE": "1", "INPUT_ARGS": ""]
        let r = try Binary.run(["-c", "\"$GITHUB_ACTION_PATH/Scripts/github-action.sh\" run"], in: dir, environment: env,
                               timeout: 300, executable: "/bin/bash")
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let annotation = try XCTUnwrap(r.stdout.split(separator: "\n").first { $0.hasPrefix("::error ") }, r.stdout)
        XCTAssertTrue(annotation.hasPrefix("::error file=scenes/a.json,line=\(tintLine)::cartrender verify: scene changed: tint orange → teal; "), String(annotation))
    }

    /// A change whose pixels every frame passes (here under `--threshold 1`) is a warning that
    /// says so, in the terminal and the report, whose panels and counts are in neutral colours.
    func testAChangeEveryFramePassesIsAWarning() throws {
        let dir = Binary.tempDir(self)
        _ = try recordThenChangeTint(in: dir)
        let r = try Binary.run(["verify", "scenes/a.json", "--baseline", "base", "--report", "report", "--threshold", "1"] + Self.options,
                               in: dir, environment: ["CI": "true"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("scene changed: tint orange → teal, but every frame passes: no pixel differs beyond the threshold (1, "), r.stderr)
        XCTAssertFalse(r.stdout.contains("scene changed"), "named once, as a warning: \(r.stdout)")
        let html = try String(contentsOfFile: dir + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<h2>Scene changed since the baseline was recorded</h2>"), html)
        XCTAssertTrue(html.contains("<span class=\"n\">0 fail</span>"), "0 fail is not red")
        XCTAssertFalse(html.contains("class=\"n fail\""))
        XCTAssertFalse(html.contains("#fffbe8"), "the state panel is not in a warning colour")
    }
}
