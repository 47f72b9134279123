import CartRenderRaster
import Foundation
import XCTest

/// Moving a run's files into place is all or nothing as seen from outside (`StagingArea`): a
/// rename that fails puts everything back, and the next run repairs a move that a killed run
/// left half done.
final class MoveIntoPlaceTests: XCTestCase {
    /// The earlier complete render: the default scene at 10 fps, 1x (frames 0…33 and the manifest).
    func earlierRender(_ test: XCTestCase) throws -> String {
        let dir = Binary.tempDir(test)
        let r = try Binary.run(["--out", "frames", "--fps", "10", "--scale", "1", "--quiet"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        return dir
    }

    /// Makes `path` immutable (`chattr +i`) until the test ends; skips the test, saying why,
    /// when that is not possible (no chattr, not root, a file system without the attribute).
    func makeImmutable(_ path: String) throws {
        let chattr = ["/usr/bin/chattr", "/bin/chattr"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let chattr else { throw XCTSkip("chattr is not installed (e2fsprogs): cannot make a frame immutable") }
        let set = try Binary.run(["+i", path], executable: chattr)
        guard set.status == 0 else { throw XCTSkip("chattr +i \(path) failed (needs root and a file system with the immutable attribute): \(set.stderr)") }
        addTeardownBlock { _ = try? Binary.run(["-i", path], executable: chattr) }
    }

    /// A frame of the earlier render that cannot be replaced (immutable): exit 73 naming it,
    /// and the earlier render — manifest and frames — is intact, byte for byte, with no
    /// staging directory left.
    func testAFrameThatCannotBeReplacedLeavesTheEarlierRenderIntact() throws {
        let dir = try earlierRender(self)
        let before = try snapshot(dir + "/frames")
        try makeImmutable(dir + "/frames/frame_0012.png")
        let r = try Binary.run(["--out", "frames", "--fps", "5", "--scale", "1", "--quiet"], in: dir)
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: frames/frame_0012.png: cannot be replaced (Operation not permitted); frames is as it was before\n")
        XCTAssertEqual(try snapshot(dir + "/frames"), before)
    }

    /// A frame of the earlier render that this run does not write and cannot remove is an
    /// error too (it used to be left in place, unlisted, without a word).
    func testAnEarlierFrameThatCannotBeRemovedIsReported() throws {
        let dir = try earlierRender(self)
        let before = try snapshot(dir + "/frames")
        try makeImmutable(dir + "/frames/frame_0030.png")
        let r = try Binary.run(["--out", "frames", "--fps", "5", "--scale", "1", "--quiet"], in: dir)
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: frames/frame_0030.png: cannot be removed (Operation not permitted); frames is as it was before\n")
        XCTAssertEqual(try snapshot(dir + "/frames"), before)
    }

    /// A run killed while moving (SIGKILL after its fifth rename: the earlier manifest and four
    /// frames set aside) is found by the next run, which says so, puts the earlier render back
    /// and then replaces it as usual: none of the earlier render's extra frames stays next to
    /// the new manifest. Liveness is the staging directory's lock, never a PID: the killed run's
    /// directory is repaired even when the PID its name records belongs to a live process (PIDs
    /// are reused: here it is the test's own), an empty one left by a run killed while making it
    /// is removed without a word, and only the one whose lock a live process holds is left alone.
    func testTheNextRunRepairsAMoveThatAKilledRunLeftHalfDone() throws {
        let dir = try earlierRender(self)
        let out = dir + "/frames"
        let fm = FileManager.default
        let killed = try Binary.run(["--out", "frames", "--fps", "5", "--scale", "1", "--quiet", "--color-scheme", "dark"], in: dir,
                                    environment: ["CARTRENDER_TEST_KILL_AT_COMMIT_STEP": "5"])
        XCTAssertEqual(killed.status, SIGKILL, killed.stderr)
        let staged = try XCTUnwrap(fm.contentsOfDirectory(atPath: out).first { $0.hasPrefix(".cartrender-staging-") })
        let reused = ".cartrender-staging-\(getpid())-ReUsEd"
        try fm.moveItem(atPath: out + "/" + staged, toPath: out + "/" + reused)
        // A live run's: its lock held (here by the test). An empty one: killed while being made.
        let live = ".cartrender-staging-1-LiVe00", empty = ".cartrender-staging-2-EmPty0.new"
        for d in [live, empty] {
            try fm.createDirectory(atPath: out + "/" + d, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }
        let lock = open(out + "/" + live + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(lock, 0)
        defer { close(lock) }
        XCTAssertEqual(flock(lock, LOCK_EX), 0)

        let r = try Binary.run(["--out", "frames", "--fps", "4", "--scale", "1", "--quiet"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: frames: a run (process \(getpid())) stopped while moving its files into place; put back 5 files of the earlier run\n")
        let frames = (0...13).map { String(format: "frame_%04d.png", $0) }
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: out).sorted(), ([".cartrender-files.sha256", live] + frames + ["manifest.json"]).sorted())
    }

    /// The same, when the dead run had moved in frames that replace nothing and the next run
    /// fails before moving anything: the earlier render is back, complete, byte for byte, with
    /// the dead run's new frames removed.
    func testARepairedDirectoryHoldsTheEarlierRender() throws {
        let dir = try earlierRender(self)
        let out = dir + "/frames"
        let fm = FileManager.default
        let before = try checksums(out)
        // 1 (the manifest set aside) + 2 × 34 (frames 0…33 replaced) + 2 (frames 34 and 35 moved in).
        let killed = try Binary.run(["--out", "frames", "--fps", "40", "--frames", "0-40", "--scale", "1", "--quiet"], in: dir,
                                    environment: ["CARTRENDER_TEST_KILL_AT_COMMIT_STEP": "71"])
        XCTAssertEqual(killed.status, SIGKILL, killed.stderr)
        let dead = try XCTUnwrap(fm.contentsOfDirectory(atPath: out).first { $0.hasPrefix(".cartrender-staging-") }
            .flatMap { pid_t($0.dropFirst(".cartrender-staging-".count).prefix { $0 != "-" }) })
        XCTAssertTrue(fm.fileExists(atPath: out + "/frame_0035.png"))
        // The next run fails after finding the directory (a frame it must replace is a directory).
        try fm.createDirectory(atPath: out + "/frame_0001.svg", withIntermediateDirectories: false)
        let r = try Binary.run(["--out", "frames", "--fps", "10", "--scale", "1", "--quiet", "--format", "svg", "--frames", "0-1"], in: dir)
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: frames: a run (process \(dead)) stopped while moving its files into place; put back 35 files of the earlier run and removed the 2 it had moved in\n"
                       + "cartrender: frames/frame_0001.svg: is a directory; cartrender will not replace it\n")
        try fm.removeItem(atPath: out + "/frame_0001.svg")
        XCTAssertEqual(try checksums(out), before)
    }

    // MARK: - Helpers

    /// Name → SHA-256 of every entry of `dir`.
    func checksums(_ dir: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
            out[name] = Checksum.sha256(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))))
        }
        return out
    }
}
