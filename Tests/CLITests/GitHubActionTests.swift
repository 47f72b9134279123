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

    /// The steps of action.yml, each as its `key: value` lines (`with:` keys included, indented
    /// keys flattened), in order.
    static func stepBlocks() throws -> [[String: String]] {
        let yaml = try String(contentsOfFile: root + "/action.yml", encoding: .utf8)
        let lines = yaml.split(separator: "\n").drop { $0 != "  steps:" }.dropFirst()
        var blocks: [[String: String]] = []
        for line in lines {
            var t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("- ") { blocks.append([:]); t.removeFirst(2) }
            guard let colon = t.firstIndex(of: ":"), !blocks.isEmpty else { continue }
            blocks[blocks.count - 1][String(t[..<colon])] = t[t.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return blocks
    }

    /// The names of the action's inputs, in order.
    static func inputs() throws -> [String] {
        let yaml = try String(contentsOfFile: root + "/action.yml", encoding: .utf8)
        return yaml.split(separator: "\n").drop { $0 != "inputs:" }.dropFirst().prefix { $0.hasPrefix(" ") }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.map { String($0.dropFirst(2).dropLast()) }
    }

    /// After verify, whatever its result, the report directory (the `report` input) is uploaded
    /// as the artifact named by the `artifact` input.
    func testTheReportIsUploadedAsAnArtifactAfterVerify() throws {
        let blocks = try Self.stepBlocks()
        let verify = try XCTUnwrap(blocks.firstIndex { $0["id"] == "verify" })
        let upload = try XCTUnwrap(blocks.firstIndex { $0["uses"] == "actions/upload-artifact@v4" }, "\(blocks)")
        XCTAssertGreaterThan(upload, verify)
        XCTAssertEqual(blocks[upload]["if"], "always()")
        XCTAssertEqual(blocks[upload]["path"], "${{ inputs.report }}")
        XCTAssertEqual(blocks[upload]["name"], "${{ inputs.artifact }}")
        XCTAssertEqual(blocks[verify]["INPUT_REPORT"], "${{ inputs.report }}")
    }

    /// Every input is declared, handed to the script and documented: the scene, the baseline,
    /// the report directory and its artifact, the record mode, the fps and scale overrides.
    func testTheInputsExistAndAreDocumented() throws {
        let inputs = try Self.inputs()
        XCTAssertEqual(inputs, ["scene", "baseline", "report", "artifact", "record", "fps", "scale", "args"])
        let blocks = try Self.stepBlocks()
        let verify = try XCTUnwrap(blocks.first { $0["id"] == "verify" })
        let yaml = try String(contentsOfFile: Self.root + "/action.yml", encoding: .utf8)
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "### The GitHub Action").dropFirst().first)
        for name in inputs {
            XCTAssertTrue(yaml.contains("${{ inputs.\(name) }}"), "\(name) is not used")
            if name != "artifact" { XCTAssertEqual(verify["INPUT_" + name.uppercased()], "${{ inputs.\(name) }}", name) }
            XCTAssertTrue(section.contains("`\(name)`"), "\(name) is not in the README's action section")
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
