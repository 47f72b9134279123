import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// A commit killed at any instant (SIGKILL, which no handler sees) leaves a directory that the
/// next command reads only whole: byte for byte the earlier recording or the new one, never a
/// mix, and no staging directory. The instants are the commit's own steps — after its journal
/// is written, after each rename — chosen at random from a fixed seed, through the debug
/// build's `CARTRENDER_TEST_KILL_AT_COMMIT_STEP` (the release binary has no such hook).
final class CrashConsistencyTests: XCTestCase {
    /// Fast renders: 1x, 5 fps (17 frames of the demo).
    let render = ["--fps", "5", "--scale", "1"]

    /// `verify --record all` of the whole demo over a baseline of its first nine frames (the
    /// frames it shares are byte-equal, so no pixel comparison slows the loop), killed at 50
    /// random steps; after each, `verify` (the CI default, which records nothing) compares
    /// against exactly the old baseline or exactly the new one: the old one lacks eight frames
    /// (exit 1), the new one passes (exit 0), a mix would have no manifest. The report's commit
    /// (its thumbnails included) comes first, so the steps reach past both commits.
    func testAKilledRecordingLeavesTheOldBaselineOrTheNewOne() throws {
        let dir = Binary.tempDir(self)
        let base = dir + "/base"
        XCTAssertEqual(try Binary.run(["verify", "--baseline", base, "--record", "all", "--quiet", "--frames", "0-8"] + render, in: dir).status, 0)
        let old = try contents(base)
        let recordNew = ["verify", "--baseline", "copy", "--record", "all", "--quiet", "--report", "rep"] + render
        try copy(base, to: dir + "/copy")
        let full = try Binary.run(recordNew, in: dir)
        XCTAssertEqual(full.status, 0, full.stderr)
        let new = try contents(dir + "/copy")
        XCTAssertNotEqual(old, new)

        try killAtRandomSteps(seed: 25, steps: 0...60, dir: dir, target: "copy", from: base, command: recordNew, old: old, new: new) { step in
            // A verify that records nothing compares only a whole baseline, and repairs nothing.
            try self.readThenRepair(step: step, dir: dir, target: "copy") {
                let next = try Binary.run(["verify", "--baseline", "copy", "--record", "never", "--quiet", "--report", "rep2"] + self.render, in: dir)
                XCTAssertFalse(next.stderr.contains("comparing pixels only"), "step \(step): \(next.stderr)")
                return next
            }
        } expectedStatus: { $0 ? 1 : 0 }
    }

    /// `merge` of two shards into a directory that holds an earlier render, killed at 50 random
    /// steps; after each, `view` (which reads the render) finds the earlier render or the merged
    /// one, whole.
    func testAKilledMergeLeavesTheEarlierRenderOrTheMergedOne() throws {
        let dir = Binary.tempDir(self)
        for k in 1...2 {
            let r = try Binary.run(["--out", "s\(k)", "--shard", "\(k)/2", "--quiet", "--color-scheme", "dark"] + render, in: dir)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertEqual(try Binary.run(["--out", "earlier", "--quiet", "--fps", "3", "--scale", "1"], in: dir).status, 0)
        let old = try contents(dir + "/earlier")
        try copy(dir + "/earlier", to: dir + "/out")
        XCTAssertEqual(try Binary.run(["merge", "s1", "s2", "--out", "out", "--quiet"], in: dir).status, 0)
        let new = try contents(dir + "/out")
        XCTAssertNotEqual(old, new)

        try killAtRandomSteps(seed: 26, steps: 0...50, dir: dir, target: "out", from: dir + "/earlier",
                              command: ["merge", "s1", "s2", "--out", "out", "--quiet"], old: old, new: new) { step in
            // `diff out out` reads the directory whole, or refuses and repairs nothing.
            try self.readThenRepair(step: step, dir: dir, target: "out") { try Binary.run(["diff", "out", "out", "--quiet"], in: dir) }
        } expectedStatus: { _ in 0 }
    }

    // MARK: - Helpers

    /// Runs `reader` (a command that only reads `target`): it either reads `target` whole or
    /// refuses (73) a half-moved one, changing nothing either way. Then `view`, a command that
    /// writes `target`, repairs it (its page is taken away again; the ledger that lists the
    /// page is left out of the comparison), and `reader` runs again on the whole directory.
    func readThenRepair(step: Int, dir: String, target: String, reader: () throws -> Binary.Result) throws -> Binary.Result {
        let before = try snapshot(dir + "/" + target)
        let first = try reader()
        XCTAssertEqual(try snapshot(dir + "/" + target), before, "step \(step): a reader changed \(target)")
        if first.status == 73 {
            XCTAssertTrue(first.stderr.contains("stopped while moving its files into place") && first.stderr.contains("so it neither repairs nor compares it"),
                          "step \(step): \(first.stderr)")
        }
        let repair = try Binary.run(["view", target, "--quiet"], in: dir)
        XCTAssertEqual(repair.status, 0, "step \(step): \(repair.stderr)")
        try FileManager.default.removeItem(atPath: dir + "/" + target + "/index.html")
        return try reader()
    }

    /// 50 times (12 under a sampling `make test`: `TestSweep.rounds`): `target` (in `dir`) made a
    /// copy of `from` again, `command` run and killed after a commit step drawn from `steps` with
    /// a generator seeded by `seed`, then `next` run; after it, `target` must be exactly `old` or
    /// exactly `new`, and `next` must end with `expectedStatus(target is old)`. Both outcomes must
    /// occur in more than a tenth of the rounds (more than 5 times of 50).
    func killAtRandomSteps(seed: UInt64, steps: ClosedRange<Int>, dir: String, target: String, from: String, command: [String],
                           old: [String: String], new: [String: String], next: (Int) throws -> Binary.Result,
                           expectedStatus: (Bool) -> Int32) throws {
        var rng = SplitMix64(seed: seed)
        // `next` repairs through `view`, whose page goes into the ledger.
        let ledger = ".cartrender-files.sha256"
        let old = old.filter { $0.key != ledger }, new = new.filter { $0.key != ledger }
        var outcomes: [String: Int] = [:]
        let rounds = TestSweep.rounds(50)
        for _ in 0..<rounds {
            let step = Int.random(in: steps, using: &rng)
            try FileManager.default.removeItem(atPath: dir + "/" + target)
            try copy(from, to: dir + "/" + target)
            let killed = try Binary.run(command, in: dir, environment: ["CARTRENDER_TEST_KILL_AT_COMMIT_STEP": "\(step)"])
            XCTAssert(killed.status == 0 || killed.status == SIGKILL, "step \(step): \(killed.status) \(killed.stderr)")
            let r = try next(step)
            let after = try contents(dir + "/" + target).filter { $0.key != ledger }
            XCTAssert(after == old || after == new, "step \(step): \(target) is a mix:\n\(describe(after, old: old, new: new))")
            XCTAssertEqual(r.status, expectedStatus(after == old), "step \(step): \(r.stderr)")
            outcomes[after == old ? "old" : "new", default: 0] += 1
        }
        // The seed reaches both sides of the commit's last step.
        XCTAssertGreaterThan(outcomes["old", default: 0], rounds / 10, "\(outcomes)")
        XCTAssertGreaterThan(outcomes["new", default: 0], rounds / 10, "\(outcomes)")
    }

    /// Name → SHA-256 of every entry of `dir`, hidden ones included (a staging directory left
    /// behind shows as an entry of its own).
    func contents(_ dir: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
            let data = (try? Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))) ?? Data("(not a file)".utf8)
            out[name] = Checksum.sha256(Array(data))
        }
        return out
    }

    func copy(_ from: String, to: String) throws {
        try FileManager.default.copyItem(atPath: from, toPath: to)
    }

    /// The names where `after` differs from the old and from the new state.
    func describe(_ after: [String: String], old: [String: String], new: [String: String]) -> String {
        let names = Set(after.keys).union(old.keys).union(new.keys).sorted()
        return names.filter { after[$0] != old[$0] || after[$0] != new[$0] }
            .map { "\($0): \(after[$0] == nil ? "absent" : after[$0] == old[$0] ? "old" : after[$0] == new[$0] ? "new" : "other")" }
            .joined(separator: "\n")
    }
}
