import CartRenderRaster
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
        XCTAssertEqual(before.count, 34 + 2, "33 frames at 10 fps plus one, the manifest and notes.txt")

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
        XCTAssertEqual(names, svgs + ["frame_9999.png", "manifest.json", "notes.txt"])
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

    /// `verify` stops between frames on SIGTERM, says so, and exits 143; the frames it recorded are whole.
    func testSIGTERMStopsVerify() throws {
        let dir = Binary.tempDir(self)
        let running = try Binary.start(["verify", "--baseline", "base", "--fps", "240", "--quiet", "--jobs", "2"], in: dir)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && running.process.isRunning
            && ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/base")) ?? []).isEmpty { usleep(10_000) }
        kill(running.process.processIdentifier, SIGTERM)
        let r = running.finish()
        XCTAssertEqual(r.status, 143, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: verify interrupted by SIGTERM; no report written (baseline frames already recorded stay)\n")
        for name in try FileManager.default.contentsOfDirectory(atPath: dir + "/base") {
            XCTAssertTrue(name.hasPrefix("frame_") && name.hasSuffix(".png"), "only whole frames: \(name)")
        }
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

    /// Name → SHA-256 and modification time of every entry of `dir`, hidden ones included.
    func snapshot(_ dir: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
            let path = dir + "/" + name
            var info = stat()
            lstat(path, &info)
            let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
            out[name] = Checksum.sha256(Array(data)) + " \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        return out
    }
}
