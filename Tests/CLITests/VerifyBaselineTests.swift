import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// `verify` with a baseline that is a render's output directory: it takes the directory's lock,
/// so it never reads a half-moved render, and `--record` keeps the directory's manifest true or
/// refuses; what it records is moved into place at the end, or not at all.
final class VerifyBaselineTests: XCTestCase {
    /// The default scene at 10 fps and 1x: 34 frames.
    static let render = ["--fps", "10", "--scale", "1", "--quiet"]

    override func setUp() { signal(SIGINT, SIG_DFL) }

    /// `--record all` into a render's directory rewrites every frame (here with other bytes: the
    /// render used another PNG compression) and the manifest's SHA-256s with them: the directory
    /// is then exactly what a render of the same scene writes.
    func testRecordAllRewritesTheManifestToMatch() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "base", "--png-compression", "fast"] + Self.render, in: dir).status, 0)
        XCTAssertEqual(try Binary.run(["--out", "fresh"] + Self.render, in: dir).status, 0)
        XCTAssertNotEqual(try files(dir + "/base"), try files(dir + "/fresh"), "the two renders' bytes differ")

        let r = try Binary.run(["verify", "--baseline", "base", "--record", "all", "--report", "report"] + Self.render, in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try files(dir + "/base"), try files(dir + "/fresh"))
        try assertManifestMatchesFiles(dir + "/base")
    }

    /// `--record failed` rewrites only the failing frame, and its SHA-256 in the manifest; an
    /// extra frame past the end is removed.
    func testRecordFailedRewritesTheFailingFrameAndItsManifestEntry() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "base"] + Self.render, in: dir).status, 0)
        let fresh = try files(dir + "/base")
        try FileManager.default.removeItem(atPath: dir + "/base/frame_0007.png")
        try FileManager.default.copyItem(atPath: dir + "/base/frame_0020.png", toPath: dir + "/base/frame_0007.png")
        try FileManager.default.copyItem(atPath: dir + "/base/frame_0020.png", toPath: dir + "/base/frame_0099.png")
        // As earlier recordings would have left them: cartrender's own, so they may be replaced and removed.
        try OwnershipFixture.adopt(["frame_0007.png", "frame_0099.png"], in: dir + "/base")

        let r = try Binary.run(["verify", "--baseline", "base", "--record", "failed", "--report", "report"] + Self.render, in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("frame_0007.png"), r.stdout)
        XCTAssertEqual(try files(dir + "/base"), fresh, "frame 7 and the manifest are a render's again; frame 99 is gone")
    }

    /// Frames recorded into a partial render's directory (`--frames`) get manifest entries: the
    /// manifest is then the one a render of every frame writes.
    func testRecordedFramesAreAddedToTheManifest() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "base", "--frames", "0-4"] + Self.render, in: dir).status, 0)
        XCTAssertEqual(try Binary.run(["--out", "fresh"] + Self.render, in: dir).status, 0)
        let r = try Binary.run(["verify", "--baseline", "base", "--record", "missing", "--report", "report"] + Self.render, in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("29 recorded in base"), r.stdout)
        XCTAssertEqual(try files(dir + "/base"), try files(dir + "/fresh"))
    }

    /// Under `--record missing`, a run that fails records nothing, not even the frames its
    /// baseline lacks (a longer timeline): it names them, the same way on stdout and in
    /// report.json, junit.xml, the summary and index.html, and reverting the change passes.
    /// `--record failed --fail-on-record` updates the baseline and still fails.
    func testMissingRecordsNothingInAFailingRunAndFailOnRecordFails() throws {
        let dir = Binary.tempDir(self)
        try FileManager.default.copyItem(atPath: Binary.examples + "/fly-button.json", toPath: dir + "/scene.json")
        XCTAssertEqual(try Binary.run(["verify", "scene.json", "--baseline", "base", "--record", "missing", "--report", "report"] + Self.render, in: dir).status, 0)
        let before = try files(dir + "/base")
        // Red instead of indigo, and the last tap later: every frame differs and two are new.
        var scene = try String(contentsOfFile: Binary.examples + "/fly-button.json", encoding: .utf8)
        scene = scene.replacingOccurrences(of: "\"indigo\"", with: "\"red\"").replacingOccurrences(of: "\"at\": 1.4", with: "\"at\": 1.6")
        try scene.write(toFile: dir + "/changed.json", atomically: true, encoding: .utf8)
        let r = try Binary.run(["verify", "changed.json", "--baseline", "base", "--record", "missing", "--report", "report",
                                "--summary-markdown", "summary.md"] + Self.render, in: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(try files(dir + "/base"), before, "nothing recorded")
        let note = "did not record 2 missing frames in base (frames 34-35): record mode missing records only when every other frame passes, "
            + "and 34 failed; fix them and run again, or record over the failures too with --record failed"
        XCTAssertTrue(r.stdout.hasSuffix("34 fail, 2 missing), 2 not recorded; report: report/index.html\n" + note + "\n"), r.stdout)
        XCTAssertFalse(r.stdout.contains("recorded in"), r.stdout)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/report/report.json"))) as! [String: Any]
        let recording = try XCTUnwrap(report["recording"] as? [String: Any])
        XCTAssertEqual(recording["notRecorded"] as? [String], ["frame_0034.png", "frame_0035.png"])
        XCTAssertEqual(recording["recorded"] as? [String], [])
        XCTAssertEqual(recording["note"] as? String, note)
        XCTAssertEqual((report["summary"] as? [String: Any])?["recorded"] as? Int, 0)
        XCTAssertEqual((report["summary"] as? [String: Any])?["notRecorded"] as? Int, 2)
        let frames = try XCTUnwrap(report["frames"] as? [[String: Any]])
        let actual = try XCTUnwrap((frames[34]["files"] as? [String: String])?["actual"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/report/" + actual), "the frame not recorded is in the report")
        let junit = try String(contentsOfFile: dir + "/report/junit.xml", encoding: .utf8)
        XCTAssertTrue(junit.contains("did not record 2 missing frames in base (frames 34-35)"), junit)
        XCTAssertTrue(try String(contentsOfFile: dir + "/summary.md", encoding: .utf8).contains("Did not record 2 missing frames in base \\(frames 34-35\\)"))
        XCTAssertTrue(try String(contentsOfFile: dir + "/report/index.html", encoding: .utf8).contains("Did not record 2 missing frames in base (frames 34-35)"))

        // Reverting the change passes: no extra frames were left behind.
        let back = try Binary.run(["verify", "scene.json", "--baseline", "base", "--record", "never", "--report", "report"] + Self.render, in: dir)
        XCTAssertEqual(back.status, 0, back.stdout)

        // Update and still fail.
        let update = try Binary.run(["verify", "changed.json", "--baseline", "base", "--record", "failed", "--fail-on-record", "--report", "report"] + Self.render, in: dir)
        XCTAssertEqual(update.status, 1, update.stdout)
        XCTAssertTrue(update.stdout.contains("cartrender verify: FAILED (--fail-on-record), 36 frames, 36 recorded in base"), update.stdout)
        XCTAssertTrue(update.stdout.contains("recorded 36 baseline frames in base (frames 0-35, record mode failed); review them and commit base; "
            + "the run fails because it recorded (--fail-on-record)"), update.stdout)
        let again = try Binary.run(["verify", "changed.json", "--baseline", "base", "--record", "never", "--report", "report"] + Self.render, in: dir)
        XCTAssertEqual(again.status, 0, again.stdout)
    }

    /// A baseline recorded at other settings (fps, scale) is named in one line before anything
    /// else, with the command that records it again; the frames are summarised, not listed, on
    /// stdout and in the summary, and report.json says which settings differ.
    func testSettingsThatDifferFromTheBaselineAreNamedFirst() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["verify", "--baseline", "base", "--record", "missing", "--report", "report"] + Self.render, in: dir).status, 0)
        let fps = try Binary.run(["verify", "--baseline", "base", "--record", "never", "--report", "report", "--summary-markdown", "s.md",
                                  "--fps", "20", "--scale", "1", "--quiet"], in: dir)
        XCTAssertEqual(fps.status, 1)
        XCTAssertEqual(fps.stdout, """
            the baseline was recorded with other settings (fps 10, this run 20): frame-by-frame results cannot mean much; \
            if this run's settings are right, record it again with: cartrender verify --baseline base --report report --summary-markdown s.md --fps 20 --scale 1 --quiet --record all
            64 of 67 frames differ from a baseline recorded with other settings: not listed one by one (the report has them)
            cartrender verify: FAILED, 64 of 67 frames failed (31 fail, 33 missing); report: report/index.html

            """)
        let summary = try String(contentsOfFile: dir + "/s.md", encoding: .utf8)
        XCTAssertTrue(summary.contains("- The baseline was recorded with other settings \\(fps 10, this run 20\\)"), summary)
        XCTAssertFalse(summary.contains("| frame |"), "no table of frames")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/report/report.json"))) as! [String: Any]
        XCTAssertEqual(report["settingsDiffer"] as? [[String: String]], [["setting": "fps", "baseline": "10", "current": "20"]])
        XCTAssertTrue(report["sceneChanged"] is NSNull, "fps is said once, as a setting, not also as a scene change: \(report["sceneChanged"] ?? "")")

        let scale = try Binary.run(["verify", "--baseline", "base", "--record", "never", "--report", "report", "--frames", "0-2",
                                    "--fps", "10", "--scale", "2", "--quiet"], in: dir)
        XCTAssertEqual(scale.status, 1)
        XCTAssertTrue(scale.stdout.hasPrefix("the baseline was recorded with other settings (scale 1x, this run 2x; canvas size 393×852 px, this run 786×1704 px)"), scale.stdout)
        XCTAssertTrue(scale.stdout.contains("record it again with: cartrender verify --baseline base --report report --fps 10 --scale 2 --quiet --record all\n"), scale.stdout)

        let same = try Binary.run(["verify", "--baseline", "base", "--record", "never", "--report", "report"] + Self.render, in: dir)
        XCTAssertEqual(same.status, 0)
        XCTAssertFalse(same.stdout.contains("other settings"))
    }

    /// A manifest of another render (here: dark instead of light) is not rewritten, and nothing
    /// is recorded beside it: one sentence, exit 73, the directory as it was. A verify that has
    /// nothing to record there compares as usual.
    func testRecordingIntoAnotherRendersDirectoryIsRefused() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "base"] + Self.render, in: dir).status, 0)
        let before = try files(dir + "/base")
        for mode in ["failed", "all"] {
            let r = try Binary.run(["verify", "--baseline", "base", "--record", mode, "--color-scheme", "dark", "--report", "report"] + Self.render, in: dir)
            XCTAssertEqual(r.status, 73, r.stderr)
            XCTAssertEqual(r.stderr, "cartrender: base/manifest.json: is the manifest of another render (its scene, fps, scale or size differ from this one's); verify --record writes nothing into base\n")
            XCTAssertEqual(r.stdout, "")
            XCTAssertEqual(try files(dir + "/base"), before, mode)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/report/report.json"), "no report")
        }
        // Nothing is missing, so `missing` records nothing: the frames are compared and fail.
        let compare = try Binary.run(["verify", "--baseline", "base", "--record", "missing", "--color-scheme", "dark", "--report", "report", "--frames", "0-2"] + Self.render, in: dir)
        XCTAssertEqual(compare.status, 1, compare.stderr)
        XCTAssertEqual(try files(dir + "/base"), before)

        // A manifest that cannot be read (cut off, or a FIFO, which is not waited on) says nothing
        // about the directory: nothing is recorded beside it either.
        let manifest = dir + "/base/manifest.json"
        try Data("{\"version\": 1,".utf8).write(to: URL(fileURLWithPath: manifest))
        var broken = try Binary.run(["verify", "--baseline", "base", "--record", "all", "--report", "report"] + Self.render, in: dir)
        XCTAssertEqual(broken.status, 73, broken.stderr)
        XCTAssertTrue(broken.stderr.hasPrefix("cartrender: base/manifest.json: cannot be read as a manifest (line 1, column 15: "), broken.stderr)
        XCTAssertTrue(broken.stderr.hasSuffix("); verify --record writes nothing into base\n"), broken.stderr)
        try FileManager.default.removeItem(atPath: manifest)
        XCTAssertEqual(mkfifo(manifest, 0o644), 0)
        broken = try Binary.run(["verify", "--baseline", "base", "--record", "all", "--report", "report"] + Self.render, in: dir, timeout: 60)
        XCTAssertEqual(broken.status, 73, broken.stderr)
        XCTAssertEqual(broken.stderr, "cartrender: base/manifest.json: cannot be read as a manifest (it is a FIFO (named pipe), not a regular file); verify --record writes nothing into base\n")
        XCTAssertEqual(try Set(FileManager.default.contentsOfDirectory(atPath: dir + "/base")), Set(before.keys))

        // A shard's directory: a frame of another shard has no manifest to go into.
        XCTAssertEqual(try Binary.run(["--out", "shard", "--shard", "1/2"] + Self.render, in: dir).status, 0)
        let shard = try files(dir + "/shard")
        let s = try Binary.run(["verify", "--baseline", "shard", "--record", "missing", "--report", "report"] + Self.render, in: dir)
        XCTAssertEqual(s.status, 73, s.stderr)
        XCTAssertTrue(s.stderr.hasPrefix("cartrender: shard/frame_00"), s.stderr)
        XCTAssertTrue(s.stderr.hasSuffix(".png: is listed by none of the shard manifests in shard; verify --record writes nothing into shard until they are merged\n"), s.stderr)
        XCTAssertEqual(try files(dir + "/shard"), shard)
    }

    /// While a render holds the baseline's lock (it is moving its frames in), verify waits, and
    /// then compares what the render left: here frame 1 was replaced meanwhile, so it fails.
    func testVerifyWaitsForARenderMovingFramesIn() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "base"] + Self.render, in: dir).status, 0)
        let fd = open(dir + "/base", O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        let running = try Binary.start(["verify", "--baseline", "base", "--record", "never", "--report", "report", "--frames", "0-2"] + Self.render, in: dir)
        sleep(3)
        XCTAssertTrue(running.process.isRunning, "verify waits for the lock")
        try FileManager.default.removeItem(atPath: dir + "/base/frame_0001.png")
        try FileManager.default.copyItem(atPath: dir + "/base/frame_0030.png", toPath: dir + "/base/frame_0001.png")
        XCTAssertEqual(flock(fd, LOCK_UN), 0)
        let r = running.finish()
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("FAIL     frame_0001.png"), r.stdout)
    }

    /// A signal while verify waits for the baseline's lock stops it: exit 143, no report, and
    /// the baseline as it was.
    func testASignalWhileWaitingForTheBaselineLockStopsVerify() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "base", "--frames", "0-2"] + Self.render, in: dir).status, 0)
        let before = try files(dir + "/base")
        let fd = open(dir + "/base", O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        let running = try Binary.start(["verify", "--baseline", "base", "--record", "missing", "--report", "report"] + Self.render, in: dir)
        sleep(2)
        kill(running.process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(3)
        while running.process.isRunning && Date() < deadline { usleep(10_000) }
        XCTAssertFalse(running.process.isRunning, "stopped within 3 s of the signal")
        let r = running.finish()
        XCTAssertEqual(r.status, 143, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: verify interrupted by SIGTERM; no report written, base is as it was before\n")
        XCTAssertEqual(try files(dir + "/base"), before)
    }

    /// A verify that records is stopped after it staged frames: nothing of them is in the
    /// baseline, and its manifest is untouched.
    func testAnInterruptedRecordingLeavesTheBaselineAsItWas() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "base", "--frames", "0-0", "--fps", "240", "--quiet"], in: dir).status, 0)
        let before = try files(dir + "/base")
        let running = try Binary.start(["verify", "--baseline", "base", "--record", "missing", "--fps", "240", "--quiet", "--jobs", "2"], in: dir)
        let deadline = Date().addingTimeInterval(120)
        func staged() -> Bool {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/base")) ?? []
            return names.contains { n in n.hasPrefix(".cartrender-staging-")
                && ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/base/" + n)) ?? []).contains { $0.hasPrefix("frame_") } }
        }
        while running.process.isRunning && Date() < deadline && !staged() { usleep(10_000) }
        kill(running.process.processIdentifier, SIGINT)
        let r = running.finish()
        XCTAssertEqual(r.status, 130, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: verify interrupted by SIGINT; no report written, base is as it was before\n")
        XCTAssertEqual(try files(dir + "/base"), before)
    }

    // MARK: - Helpers

    /// Name → bytes of every entry of `dir`, hidden ones included.
    /// The bytes of every file of `dir`, by name; the ledger without its `# pixels` lines (the
    /// pixel digests of the frames a verify recorded, which a render does not write).
    func files(_ dir: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
            out[name] = FileManager.default.contents(atPath: dir + "/" + name) ?? Data()
        }
        if let ledger = out[OwnershipFixture.ledgerName] {
            let lines = String(decoding: ledger, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix(OwnershipFixture.pixelsPrefix) }
            out[OwnershipFixture.ledgerName] = Data(lines.map { $0 + "\n" }.joined().utf8)
        }
        return out
    }

    /// Every frame file the manifest of `dir` lists has the SHA-256 it gives.
    func assertManifestMatchesFiles(_ dir: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))) as! [String: Any]
        for frame in manifest["frames"] as! [[String: Any]] {
            let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + (frame["file"] as! String)))
            XCTAssertEqual(Checksum.sha256(Array(data)), frame["sha256"] as? String, frame["file"] as! String, file: file, line: line)
        }
    }
}
