import Foundation
import XCTest

/// End-to-end: `-o docs/fly.gif` writes exactly that file (docs/documentation-outputs.md,
/// “Writing a named file”).
final class NamedOutputTests: XCTestCase {
    private func names(_ dir: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir).sorted() }
    private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    func testNamedGIFIsExactlyThatFileAndNeighboursStay() throws {
        let dir = Binary.tempDir(self)
        let first = try Binary.run(["-o", "docs/fly.gif", "--scale", "1", "--frames", "0-20"], in: dir)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try names(dir + "/docs"), ["fly.gif"], "the file and nothing else: no manifest, no ledger, no staging left")
        XCTAssertEqual(bytes(dir + "/docs/fly.gif")?.prefix(6), Data("GIF89a".utf8))
        XCTAssertTrue(first.stderr.hasSuffix(" s\n"), first.stderr)
        let size = bytes(dir + "/docs/fly.gif")!.count
        let sizeText = size < 1000 ? "\(size) B" : String(format: "%.1f kB", Double(size) / 1000)
        XCTAssertTrue(first.stderr.contains("cartrender: wrote docs/fly.gif (\(sizeText)) from 21 frames of 393×852 px"), first.stderr)

        // A second scene into the same folder keeps the first, and a file of the user's.
        try "mine".write(toFile: dir + "/docs/index.html", atomically: true, encoding: .utf8)
        let second = try Binary.run([Binary.examples + "/cart-swipe.json", "-o", "docs/cart.webp", "--scale", "1", "--frames", "0-10", "--quiet"], in: dir)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stderr, "")
        XCTAssertEqual(try names(dir + "/docs"), ["cart.webp", "fly.gif", "index.html"])
        XCTAssertEqual(bytes(dir + "/docs/fly.gif")?.count, size)
        XCTAssertEqual(bytes(dir + "/docs/index.html"), Data("mine".utf8))
        XCTAssertEqual(bytes(dir + "/docs/cart.webp")?.prefix(4), Data("RIFF".utf8))
    }

    /// A rerun renames a new file over the name: a hard link to the earlier file keeps the
    /// earlier bytes (nothing was written into it), and the new file is what a fresh render makes.
    func testRerunReplacesTheFileAtomically() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["-o", "fly.gif", "--scale", "1", "--frames", "0-5", "--quiet"], in: dir).status, 0)
        let earlier = bytes(dir + "/fly.gif")!
        XCTAssertEqual(link(dir + "/fly.gif", dir + "/earlier-link"), 0)
        let r = try Binary.run(["-o", "fly.gif", "--scale", "1", "--frames", "0-30", "--quiet"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(bytes(dir + "/earlier-link"), earlier, "the earlier file was replaced, not written into")
        XCTAssertEqual(try names(dir), ["earlier-link", "fly.gif"], "no temporary file left")
        XCTAssertEqual(try Binary.run(["-o", "fresh/fly.gif", "--scale", "1", "--frames", "0-30", "--quiet"], in: dir).status, 0)
        XCTAssertEqual(bytes(dir + "/fly.gif"), bytes(dir + "/fresh/fly.gif"))
        XCTAssertNotEqual(bytes(dir + "/fly.gif"), earlier)
    }

    /// A link, a directory or a FIFO at the name is refused with exit 73 before a frame is
    /// drawn, and left as it was; so is the file a link leads to.
    func testLinkDirectoryAndFIFOAtTheNameAreRefused() throws {
        let dir = Binary.tempDir(self)
        try "target".write(toFile: dir + "/target.gif", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.gif", withDestinationPath: "target.gif")
        try FileManager.default.createDirectory(atPath: dir + "/dir.gif", withIntermediateDirectories: false)
        XCTAssertEqual(mkfifo(dir + "/fifo.gif", 0o644), 0)
        let table: [(name: String, sentence: String)] = [
            ("link.gif", "cartrender: link.gif: is a symbolic link; cartrender neither writes through it nor replaces it: remove the link or name the file it leads to\n"),
            ("dir.gif", "cartrender: dir.gif: is a directory; name a file, or end the name with / to render into the directory\n"),
            ("fifo.gif", "cartrender: fifo.gif: exists and is not a regular file; cartrender replaces only a regular file at a name it is given\n"),
        ]
        for row in table {
            let r = try Binary.run(["-o", row.name, "--scale", "1", "--frames", "0-2"], in: dir)
            XCTAssertEqual(r.status, 73, row.name)
            XCTAssertEqual(r.stderr, row.sentence)
        }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.gif"), "target.gif")
        XCTAssertEqual(bytes(dir + "/target.gif"), Data("target".utf8))
        XCTAssertEqual(try names(dir + "/dir.gif"), [])
        XCTAssertEqual(try names(dir), ["dir.gif", "fifo.gif", "link.gif", "target.gif"])
        // With a slash, the directory is a directory of frames, as before.
        XCTAssertEqual(try Binary.run(["-o", "dir.gif/", "--scale", "1", "--frames", "0-1", "--quiet"], in: dir).status, 0)
        XCTAssertTrue(try names(dir + "/dir.gif").contains("frame_0001.png"))
    }

    /// A render to a named file killed while drawing leaves only its hidden staging directory,
    /// which the next render into the folder removes, saying so; the earlier file stays.
    func testKilledRenderLeavesTheEarlierFileAndIsCleanedUp() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["-o", "fly.gif", "--scale", "1", "--frames", "0-3", "--quiet"], in: dir).status, 0)
        let earlier = bytes(dir + "/fly.gif")
        let running = try Binary.start(["-o", "fly.gif", "--jobs", "1", "--quiet"], in: dir)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !(try names(dir)).contains(where: { $0.hasPrefix(".cartrender-staging-") }) { usleep(2_000) }
        usleep(200_000)
        kill(running.process.processIdentifier, SIGKILL)
        _ = running.finish()
        XCTAssertEqual(bytes(dir + "/fly.gif"), earlier, "the earlier file as it was")
        XCTAssertEqual(try names(dir).filter { $0.hasPrefix(".cartrender-staging-") }.count, 1, "killed while drawing")
        let next = try Binary.run(["-o", "other.gif", "--scale", "1", "--frames", "0-1", "--quiet"], in: dir)
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stderr.contains("a run (process \(running.process.processIdentifier)) stopped before moving its files into place; removed its staging directory"), next.stderr)
        XCTAssertEqual(try names(dir), ["fly.gif", "other.gif"])
    }

    /// Ambiguous or contradictory requests: one sentence, exit 64, nothing written.
    func testContradictoryRequestsAreUsageErrors() throws {
        let dir = Binary.tempDir(self)
        let usage = "\nRun 'cartrender --help' for usage.\n"
        let table: [(args: [String], sentence: String)] = [
            (["-o", "fly.gif", "--format", "mp4"], "cartrender: -o fly.gif names a GIF file, but --format asks for mp4: name it fly.mp4, or leave out --format"),
            (["-o", "fly.gif", "--format", "png"], "cartrender: -o fly.gif names a file, but png writes one file per frame: render frames into a directory (--out DIR/)"),
            (["-o", "fly.mp4", "--format", "mp4,webm"], "cartrender: -o fly.mp4 names one file, but --format mp4,webm makes 2 outputs: render each to its own file name, or into a directory"),
            (["-o", "frames.png"], "cartrender: -o frames.png names a file, but png frames go into a directory: add --format apng for one animated PNG, or end the name with / for a directory"),
            (["-o", "frames.png", "--format", "png"], "cartrender: -o frames.png names a file, but png writes one file per frame: render frames into a directory (--out DIR/)"),
            (["-o", "fly.gif", "--viewer"], "cartrender: --viewer writes index.html beside the frames: it needs a directory (--out DIR), not -o fly.gif"),
            (["-o", "fly.gif", "--contact-sheet"], "cartrender: --contact-sheet writes contact-sheet.png beside the frames: it needs a directory (--out DIR), not -o fly.gif"),
            (["-o", "fly.gif", "--audit"], "cartrender: --audit puts its report in the manifest: add --manifest FILE to -o fly.gif"),
            (["-o", "frames", "--manifest", "m.json"], "cartrender: --manifest m.json is for a render to one animation file (-o fly.gif); a render into a directory writes its manifest.json"),
            (["-o", "fly.gif", "--manifest", "fly.gif"], "cartrender: --manifest fly.gif is the animation's own name"),
        ]
        for row in table {
            let r = try Binary.run(row.args, in: dir)
            XCTAssertEqual(r.status, 64, "\(row.args): \(r.stderr)")
            XCTAssertEqual(r.stderr, row.sentence + usage, "\(row.args)")
        }
        XCTAssertEqual(try names(dir), [], "nothing written")
    }

    /// The format comes from the extension: `.mp4` without `--format`, `.png` with `--format
    /// apng`; `--manifest` keeps the manifest where the user wants it, listing the file by name.
    func testFormatFromExtensionAndManifestWhereAsked() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["-o", "out/fly.png", "--format", "apng", "--scale", "1", "--frames", "0-9",
                                "--manifest", "meta/fly.json"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try names(dir + "/out"), ["fly.png"])
        XCTAssertEqual(try names(dir + "/meta"), ["fly.json"])
        let png = bytes(dir + "/out/fly.png")!
        XCTAssertNotNil(png.range(of: Data("acTL".utf8)), "an animated PNG")
        let manifest = try JSONSerialization.jsonObject(with: bytes(dir + "/meta/fly.json")!) as! [String: Any]
        XCTAssertEqual((manifest["frames"] as! [Any]).count, 10)
        let outputs = manifest["outputs"] as! [[String: Any]]
        XCTAssertEqual(outputs.map { $0["file"] as? String }, ["fly.png"])
        XCTAssertTrue(r.stderr.contains("wrote out/fly.png ("), r.stderr)
        XCTAssertTrue(r.stderr.contains(") and meta/fly.json ("), r.stderr)

        let gif = try Binary.run(["-o", "x.GIF", "--scale", "1", "--frames", "0-2", "--quiet", "--loop", "1"], in: dir)
        XCTAssertEqual(gif.status, 0, gif.stderr)
        XCTAssertEqual(bytes(dir + "/x.GIF")?.prefix(6), Data("GIF89a".utf8))
    }

    /// Every name a run will write is checked before the first frame is drawn, and the files are
    /// replaced together or not at all (the reproductions of issue 35, item 4). Each of these
    /// replaced an earlier file and then failed, or wrote where it should not.
    func testNamedOutputsAreCheckedFirstAndReplacedTogether() throws {
        let dir = Binary.tempDir(self)
        let fm = FileManager.default
        let fast = ["--scale", "1", "--frames", "0-1", "--quiet"]
        for d in ["docs", "other"] { try fm.createDirectory(atPath: dir + "/" + d, withIntermediateDirectories: false) }
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: dir + "/notadir"))
        try Data("earlier fly".utf8).write(to: URL(fileURLWithPath: dir + "/docs/fly.gif"))
        for name in ["fly-light.gif", "fly-dark.gif"] { try Data("earlier \(name)".utf8).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        try Data("a user's file".utf8).write(to: URL(fileURLWithPath: dir + "/docs/.fly.gif.tmp-1"))
        try Data("outside".utf8).write(to: URL(fileURLWithPath: dir + "/other/page.html"))
        let scene = #"{"screen": "shop", "fps": 4, "duration": 0.5}"#
        try Data(scene.utf8).write(to: URL(fileURLWithPath: dir + "/scene.json"))
        // (In a folder of its own: reading the folder's snapshot must not open it.)
        try fm.createDirectory(atPath: dir + "/pipes", withIntermediateDirectories: false)
        XCTAssertEqual(mkfifo(dir + "/pipes/fifo.html", 0o644), 0)

        func refused(_ args: [String], _ sentence: String, status: Int32 = 73, line: UInt = #line) throws {
            let before = try snapshot(dir), docs = try snapshot(dir + "/docs"), other = try snapshot(dir + "/other")
            let r = try Binary.run(args + fast, in: dir, timeout: 60)
            XCTAssertEqual(r.status, status, "\(args): \(r.stderr)", line: line)
            XCTAssertEqual(r.stderr, "cartrender: " + sentence + "\n", line: line)
            XCTAssertEqual(try snapshot(dir), before, "\(args)", line: line)
            XCTAssertEqual(try snapshot(dir + "/docs"), docs, "\(args)", line: line)
            XCTAssertEqual(try snapshot(dir + "/other"), other, "\(args)", line: line)
        }
        try refused(["-o", "docs/fly.gif", "--manifest", "notadir/fly.json"], "notadir/fly.json: cannot be written: notadir is not a directory")
        try refused(["scene.json", "-o", "docs/fly.gif", "--manifest", "scene.json"],
                    "scene.json: is scene.json, which this run reads; cartrender never writes over its input: name another file")
        try refused(["scene.json", "-o", "docs/fly.gif", "--manifest", "./scene.json"],
                    "./scene.json: is scene.json, which this run reads; cartrender never writes over its input: name another file")

        try fm.removeItem(atPath: dir + "/fly-dark.gif")
        try fm.createSymbolicLink(atPath: dir + "/fly-dark.gif", withDestinationPath: "other/page.html")
        try refused(["--color-scheme", "light,dark", "-o", "fly.gif"],
                    "fly-dark.gif: is a symbolic link; cartrender neither writes through it nor replaces it: remove the link or name the file it leads to")
        try fm.removeItem(atPath: dir + "/fly-dark.gif")
        try fm.createDirectory(atPath: dir + "/page", withIntermediateDirectories: false)
        try refused(["--color-scheme", "light,dark", "-o", "fly.gif", "--picture-html", "page"],
                    "page: is a directory; name a file, or end the name with / to render into the directory")
        try fm.createSymbolicLink(atPath: dir + "/link.html", withDestinationPath: "other/page.html")
        try refused(["--color-scheme", "light,dark", "-o", "fly.gif", "--picture-html", "link.html"],
                    "link.html: is a symbolic link; cartrender neither writes through it nor replaces it: remove the link or name the file it leads to")
        // Refused at once: never blocks waiting for a reader.
        try refused(["--color-scheme", "light,dark", "-o", "fly.gif", "--picture-html", "pipes/fifo.html"],
                    "pipes/fifo.html: exists and is not a regular file; cartrender replaces only a regular file at a name it is given")

        // All at once: the pair, its manifests in another folder and the page; nothing else is
        // touched (the user's .fly.gif.tmp-1 stays), no temporary file or staging directory is left.
        let ok = try Binary.run(["--color-scheme", "light,dark", "-o", "fly.gif", "--manifest", "docs/fly.json", "--picture-html", "docs/p.html"] + fast, in: dir)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(try names(dir), ["docs", "fly-dark.gif", "fly-light.gif", "link.html", "notadir", "other", "page", "pipes", "scene.json"])
        XCTAssertEqual(try names(dir + "/docs"), [".fly.gif.tmp-1", "fly-dark.json", "fly-light.json", "fly.gif", "p.html"])
        XCTAssertEqual(bytes(dir + "/docs/.fly.gif.tmp-1"), Data("a user's file".utf8))
        XCTAssertTrue(bytes(dir + "/fly-light.gif")!.starts(with: Data("GIF89a".utf8)))
        XCTAssertEqual(bytes(dir + "/other/page.html"), Data("outside".utf8))
    }

    /// A run killed while replacing files in two folders (after its first rename: the earlier
    /// `a/fly.gif` set aside) leaves a journal; the next run that writes into `a` puts the
    /// earlier file back, and repairs `b` with it (one transaction). A staging directory left
    /// empty by a run killed while making it is removed by the next run into its folder.
    func testAKilledReplaceIsRolledBackByTheNextRun() throws {
        let dir = Binary.tempDir(self)
        let fm = FileManager.default
        let fast = ["--scale", "1", "--frames", "0-1", "--quiet"]
        for d in ["a", "b"] { try fm.createDirectory(atPath: dir + "/" + d, withIntermediateDirectories: false) }
        try Data("earlier fly".utf8).write(to: URL(fileURLWithPath: dir + "/a/fly.gif"))
        try Data("earlier json".utf8).write(to: URL(fileURLWithPath: dir + "/b/fly.json"))
        let killed = try Binary.run(["-o", "a/fly.gif", "--manifest", "b/fly.json"] + fast, in: dir,
                                    environment: ["CARTRENDER_TEST_KILL_AT_COMMIT_STEP": "1"])
        XCTAssertEqual(killed.status, SIGKILL, killed.stderr)
        XCTAssertFalse(fm.fileExists(atPath: dir + "/a/fly.gif"), "killed with the earlier file set aside")
        try fm.createDirectory(atPath: dir + "/a/.cartrender-staging-7-EmPty0.new", withIntermediateDirectories: false,
                               attributes: [.posixPermissions: 0o700])
        let next = try Binary.run(["-o", "a/other.gif"] + fast, in: dir)
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stderr.contains("stopped while moving its files into place (in every folder of its run); put back 1 file of the earlier run"), next.stderr)
        XCTAssertEqual(bytes(dir + "/a/fly.gif"), Data("earlier fly".utf8))
        XCTAssertEqual(try names(dir + "/a"), ["fly.gif", "other.gif"])
        // b was part of the same transaction: its staging directory (nothing moved there yet) is gone too.
        XCTAssertEqual(bytes(dir + "/b/fly.json"), Data("earlier json".utf8))
        XCTAssertEqual(try names(dir + "/b"), ["fly.json"])
    }

    /// A kill between two folders (`a/fly.gif` new, `b/fly.json` still the earlier one) used to
    /// leave the pair mixed after the next run into either folder. Now the next command that
    /// writes into either one rolls both back; a kill after the transaction's decision (every
    /// rename done) is rolled forward in both.
    func testAKillBetweenTwoFoldersLeavesBothConsistent() throws {
        let fm = FileManager.default
        let fast = ["--scale", "1", "--frames", "0-1", "--quiet"]
        // Steps: 1 a/fly.gif set aside, 2 moved in, 3 b/fly.json set aside, 4 moved in, 5 decided.
        for (killAt, repairVia, forward) in [(2, "b", false), (2, "a", false), (4, "b", false), (5, "b", true)] {
            let dir = Binary.tempDir(self) + "/k\(killAt)\(repairVia)"
            for d in ["a", "b"] { try fm.createDirectory(atPath: dir + "/" + d, withIntermediateDirectories: true) }
            try Data("earlier fly".utf8).write(to: URL(fileURLWithPath: dir + "/a/fly.gif"))
            try Data("earlier json".utf8).write(to: URL(fileURLWithPath: dir + "/b/fly.json"))
            let killed = try Binary.run(["-o", "a/fly.gif", "--manifest", "b/fly.json"] + fast, in: dir,
                                        environment: ["CARTRENDER_TEST_KILL_AT_COMMIT_STEP": "\(killAt)"])
            XCTAssertEqual(killed.status, SIGKILL, killed.stderr)
            if killAt == 2 {
                XCTAssertTrue(bytes(dir + "/a/fly.gif")!.starts(with: Data("GIF89a".utf8)), "killed between the folders")
                XCTAssertEqual(bytes(dir + "/b/fly.json"), Data("earlier json".utf8))
            }
            let next = try Binary.run(["-o", "\(repairVia)/other.gif"] + fast, in: dir)
            XCTAssertEqual(next.status, 0, next.stderr)
            XCTAssertEqual(next.stderr.components(separatedBy: "(in every folder of its run)").count - 1, 2, "one line per folder: \(next.stderr)")
            if forward {
                XCTAssertTrue(bytes(dir + "/a/fly.gif")!.starts(with: Data("GIF89a".utf8)), "kill \(killAt)")
                XCTAssertTrue(bytes(dir + "/b/fly.json")!.starts(with: Data("{".utf8)), "kill \(killAt)")
            } else {
                XCTAssertEqual(bytes(dir + "/a/fly.gif"), Data("earlier fly".utf8), "kill \(killAt) via \(repairVia)")
                XCTAssertEqual(bytes(dir + "/b/fly.json"), Data("earlier json".utf8), "kill \(killAt) via \(repairVia)")
            }
            XCTAssertEqual(try names(dir + "/a"), repairVia == "a" ? ["fly.gif", "other.gif"] : ["fly.gif"], "kill \(killAt)")
            XCTAssertEqual(try names(dir + "/b"), repairVia == "b" ? ["fly.json", "other.gif"] : ["fly.json"], "kill \(killAt)")
        }
    }
}

/// End-to-end: the closing line of a render names exactly the files it wrote, with their sizes.
final class ClosingLineTests: XCTestCase {
    private func size(_ path: String) -> String {
        let n = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
        return n < 1000 ? "\(n) B" : n < 1_000_000 ? String(format: "%.1f kB", Double(n) / 1000) : String(format: "%.1f MB", Double(n) / 1_000_000)
    }

    func testDirectoryRenderNamesEveryFileWithItsSize() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["--out", "o", "--format", "png,gif", "--viewer", "--scale", "1", "--frames", "0-3"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let frames = (0...3).compactMap { try? FileManager.default.attributesOfItem(atPath: "\(dir)/o/frame_000\($0).png")[.size] as? Int }.reduce(0, +)
        let framesText = frames < 1_000_000 ? String(format: "%.1f kB", Double(frames) / 1000) : String(format: "%.1f MB", Double(frames) / 1_000_000)
        let expected = "cartrender: wrote 4 PNG frames (frame_0000.png … frame_0003.png, \(framesText)), animation.gif (\(size(dir + "/o/animation.gif"))), "
            + "index.html (\(size(dir + "/o/index.html"))) and manifest.json (\(size(dir + "/o/manifest.json"))) to o from 4 frames of 393×852 px"
        let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.hasPrefix(expected), "\(last)\n\(expected)")
        XCTAssertFalse(last.contains("contact-sheet"))
    }
}

/// End-to-end: `--color-scheme light,dark` with a named file renders both appearances in one
/// process, names them after the appearance and prints the `<picture>` element.
final class AppearancePairTests: XCTestCase {
    func testLightAndDarkFilesAndThePictureElement() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["--color-scheme", "light,dark", "-o", "docs/fly.webp", "--scale", "1", "--frames", "0-6",
                                "--manifest", "build/fly.json"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/docs").sorted(), ["fly-dark.webp", "fly-light.webp"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/build").sorted(), ["fly-dark.json", "fly-light.json"])
        XCTAssertEqual(r.stdout, """
            <picture>
              <source media="(prefers-color-scheme: light)" srcset="docs/fly-light.webp">
              <source media="(prefers-color-scheme: dark)" srcset="docs/fly-dark.webp">
              <img alt="Animation, 3.3 s: Cart, Trail backpack, Add to Cart" src="docs/fly-light.webp" width="393" height="852">
            </picture>

            """)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("cartrender: wrote docs/fly-light.webp (") }.count, 1, r.stderr)
        XCTAssertEqual(lines.filter { $0.hasPrefix("cartrender: wrote docs/fly-dark.webp (") }.count, 1, r.stderr)
        // The two are the two appearances: the same as rendering each alone.
        for scheme in ["light", "dark"] {
            XCTAssertEqual(try Binary.run(["--color-scheme", scheme, "-o", "alone-\(scheme).webp", "--scale", "1", "--frames", "0-6", "--quiet"], in: dir).status, 0)
            XCTAssertEqual(FileManager.default.contents(atPath: "\(dir)/alone-\(scheme).webp"), FileManager.default.contents(atPath: "\(dir)/docs/fly-\(scheme).webp"), scheme)
        }
        XCTAssertNotEqual(FileManager.default.contents(atPath: dir + "/docs/fly-light.webp"), FileManager.default.contents(atPath: dir + "/docs/fly-dark.webp"))

        // --picture-html writes the element instead of printing it; the scheme order is the user's.
        let p = try Binary.run([Binary.examples + "/cart-swipe.json", "--color-scheme", "dark,light", "-o", "c.gif", "--scale", "1",
                                "--frames", "0-1", "--quiet", "--picture-html", "snippet.html"], in: dir)
        XCTAssertEqual(p.status, 0, p.stderr)
        XCTAssertEqual(p.stdout, "")
        let snippet = try String(contentsOfFile: dir + "/snippet.html", encoding: .utf8)
        XCTAssertTrue(snippet.hasPrefix("<picture>\n  <source media=\"(prefers-color-scheme: dark)\" srcset=\"c-dark.gif\">\n"), snippet)
        XCTAssertTrue(snippet.contains("<img alt=\"Animation, 3.9 s, of the cart screen\" src=\"c-dark.gif\""), snippet)

        // The snippet's paths are relative to its own folder, not to the working directory.
        let q = try Binary.run([Binary.examples + "/cart-swipe.json", "--color-scheme", "light,dark", "-o", "img/c.gif", "--scale", "1",
                                "--frames", "0-1", "--quiet", "--picture-html", "docs/snippet.html"], in: dir)
        XCTAssertEqual(q.status, 0, q.stderr)
        let nested = try String(contentsOfFile: dir + "/docs/snippet.html", encoding: .utf8)
        XCTAssertTrue(nested.hasPrefix("<picture>\n  <source media=\"(prefers-color-scheme: light)\" srcset=\"../img/c-light.gif\">\n"), nested)
        XCTAssertTrue(nested.contains(" src=\"../img/c-light.gif\""), nested)
    }

    func testAppearancePairNeedsANamedFile() throws {
        let dir = Binary.tempDir(self)
        let table: [(args: [String], stderr: String)] = [
            (["--color-scheme", "light,dark"], "cartrender: --color-scheme light,dark writes one file per appearance: name the file (-o docs/fly.gif writes docs/fly-light.gif and docs/fly-dark.gif)\nRun 'cartrender --help' for usage.\n"),
            (["verify", "--color-scheme", "light,dark", "--baseline", "b"], "cartrender: --color-scheme light,dark renders one file per appearance: only a render to a named animation file (-o fly.gif) takes several\nRun 'cartrender verify --help' for usage.\n"),
            (["--color-scheme", "light,light", "-o", "a.gif"], "cartrender: --color-scheme: light is given more than once\nRun 'cartrender --help' for usage.\n"),
            (["--picture-html", "p.html", "-o", "a.gif"], "cartrender: --picture-html writes the <picture> element of --color-scheme light,dark\nRun 'cartrender --help' for usage.\n"),
        ]
        for row in table {
            let r = try Binary.run(row.args, in: dir)
            XCTAssertEqual(r.status, 64, "\(row.args)")
            XCTAssertEqual(r.stderr, row.stderr, "\(row.args)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [])
    }
}

/// End-to-end: on a non-terminal with `CI` set, a render prints one line per phase as it ends.
final class PhaseProgressTests: XCTestCase {
    func testOneLinePerPhaseUnderCI() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["-o", "fly.gif", "--scale", "1", "--frames", "0-20"], in: dir, environment: ["CI": "true"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let phases = lines.compactMap { line -> String? in
            guard line.hasPrefix("cartrender: "), let colon = line.dropFirst(12).firstIndex(of: ":") else { return nil }
            let name = String(line[line.index(line.startIndex, offsetBy: 12)..<colon])
            return ["drawing", "palette (GIF)", "encoding (GIF)", "muxing (GIF)", "moving into place"].contains(name) ? name : nil
        }
        XCTAssertEqual(phases, ["drawing", "palette (GIF)", "encoding (GIF)", "moving into place"], r.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("cartrender: drawing: 21 frames in ") && $0.contains(" s") }, r.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("cartrender: encoding (GIF): ") && $0.contains(" steps in ") }, r.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("cartrender: moving into place: 1 file in ") }, r.stderr)
        XCTAssertTrue(lines.last!.hasPrefix("cartrender: wrote fly.gif ("), r.stderr)

        let video = try Binary.run(["--out", "v", "--format", "mp4", "--scale", "1", "--frames", "0-9"], in: dir, environment: ["CI": "1"])
        XCTAssertEqual(video.status, 0, video.stderr)
        for phase in ["drawing: 10 frames in ", "encoding (MP4): ", "muxing (MP4): ", "moving into place: 2 files in "] {
            XCTAssertTrue(video.stderr.contains("cartrender: " + phase), "\(phase)\n\(video.stderr)")
        }

        // Without CI a non-terminal gets no progress, and --quiet none either way.
        let plain = try Binary.run(["-o", "b.gif", "--scale", "1", "--frames", "0-3"], in: dir)
        XCTAssertFalse(plain.stderr.contains("cartrender: drawing"), plain.stderr)
        let quiet = try Binary.run(["-o", "c.gif", "--scale", "1", "--frames", "0-3", "--quiet"], in: dir, environment: ["CI": "true"])
        XCTAssertEqual(quiet.stderr, "")
    }
}
