import CartRender
import Foundation
import XCTest

/// `cartrender --shard K/N` and `cartrender merge`, run like a CI matrix runs them.
final class MergeCLITests: XCTestCase {
    private func files(_ dir: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for f in try FileManager.default.contentsOfDirectory(atPath: dir) { out[f] = FileManager.default.contents(atPath: dir + "/" + f) }
        return out
    }

    func testShardsInSeparateDirectoriesMergeIntoASingleRun() throws {
        let dir = Binary.tempDir(self)
        let common = ["--scale", "1", "--fps", "12", "--quiet"]
        XCTAssertEqual(try Binary.run(["--out", "single"] + common, in: dir).status, 0)
        for k in 1...3 {
            let r = try Binary.run(["--out", "shard\(k)", "--shard", "\(k)/3"] + common, in: dir)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let r = try Binary.run(["merge", "shard1", "shard2", "shard3", "--out", "merged"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("cartrender: merged "), r.stderr)
        XCTAssertEqual(try files(dir + "/merged"), try files(dir + "/single"))

        let quiet = try Binary.run(["merge", "shard1", "shard2", "shard3", "--out", "merged", "--quiet"], in: dir)
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stderr, "", "--quiet prints nothing")
    }

    func testBadMergesAreOneSentenceWithTheirExitStatus() throws {
        let dir = Binary.tempDir(self)
        for k in [1, 3] {
            XCTAssertEqual(try Binary.run(["--out", "shards", "--shard", "\(k)/3", "--scale", "1", "--fps", "6", "--quiet"], in: dir).status, 0)
        }
        let cases: [(args: [String], status: Int32, stderr: String)] = [
            (["merge", "shards"], 65, "cartrender: shard 2 of 3 is missing\n"),
            (["merge", "nowhere"], 66, "cartrender: nowhere: no such directory, or it cannot be read\n"),
            (["merge"], 64, "cartrender: merge needs at least one directory with shard manifests\nRun 'cartrender --help' for usage.\n"),
            (["merge", "shards", "--out", "a", "--out", "b"], 64, "cartrender: --out is given more than once\nRun 'cartrender --help' for usage.\n"),
        ]
        for c in cases {
            let r = try Binary.run(c.args, in: dir)
            XCTAssertEqual(r.status, c.status, c.args.joined(separator: " "))
            XCTAssertEqual(r.stderr, c.stderr, c.args.joined(separator: " "))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/shards/manifest.json"))
    }
}
