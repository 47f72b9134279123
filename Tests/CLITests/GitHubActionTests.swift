import CartRenderCore
import Foundation
import XCTest

/// The GitHub Action (`action.yml`), run here as GitHub would run it, since GitHub is not
/// reachable: its steps are commands of `Scripts/github-action.sh`, run in the action's order
/// with the variables GitHub sets (`GITHUB_ACTION_PATH`, `GITHUB_OUTPUT`,
/// `GITHUB_STEP_SUMMARY`, `CI`, the `INPUT_*` of the verify step). The build step uses the
/// debug binary of this build (`CARTRENDER`) instead of a release build.
final class GitHubActionTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
    private var dir = ""

    override func setUpWithError() throws { dir = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    /// The `run:` commands of action.yml, in order.
    static func steps() throws -> [String] {
        let yaml = try String(contentsOfFile: root + "/action.yml", encoding: .utf8)
        return yaml.split(separator: "\n").compactMap { line in
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("run: ") else { return nil }
            return String(t.dropFirst(5)).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
        }
    }

    private func runStep(_ command: String, inputs: [String: String]) throws -> Binary.Result {
        let env = ["GITHUB_ACTION_PATH": Self.root, "GITHUB_OUTPUT": dir + "/output.txt", "GITHUB_STEP_SUMMARY": dir + "/summary.md",
                   "CI": "true", "CARTRENDER": Binary.url.path].merging(inputs) { $1 }
        return try Binary.run(["-c", command], in: dir + "/workspace", environment: env, timeout: 300, executable: "/bin/bash")
    }

    func testTheActionsStepsRunInOrderAndVerify() throws {
        let steps = try Self.steps()
        XCTAssertEqual(steps, ["\"$GITHUB_ACTION_PATH/Scripts/github-action.sh\" deps",
                               "\"$GITHUB_ACTION_PATH/Scripts/github-action.sh\" build",
                               "\"$GITHUB_ACTION_PATH/Scripts/github-action.sh\" verify"])
        try FileManager.default.createDirectory(atPath: dir + "/workspace", withIntermediateDirectories: true)
        let scene = DefaultScene.json.replacingOccurrences(of: "\"fps\": 60", with: "\"fps\": 4")
        try scene.write(toFile: dir + "/workspace/fly.json", atomically: true, encoding: .utf8)
        let inputs = ["INPUT_SCENE": "fly.json", "INPUT_BASELINE": "snapshots/fly", "INPUT_REPORT": "reports/fly",
                      "INPUT_RECORD": "", "INPUT_FPS": "", "INPUT_SCALE": "1", "INPUT_ARGS": "--frames 0-5"]

        // Under CI, with no baseline, the job fails with one line and a summary saying so.
        for step in steps {
            let r = try runStep(step, inputs: inputs)
            if step.hasSuffix("verify") {
                XCTAssertEqual(r.status, 1, r.stderr)
                XCTAssertEqual(r.stdout, "cartrender verify: FAILED, there is no baseline directory snapshots/fly (6 frames missing); record it with --record missing (or CARTRENDER_RECORD=missing) and commit it; report: reports/fly/index.html\n")
            } else {
                XCTAssertEqual(r.status, 0, "\(step): \(r.stdout) \(r.stderr)")
            }
        }
        XCTAssertEqual(try String(contentsOfFile: dir + "/output.txt", encoding: .utf8), "passed=false\nreport=reports/fly\n")
        XCTAssertTrue(try String(contentsOfFile: dir + "/summary.md", encoding: .utf8).contains("There is no baseline directory `snapshots/fly`"))

        // Recording through the record input, then a clean run, then a changed frame.
        let record = try runStep(steps[2], inputs: inputs.merging(["INPUT_RECORD": "missing"]) { $1 })
        XCTAssertEqual(record.status, 0, record.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/workspace/snapshots/fly/frame_0005.png"))
        XCTAssertEqual(try runStep(steps[2], inputs: inputs).status, 0)
        try FileManager.default.removeItem(atPath: dir + "/workspace/snapshots/fly/frame_0004.png")
        try FileManager.default.copyItem(atPath: dir + "/workspace/snapshots/fly/frame_0000.png", toPath: dir + "/workspace/snapshots/fly/frame_0004.png")
        try? FileManager.default.removeItem(atPath: dir + "/summary.md")
        let failed = try runStep(steps[2], inputs: inputs)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stdout.hasPrefix("FAIL     frame_0004.png (t=1 s): "), failed.stdout)
        let summary = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        XCTAssertTrue(summary.hasPrefix("### ❌ cartrender verify: FAILED — `fly.json`\n\n1 of 6 frames failed (1 fail) against `snapshots/fly`."), summary)
        XCTAssertTrue(summary.contains("[diff](reports/fly/frame_0004.diff.png)"), summary)
        XCTAssertTrue(try String(contentsOfFile: dir + "/output.txt", encoding: .utf8).hasSuffix("passed=true\nreport=reports/fly\npassed=false\nreport=reports/fly\n"))

        let noBaseline = try runStep(steps[2], inputs: inputs.merging(["INPUT_BASELINE": ""]) { $1 })
        XCTAssertEqual(noBaseline.status, 64)
        XCTAssertEqual(noBaseline.stderr, "github-action.sh: the baseline input is required\n")
    }
}
