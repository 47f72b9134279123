import CartRender
import CartRenderCLI
import CartRenderRaster
import Foundation
import XCTest

/// `cartrender diff A B` on files and directories, run as a user runs it.
final class DiffCLITests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws { dir = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func run(_ args: [String], timeout: TimeInterval = 120, file: StaticString = #filePath, line: UInt = #line) throws -> Binary.Result {
        try Binary.run(["diff"] + args, in: dir, timeout: timeout, file: file, line: line)
    }

    /// `width × height` px of `fill`, with `edit` applied, saved as `name`.
    private func write(_ name: String, width: Int = 40, height: Int = 20, fill: (UInt8, UInt8, UInt8) = (255, 255, 255),
                       _ edit: (inout [UInt8], Int) -> Void = { _, _ in }) throws {
        var pixels = [UInt8]()
        for _ in 0..<width * height { pixels += [fill.0, fill.1, fill.2, 255] }
        edit(&pixels, width)
        try Data(PNGEncoder.encode(RGBAImage(width: width, height: height, pixels: pixels)))
            .write(to: URL(fileURLWithPath: dir + "/" + name))
    }

    /// Navy left of x = `edge` px on white; the column the edge crosses is half covered.
    private func edge(_ name: String, at edgeX: Double) throws {
        try write(name) { pixels, width in
            for i in 0..<pixels.count / 4 {
                let covered = min(max(edgeX - Double(i % width), 0), 1)
                for (c, navy) in [20.0, 30, 90].enumerated() {
                    pixels[i * 4 + c] = UInt8((navy * covered + 255 * (1 - covered)).rounded())
                }
            }
        }
    }

    private func json(_ r: Binary.Result) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
    }

    func testIdenticalFiles() throws {
        try write("a.png")
        try write("b.png")
        let r = try run(["a.png", "b.png", "--json"])
        XCTAssertEqual(r.status, 0)
        let j = try json(r)
        XCTAssertEqual(j["differingPixels"] as? Int, 0)
        XCTAssertEqual(j["antialiasedPixels"] as? Int, 0)
        XCTAssertEqual(j["totalPixels"] as? Int, 800)
        XCTAssertEqual(j["identical"] as? Bool, true)
        XCTAssertEqual(try run(["a.png", "b.png"]).stdout, "cartrender diff: passed, 0 of 800 px differ (byte-identical files)\n")
    }

    /// `--quiet` prints nothing: the exit status tells, for files and for directories; the
    /// files asked for are still written.
    func testQuietPrintsNothing() throws {
        try write("a.png")
        try write("b.png") { p, w in p[(5 * w + 7) * 4 + 2] = 0 }
        let same = try run(["a.png", "a.png", "--quiet"])
        XCTAssertEqual([same.status], [0])
        XCTAssertEqual(same.stdout + same.stderr, "")
        let differ = try run(["a.png", "b.png", "--quiet", "--out", "d.png"])
        XCTAssertEqual(differ.status, 1)
        XCTAssertEqual(differ.stdout + differ.stderr, "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/d.png"))
        for d in ["A", "B"] { try FileManager.default.createDirectory(atPath: dir + "/" + d, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: dir + "/a.png", toPath: dir + "/A/frame_0000.png")
        try FileManager.default.copyItem(atPath: dir + "/b.png", toPath: dir + "/B/frame_0000.png")
        let dirs = try run(["A", "B", "--quiet"])
        XCTAssertEqual(dirs.status, 1)
        XCTAssertEqual(dirs.stdout + dirs.stderr, "")
        let both = try run(["a.png", "b.png", "--quiet", "--json"])
        XCTAssertEqual(both.status, 64)
        XCTAssertEqual(both.stderr, "cartrender: --quiet and --json cannot be used together\nRun 'cartrender diff --help' for usage.\n")
    }

    func testOnePixelFailsAndWritesARedDiffPixel() throws {
        try write("a.png")
        try write("b.png") { p, w in p[(5 * w + 7) * 4 + 2] = 0 }
        let r = try run(["a.png", "b.png", "--out", "out/diff.png"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, """
            FAIL     a.png vs b.png: 1 px differs (0.125 %), allowed 0 px → out/diff.png
            cartrender diff: FAILED, 1 of 800 px differ; diff image: out/diff.png

            """)
        let diff = try PNGDecoder.decode(contentsOf: dir + "/out/diff.png")
        XCTAssertTrue(diff[7, 5] == (255, 0, 0, 255))
        XCTAssertEqual(try run(["a.png", "b.png", "--max-diff-pixels", "1"]).status, 0)
        XCTAssertEqual(try run(["a.png", "b.png", "--mask", "7,5,1,1"]).status, 0)
    }

    func testAntialiasedEdgeShiftPassesUnlessIncluded() throws {
        try edge("a.png", at: 20.5)
        try edge("b.png", at: 21.5)
        let r = try run(["a.png", "b.png", "--json"])
        XCTAssertEqual(r.status, 0, r.stdout)
        let j = try json(r)
        XCTAssertEqual(j["differingPixels"] as? Int, 0)
        XCTAssertEqual(j["antialiasedPixels"] as? Int, 40)
        XCTAssertEqual(j["identical"] as? Bool, true)
        let counted = try run(["a.png", "b.png", "--include-aa", "--json"])
        XCTAssertEqual(counted.status, 1)
        XCTAssertEqual(try json(counted)["differingPixels"] as? Int, 40)
    }

    func testGrayJustUnderAndJustOverTheThreshold() throws {
        try write("base.png", fill: (128, 128, 128))
        try write("under.png", fill: (128, 128, 128)) { p, w in for c in 0..<3 { p[(4 * w + 4) * 4 + c] = 154 } }
        try write("over.png", fill: (128, 128, 128)) { p, w in for c in 0..<3 { p[(4 * w + 4) * 4 + c] = 155 } }
        XCTAssertEqual(try run(["base.png", "under.png"]).status, 0)
        XCTAssertEqual(try run(["base.png", "over.png"]).status, 1)
        XCTAssertEqual(try run(["base.png", "over.png", "--threshold", "0.2"]).status, 0)
    }

    func testSizeMismatch() throws {
        try write("a.png")
        try write("b.png", width: 41)
        let r = try run(["a.png", "b.png", "--json"])
        XCTAssertEqual(r.status, 1)
        let j = try json(r)
        XCTAssertEqual(j["status"] as? String, "sizeMismatch")
        XCTAssertEqual(j["identical"] as? Bool, false)
        XCTAssertTrue(try run(["a.png", "b.png"]).stdout.hasPrefix("SIZE     a.png vs b.png: size differs: expected 40×20 px, got 41×20 px"))
    }

    func testDirectories() throws {
        try FileManager.default.createDirectory(atPath: dir + "/A", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/B", withIntermediateDirectories: true)
        try write("A/frame_0000.png"); try write("B/frame_0000.png")
        try write("A/frame_0001.png"); try write("B/frame_0001.png") { p, _ in p[0] = 0; p[1] = 0 }
        try write("A/frame_0002.png")
        try write("B/frame_0003.png")
        let r = try run(["A", "B", "--json", "--report", "report", "--out", "diffs"])
        XCTAssertEqual(r.status, 1)
        let j = try json(r)
        XCTAssertEqual(j["passed"] as? Bool, false)
        let frames = try XCTUnwrap(j["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.map { $0["frame"] as? String }, ["frame_0000.png", "frame_0001.png", "frame_0002.png", "frame_0003.png"])
        XCTAssertEqual(frames.map { $0["status"] as? String }, ["pass", "fail", "extra", "missing"])
        let diff = try XCTUnwrap((frames[1]["files"] as? [String: String])?["diff"])
        for f in ["report/index.html", "report/junit.xml", "report/report.json", "report/" + diff, "diffs/frame_0001.diff.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/" + f), f)
        }
        let lines = try run(["A", "B"]).stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 4)
        XCTAssertEqual(lines[1], "EXTRA    frame_0002.png: only in A, not in B")
        XCTAssertEqual(lines[3], "cartrender diff: FAILED, 3 of 4 frames failed (1 fail, 1 missing, 1 extra)")
    }

    func testBadInputExitCodes() throws {
        try write("a.png")
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: dir + "/bad.png"))
        try FileManager.default.createDirectory(atPath: dir + "/D", withIntermediateDirectories: true)
        let table: [([String], Int32, String)] = [
            (["a.png", "nope.png"], 66, "cartrender: nope.png: no such file or directory\n"),
            (["a.png", "bad.png"], 65, "cartrender: cannot decode PNG bad.png: not a PNG file\n"),
            (["a.png", "D"], 64, "cartrender: diff: A and B must both be PNG files or both be directories; D is a directory\nRun 'cartrender diff --help' for usage.\n"),
            (["a.png"], 64, "cartrender: diff: expected two PNG files or two directories (A = expected, B = actual), got 1 argument\nRun 'cartrender diff --help' for usage.\n"),
            (["a.png", "a.png", "--threshold", "x"], 64, "cartrender: --threshold: expected a number from 0 (exact) to 1 (black vs white), got \"x\"\nRun 'cartrender diff --help' for usage.\n"),
            (["a.png", "a.png", "--mask", "1.5,0,1,1"], 64, "cartrender: --mask: diff takes whole pixels, got \"1.5,0,1,1\"\nRun 'cartrender diff --help' for usage.\n"),
            (["D", "D"], 65, "cartrender: D: neither D nor D holds frame_NNNN.png files\n"),
            (["a.png", "a.png", "--threshold", "0.1", "--threshold", "0.2"], 64, "cartrender: --threshold is given more than once\nRun 'cartrender diff --help' for usage.\n"),
            (["a.png", "a.png", "--out", "d1.png", "-o", "d2.png"], 64, "cartrender: --out is given more than once\nRun 'cartrender diff --help' for usage.\n"),
        ]
        for (args, status, stderr) in table {
            let r = try run(args)
            XCTAssertEqual(r.status, status, args.joined(separator: " "))
            XCTAssertEqual(r.stderr, stderr, args.joined(separator: " "))
        }
    }

    /// A FIFO given to `diff` (with no writer, opening it would block forever) is refused at
    /// once with exit 66, as A or B, in file mode and in directory mode.
    func testAFIFOIsRefusedNotWaitedOn() throws {
        try write("a.png")
        XCTAssertEqual(mkfifo(dir + "/fifo.png", 0o644), 0)
        try FileManager.default.createDirectory(atPath: dir + "/A", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/B", withIntermediateDirectories: true)
        try write("A/frame_0000.png"); try write("B/frame_0000.png")
        XCTAssertEqual(mkfifo(dir + "/B/frame_0001.png", 0o644), 0)
        let fifo = "is a FIFO (named pipe), not a regular file"
        let table: [([String], String, UInt)] = [
            (["a.png", "fifo.png"], "cartrender: fifo.png: \(fifo)\n", #line),
            (["fifo.png", "a.png", "--out", "diff.png"], "cartrender: fifo.png: \(fifo)\n", #line),
            (["A", "B"], "cartrender: B/frame_0001.png: \(fifo)\n", #line),
        ]
        for (args, stderr, line) in table {
            let r = try run(args, timeout: 30, line: line)
            XCTAssertEqual(r.status, 66, args.joined(separator: " "), line: line)
            XCTAssertEqual(r.stderr, stderr, line: line)
        }
        try FileManager.default.removeItem(atPath: dir + "/B/frame_0001.png")
        XCTAssertEqual(mkfifo(dir + "/A/frame_0002.png", 0o644), 0)
        let extra = try run(["A", "B"], timeout: 30)
        XCTAssertEqual(extra.status, 66)
        XCTAssertEqual(extra.stderr, "cartrender: A/frame_0002.png: \(fifo)\n")
    }

    /// `--out` through a symbolic link writes the link's target, and the link stays.
    func testOutThroughASymbolicLinkWritesItsTarget() throws {
        try write("a.png")
        try FileManager.default.createSymbolicLink(atPath: dir + "/diff.png", withDestinationPath: "target.png")
        let r = try run(["a.png", "a.png", "--out", "diff.png"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: dir + "/diff.png")[.type] as? FileAttributeType, .typeSymbolicLink)
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: dir + "/target.png").width, try PNGDecoder.decode(contentsOf: dir + "/a.png").width)
    }

    /// A FIFO named `report.json` in the report directory (where an earlier report is read to
    /// find its images) is not waited on, and not replaced either: cartrender did not make it.
    func testAFIFONamedLikeTheEarlierReportIsLeftAlone() throws {
        try FileManager.default.createDirectory(atPath: dir + "/A", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/B", withIntermediateDirectories: true)
        try write("A/frame_0000.png"); try write("B/frame_0000.png")
        try FileManager.default.createDirectory(atPath: dir + "/R", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(dir + "/R/report.json", 0o644), 0)
        let r = try run(["A", "B", "--report", "R"], timeout: 30)
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: R/report.json: is not a regular file; it is left alone: remove it, or write somewhere else\n")
        let report = try FileManager.default.attributesOfItem(atPath: dir + "/R/report.json")
        XCTAssertEqual(report[.type] as? FileAttributeType, .typeUnknown)
    }
}
