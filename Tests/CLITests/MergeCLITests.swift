import CartRender
import CartRenderCLI
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
            (["merge", "shards"], 65, "cartrender: shard 2 of 3 is missing; found shards 1, 3 in shards\n"),
            (["merge", "shards", "empty"], 65, "cartrender: shard 2 of 3 is missing; found shards 1, 3 in shards; empty holds no shard manifest\n"),
            (["merge", "nowhere"], 66, "cartrender: nowhere: no such directory\n"),
            (["merge", "afile"], 66, "cartrender: afile: is not a directory (merge takes shard directories)\n"),
            (["merge"], 64, "cartrender: merge needs at least one directory with shard manifests\nRun 'cartrender merge --help' for usage.\n"),
            (["merge", "shards", "--out", "a", "--out", "b"], 64, "cartrender: --out is given more than once\nRun 'cartrender merge --help' for usage.\n"),
            (["merge", "fifo"], 66, "cartrender: fifo/shard-1-of-2.json is a FIFO (named pipe), not a shard manifest\n"),
        ]
        try FileManager.default.createDirectory(atPath: dir + "/fifo", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/afile", contents: Data("x".utf8)))
        XCTAssertEqual(mkfifo(dir + "/fifo/shard-1-of-2.json", 0o644), 0)
        for c in cases {
            let r = try Binary.run(c.args, in: dir)
            XCTAssertEqual(r.status, c.status, c.args.joined(separator: " "))
            XCTAssertEqual(r.stderr, c.stderr, c.args.joined(separator: " "))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/shards/manifest.json"))
    }

    /// A shard manifest names only its own frame files: a path, a parent directory, an absolute
    /// name, another frame's file or no file at all is refused (exit 65) in one sentence naming
    /// the manifest and the entry, and so is a listed frame that is not there; nothing is merged.
    func testShardManifestsNameOnlyTheirOwnFrameFiles() throws {
        let dir = Binary.tempDir(self)
        for k in 1...2 {
            let r = try Binary.run(["--out", "shards", "--shard", "\(k)/2", "--scale", "1", "--fps", "6", "--format", "png,svg", "--quiet"], in: dir)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let manifest = dir + "/shards/shard-1-of-2.json"
        let original = try String(contentsOfFile: manifest, encoding: .utf8)
        let sha = try XCTUnwrap(original.range(of: #""file": "frame_0001.png",\n\s*"sha256": "[0-9a-f]{64}",\n\s*"#, options: .regularExpression))
        func rule(_ example: String = "frame_0001.png") -> String {
            #"must be a plain frame file name such as "\#(example)" (frame_ and the frame's index, .png or .svg)"#
        }
        let cases: [(String, String)] = [
            (original.replacingOccurrences(of: #""file": "frame_0001.png""#, with: #""file": "sub/frame_0001.png""#),
             #"frames[1].file: \#(rule()), got "sub/frame_0001.png""#),
            (original.replacingOccurrences(of: #""file": "frame_0001.png""#, with: #""file": "../x.png""#),
             #"frames[1].file: \#(rule()), got "../x.png""#),
            (original.replacingOccurrences(of: #""file": "frame_0001.png""#, with: #""file": "\#(dir)/shards/frame_0001.png""#),
             #"frames[1].file: \#(rule()), got "\#(dir)/shards/frame_0001.png""#),
            (original.replacingOccurrences(of: #""file": "frame_0001.png""#, with: #""file": "frame_0002.png""#),
             #"frames[1].file: \#(rule()), got "frame_0002.png""#),
            (original.replacingOccurrences(of: #""file": "frame_0001.svg""#, with: #""file": "../frame_0001.svg""#),
             #"frames[1].alternates[0].file: \#(rule("frame_0001.svg")), got "../frame_0001.svg""#),
            (original.replacingCharacters(in: sha, with: ""), "frames[1].file: is missing (a frame with alternates names its primary file)"),
            (original.replacingOccurrences(of: #""file": "frame_0001.png""#, with: #""file": 1"#), "frames[1].file: expected a string, got a number"),
            // A count no render has (the check of each frame's index once trapped on it).
            (original.replacingOccurrences(of: #""frameCount": [0-9]+"#, with: #""frameCount": -1"#, options: .regularExpression),
             "frameCount: a render has at least one frame, got -1"),
        ]
        for (text, entry) in cases {
            try text.write(toFile: manifest, atomically: true, encoding: .utf8)
            let r = try Binary.run(["merge", "shards", "--out", "merged"], in: dir)
            XCTAssertEqual(r.status, 65, entry)
            XCTAssertEqual(r.stderr, "cartrender: shards/shard-1-of-2.json: \(entry)\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/merged"), entry)
        }

        // Without alternates, a frame with no file at all.
        let pngOnly = original.replacingOccurrences(of: #",\n\s*"alternates": \[\n\s*\{\n\s*"file": "frame_0001.svg",\n\s*"sha256": "[0-9a-f]{64}"\n\s*\}\n\s*\]"#,
                                                    with: "", options: .regularExpression)
        XCTAssertNotEqual(pngOnly, original)
        try pngOnly.replacingCharacters(in: try XCTUnwrap(pngOnly.range(of: #""file": "frame_0001.png",\n\s*"sha256": "[0-9a-f]{64}",\n\s*"#, options: .regularExpression)), with: "")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        var r = try Binary.run(["merge", "shards", "--out", "merged"], in: dir)
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stderr, "cartrender: shards/shard-1-of-2.json: frames[1].file: is missing\n")

        // Every listed file, alternates included, must be there.
        try original.write(toFile: manifest, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: dir + "/shards/frame_0001.svg")
        r = try Binary.run(["merge", "shards", "--out", "merged"], in: dir)
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stderr, "cartrender: shards/frame_0001.svg is listed in shard-1-of-2.json but missing\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/merged"))
    }
}
