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

    /// A run killed while moving (here the state such a run leaves, made by hand: the earlier
    /// manifest and two frames set aside in its staging directory, one new frame moved in) is
    /// found by the next run, which says so, puts the earlier render back and then replaces it
    /// as usual: none of the earlier render's extra frames stays next to the new manifest.
    /// Staging directories of live processes and of other machines are left alone.
    func testTheNextRunRepairsAMoveThatAKilledRunLeftHalfDone() throws {
        let dir = try earlierRender(self)
        let out = dir + "/frames"
        let fm = FileManager.default
        // A "new" render, staged by a process that is gone.
        let dead = try deadProcessID()
        let staging = "\(out)/.cartrender-staging-\(dead)-AbC123"
        XCTAssertEqual(try Binary.run(["--out", "new", "--fps", "5", "--scale", "1", "--quiet", "--color-scheme", "dark"], in: dir).status, 0)
        try fm.moveItem(atPath: dir + "/new", toPath: staging)
        try Data(hostName().utf8).write(to: URL(fileURLWithPath: staging + "/.host"))
        try fm.moveItem(atPath: out + "/manifest.json", toPath: staging + "/.aside.manifest.json")
        try fm.moveItem(atPath: out + "/frame_0030.png", toPath: staging + "/.aside.frame_0030.png")
        try fm.moveItem(atPath: out + "/frame_0000.png", toPath: staging + "/.aside.frame_0000.png")
        try fm.moveItem(atPath: staging + "/frame_0000.png", toPath: out + "/frame_0000.png")
        // Not to be touched: a live process's staging directory and another machine's.
        let live = "\(out)/.cartrender-staging-\(getpid())-LiVe00", other = "\(out)/.cartrender-staging-\(dead)-OtHer0"
        for (d, host) in [(live, hostName()), (other, "another-machine")] {
            try fm.createDirectory(atPath: d, withIntermediateDirectories: false)
            try Data(host.utf8).write(to: URL(fileURLWithPath: d + "/.host"))
        }

        let r = try Binary.run(["--out", "frames", "--fps", "4", "--scale", "1", "--quiet"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: frames: a run (process \(dead)) stopped while moving its files into place; put back 3 files of the earlier run\n")
        let frames = (0...13).map { String(format: "frame_%04d.png", $0) }
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: out).sorted(),
                       ([".cartrender-staging-\(dead)-OtHer0", ".cartrender-staging-\(getpid())-LiVe00"] + frames + ["manifest.json"]).sorted())
    }

    /// The same, when the next run fails before moving anything: the earlier render is back,
    /// complete, with the dead run's new frame removed.
    func testARepairedDirectoryHoldsTheEarlierRender() throws {
        let dir = try earlierRender(self)
        let out = dir + "/frames"
        let fm = FileManager.default
        let before = try checksums(out)
        let dead = try deadProcessID()
        let staging = "\(out)/.cartrender-staging-\(dead)-XyZ789"
        XCTAssertEqual(try Binary.run(["--out", "new", "--fps", "40", "--frames", "0-40", "--scale", "1", "--quiet"], in: dir).status, 0)
        try fm.moveItem(atPath: dir + "/new", toPath: staging)
        try Data(hostName().utf8).write(to: URL(fileURLWithPath: staging + "/.host"))
        try fm.moveItem(atPath: out + "/manifest.json", toPath: staging + "/.aside.manifest.json")
        try fm.moveItem(atPath: staging + "/frame_0040.png", toPath: out + "/frame_0040.png")  // new, replaces nothing
        // The next run fails after finding the directory (a frame it must replace is a directory).
        try fm.createDirectory(atPath: out + "/frame_0001.svg", withIntermediateDirectories: false)
        let r = try Binary.run(["--out", "frames", "--fps", "10", "--scale", "1", "--quiet", "--format", "svg", "--frames", "0-1"], in: dir)
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: frames: a run (process \(dead)) stopped while moving its files into place; put back 1 file of the earlier run and removed the 1 it had moved in\n"
                       + "cartrender: frames/frame_0001.svg: is a directory; cartrender will not replace it\n")
        try fm.removeItem(atPath: out + "/frame_0001.svg")
        XCTAssertEqual(try checksums(out), before)
    }

    // MARK: - Helpers

    /// The ID of a process that has ended.
    func deadProcessID() throws -> pid_t {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        XCTAssertNotEqual(kill(p.processIdentifier, 0), 0)
        return p.processIdentifier
    }

    func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        return String(cString: buffer)
    }

    /// Name → SHA-256 of every entry of `dir`.
    func checksums(_ dir: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
            out[name] = Checksum.sha256(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))))
        }
        return out
    }
}
