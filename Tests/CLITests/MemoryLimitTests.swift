import CartRenderTestSupport
import Foundation
import XCTest

/// Under an address-space limit (`ulimit -v`), a run ends with exit 0 or 70 and a sentence —
/// never a hang, never a signal — and leaves its output directory as it was or complete, with
/// no staging directory (`MemoryBudget`, `WorkerThread`, `FatalSignals`).
final class MemoryLimitTests: XCTestCase {
    /// Runs `cartrender args` in bash under `ulimit -v KB`, printing the exit status bash saw
    /// (128 + N for a signal) as the last line of stdout.
    func runLimited(_ kilobytes: Int, _ args: [String], in dir: String) throws -> (status: Int32, stderr: String, timedOut: Bool) {
        let quoted = ([Binary.url.path] + args).map { "'\($0)'" }.joined(separator: " ")
        let r = try Binary.run(["-c", "ulimit -v \(kilobytes); \(quoted) >/dev/null; echo \"status $?\""], in: dir,
                               timeout: 60, executable: "/bin/bash")
        let status = r.stdout.split(separator: "\n").last.flatMap { $0.hasPrefix("status ") ? Int32($0.dropFirst(7)) : nil } ?? -1
        return (status, r.stderr, r.timedOut)
    }

    /// 140 MB leaves no room for one drawing worker: exit 70 at once with one sentence naming
    /// the need and the limit, and nothing written (this used to hang forever, libdispatch
    /// retrying a thread stack every second).
    func testALimitTooSmallForOneWorkerStopsAtOnce() throws {
        let dir = Binary.tempDir(self)
        let r = try runLimited(140_000, ["--out", "o", "--fps", "5", "--scale", "3", "--quiet"], in: dir)
        XCTAssertFalse(r.timedOut)
        XCTAssertEqual(r.status, 70, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: out of memory: a run of cartrender needs about 212 MB of address space, and the limit (ulimit -v) is 136 MB; raise the limit or render at a smaller --scale\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/o"))
    }

    /// From 150 to 330 MB, render and verify of the demo at 3x: every run ends with 0 or 70
    /// (70 with a sentence as its last line), within a minute, and leaves no staging directory;
    /// a run that ends 0 wrote a complete render. Every 15 MB step under
    /// `CARTRENDER_FULL_SWEEPS=1`, 150, 210, 270 and 330 MB (`TestSweep`) under `make test`.
    func testEveryLimitEndsWithSuccessOrASentence() throws {
        let dir = Binary.tempDir(self)
        var outcomes: [Int32: Int] = [:]
        for kilobytes in TestSweep.sample(Array(stride(from: 150_000, through: 330_000, by: 15_000))) {
            for (command, written) in [(["--out", "o"], "o"), (["verify", "--baseline", "b", "--record", "all", "--report", "r"], "b")] {
                let r = try runLimited(kilobytes, command + ["--fps", "5", "--scale", "3", "--quiet"], in: dir)
                let what = "\(command.joined(separator: " ")) under \(kilobytes) KB"
                XCTAssertFalse(r.timedOut, what)
                XCTAssert(r.status == 0 || r.status == 70, "\(what): status \(r.status): \(r.stderr)")
                if r.status == 70 {
                    let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
                    XCTAssertTrue(last.hasPrefix("cartrender: ") && (last.contains("out of memory") || last.contains("ran out of memory")), "\(what): \(r.stderr)")
                }
                outcomes[r.status, default: 0] += 1
                for sub in ["o", "b", "r"] {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/" + sub)) ?? []
                    XCTAssertFalse(names.contains { $0.hasPrefix(".cartrender-staging-") }, "\(what) left a staging directory in \(sub)")
                    if r.status == 0 && written == sub { XCTAssertTrue(names.contains("manifest.json"), what) }
                }
            }
        }
        XCTAssertGreaterThan(outcomes[70, default: 0], 0, "\(outcomes)")
        XCTAssertGreaterThan(outcomes[0, default: 0], 0, "\(outcomes)")
    }

    /// A video under a limit that leaves FFmpeg's libraries no room (dlopen fails for want of
    /// address space, 230–300 MB here): exit 70 with a sentence saying so, not 69 and "install
    /// the Debian packages", which are installed.
    func testFFmpegThatCannotBeMappedIsOutOfMemoryNotMissing() throws {
        let dir = Binary.tempDir(self)
        var sentences: [String] = []
        for kilobytes in stride(from: 230_000, through: 300_000, by: 10_000) {
            let r = try runLimited(kilobytes, ["-o", "a.mp4", "--frames", "0-1", "--scale", "1", "--fps", "10", "--quiet"], in: dir)
            XCTAssertFalse(r.timedOut)
            XCTAssert(r.status == 0 || r.status == 70, "under \(kilobytes) KB: status \(r.status): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("install the Debian packages"), r.stderr)
            if r.stderr.contains("FFmpeg's") { sentences.append(r.stderr) }
        }
        XCTAssertFalse(sentences.isEmpty, "no limit made dlopen fail: the test no longer reaches the case")
        for s in sentences {
            XCTAssertTrue(s.hasPrefix("cartrender: internal error: FFmpeg's lib") && s.hasSuffix(
                ": it is installed but could not be mapped (out of memory, or an address-space limit such as ulimit -v); raise the limit or free memory\n"), s)
        }
    }
}
