import CartRender
import CartRenderCLI
import Foundation
import XCTest

/// End-to-end: the built binary, run like a user runs it.
final class RenderCommandTests: XCTestCase {
    func testDefaultSceneRendersFramesAndManifest() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["--out", "frames/", "--scale", "1", "--frames", "0-3"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/frames").sorted()
        XCTAssertEqual(names, [".cartrender-files.sha256", "frame_0000.png", "frame_0001.png", "frame_0002.png", "frame_0003.png", "manifest.json"])
        let png = FileManager.default.contents(atPath: dir + "/frames/frame_0000.png")!
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/frames/manifest.json"))) as! [String: Any]
        XCTAssertEqual((manifest["frames"] as! [Any]).count, 4)
        XCTAssertEqual(manifest["size"] as! [String: Int], ["width": 393, "height": 852])
    }

    func testDefaultSizeIsIPhone16At3x() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["--out", dir, "--at", "0.6", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "--quiet prints nothing")
        let png = FileManager.default.contents(atPath: dir + "/frame_0036.png")!
        // IHDR width and height, big-endian at offsets 16 and 20.
        let w = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, h = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual([w, h], [1179, 2556])
    }

    func testSVGFormatAndTwoRunsAreByteIdentical() throws {
        let a = Binary.tempDir(self), b = Binary.tempDir(self)
        for d in [a, b] {
            let r = try Binary.run([Binary.examples + "/rapid-taps.json", "--out", d, "--format", "svg,png", "--scale", "1", "--frames", "30-33", "--quiet"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: a).sorted()
        XCTAssertTrue(names.contains("frame_0030.svg") && names.contains("frame_0030.png"))
        for n in names { XCTAssertEqual(FileManager.default.contents(atPath: a + "/" + n), FileManager.default.contents(atPath: b + "/" + n), n) }
        let svg = String(decoding: FileManager.default.contents(atPath: a + "/frame_0031.svg")!, as: UTF8.self)
        XCTAssertTrue(svg.hasPrefix("<?xml"))
        XCTAssertTrue(svg.contains("width=\"393px\""), String(svg.prefix(300)))
    }

    /// Exit codes and one-sentence errors (docs/command-line.md).
    func testErrors() throws {
        let dir = Binary.tempDir(self)
        try "{\n  \"fps\": 60,\n  \"events\": [{\"at\": -1, \"tap\": \"add\"}]\n}".write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        try "{\"shop\": {\"image\": \"missing.png\"}}".write(toFile: dir + "/missing-image.json", atomically: true, encoding: .utf8)
        try "not a png".write(toFile: dir + "/corrupt.png", atomically: true, encoding: .utf8)
        try "{\"shop\": {\"image\": \"corrupt.png\"}}".write(toFile: dir + "/corrupt-image.json", atomically: true, encoding: .utf8)
        try "x".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
        let table: [(args: [String], status: Int32, stderr: String)] = [
            (["bad.json", "--out", "o"], 65, "cartrender: bad.json:3:21: events[0].at: must be ≥ 0 s, got -1\n"),
            (["missing-image.json", "--out", "o"], 66, "cartrender: missing-image.json:1:20: shop.image: image file \(dir)/missing.png does not exist\n"),
            (["corrupt-image.json", "--out", "o"], 65, "cartrender: corrupt-image.json:1:20: shop.image: image file \(dir)/corrupt.png is not a PNG or JPEG image\n"),
            (["nope.json"], 66, "cartrender: nope.json: no such file\n"),
            ([".", "--out", "o"], 66, "cartrender: .: is a directory, not a scene file\n"),
            (["--fps", "500"], 64, "cartrender: --fps: expected a whole number from 1 to 240, got \"500\"\nRun 'cartrender --help' for usage.\n"),
            (["--fsp", "30"], 64, "cartrender: unknown option --fsp; did you mean --fps?\nRun 'cartrender --help' for usage.\n"),
            (["--frames", "0-3", "--at", "1"], 64, "cartrender: --frames and --at cannot be used together\nRun 'cartrender --help' for usage.\n"),
            (["--out", "file", "--frames", "0-0"], 73, "cartrender: file: exists and is not a directory\n"),
            (["--at", "99", "--out", "o"], 64, "cartrender: --at: the render ends at 3.283333 s, got 99\nRun 'cartrender --help' for usage.\n"),
        ]
        for row in table {
            let r = try Binary.run(row.args, in: dir)
            XCTAssertEqual(r.status, row.status, "\(row.args): \(r.stderr)")
            XCTAssertEqual(r.stderr, row.stderr, "\(row.args)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/o/manifest.json"), "no half-written output")
    }

    func testHelpAndVersionGoToStdout() throws {
        let h = try Binary.run(["--help"])
        XCTAssertEqual(h.status, 0)
        XCTAssertTrue(h.stdout.contains("USAGE"))
        XCTAssertTrue(h.stdout.contains("--reduce-motion"))
        XCTAssertEqual(h.stderr, "")
        let v = try Binary.run(["--version"])
        XCTAssertEqual(v.stdout, Help.version + "\n")
    }

    /// `cartrender render …` is the bare form with its name: the same files, byte for byte; its
    /// usage errors point to `cartrender render --help`, and `render --version` prints the version.
    func testRenderSubcommandIsTheBareForm() throws {
        let bare = Binary.tempDir(self), named = Binary.tempDir(self)
        let args = [Binary.examples + "/rapid-taps.json", "--format", "png,gif", "--scale", "1", "--fps", "10", "--frames", "0-3", "--quiet"]
        XCTAssertEqual(try Binary.run(args + ["--out", bare]).status, 0)
        let r = try Binary.run(["render"] + args + ["--out", named])
        XCTAssertEqual(r.status, 0, r.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: bare).sorted()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: named).sorted(), names)
        for n in names { XCTAssertEqual(FileManager.default.contents(atPath: bare + "/" + n), FileManager.default.contents(atPath: named + "/" + n), n) }
        let bad = try Binary.run(["render", "--fsp", "30"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.stderr, "cartrender: unknown option --fsp; did you mean --fps?\nRun 'cartrender render --help' for usage.\n")
        XCTAssertEqual(try Binary.run(["render", "--version"]).stdout, Help.version + "\n")
    }

    func testSchemaIsJSON() throws {
        let r = try Binary.run(["schema"])
        XCTAssertEqual(r.status, 0)
        let schema = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        XCTAssertNotNil((schema["properties"] as? [String: Any])?["events"])
    }

    func testOverridesChangeTheRender() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["--out", dir, "--fps", "10", "--scale", "2", "--color-scheme", "dark", "--reduce-motion", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let m = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))) as! [String: Any]
        XCTAssertEqual(m["fps"] as? Int, 10)
        XCTAssertEqual(m["scale"] as? Double, 2)
        let kinds = (m["events"] as! [[String: Any]]).compactMap { $0["reason"] as? String }
        XCTAssertEqual(kinds, ["reduceMotion", "reduceMotion", "reduceMotion"])
    }
}

final class ContactSheetTests: XCTestCase {
    func testContactSheetIsWrittenAndListed() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["--out", dir, "--scale", "1", "--frames", "0-0", "--contact-sheet", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let png = FileManager.default.contents(atPath: dir + "/contact-sheet.png")!
        let w = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, h = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        // 6 columns × (240 px + 24 px gap) + 24 px; 2 rows of 520 px thumbnails + captions.
        XCTAssertEqual(w, 24 + 6 * (240 + 24))
        XCTAssertEqual(h, 24 + 2 * (520 + 28 + 24))
        let m = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))) as! [String: Any]
        XCTAssertEqual((m["outputs"] as! [[String: String]]).map { $0["file"] }, ["contact-sheet.png"])
    }
}

final class VerifyAtTests: XCTestCase {
    /// `verify --at` checks the frame nearest the time, at that frame's time, against its baseline.
    func testVerifyAtSnapsToTheFrameGrid() throws {
        let dir = Binary.tempDir(self)
        let record = try Binary.run(["verify", "--baseline", dir + "/base", "--scale", "1", "--frames", "36-36", "--record", "all", "--quiet"])
        XCTAssertEqual(record.status, 0, record.stderr)
        let r = try Binary.run(["verify", "--baseline", dir + "/base", "--scale", "1", "--at", "0.605", "--record", "never", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
    }
}
