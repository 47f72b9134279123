import CartRender
import CartRenderCLI
import CartRenderCore
import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// `cartrender verify` run as a user runs it: the built binary, its output and its exit status.
final class VerifyCLITests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory()
        // The default scene at 4 fps: 14 frames, rendered at 1x below.
        let scene = DefaultScene.json.replacingOccurrences(of: "\"fps\": 60", with: "\"fps\": 4")
        try scene.write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func run(_ args: [String], env: [String: String] = [:], timeout: TimeInterval = 120,
                     file: StaticString = #filePath, line: UInt = #line) throws -> Binary.Result {
        try Binary.run(args, in: dir, environment: env, timeout: timeout, file: file, line: line)
    }

    private let verify = ["verify", "scene.json", "--baseline", "snaps/scene", "--scale", "1"]

    /// The report's images of frame `index` (`expected`, `actual`, `diff`), as report.json names them.
    private func reportImages(_ index: Int) throws -> [String: String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/snaps/cartrender-report/report.json"))
        let frames = try XCTUnwrap((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["frames"] as? [[String: Any]])
        return try XCTUnwrap(frames[index]["files"] as? [String: String])
    }

    private func changePixel(_ frame: String) throws {
        let p = dir + "/snaps/scene/" + frame
        var image = try PNGDecoder.decode(contentsOf: p)
        image.pixels[(10 * image.width + 10) * 4 + 1] ^= 0xFF
        try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: p))
        // As a recording of a render with that pixel changed leaves it: cartrender's own.
        try OwnershipFixture.adopt([frame], in: dir + "/snaps/scene")
    }

    func testRecordThenVerifyPassesAndOneChangedFrameFails() throws {
        let record = try run(verify)
        XCTAssertEqual(record.status, 0, record.stderr)
        XCTAssertEqual(record.stdout, "cartrender verify: passed, 14 frames, 14 recorded in snaps/scene; report: snaps/cartrender-report/index.html\n"
            + "recorded 14 baseline frames in snaps/scene (frames 0-13, record mode missing); review them and commit snaps/scene\n")

        let again = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "cartrender verify: passed, 14 frames, 14 matched (14 byte-identical); report: snaps/cartrender-report/index.html\n")

        try changePixel("frame_0006.png")
        let failed = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(failed.status, 1)
        let lines = failed.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, failed.stdout)
        let images = try reportImages(6)
        XCTAssertEqual(lines[0], "FAIL     frame_0006.png (t=1.5 s): 1 px differs (0.0003 %), allowed 0 px → snaps/cartrender-report/\(images["diff"]!)")
        XCTAssertEqual(lines[1], "cartrender verify: FAILED, 1 of 14 frames failed (1 fail); report: snaps/cartrender-report/index.html")
        XCTAssertEqual(failed.stderr, "")
        let html = try String(contentsOfFile: dir + "/snaps/cartrender-report/index.html", encoding: .utf8)
        for name in ["expected", "actual", "diff"].map({ images[$0]! }) {
            XCTAssertTrue(html.contains("src=\"\(name)\""), name)
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/snaps/cartrender-report/" + name), name)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/snaps/cartrender-report/junit.xml"))
    }

    func testMissingBaselineUnderCIFailsAndSaysHowToRecord() throws {
        try FileManager.default.createDirectory(atPath: dir + "/snaps/scene", withIntermediateDirectories: true)
        let r = try run(verify + ["--frames", "0-1"], env: ["CI": "true"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.hasPrefix("MISSING  frame_0000.png (t=0 s): no baseline frame at snaps/scene/frame_0000.png; record it with --record missing (or CARTRENDER_RECORD=missing)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("FAILED, 2 of 2 frames failed (2 missing)"), r.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/snaps/scene"), [])
    }

    /// Under CI, a baseline directory that does not exist is one line, not a MISSING line per
    /// frame; the run fails (exit 1) and the report still lists every frame.
    func testNoBaselineDirectoryUnderCIIsOneLine() throws {
        let r = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "cartrender verify: FAILED, there is no baseline directory snaps/scene (14 frames missing); record it with --record missing (or CARTRENDER_RECORD=missing) and commit it; report: snaps/cartrender-report/index.html\n")
        XCTAssertEqual(r.stderr, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/snaps/scene"))
        let junit = try String(contentsOfFile: dir + "/snaps/cartrender-report/junit.xml", encoding: .utf8)
        XCTAssertEqual(junit.components(separatedBy: "<failure type=\"missing\"").count - 1, 14)
        let json = try run(verify + ["--json"], env: ["CI": "true"])
        XCTAssertEqual(json.status, 1)
        XCTAssertTrue(json.stdout.hasPrefix("{"), "--json still prints the report")
    }

    func testRecordModeFromTheEnvironment() throws {
        let r = try run(verify + ["--frames", "0-1"], env: ["CI": "true", "CARTRENDER_RECORD": "all"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/snaps/scene/frame_0001.png"))
        let explicit = try run(verify + ["--frames", "0-2", "--record", "never"], env: ["CARTRENDER_RECORD": "all"])
        XCTAssertEqual(explicit.status, 1, "--record wins over the environment")
        let bad = try run(verify, env: ["CARTRENDER_RECORD": "sometimes"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.stderr, "cartrender: CARTRENDER_RECORD: expected all, missing, failed or never, got \"sometimes\"\nRun 'cartrender verify --help' for usage.\n")
    }

    func testRecordFailedRewritesTheChangedFrame() throws {
        XCTAssertEqual(try run(verify).status, 0)
        try changePixel("frame_0002.png")
        let r = try run(verify + ["--record", "failed"], env: ["CI": "true"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.hasPrefix("RECORDED frame_0002.png (t=0.5 s): 1 px differs"), r.stdout)
        XCTAssertEqual(try run(verify, env: ["CI": "1"]).status, 0)
    }

    func testJSONOutput() throws {
        XCTAssertEqual(try run(verify + ["--frames", "0-3"]).status, 0)
        try changePixel("frame_0003.png")
        let r = try run(verify + ["--frames", "0-3", "--json", "--report", "out/report"], env: ["CI": "true"])
        XCTAssertEqual(r.status, 1)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        XCTAssertEqual(json["passed"] as? Bool, false)
        XCTAssertEqual(json["report"] as? String, "out/report")
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.map { $0["frame"] as? String }, ["frame_0000.png", "frame_0001.png", "frame_0002.png", "frame_0003.png"])
        XCTAssertEqual(frames.map { $0["status"] as? String }, ["pass", "pass", "pass", "fail"])
        XCTAssertEqual(frames[3]["differingPixels"] as? Int, 1)
        XCTAssertEqual(frames[3]["antialiasedPixels"] as? Int, 0)
        XCTAssertEqual(frames[3]["totalPixels"] as? Int, 393 * 852)
        XCTAssertEqual(frames[3]["identical"] as? Bool, false)
        XCTAssertEqual(frames[0]["identical"] as? Bool, true)
        XCTAssertEqual(r.stdout, try String(contentsOfFile: dir + "/out/report/report.json", encoding: .utf8))
    }

    func testMaskInPointsHidesAChange() throws {
        let verify2x = ["verify", "scene.json", "--baseline", "snaps/scene", "--scale", "2", "--frames", "0-0"]
        XCTAssertEqual(try run(verify2x).status, 0)
        try changePixel("frame_0000.png")   // pixel (10, 10) at 2x = point (5, 5)
        XCTAssertEqual(try run(verify2x, env: ["CI": "1"]).status, 1)
        XCTAssertEqual(try run(verify2x + ["--mask", "5,5,0.5,0.5"], env: ["CI": "1"]).status, 0)
        XCTAssertEqual(try run(verify2x + ["--mask", "6,5,10,10"], env: ["CI": "1"]).status, 1)
    }

    func testUsageErrorsExit64WithOneSentence() throws {
        let table: [([String], String)] = [
            (["verify", "scene.json"], "verify needs --baseline DIR (the directory of baseline frames)"),
            (verify + ["--threshold", "2"], "--threshold: expected a number from 0 (exact) to 1 (black vs white), got \"2\""),
            (verify + ["--max-diff-pixels", "3", "--max-diff-ratio", "0.1"], "--max-diff-pixels and --max-diff-ratio cannot be used together"),
            (verify + ["--max-diff-pixels", "-3"], "--max-diff-pixels: expected a whole number ≥ 0, got \"-3\""),
            (verify + ["--record", "sometimes"], "--record: expected all, missing, failed or never, got \"sometimes\""),
            (verify + ["--mask", "1,2,3"], "--mask: expected X,Y,W,H in points (four numbers, W and H ≥ 0), got \"1,2,3\""),
            (["verify", "scene.json", "--baseline-dir", "x"], "unknown option --baseline-dir; did you mean --baseline?"),
            (verify + ["--frames", "0-99"], "--frames: the render has frames 0-13, got 99 as the last"),
            (["verify", "a.json", "b.json", "--baseline", "x"], "verify: expected at most one scene file, got 2: a.json b.json"),
            (["verify", "", "--baseline", "b"], "the scene file name is empty"),
            // A repeated option is refused as render refuses it, not taken last-wins.
            (["verify", "scene.json", "--baseline", "b1", "--baseline", "b2"], "--baseline is given more than once"),
            (verify + ["--record", "never", "--record", "all"], "--record is given more than once"),
            (verify + ["--scale", "2"], "--scale is given more than once"),
            (verify + ["--threshold", "0.1", "--threshold=0.2"], "--threshold is given more than once"),
        ]
        for (args, message) in table {
            let r = try run(args)
            XCTAssertEqual(r.status, 64, args.joined(separator: " "))
            XCTAssertEqual(r.stderr, "cartrender: \(message)\nRun 'cartrender verify --help' for usage.\n", args.joined(separator: " "))
            XCTAssertEqual(r.stdout, "")
        }
    }

    func testBadInputExitCodes() throws {
        let missing = try run(["verify", "nope.json", "--baseline", "b"])
        XCTAssertEqual(missing.status, 66, missing.stderr)
        XCTAssertTrue(missing.stderr.hasPrefix("cartrender: nope.json"), missing.stderr)

        try "{ \"version\": 1, ".write(toFile: dir + "/broken.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["verify", "broken.json", "--baseline", "b"]).status, 65)

        XCTAssertEqual(try run(verify + ["--frames", "0-1"]).status, 0)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: dir + "/snaps/scene/frame_0001.png"))
        let corrupt = try run(verify + ["--frames", "0-1"], env: ["CI": "true"])
        XCTAssertEqual(corrupt.status, 65)
        XCTAssertEqual(corrupt.stderr, "cartrender: cannot decode PNG snaps/scene/frame_0001.png: not a PNG file\n")

        try Data().write(to: URL(fileURLWithPath: dir + "/afile"))
        let unwritable = try run(verify + ["--frames", "0-0", "--report", "afile"], env: ["CI": "true"])
        XCTAssertEqual(unwritable.status, 73)
        XCTAssertEqual(unwritable.stderr, "cartrender: afile: exists and is not a directory\n")

        let baselineIsFile = try run(["verify", "scene.json", "--baseline", "afile", "--scale", "1", "--report", "r"])
        XCTAssertEqual(baselineIsFile.status, 66, "an input that is not a directory, as a scene that is a directory is")
        XCTAssertEqual(baselineIsFile.stderr, "cartrender: afile: the baseline is not a directory\n")
    }

    /// A FIFO named like a frame in the baseline (with no writer, opening it would block
    /// forever) is refused at once: exit 66 and a sentence naming it, whether the render makes
    /// that frame or it is an extra one.
    func testAFIFOInTheBaselineIsRefusedNotWaitedOn() throws {
        XCTAssertEqual(try run(verify + ["--frames", "0-1"]).status, 0)
        let frame = dir + "/snaps/scene/frame_0001.png"
        try FileManager.default.removeItem(atPath: frame)
        XCTAssertEqual(mkfifo(frame, 0o644), 0)
        let checked = try run(verify + ["--frames", "0-1"], env: ["CI": "true"], timeout: 30)
        XCTAssertEqual(checked.status, 66)
        XCTAssertEqual(checked.stderr, "cartrender: snaps/scene/frame_0001.png: is a FIFO (named pipe), not a regular file\n")

        try FileManager.default.removeItem(atPath: frame)
        XCTAssertEqual(try run(verify).status, 0)
        XCTAssertEqual(mkfifo(dir + "/snaps/scene/frame_0099.png", 0o644), 0)
        let extra = try run(verify, env: ["CI": "true"], timeout: 30)
        XCTAssertEqual(extra.status, 66)
        XCTAssertEqual(extra.stderr, "cartrender: snaps/scene/frame_0099.png: is a FIFO (named pipe), not a regular file\n")
    }

    /// Under GitHub Actions verify appends a Markdown section to `$GITHUB_STEP_SUMMARY` (one per
    /// run); `--summary-markdown FILE` writes the same section to FILE.
    func testJobSummary() throws {
        XCTAssertEqual(try run(verify).status, 0)
        try changePixel("frame_0006.png")
        let summary = dir + "/step-summary.md"
        let failed = try run(verify + ["--summary-markdown", "out/summary.md"], env: ["CI": "true", "GITHUB_STEP_SUMMARY": summary])
        XCTAssertEqual(failed.status, 1, failed.stderr)
        let images = try reportImages(6)
        let (diff, expected, actual) = (images["diff"]!, images["expected"]!, images["actual"]!)
        let report = try Data(contentsOf: URL(fileURLWithPath: dir + "/snaps/cartrender-report/report.json"))
        let motion = try XCTUnwrap(((try JSONSerialization.jsonObject(with: report) as? [String: Any])?["motionDiff"] as? [String: Any])?["file"] as? String)
        let failing = """
        ### ❌ cartrender verify: FAILED — `scene.json`

        1 of 14 frames failed (1 fail) against `snaps/scene`. Report: [index.html](snaps/cartrender-report/index.html) · [report.json](snaps/cartrender-report/report.json) · [junit.xml](snaps/cartrender-report/junit.xml)

        Motion diff of frames 4–6 (expected · actual · differences, in the report): [\(motion.replacingOccurrences(of: "_", with: "\\_"))](snaps/cartrender-report/\(motion))

        | frame | time | differing pixels | status | state divergence | images |
        | --- | ---: | ---: | --- | --- | --- |
        | `frame_0006.png` | 1.5 s | 1 (0.0003 %) | fail | — | [diff](snaps/cartrender-report/\(diff)) · [expected](snaps/cartrender-report/\(expected)) · [actual](snaps/cartrender-report/\(actual)) |


        """
        XCTAssertEqual(try String(contentsOfFile: summary, encoding: .utf8), failing)
        XCTAssertEqual(try String(contentsOfFile: dir + "/out/summary.md", encoding: .utf8), failing)
        for file in [diff, expected, actual, motion, "index.html", "junit.xml"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/snaps/cartrender-report/" + file), "the summary links to \(file)")
        }

        XCTAssertEqual(try run(verify + ["--record", "failed"]).status, 0)
        let passed = try run(verify, env: ["CI": "true", "GITHUB_STEP_SUMMARY": summary])
        XCTAssertEqual(passed.status, 0)
        XCTAssertEqual(try String(contentsOfFile: summary, encoding: .utf8), failing + """
        ### ✅ cartrender verify: passed — `scene.json`

        14 frames checked against `snaps/scene`: 14 matched (14 byte-identical). Report: [index.html](snaps/cartrender-report/index.html) · [report.json](snaps/cartrender-report/report.json) · [junit.xml](snaps/cartrender-report/junit.xml)


        """, "a second run appends its section")

        let noBaseline = try run(["verify", "scene.json", "--baseline", "none/scene", "--scale", "1", "--summary-markdown", "missing.md"], env: ["CI": "true"])
        XCTAssertEqual(noBaseline.status, 1)
        XCTAssertEqual(try String(contentsOfFile: dir + "/missing.md", encoding: .utf8), """
        ### ❌ cartrender verify: FAILED — `scene.json`

        There is no baseline directory `none/scene`: all 14 frames are missing. Record it with `--record missing` (or `CARTRENDER_RECORD=missing`) and commit it. Report: [index.html](none/cartrender-report/index.html) · [report.json](none/cartrender-report/report.json) · [junit.xml](none/cartrender-report/junit.xml)


        """)

        let unwritable = try run(verify, env: ["CI": "true", "GITHUB_STEP_SUMMARY": dir + "/no/such/dir/summary.md"])
        XCTAssertEqual(unwritable.status, 73)
        XCTAssertTrue(unwritable.stderr.hasPrefix("cartrender: \(dir)/no/such/dir/summary.md: cannot be opened to append the summary ("), unwritable.stderr)
    }

    /// A section that cannot be appended whole to `$GITHUB_STEP_SUMMARY` (a full disk; here a
    /// 1 MiB file size limit, `ulimit -f 1024` in bash, so the write fails with EFBIG partway
    /// through the section) is exit 73 naming the file, and the file is cut back to what it held
    /// before: no half-written section is left at the end of the job summary.
    func testAFailedAppendLeavesTheStepSummaryAsItWas() throws {
        XCTAssertEqual(try run(verify).status, 0)
        let summary = dir + "/step-summary.md"
        // 176 bytes below the limit: the passing section (about 330 bytes) does not fit.
        let earlier = Data(String(repeating: String(repeating: "s", count: 99) + "\n", count: (1 << 20) / 100 - 1).utf8)
        try earlier.write(to: URL(fileURLWithPath: summary))
        XCTAssertLessThan(earlier.count, 1 << 20)
        let r = try Binary.run(["-c", "ulimit -f 1024 && exec \"$0\" \"$@\"", Binary.url.path] + verify, in: dir,
                               environment: ["GITHUB_STEP_SUMMARY": summary], timeout: 120, executable: "/bin/bash")
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: \(summary): cannot be written (File too large)\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: summary)), earlier, "the summary is as it was before the run")
    }

    /// `--summary-markdown PATH` keeps what PATH is: a symbolic link stays a link and its target
    /// gets the summary (a dangling one gets its file), a FIFO is written through (its reader gets
    /// the summary), `/dev/stdout` is standard output after verify's lines, and a device that
    /// cannot take it (a copy of /dev/full) is exit 73 naming the path, and stays a device.
    func testSummaryMarkdownWritesThroughLinksFIFOsAndDevices() throws {
        XCTAssertEqual(try run(verify).status, 0)
        let expected = try run(verify + ["--summary-markdown", "plain.md"])
        XCTAssertEqual(expected.status, 0, expected.stderr)
        let markdown = try String(contentsOfFile: dir + "/plain.md", encoding: .utf8)
        XCTAssertTrue(markdown.hasPrefix("### ✅ cartrender verify: passed"), markdown)
        let fm = FileManager.default

        try "old".write(toFile: dir + "/target.md", atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: dir + "/link.md", withDestinationPath: "target.md")
        try fm.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: dir + "/dangling.md", withDestinationPath: "sub/new.md")
        for link in ["link.md", "dangling.md"] {
            let r = try run(verify + ["--summary-markdown", link])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try fm.attributesOfItem(atPath: dir + "/" + link)[.type] as? FileAttributeType, .typeSymbolicLink, "\(link) stays a link")
        }
        XCTAssertEqual(try String(contentsOfFile: dir + "/target.md", encoding: .utf8), markdown)
        XCTAssertEqual(try String(contentsOfFile: dir + "/sub/new.md", encoding: .utf8), markdown)

        let fifo = dir + "/summary.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        final class Box: @unchecked Sendable { var data = Data() }
        let read = Box()
        let reader = DispatchGroup()
        reader.enter()
        DispatchQueue.global().async {
            read.data = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()
            reader.leave()
        }
        let throughFIFO = try run(verify + ["--summary-markdown", "summary.fifo"], timeout: 60)
        XCTAssertEqual(throughFIFO.status, 0, throughFIFO.stderr)
        XCTAssertEqual(reader.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(String(decoding: read.data, as: UTF8.self), markdown)
        XCTAssertEqual(try fm.attributesOfItem(atPath: fifo)[.type] as? FileAttributeType, .typeUnknown, "a FIFO still (Foundation has no type for FIFOs)")
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO)

        let toStdout = try run(verify + ["--summary-markdown", "/dev/stdout"])
        XCTAssertEqual(toStdout.status, 0, toStdout.stderr)
        XCTAssertTrue(toStdout.stdout.hasPrefix("cartrender verify: passed"), toStdout.stdout)
        XCTAssertTrue(toStdout.stdout.hasSuffix("\n" + markdown), toStdout.stdout)

        let full = dir + "/full"
        var device = stat()
        XCTAssertEqual(stat("/dev/full", &device), 0)
        guard mknod(full, S_IFCHR | 0o666, device.st_rdev) == 0 else { throw XCTSkip("no mknod here: \(String(cString: strerror(errno)))") }
        let r = try run(verify + ["--summary-markdown", "full"])
        XCTAssertEqual(r.status, 73)
        XCTAssertEqual(r.stderr, "cartrender: full: cannot be written (No space left on device)\n")
        XCTAssertEqual(lstat(full, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "still the device")
    }

    func testHelp() throws {
        let r = try run(["verify", "--help"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("cartrender verify [SCENE.json | -] --baseline DIR [options]"))
        XCTAssertTrue(r.stdout.contains("RECORD MODES"))
        XCTAssertEqual(r.stderr, "")
        XCTAssertTrue(try run(["--help"]).stdout.contains("cartrender diff A B [options]"))
    }
}
