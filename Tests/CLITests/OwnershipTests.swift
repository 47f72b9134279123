import CartRenderRaster
import Foundation
import XCTest

/// cartrender replaces or removes only what it can prove it wrote (`StagingArea`,
/// `OwnershipLedger`): anything else at a name it would write — a user's page, a web app's
/// manifest, an edited frame, a link, a forged staging directory — is left untouched and named
/// in one sentence with exit 73, and nothing in the directory changes.
final class OwnershipTests: XCTestCase {
    let small = ["--fps", "5", "--scale", "1", "--quiet"]

    /// A documentation folder with a user's own files at the names a render with every output
    /// would choose: the render stops with 73 before replacing any of them.
    func testARenderDoesNotReplaceFilesItNeverWrote() throws {
        let dir = Binary.tempDir(self)
        let docs = dir + "/docs"
        try FileManager.default.createDirectory(atPath: docs, withIntermediateDirectories: false)
        let own = ["index.html": "<p>my site</p>", "manifest.json": #"{"name": "my web app"}"#, "animation.gif": "GIF89a mine",
                   "contact-sheet.png": "mine", "frame_0005.png": "mine"]
        for (name, text) in own.sorted(by: { $0.key < $1.key }) {
            try Data(text.utf8).write(to: URL(fileURLWithPath: docs + "/" + name))
            let before = try snapshot(docs)
            let r = try Binary.run(["--out", "docs", "--viewer", "--format", "png,gif", "--contact-sheet"] + small, in: dir)
            XCTAssertEqual(r.status, 73, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("cartrender: docs/"), r.stderr)
            XCTAssertTrue(r.stderr.contains("was not written by cartrender"), r.stderr)
            XCTAssertEqual(r.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 1, r.stderr)
            XCTAssertEqual(try snapshot(docs), before, name)
            try FileManager.default.removeItem(atPath: docs + "/" + name)
        }
        // With none of them left, the render writes.
        XCTAssertEqual(try Binary.run(["--out", "docs", "--viewer", "--format", "png,gif", "--contact-sheet"] + small, in: dir).status, 0)
    }

    /// A frame edited after cartrender wrote it is no longer cartrender's: a rerender that would
    /// replace (or remove) it stops, and the edit survives.
    func testAFrameEditedSinceItWasWrittenIsLeftAlone() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "o"] + small, in: dir).status, 0)
        try Data("edited".utf8).write(to: URL(fileURLWithPath: dir + "/o/frame_0016.png"))
        let before = try snapshot(dir + "/o")
        for args in [small, ["--fps", "2", "--scale", "1", "--quiet"]] {  // replacing it; removing it
            let r = try Binary.run(["--out", "o"] + args, in: dir)
            XCTAssertEqual(r.status, 73, r.stderr)
            XCTAssertEqual(r.stderr, "cartrender: o/frame_0016.png: has changed since cartrender wrote it (its SHA-256 is not the one its manifest lists); it is left alone: remove it, or write somewhere else\n")
            XCTAssertEqual(try snapshot(dir + "/o"), before)
        }
    }

    /// A symbolic link at an output name is never followed or replaced: the file it points to
    /// keeps its bytes.
    func testALinkAtAnOutputNameIsLeftAlone() throws {
        let dir = Binary.tempDir(self)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: dir + "/precious.txt"))
        try FileManager.default.createDirectory(atPath: dir + "/o", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir + "/o/frame_0003.png", withDestinationPath: "../precious.txt")
        let r = try Binary.run(["--out", "o"] + small, in: dir)
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: o/frame_0003.png: is a symbolic link, which cartrender never writes; it is left alone: remove it, or write somewhere else\n")
        XCTAssertEqual(try String(contentsOfFile: dir + "/precious.txt", encoding: .utf8), "precious")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/o/frame_0003.png"), "../precious.txt")
    }

    /// A baseline frame that is a symbolic link to a file outside the baseline is not read
    /// through (its bytes would land in the report): verify names it and stops.
    func testALinkedBaselineFrameIsNotFollowed() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["verify", "--baseline", "base", "--record", "all"] + small, in: dir).status, 0)
        try FileManager.default.moveItem(atPath: dir + "/base/frame_0002.png", toPath: dir + "/outside.png")
        try FileManager.default.createSymbolicLink(atPath: dir + "/base/frame_0002.png", withDestinationPath: "../outside.png")
        let r = try Binary.run(["verify", "--baseline", "base", "--record", "never", "--report", "rep"] + small, in: dir)
        XCTAssertEqual(r.status, 66, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: base/frame_0002.png: cannot be read (too many levels of symbolic links)\n")
        XCTAssertFalse((try? FileManager.default.contentsOfDirectory(atPath: dir + "/rep"))?.contains { $0.hasPrefix("img_") } ?? false,
                       "no report image")
    }

    /// A link named like a staging directory, pointing at another directory that holds a
    /// `.host` file naming this machine (anyone can write one into /tmp): every command that
    /// writes refuses it, and no file of the link's target is deleted.
    func testAStagingDirectoryThatIsALinkIsNeverFollowed() throws {
        let dir = Binary.tempDir(self)
        let victim = dir + "/victim"
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: false)
        for name in ["important.txt", "manifest.json", "frame_0000.png", ".aside.manifest.json"] {
            try Data("victim's \(name)".utf8).write(to: URL(fileURLWithPath: victim + "/" + name))
        }
        try Data(hostName().utf8).write(to: URL(fileURLWithPath: victim + "/.host"))
        let victimBefore = try snapshot(victim)
        XCTAssertEqual(try Binary.run(["verify", "--baseline", "base", "--record", "all"] + small, in: dir).status, 0)
        XCTAssertEqual(try Binary.run(["--out", "o"] + small, in: dir).status, 0)
        let link = ".cartrender-staging-4000000-AbCdEf"
        for target in ["o", "base"] {
            try FileManager.default.createSymbolicLink(atPath: "\(dir)/\(target)/\(link)", withDestinationPath: victim)
        }
        let commands: [[String]] = [
            ["--out", "o"] + small,
            ["--out", "o", "--viewer"] + small,
            ["verify", "--baseline", "base", "--record", "all"] + small,
            ["merge", "o", "--out", "o", "--quiet"],
            ["view", "o", "--quiet"],
        ]
        for args in commands {
            let before = try snapshot(dir + "/o")
            let r = try Binary.run(args, in: dir)
            XCTAssertNotEqual(r.status, 0, "\(args): \(r.stderr)")
            XCTAssertEqual(try snapshot(victim), victimBefore, "\(args) changed the link's target")
            if r.status == 73 {
                XCTAssertTrue(r.stderr.contains("\(link): is a symbolic link, not a staging directory cartrender made; cartrender leaves it alone"), r.stderr)
            }
            XCTAssertEqual(try snapshot(dir + "/o"), before, "\(args)")
        }
        // A plain verify reads the baseline and leaves the link alone.
        XCTAssertEqual(try Binary.run(["verify", "--baseline", "base", "--record", "never", "--report", "rep"] + small, in: dir).status, 0)
        XCTAssertEqual(try snapshot(victim), victimBefore)
        XCTAssertNotNil(try? FileManager.default.destinationOfSymbolicLink(atPath: "\(dir)/o/\(link)"))
    }

    /// A staging directory of this user that is not private (mode 0755: not made by cartrender,
    /// which makes them 0700) is foreign too; so is another user's (checked as root, with
    /// `chown`).
    func testAStagingDirectoryThatIsNotPrivateOrNotTheUsersIsForeign() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "o"] + small, in: dir).status, 0)
        let forged = dir + "/o/.cartrender-staging-4000000-FoRgEd"
        try FileManager.default.createDirectory(atPath: forged, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try Data(hostName().utf8).write(to: URL(fileURLWithPath: forged + "/.host"))
        try Data("forger's".utf8).write(to: URL(fileURLWithPath: forged + "/.aside.manifest.json"))
        let before = try snapshot(dir + "/o")
        let r = try Binary.run(["--out", "o"] + small, in: dir)
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: o/.cartrender-staging-4000000-FoRgEd: is not a private directory (mode 755); cartrender leaves it alone and writes nothing into o: remove it, or write somewhere else\n")
        XCTAssertEqual(try snapshot(dir + "/o"), before)

        guard geteuid() == 0 else { throw XCTSkip("another user's staging directory needs root to make (chown); CI runs as root") }
        XCTAssertEqual(chmod(forged, 0o700), 0)
        XCTAssertEqual(chown(forged, 65534, 65534), 0)
        let beforeOther = try snapshot(dir + "/o")
        let other = try Binary.run(["--out", "o"] + small, in: dir)
        XCTAssertEqual(other.status, 73, other.stderr)
        XCTAssertTrue(other.stderr.contains("FoRgEd: belongs to another user (uid 65534)"), other.stderr)
        XCTAssertEqual(try snapshot(dir + "/o"), beforeOther)
    }

    /// `view`, `merge --out`, `diff --report` and `verify --record` into a directory holding a
    /// user's file at a name they would write: 73, the file intact.
    func testEveryCommandThatWritesLeavesForeignFilesAlone() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "o"] + small, in: dir).status, 0)
        XCTAssertEqual(try Binary.run(["--out", "s", "--shard", "1/1"] + small, in: dir).status, 0)
        XCTAssertEqual(try Binary.run(["--out", "dark", "--color-scheme", "dark"] + small, in: dir).status, 0)
        func refuses(_ args: [String], _ file: String, line: UInt = #line) throws {
            let target = dir + "/" + file
            try? FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("the user's own".utf8).write(to: URL(fileURLWithPath: target))
            let r = try Binary.run(args, in: dir)
            XCTAssertEqual(r.status, 73, "\(args): \(r.stderr)", line: line)
            XCTAssertEqual(r.stderr, "cartrender: \(file): was not written by cartrender (no manifest in \((file as NSString).deletingLastPathComponent) lists it); it is left alone: remove it, or write somewhere else\n", line: line)
            XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "the user's own", line: line)
            try FileManager.default.removeItem(atPath: target)
        }
        try refuses(["view", "o", "--quiet"], "o/index.html")
        try refuses(["merge", "s", "--out", "m", "--quiet"], "m/manifest.json")
        try refuses(["diff", "o", "dark", "--report", "rep", "--quiet"], "rep/index.html")
        try refuses(["verify", "--baseline", "base", "--record", "all"] + small, "base/frame_0004.png")
    }

    /// A report written before ledgers existed (here: a report with its ledger removed) is still
    /// cartrender's, known by its `report.json`: the next report replaces it and writes a ledger.
    /// A `report.json` that is not cartrender's proves nothing.
    func testAReportWrittenBeforeLedgersIsStillCartrenders() throws {
        let dir = Binary.tempDir(self)
        // Four frames are enough: the report's files, not their number, are what is checked.
        XCTAssertEqual(try Binary.run(["--out", "o", "--frames", "0-3"] + small, in: dir).status, 0)
        XCTAssertEqual(try Binary.run(["--out", "dark", "--frames", "0-3", "--color-scheme", "dark"] + small, in: dir).status, 0)
        XCTAssertEqual(try Binary.run(["diff", "o", "dark", "--report", "rep", "--quiet"], in: dir).status, 1)
        try FileManager.default.removeItem(atPath: dir + "/rep/.cartrender-files.sha256")
        let again = try Binary.run(["diff", "o", "dark", "--report", "rep", "--quiet"], in: dir)
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/rep/.cartrender-files.sha256"))

        try FileManager.default.createDirectory(atPath: dir + "/site", withIntermediateDirectories: false)
        try Data(#"{"version": 1, "command": "deploy"}"#.utf8).write(to: URL(fileURLWithPath: dir + "/site/report.json"))
        try Data("<p>my site</p>".utf8).write(to: URL(fileURLWithPath: dir + "/site/index.html"))
        let before = try snapshot(dir + "/site")
        let refused = try Binary.run(["diff", "o", "dark", "--report", "site", "--quiet"], in: dir)
        XCTAssertEqual(refused.status, 73, refused.stderr)
        XCTAssertEqual(try snapshot(dir + "/site"), before)
    }

    /// `diff A.png B.png --out A.png` never writes over what it compares.
    func testDiffNeverWritesOverAOrB() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "o"] + small, in: dir).status, 0)
        XCTAssertEqual(try Binary.run(["--out", "d", "--color-scheme", "dark"] + small, in: dir).status, 0)
        for out in ["o/frame_0001.png", "d/frame_0001.png"] {
            let before = try snapshot(dir + "/" + (out as NSString).deletingLastPathComponent)
            let r = try Binary.run(["diff", "o/frame_0001.png", "d/frame_0001.png", "--out", out], in: dir)
            XCTAssertEqual(r.status, 73, r.stderr)
            XCTAssertEqual(r.stderr, "cartrender: \(out): is one of the images being compared; diff never writes over A or B: choose another --out\n")
            XCTAssertEqual(try snapshot(dir + "/" + (out as NSString).deletingLastPathComponent), before)
        }
    }

    /// The ledger a render leaves lists every file it wrote with its SHA-256, in the format of
    /// `sha256sum`, so `sha256sum -c` checks the directory by hand.
    func testTheLedgerChecksWithSha256sum() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "o", "--viewer", "--format", "png,gif"] + small, in: dir).status, 0)
        let ledger = try String(contentsOfFile: dir + "/o/.cartrender-files.sha256", encoding: .utf8)
        XCTAssertTrue(ledger.contains("  manifest.json\n") && ledger.contains("  index.html\n") && ledger.contains("  animation.gif\n"), ledger)
        let check = try Binary.run(["-c", "--quiet", ".cartrender-files.sha256"], in: dir + "/o", executable: "/usr/bin/sha256sum")
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }

    /// A staging directory of cartrender's shape (this user's, 0700, its process gone, this
    /// machine's `.host`) that anyone could write into a repository: its journal is not a trust
    /// root. `movein SHA-of-notes.txt notes.txt` made the read-only `diff` delete the user's
    /// `notes.txt`; `rename … index.html thesis.txt` made `view` move `thesis.txt` to
    /// `index.html`. Neither file was written by cartrender: both stay.
    func testAForgedJournalChangesNothing() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "out"] + small, in: dir).status, 0)
        try FileManager.default.copyItem(atPath: dir + "/out", toPath: dir + "/base")
        func forge(_ journal: String, files: [String: String]) throws {
            let forged = dir + "/out/.cartrender-staging-4000000-FoRgEd"
            try? FileManager.default.removeItem(atPath: forged)
            try FileManager.default.createDirectory(atPath: forged, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try Data(hostName().utf8).write(to: URL(fileURLWithPath: forged + "/.host"))
            try Data(("cartrender-journal 1\n" + journal).utf8).write(to: URL(fileURLWithPath: forged + "/.journal"))
            for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: forged + "/" + name)) }
        }
        let notes = "my notes\n", thesis = "my thesis\n"
        try Data(notes.utf8).write(to: URL(fileURLWithPath: dir + "/out/notes.txt"))
        try Data(thesis.utf8).write(to: URL(fileURLWithPath: dir + "/out/thesis.txt"))
        let sha = Checksum.sha256(Array(notes.utf8)), thesisSHA = Checksum.sha256(Array(thesis.utf8))

        try forge("movein\t\(sha)\tnotes.txt\n", files: [:])
        let before = try snapshot(dir + "/out")
        let diff = try Binary.run(["diff", "base", "out", "--quiet"], in: dir)
        XCTAssertEqual(diff.status, 0, diff.stderr)
        XCTAssertEqual(try snapshot(dir + "/out"), before, "diff only reads out")
        // A command that writes out removes the forged directory and nothing else.
        let view = try Binary.run(["view", "out", "--quiet"], in: dir)
        XCTAssertEqual(view.status, 0, view.stderr)
        XCTAssertEqual(try String(contentsOfFile: dir + "/out/notes.txt", encoding: .utf8), notes)

        try FileManager.default.removeItem(atPath: dir + "/out/index.html")
        try forge("rename\t\(thesisSHA)\tindex.html\tthesis.txt\n", files: [:])
        XCTAssertEqual(try Binary.run(["view", "out", "--quiet"], in: dir).status, 0)
        XCTAssertEqual(try String(contentsOfFile: dir + "/out/thesis.txt", encoding: .utf8), thesis)
        XCTAssertNotEqual(try String(contentsOfFile: dir + "/out/index.html", encoding: .utf8), thesis)

        // A set-aside copy the forger planted is not put back over (or beside) the user's file,
        // and a moved-in file is taken out only when it is the very file the commit moved.
        try forge("aside\t\(sha)\tnotes.txt\nmovein\t\(sha)\tnotes.txt\n", files: [".aside.notes.txt": notes])
        let render = try Binary.run(["--out", "out"] + small, in: dir)
        XCTAssertEqual(try String(contentsOfFile: dir + "/out/notes.txt", encoding: .utf8), notes, render.stderr)
        XCTAssertEqual(try String(contentsOfFile: dir + "/out/thesis.txt", encoding: .utf8), thesis)
    }

    /// A render killed mid-commit leaves the directory (a baseline) half moved: a verify that records
    /// nothing and `diff` only read it, so they change nothing, not even to repair it; they
    /// refuse to compare it (73) and name what repairs it. A recording then repairs it.
    func testReadOnlyCommandsRefuseAHalfMovedDirectoryAndChangeNothing() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", "base", "--frames", "0-3"] + small, in: dir).status, 0)
        let killed = try Binary.run(["--out", "base"] + small, in: dir, environment: ["CARTRENDER_TEST_KILL_AT_COMMIT_STEP": "3"])
        XCTAssertEqual(killed.status, SIGKILL, killed.stderr)
        let before = try snapshot(dir + "/base")
        for args in [["verify", "--baseline", "base", "--record", "never", "--report", "rep"] + small, ["diff", "base", "base", "--quiet"]] {
            let r = try Binary.run(args, in: dir)
            XCTAssertEqual(r.status, 73, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("cartrender: base: a run (process "), r.stderr)
            XCTAssertTrue(r.stderr.hasSuffix(" so it neither repairs nor compares it: rerun the command that writes it (the render into it, or verify --record), which puts the earlier files back first\n"), r.stderr)
            XCTAssertEqual(try snapshot(dir + "/base"), before, "\(args)")
        }
        let repair = try Binary.run(["verify", "--baseline", "base", "--record", "missing"] + small, in: dir)
        XCTAssertEqual(repair.status, 0, repair.stderr)
        XCTAssertTrue(repair.stderr.contains("stopped while moving its files into place; put back"), repair.stderr)
        XCTAssertEqual(try Binary.run(["verify", "--baseline", "base", "--record", "never", "--report", "rep"] + small, in: dir).status, 0)
    }

    func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        return String(cString: buffer)
    }
}
