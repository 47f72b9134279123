import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// SIGINT and SIGTERM in the middle of a render, and reruns into the same directory:
/// the output directory is either as it was before the run or complete, never a mix.
final class InterruptionTests: XCTestCase {
    /// A render long enough to interrupt: the default scene at 240 fps and 3x (about 790 frames).
    static let longRender = ["--fps", "240", "--quiet", "--jobs", "2"]

    override func setUp() {
        // Children inherit an ignored SIGINT (a test runner started in the background has one),
        // and cartrender rightly keeps it ignored: make sure the binary starts with the default.
        signal(SIGINT, SIG_DFL)
    }

    func testSIGINTInAFreshDirectoryLeavesNoTrace() throws {
        let dir = Binary.tempDir(self)
        let r = try interrupt(["--out", "frames"] + Self.longRender, in: dir, with: SIGINT)
        XCTAssertEqual(r.status, 130, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: interrupted by SIGINT; removed the unfinished frames, frames is as it was before\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [], "the output directory the run created is gone")
    }

    func testSIGTERMInAFreshNestedDirectoryRemovesOnlyWhatItCreated() throws {
        let dir = Binary.tempDir(self)
        try FileManager.default.createDirectory(atPath: dir + "/renders", withIntermediateDirectories: true)
        let r = try interrupt(["--out", "renders/a/b"] + Self.longRender, in: dir, with: SIGTERM)
        XCTAssertEqual(r.status, 143, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: interrupted by SIGTERM; removed the unfinished frames, renders/a/b is as it was before\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["renders"], "renders/ existed before the run")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/renders"), [])
    }

    /// A directory holding a complete earlier run stays byte for byte as it was: no frame of the
    /// interrupted run replaces one of the earlier run's.
    func testSIGINTAfterACompleteRunLeavesThatRunUntouched() throws {
        let dir = Binary.tempDir(self)
        let first = try Binary.run(["--out", "frames", "--fps", "10", "--scale", "1", "--quiet"], in: dir)
        XCTAssertEqual(first.status, 0, first.stderr)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/frames/notes.txt"))
        let before = try snapshot(dir + "/frames")
        XCTAssertEqual(before.count, 34 + 3, "33 frames at 10 fps plus one, the manifest, the ownership ledger and notes.txt")

        for sig in [SIGINT, SIGTERM] {
            let r = try interrupt(["--out", "frames"] + Self.longRender, in: dir, with: sig)
            XCTAssertEqual(r.status, sig == SIGINT ? 130 : 143, r.stderr)
            XCTAssertEqual(try snapshot(dir + "/frames"), before, "the earlier run is untouched")
        }
    }

    /// A rerun replaces the frames of the earlier run (known from its manifest), removes those
    /// it does not rewrite, and never touches files no run of cartrender wrote.
    func testRerunReplacesTheEarlierRunAndNothingElse() throws {
        let dir = Binary.tempDir(self)
        let a = try Binary.run(["--out", "frames", "--fps", "10", "--scale", "1", "--quiet"], in: dir)
        XCTAssertEqual(a.status, 0, a.stderr)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/frames/notes.txt"))
        try Data("not from a run".utf8).write(to: URL(fileURLWithPath: dir + "/frames/frame_9999.png"))
        let b = try Binary.run(["--out", "frames", "--fps", "5", "--scale", "1", "--quiet", "--format", "svg"], in: dir)
        XCTAssertEqual(b.status, 0, b.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/frames").sorted()
        let svgs = (0...16).map { String(format: "frame_%04d.svg", $0) }
        XCTAssertEqual(names, [".cartrender-files.sha256"] + svgs + ["frame_9999.png", "manifest.json", "notes.txt"])
        // The manifest describes what is there.
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/frames/manifest.json"))) as! [String: Any]
        for frame in manifest["frames"] as! [[String: Any]] {
            let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/frames/" + (frame["file"] as! String)))
            XCTAssertEqual(Checksum.sha256(Array(data)), frame["sha256"] as? String)
        }
    }

    // MARK: - Helpers

    /// Starts a render, waits until its first frame is written (into its staging directory),
    /// sends `sig`, and returns how it ended (failing after 30 s).
    /// A second signal right after the first (an impatient double Ctrl-C) stops at once and still
    /// leaves no staging directory and no directory the run created.
    func testASecondSignalStopsAtOnceWithoutLeavingStagingBehind() throws {
        let dir = Binary.tempDir(self)
        let r = try interrupt(["--out", "frames"] + Self.longRender, in: dir, with: SIGINT, twice: true)
        XCTAssertEqual(r.status, 130, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [], "nothing of the run is left")
    }

    /// `verify` stops between frames on SIGTERM, says so, and exits 143; what it had recorded was
    /// staged, so the baseline is as it was: here, absent, as before the run.
    func testSIGTERMStopsVerify() throws {
        let dir = Binary.tempDir(self)
        let running = try Binary.start(["verify", "--baseline", "base", "--fps", "240", "--quiet", "--jobs", "2"], in: dir)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && running.process.isRunning
            && ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/base")) ?? []).isEmpty { usleep(10_000) }
        kill(running.process.processIdentifier, SIGTERM)
        let r = running.finish()
        XCTAssertEqual(r.status, 143, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: verify interrupted by SIGTERM; no report written, base is as it was before\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/base"), "the baseline directory the run created is gone")
    }

    // MARK: - Signals at chosen moments

    /// A signal while the scene is being read (the test hook pauses there) ends the render with
    /// 130 and a sentence, not by the signal's default action: the handlers are installed before
    /// anything else.
    func testASignalBeforeTheSceneIsReadEndsWithASentence() throws {
        let dir = Binary.tempDir(self)
        for (sig, status, name) in [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, 143, "SIGTERM")] {
            let marker = dir + "/paused"
            let running = try Binary.start(["--out", "frames", "--quiet"], in: dir, environment: ["CARTRENDER_TEST_PAUSE": "load-scene:" + marker])
            XCTAssertTrue(waitFor { FileManager.default.fileExists(atPath: marker) }, "the render reached the test hook")
            kill(running.process.processIdentifier, sig)
            // The pause ends once the watcher has the signal (and removes the marker).
            try "after-signal".write(toFile: marker, atomically: false, encoding: .utf8)
            let r = try finish(running)
            XCTAssertEqual(r.status, status, r.stderr)
            XCTAssertEqual(running.process.terminationReason, .exit, "not killed by the signal")
            XCTAssertEqual(r.stderr, "cartrender: interrupted by \(name); removed the unfinished frames, frames is as it was before\n")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [])
        }
    }

    /// A signal while the scene is read from standard input (`cartrender - …` fed by a pipe that
    /// stays open, as a producer that hangs) ends the run at once with one sentence and 130 or
    /// 143, not by the signal's default action, for render and verify alike; nothing is written.
    func testASignalWhileTheSceneIsReadFromStandardInputEndsWithASentence() throws {
        let dir = Binary.tempDir(self)
        for args in [["-", "--out", "frames", "--quiet"], ["verify", "-", "--baseline", "base", "--quiet"]] {
            for (sig, status, name) in [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, 143, "SIGTERM")] {
                let input = Pipe()
                let running = try Binary.start(args, in: dir, standardInput: input)
                let pid = running.process.processIdentifier
                XCTAssertTrue(waitFor { Self.isBlockedReadingAPipe(pid) || !running.process.isRunning }, "\(args): reads standard input")
                kill(pid, sig)
                let r = try finish(running, within: 3)
                try input.fileHandleForWriting.close()
                let label = "\(args.joined(separator: " ")), \(name)"
                XCTAssertEqual(running.process.terminationReason, .exit, "\(label): not killed by the signal")
                XCTAssertEqual(r.status, status, "\(label): \(r.stderr)")
                XCTAssertEqual(r.stderr, "cartrender: interrupted by \(name) while reading the scene from standard input; nothing was written\n", label)
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [], label)
            }
        }
    }

    /// Whether a thread of process `pid` waits in a read from a pipe (Linux: its `wchan`).
    static func isBlockedReadingAPipe(_ pid: Int32) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? "").contains("pipe_read")
        }
    }

    /// A run that does not stop after the first signal (here held by the test hook, as a read
    /// that blocks would hold it) is ended 5 s later with the signal's status and a sentence.
    func testARunThatDoesNotStopIsEndedAfterFiveSeconds() throws {
        let dir = Binary.tempDir(self)
        let marker = dir + "/paused"
        let running = try Binary.start(["--out", "frames", "--quiet"], in: dir, environment: ["CARTRENDER_TEST_PAUSE": "load-scene:" + marker])
        XCTAssertTrue(waitFor { FileManager.default.fileExists(atPath: marker) }, "the render reached the test hook")
        kill(running.process.processIdentifier, SIGTERM)
        let r = try finish(running, within: 15)
        XCTAssertEqual(r.status, 143, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: interrupted by SIGTERM and not stopped within 5 s; removed the unfinished files and stopped at once\n")
    }

    /// While another run holds the lock on the output directory, a render has staged everything
    /// and waits: the first SIGTERM stops the wait, removes the staging directory and leaves the
    /// earlier complete render as it was.
    func testASignalWhileWaitingForTheDirectoryLockStopsTheRender() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "frames", "--fps", "10", "--scale", "1", "--quiet"], in: dir).status, 0)
        let before = try snapshot(dir + "/frames")
        let r = try whileLocked(dir + "/frames", run: ["--out", "frames", "--fps", "5", "--scale", "1", "--quiet"], in: dir,
                                staged: "manifest.json", signal: SIGTERM)
        XCTAssertEqual(r.status, 143, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: interrupted by SIGTERM; removed the unfinished frames, frames is as it was before\n")
        XCTAssertEqual(try snapshot(dir + "/frames"), before)
    }

    /// `merge` stops on SIGINT (here while waiting for the output directory's lock), removes its
    /// staging directory and says so; the output directory keeps the earlier render.
    func testSIGINTStopsMerge() throws {
        let dir = Binary.tempDir(self)
        for k in 1...2 {
            XCTAssertEqual(try Binary.run(["--out", "shard\(k)", "--shard", "\(k)/2", "--fps", "6", "--scale", "1", "--quiet"], in: dir).status, 0)
        }
        XCTAssertEqual(try Binary.run(["--out", "merged", "--fps", "10", "--scale", "1", "--quiet"], in: dir).status, 0)
        let before = try snapshot(dir + "/merged")
        let r = try whileLocked(dir + "/merged", run: ["merge", "shard1", "shard2", "--out", "merged"], in: dir,
                                staged: "manifest.json", signal: SIGINT)
        XCTAssertEqual(r.status, 130, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: merge interrupted by SIGINT; removed the unfinished files, merged is as it was before\n")
        XCTAssertEqual(try snapshot(dir + "/merged"), before)
    }

    /// `diff --report` on two directories stops on SIGTERM without writing a report or leaving
    /// its staging directory in the report directory.
    func testSIGTERMStopsDiffWithAReport() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "a", "--frames", "0-1", "--scale", "1", "--quiet"], in: dir).status, 0)
        XCTAssertEqual(try Binary.run(["--out", "b", "--frames", "0-1", "--scale", "1", "--quiet", "--color-scheme", "dark"], in: dir).status, 0)
        try FileManager.default.createDirectory(atPath: dir + "/report", withIntermediateDirectories: true)
        let r = try whileLocked(dir + "/report", run: ["diff", "a", "b", "--report", "report"], in: dir, staged: "report.json", signal: SIGTERM)
        XCTAssertEqual(r.status, 143, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: diff interrupted by SIGTERM; no report written\n")
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/report"), [])
    }

    /// `diff A B --out DIR` stages its diff images like a report: stopped while it waits for
    /// `DIR`'s lock, it leaves `DIR` as it was (an earlier file kept, no diff image).
    func testSIGINTStopsDiffWithADiffDirectory() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "a", "--frames", "0-1", "--scale", "1", "--quiet"], in: dir).status, 0)
        XCTAssertEqual(try Binary.run(["--out", "b", "--frames", "0-1", "--scale", "1", "--quiet", "--color-scheme", "dark"], in: dir).status, 0)
        try FileManager.default.createDirectory(atPath: dir + "/diffs", withIntermediateDirectories: true)
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: dir + "/diffs/frame_0000.diff.png"))
        // As an earlier diff would have left it: cartrender's own, so it may be replaced.
        try OwnershipFixture.adopt(["frame_0000.diff.png"], in: dir + "/diffs")
        let before = try snapshot(dir + "/diffs")
        let r = try whileLocked(dir + "/diffs", run: ["diff", "a", "b", "--out", "diffs"], in: dir, staged: "frame_0001.diff.png", signal: SIGINT)
        XCTAssertEqual(r.status, 130, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: diff interrupted by SIGINT; no report written, diffs is as it was before\n")
        XCTAssertEqual(try snapshot(dir + "/diffs"), before)

        // Not interrupted, the images move in together.
        let done = try Binary.run(["diff", "a", "b", "--out", "diffs"], in: dir)
        XCTAssertEqual(done.status, 1, done.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/diffs").sorted(), [".cartrender-files.sha256", "frame_0000.diff.png", "frame_0001.diff.png"])
        XCTAssertNotEqual(FileManager.default.contents(atPath: dir + "/diffs/frame_0000.diff.png"), Data("earlier".utf8))
    }

    /// `verify` waiting for its report directory's lock stops on the first SIGINT too.
    func testSIGINTStopsVerifyWaitingForItsReportDirectory() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "base", "--frames", "0-1", "--scale", "1", "--quiet"], in: dir).status, 0)
        try FileManager.default.createDirectory(atPath: dir + "/report", withIntermediateDirectories: true)
        let r = try whileLocked(dir + "/report", run: ["verify", "--baseline", "base", "--report", "report", "--frames", "0-1", "--scale", "1", "--quiet",
                                                      "--color-scheme", "dark", "--record", "never"],
                                in: dir, staged: "report.json", signal: SIGINT)
        XCTAssertEqual(r.status, 130, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: verify interrupted by SIGINT; no report written, base is as it was before\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/report"), [])
    }

    /// Holds the lock on `locked` (as a run moving files into it does), starts `cartrender
    /// args`, waits until its staging directory in `locked` holds `staged` (so it waits for the
    /// lock), sends `sig` and returns how the run ended; the lock is released afterwards.
    func whileLocked(_ locked: String, run args: [String], in dir: String, staged: String, signal sig: Int32) throws -> Binary.Result {
        let fd = open(locked, O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        let running = try Binary.start(args, in: dir)
        XCTAssertTrue(waitFor {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: locked)) ?? []
            return names.contains { $0.hasPrefix(".cartrender-staging-") && FileManager.default.fileExists(atPath: "\(locked)/\($0)/\(staged)") }
        }, "the run staged \(staged) and waits for the lock")
        usleep(50_000)
        kill(running.process.processIdentifier, sig)
        return try finish(running, within: 3)
    }

    /// Whether `condition` became true within 120 s.
    func waitFor(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline { if condition() { return true }; usleep(10_000) }
        return false
    }

    /// Waits for `running` to end, failing (and killing it) when it takes more than `seconds`.
    func finish(_ running: Binary.Running, within seconds: TimeInterval = 30) throws -> Binary.Result {
        let stopBy = Date().addingTimeInterval(seconds)
        while running.process.isRunning && Date() < stopBy { usleep(5_000) }
        if running.process.isRunning {
            kill(running.process.processIdentifier, SIGKILL)
            XCTFail("still running \(seconds) s after the signal")
        }
        return running.finish()
    }

    func interrupt(_ args: [String], in dir: String, with sig: Int32, twice: Bool = false) throws -> Binary.Result {
        let running = try Binary.start(args, in: dir)
        let out = dir + "/" + args[args.firstIndex(of: "--out")! + 1]
        let deadline = Date().addingTimeInterval(120)
        var sawFrame = false
        while Date() < deadline && running.process.isRunning && !sawFrame {
            let staging = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasPrefix(".cartrender-staging-") }
            sawFrame = staging.contains { FileManager.default.fileExists(atPath: "\(out)/\($0)/frame_0000.png") }
            if !sawFrame { usleep(10_000) }
        }
        XCTAssertTrue(sawFrame, "the render wrote a frame")
        kill(running.process.processIdentifier, sig)
        if twice {
            usleep(2_000)
            kill(running.process.processIdentifier, sig)
        }
        let stopBy = Date().addingTimeInterval(30)
        while running.process.isRunning && Date() < stopBy { usleep(10_000) }
        if running.process.isRunning {
            kill(running.process.processIdentifier, SIGKILL)
            XCTFail("still running 30 s after the signal")
        }
        return running.finish()
    }
}
