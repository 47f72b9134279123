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
        let verify = try XCTUnwrap(blocks.firstIndex { $0["id"] == "run" })
        let upload = try XCTUnwrap(blocks.firstIndex { $0["uses"] == "actions/upload-artifact@v6" }, "\(blocks)")
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
        XCTAssertEqual(inputs, ["mode", "scene", "baseline", "report", "artifact", "record", "fps", "scale", "args", "version", "release-url",
                                "pr-comment", "pr-comment-branch", "github-token"])
        let blocks = try Self.stepBlocks()
        let verify = try XCTUnwrap(blocks.first { $0["id"] == "run" })
        let install = try XCTUnwrap(blocks.first { $0["id"] == "install" })
        let comment = try XCTUnwrap(blocks.first { $0["name"] == "Comment on the pull request" })
        let yaml = try String(contentsOfFile: Self.root + "/action.yml", encoding: .utf8)
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "### The GitHub Action").dropFirst().first)
        for name in inputs {
            XCTAssertTrue(yaml.contains("${{ inputs.\(name) }}"), "\(name) is not used")
            let step = ["version", "release-url"].contains(name) ? install : ["pr-comment-branch", "github-token"].contains(name) ? comment : verify
            let variable = "INPUT_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
            if name != "artifact" { XCTAssertEqual(step[variable], "${{ inputs.\(name) }}", name) }
            XCTAssertTrue(section.contains("`\(name)`"), "\(name) is not in the README's action section")
        }
    }

    private func runStep(_ command: String, inputs: [String: String]) throws -> Binary.Result {
        let env = ["GITHUB_ACTION_PATH": Self.root, "GITHUB_OUTPUT": dir + "/output.txt", "GITHUB_STEP_SUMMARY": dir + "/summary.md",
                   "CI": "true", "CARTRENDER": Binary.url.path].merging(inputs) { $1 }
        return try Binary.run(["-c", command], in: dir + "/workspace", environment: env, timeout: 300, executable: "/bin/bash")
    }

    /// The cache is keyed and placed by the `key` step (a workspace path, the same inside a
    /// container job), and the Debian packages step installs the runtime set only once the
    /// binary is cached, never the test set.
    func testTheCacheKeyAndThePackageSets() throws {
        let blocks = try Self.stepBlocks()
        let cache = try XCTUnwrap(blocks.first { $0["uses"] == "actions/cache@v5" })
        XCTAssertEqual(cache["path"], "${{ steps.key.outputs.dir }}")
        XCTAssertEqual(cache["key"], "${{ steps.key.outputs.key }}")
        try FileManager.default.createDirectory(atPath: dir + "/workspace", withIntermediateDirectories: true)
        let key = try runStep("\"$GITHUB_ACTION_PATH/Scripts/github-action.sh\" key", inputs: [:])
        XCTAssertEqual(key.status, 0, key.stderr)
        let output = try String(contentsOfFile: dir + "/output.txt", encoding: .utf8)
        let version = try String(contentsOfFile: Self.root + "/VERSION", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, output)
        XCTAssertTrue(lines[0].hasPrefix("key=cartrender-\(version)-"), output)
        XCTAssertEqual(lines[1], "dir=.cartrender-action/" + lines[0].dropFirst(4))
        // Same sources, same key.
        XCTAssertEqual(try runStep("\"$GITHUB_ACTION_PATH/Scripts/github-action.sh\" key", inputs: [:]).stdout, key.stdout)

        let make = try Binary.run(["-C", Self.root, "-n", "-s", "runtime-deps"], in: dir, timeout: 60, executable: "/usr/bin/make")
        for test in ["chromium", "python3-venv", "libxml2-utils", "-dev", "zsh"] { XCTAssertFalse(make.stdout.contains(test), test) }
        XCTAssertTrue(make.stdout.contains("libcairo2 "), make.stdout)
        let build = try Binary.run(["-C", Self.root, "-n", "-s", "build-deps"], in: dir, timeout: 60, executable: "/usr/bin/make")
        for test in ["chromium", "libxml2-utils", "zsh", "groff"] { XCTAssertFalse(build.stdout.contains(test), test) }
        XCTAssertTrue(build.stdout.contains("libcairo2-dev"), build.stdout)
    }

    /// The outputs written by one run of the run step, as `name=value` pairs, in order.
    private func outputs() throws -> [String] {
        defer { try? FileManager.default.removeItem(atPath: dir + "/output.txt") }
        return try String(contentsOfFile: dir + "/output.txt", encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func testTheActionsStepsRunInOrderAndVerify() throws {
        let steps = try Self.steps()
        XCTAssertEqual(steps, ["\"$GITHUB_ACTION_PATH/Scripts/action-install.sh\""]
                       + ["key", "deps", "build", "run", "comment"].map { "\"$GITHUB_ACTION_PATH/Scripts/github-action.sh\" \($0)" })
        // The install step takes the source route here (a non-release reference): the steps that build run.
        let blocks = try Self.stepBlocks()
        for name in ["Cache key", "Cache cartrender", "Install the Debian packages", "Build cartrender"] {
            XCTAssertEqual(blocks.first { $0["name"] == name }?["if"], "steps.install.outputs.route == 'source'", name)
        }
        XCTAssertEqual(blocks.first { $0["id"] == "run" }?["CARTRENDER"], "${{ steps.install.outputs.cartrender }}")
        try FileManager.default.createDirectory(atPath: dir + "/workspace", withIntermediateDirectories: true)
        let scene = DefaultScene.json.replacingOccurrences(of: "\"fps\": 60", with: "\"fps\": 4")
        try scene.write(toFile: dir + "/workspace/fly.json", atomically: true, encoding: .utf8)
        let base = ["GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "shop/app", "GITHUB_RUN_ID": "42"]
        let inputs = base.merging(["INPUT_SCENE": "fly.json", "INPUT_BASELINE": "snapshots/fly", "INPUT_REPORT": "reports/fly",
                                   "INPUT_RECORD": "", "INPUT_FPS": "", "INPUT_SCALE": "1", "INPUT_ARGS": "--frames\n0-5\n"]) { $1 }

        // Under CI, with no baseline, the job fails with one line and a summary saying so.
        for step in steps {
            let r = try runStep(step, inputs: inputs)
            if step.hasSuffix(" run") {
                XCTAssertEqual(r.status, 1, r.stderr)
                XCTAssertTrue(r.stdout.hasPrefix("cartrender verify: FAILED, there is no baseline directory snapshots/fly (6 frames missing); record it with --record missing (or CARTRENDER_RECORD=missing) and commit it; report: reports/fly/index.html\n"), r.stdout)
                XCTAssertTrue(r.stdout.contains("::error file=fly.json,line=1::cartrender verify: 6 frames failed; report: reports/fly/index.html\n"), r.stdout)
            } else {
                XCTAssertEqual(r.status, 0, "\(step): \(r.stdout) \(r.stderr)")
            }
        }
        XCTAssertEqual(try outputs().suffix(4), ["result=fail", "exit-code=1", "failed-frames=6", "report=reports/fly"])
        let first = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        XCTAssertTrue(first.contains("There is no baseline directory `snapshots/fly`"))
        XCTAssertTrue(first.hasSuffix("The report is the artifact of [this run](https://github.com/shop/app/actions/runs/42).\n\n"), first)
        let run = steps[4]

        // Recording through the record input, then a clean run, then a changed frame.
        let record = try runStep(run, inputs: inputs.merging(["INPUT_RECORD": "missing"]) { $1 })
        XCTAssertEqual(record.status, 0, record.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/workspace/snapshots/fly/frame_0005.png"))
        _ = try outputs()
        let pass = try runStep(run, inputs: inputs)
        XCTAssertEqual(pass.status, 0)
        XCTAssertFalse(pass.stdout.contains("::error"))
        XCTAssertEqual(try outputs(), ["result=pass", "exit-code=0", "failed-frames=0", "report=reports/fly"])
        try FileManager.default.removeItem(atPath: dir + "/workspace/snapshots/fly/frame_0004.png")
        try FileManager.default.copyItem(atPath: dir + "/workspace/snapshots/fly/frame_0000.png", toPath: dir + "/workspace/snapshots/fly/frame_0004.png")
        try? FileManager.default.removeItem(atPath: dir + "/summary.md")
        let failed = try runStep(run, inputs: inputs)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stdout.hasPrefix("FAIL     frame_0004.png (t=1 s): "), failed.stdout)
        XCTAssertTrue(failed.stdout.hasSuffix("::error file=fly.json,line=1::cartrender verify: 1 frames failed; report: reports/fly/index.html\n"), failed.stdout)
        let summary = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        XCTAssertTrue(summary.hasPrefix("### ❌ cartrender verify: FAILED — `fly.json`\n\n1 of 6 frames failed (1 fail) against `snapshots/fly`."), summary)
        XCTAssertTrue(summary.range(of: #"\[diff\]\(reports/fly/diff_[0-9a-f]{16}\.png\)"#, options: .regularExpression) != nil, summary)
        XCTAssertLessThanOrEqual(summary.utf8.count, 1 << 20)
        XCTAssertEqual(try outputs(), ["result=fail", "exit-code=1", "failed-frames=1", "report=reports/fly"])

        // A later tap: the state diverges, and the annotation is on the line of the tap that moved.
        let moved = scene.replacingOccurrences(of: "\"at\": 0.5", with: "\"at\": 0.75")
        XCTAssertNotEqual(moved, scene)
        try moved.write(toFile: dir + "/workspace/fly.json", atomically: true, encoding: .utf8)
        let diverged = try runStep(run, inputs: inputs)
        XCTAssertEqual(diverged.status, 1)
        let lines = moved.split(separator: "\n", omittingEmptySubsequences: false)
        let tapLine = try XCTUnwrap(lines.firstIndex { $0.contains("\"at\": 0.75") }) + 1
        let eventsLine = try XCTUnwrap(lines.firstIndex { $0.contains("\"events\"") }) + 1
        XCTAssertNotEqual(tapLine, eventsLine, "the scene must put the tap on its own line for this check")
        XCTAssertTrue(diverged.stdout.contains("::error file=fly.json,line=\(tapLine)::cartrender verify: the state diverges from the baseline's"), diverged.stdout)
        _ = try outputs()
        try scene.write(toFile: dir + "/workspace/fly.json", atomically: true, encoding: .utf8)

        // Arguments are a list, never split nor glob-expanded: `*` reaches cartrender as it is.
        try "x".write(toFile: dir + "/workspace/a-file", atomically: true, encoding: .utf8)
        let usage = try runStep(run, inputs: inputs.merging(["INPUT_ARGS": "--mask\n*\n"]) { $1 })
        XCTAssertEqual(usage.status, 64, usage.stdout)
        XCTAssertTrue(usage.stderr.contains("\"*\""), usage.stderr)
        XCTAssertEqual(try outputs(), ["result=error", "exit-code=64", "failed-frames=0", "report=reports/fly"], "a usage error is not a difference")
        let noBaseline = try runStep(run, inputs: inputs.merging(["INPUT_BASELINE": ""]) { $1 })
        XCTAssertEqual(noBaseline.status, 64)
        XCTAssertEqual(noBaseline.stderr, "github-action.sh: the baseline input is required\n")
        XCTAssertEqual(try outputs(), ["result=error", "exit-code=64", "failed-frames=0", "report=reports/fly"])

        // render mode: the frames into the report input's directory.
        let render = try runStep(run, inputs: inputs.merging(["INPUT_MODE": "render", "INPUT_REPORT": "docs-frames"]) { $1 })
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/workspace/docs-frames/frame_0005.png"))
        XCTAssertEqual(try outputs(), ["result=pass", "exit-code=0", "failed-frames=0", "report=docs-frames"])
    }

    /// The step outputs as GitHub reads `$GITHUB_OUTPUT`: `NAME=VALUE` lines and
    /// `NAME<<DELIMITER` … `DELIMITER` blocks, every pair in order (a name may repeat).
    private func outputPairs() throws -> [(String, String)] {
        defer { try? FileManager.default.removeItem(atPath: dir + "/output.txt") }
        var lines = try String(contentsOfFile: dir + "/output.txt", encoding: .utf8).components(separatedBy: "\n")[...]
        var pairs: [(String, String)] = []
        while let line = lines.popFirst() {
            guard !line.isEmpty else { continue }
            let eq = line.firstIndex(of: "="), heredoc = line.range(of: "<<")
            if let eq, heredoc == nil || eq < heredoc!.lowerBound {
                pairs.append((String(line[..<eq]), String(line[line.index(after: eq)...])))
            } else if let heredoc {
                let delimiter = String(line[heredoc.upperBound...])
                var value: [String] = []
                while let next = lines.popFirst(), next != delimiter { value.append(next) }
                pairs.append((String(line[..<heredoc.lowerBound]), value.joined(separator: "\n")))
            }
        }
        return pairs
    }

    /// No input and no scene name injects into CI: a scene file name or a report input with a
    /// line break and `::warning::` reaches the annotation escaped as GitHub's rules say (data
    /// `%25 %0D %0A`, properties also `%3A %2C`), cartrender's own lines with `\n`, and the report
    /// input cannot add `result=pass` after `result=fail` to the step outputs.
    func testNoSceneNameOrInputInjectsWorkflowCommandsOrOutputs() throws {
        try FileManager.default.createDirectory(atPath: dir + "/workspace", withIntermediateDirectories: true)
        let scene = DefaultScene.json.replacingOccurrences(of: "\"fps\": 60", with: "\"fps\": 4")
        let name = "a\n::warning::forged,x:y%.json"
        try scene.write(toFile: dir + "/workspace/" + name, atomically: true, encoding: .utf8)
        let report = "r\nresult=pass\r\n::error::forged"
        let run = "\"$GITHUB_ACTION_PATH/Scripts/github-action.sh\" run"
        let r = try runStep(run, inputs: ["INPUT_SCENE": name, "INPUT_BASELINE": "snaps", "INPUT_REPORT": report, "INPUT_SCALE": "1",
                                          "INPUT_ARGS": "--frames\n0-5\n"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let commands = (r.stdout + r.stderr).split(separator: "\n", omittingEmptySubsequences: false).filter { $0.hasPrefix("::") }
        XCTAssertEqual(commands, ["::error file=a%0A%3A%3Awarning%3A%3Aforged%2Cx%3Ay%25.json,line=1::cartrender verify: 6 frames failed; "
                                  + "report: r%0Aresult=pass%0D%0A::error::forged/index.html"], r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("report: r\\nresult=pass\\r\\n::error::forged/index.html"), r.stdout)
        let pairs = try outputPairs()
        XCTAssertEqual(pairs.filter { $0.0 == "result" }.map(\.1), ["fail"], "\(pairs)")
        XCTAssertEqual(pairs.first { $0.0 == "report" }?.1, report)
        XCTAssertEqual(pairs.map(\.0), ["result", "exit-code", "failed-frames", "report"])
    }

    /// A variant matrix through the action: one summary with a row per variant, the failed
    /// frames of every variant in `failed-frames`, one annotation.
    func testAVariantMatrixThroughTheAction() throws {
        try FileManager.default.createDirectory(atPath: dir + "/workspace", withIntermediateDirectories: true)
        let scene = #"{"screen": "shop", "fps": 4, "duration": 0.5, "events": [{"at": 0.25, "tap": "add"}], "variants": {"colorScheme": ["light", "dark"]}}"#
        try scene.write(toFile: dir + "/workspace/matrix.json", atomically: true, encoding: .utf8)
        let run = "\"$GITHUB_ACTION_PATH/Scripts/github-action.sh\" run"
        let inputs = ["INPUT_SCENE": "matrix.json", "INPUT_BASELINE": "snaps", "INPUT_REPORT": "report", "INPUT_SCALE": "1", "GITHUB_RUN_ID": "7",
                      "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "shop/app"]
        XCTAssertEqual(try runStep(run, inputs: inputs.merging(["INPUT_RECORD": "missing"]) { $1 }).status, 0)
        XCTAssertEqual(try outputs(), ["result=pass", "exit-code=0", "failed-frames=0", "report=report"])
        for f in try FileManager.default.contentsOfDirectory(atPath: dir + "/workspace/snaps/dark") where f.hasSuffix(".png") {
            try FileManager.default.removeItem(atPath: dir + "/workspace/snaps/dark/" + f)
            try FileManager.default.copyItem(atPath: dir + "/workspace/snaps/light/" + f, toPath: dir + "/workspace/snaps/dark/" + f)
        }
        try? FileManager.default.removeItem(atPath: dir + "/summary.md")
        let failed = try runStep(run, inputs: inputs)
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(try outputs(), ["result=fail", "exit-code=1", "failed-frames=3", "report=report"])
        XCTAssertEqual(failed.stdout.components(separatedBy: "::error ").count, 2, failed.stdout)
        XCTAssertTrue(failed.stdout.contains("::error file=matrix.json,line=1::cartrender verify: 3 frames failed; report: report/index.html"), failed.stdout)
        let summary = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        XCTAssertTrue(summary.hasPrefix("### ❌ cartrender verify: FAILED — `matrix.json`, 2 variants\n"), summary)
        XCTAssertTrue(summary.contains("| `dark` | ❌ FAILED | 3 | 3 | 0 | [index.html](report/dark/index.html) |"), summary)
        XCTAssertTrue(summary.hasSuffix("[this run](https://github.com/shop/app/actions/runs/7).\n\n"), summary)
        XCTAssertLessThanOrEqual(summary.utf8.count, 1 << 20)

        // A moved event in a matrix (each variant's report.json in its own directory, none at
        // the top) and, in a scene written over several lines, a removed one (no moved event
        // has a scene event): each fails with status 1 and one annotation, on the line of the
        // moved tap and on the line of "events".
        let moved = #"{"screen": "shop", "fps": 4, "duration": 0.5,\#n"events": [\#n{"at": 0.5, "tap": "add"}],\#n"variants": {"colorScheme": ["light", "dark"]}}"#
        try moved.write(toFile: dir + "/workspace/matrix.json", atomically: true, encoding: .utf8)
        let diverged = try runStep(run, inputs: inputs)
        XCTAssertEqual(diverged.status, 1, diverged.stderr)
        XCTAssertTrue(diverged.stdout.contains("::error file=matrix.json,line=3::cartrender verify: the state diverges from the baseline's"), diverged.stdout)
        let removed = #"{"screen": "shop", "fps": 4, "duration": 0.5,\#n"events": [\#n],\#n"variants": {"colorScheme": ["light", "dark"]}}"#
        try removed.write(toFile: dir + "/workspace/matrix.json", atomically: true, encoding: .utf8)
        let gone = try runStep(run, inputs: inputs)
        XCTAssertEqual(gone.status, 1, gone.stderr)
        XCTAssertTrue(gone.stdout.contains("::error file=matrix.json,line=2::cartrender verify: the state diverges from the baseline's"), gone.stdout)
        XCTAssertEqual(try outputs().prefix(2), ["result=fail", "exit-code=1"])
    }
}
