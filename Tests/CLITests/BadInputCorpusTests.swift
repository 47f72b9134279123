import CartRenderTestSupport
import Foundation
import XCTest

/// The bad-input corpus (`Corpus/cases.json`): every case runs the built binary in a
/// fresh copy of `Corpus/` and must give its exact exit status and stderr, within 30 s, and a
/// failing run must leave its directory exactly as it found it (no output directory, no
/// temporary or staging files, no manifest).
final class BadInputCorpusTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus").path

    struct Case: Decodable {
        var name: String
        var about: String
        var args: [String]
        var status: Int32
        var stderr: String
        var setup: [[String]]?
        var shell: String?
        var unlessRoot: String?
    }

    static func cases() throws -> [Case] {
        struct File: Decodable { var cases: [Case] }
        let data = try Data(contentsOf: URL(fileURLWithPath: corpus + "/cases.json"))
        return try JSONDecoder().decode(File.self, from: data).cases
    }

    static var isRoot: Bool { geteuid() == 0 }

    /// Every case under `CARTRENDER_FULL_SWEEPS=1` (`.ci/run`), a fixed quarter of them
    /// (`TestSweep`) under `make test`.
    func testCorpus() throws {
        let cases = try Self.cases().filter { $0.unlessRoot == nil || !Self.isRoot }
        for c in TestSweep.sample(cases) { try check(c) }
    }

    /// Unreadable files and read-only directories cannot be made for root, who reads and writes
    /// whatever the mode: these cases run only for other users.
    func testCasesThatNeedAnUnprivilegedUser() throws {
        let cases = try Self.cases().filter { $0.unlessRoot != nil }
        XCTAssertFalse(cases.isEmpty)
        if Self.isRoot {
            throw XCTSkip("running as root: \(cases.map { "\($0.name) (\($0.unlessRoot!))" }.joined(separator: ", "))")
        }
        for c in cases { try check(c) }
    }

    /// The corpus is what the issue asks for: at least 40 cases, unique names, and every scene
    /// file in it used by a case.
    func testCorpusIsComplete() throws {
        let cases = try Self.cases()
        XCTAssertGreaterThanOrEqual(cases.count, 40)
        XCTAssertEqual(Set(cases.map(\.name)).count, cases.count, "case names are unique")
        let scenes = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).filter { $0.hasSuffix(".json") && $0 != "cases.json" }
        let used = Set(cases.flatMap(\.args))
        for s in scenes { XCTAssertTrue(used.contains(s), "\(s) is used by no case") }
        for c in cases where c.status != 0 && c.shell?.contains("2>") != true {
            XCTAssertTrue(c.stderr.hasPrefix("cartrender: "), c.name)
        }
    }

    /// librsvg loads the files an SVG references only from the SVG's directory and below: an
    /// SVG whose `<image>`, `<use>`, `@import` and XInclude point elsewhere (`../red.png`,
    /// `file:///etc/passwd`) draws exactly like the same SVG without them.
    func testSVGReferencesOutsideItsDirectoryAreNotLoaded() throws {
        let dir = try Self.copyOfCorpus(self)
        var frames: [Data] = []
        for scene in ["svg-external-refs.json", "svg-plain.json"] {
            let out = "out-" + scene
            let r = try Binary.run([scene, "--out", out, "--at", "0", "--scale", "1", "--quiet"], in: dir, timeout: 30)
            XCTAssertEqual(r.status, 0, r.stderr)
            frames.append(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(out)/frame_0000.png")))
        }
        XCTAssertEqual(frames[0], frames[1], "the references outside the SVG's directory were not loaded")
    }

    // MARK: - Running a case

    func check(_ c: Case, file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try Self.copyOfCorpus(self)
        for step in c.setup ?? [] { try Self.run(step, in: dir) }
        let before = Self.listing(dir)
        var args = c.args
        var executable: String?
        if let shell = c.shell {
            executable = "/bin/sh"
            args = ["-c", "\(shell); exec \"$0\" \"$@\"", Binary.url.path] + args
        }
        let r = try Binary.run(args, in: dir, timeout: 30, executable: executable)
        let label = "\(c.name) (\(c.about)): cartrender \(c.args.joined(separator: " "))"
        XCTAssertFalse(r.timedOut, "\(label): killed after 30 s", file: file, line: line)
        XCTAssertEqual(r.status, c.status, "\(label): \(r.stderr)", file: file, line: line)
        let parent = (dir as NSString).deletingLastPathComponent
        let expected = c.stderr.isEmpty ? "" : c.stderr.replacingOccurrences(of: "{dir}", with: dir).replacingOccurrences(of: "{parent}", with: parent) + "\n"
        XCTAssertEqual(r.stderr, expected, label, file: file, line: line)
        let after = Self.listing(dir)
        if c.status != 0 {
            XCTAssertEqual(after, before, "\(label): a failed run must leave the directory as it was", file: file, line: line)
        }
        let leftovers = after.filter { $0.contains(".cartrender-staging") || $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [], "\(label): temporary files left behind", file: file, line: line)
    }

    /// A fresh copy of `Corpus/` in a temporary directory (removed after the test).
    static func copyOfCorpus(_ test: XCTestCase) throws -> String {
        let dir = Binary.tempDir(test) + "/corpus"
        // Files and directories only, owned by whoever runs the tests (copyItem would try to
        // keep the owner, which an unprivileged user cannot).
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for sub in try fm.subpathsOfDirectory(atPath: corpus).sorted() {
            var isDir: ObjCBool = false
            _ = fm.fileExists(atPath: corpus + "/" + sub, isDirectory: &isDir)
            if isDir.boolValue {
                try fm.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
            } else {
                try Data(contentsOf: URL(fileURLWithPath: corpus + "/" + sub)).write(to: URL(fileURLWithPath: dir + "/" + sub))
            }
        }
        test.addTeardownBlock {
            // Give back permissions that setup steps took away, so the copy can be removed.
            _ = try? Self.run(["chmod", "755", "."], in: dir)
            for name in (try? FileManager.default.subpathsOfDirectory(atPath: dir)) ?? [] { chmod(dir + "/" + name, 0o755) }
        }
        return dir
    }

    /// Every path under `dir` (hidden ones included), with the size of files.
    static func listing(_ dir: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return [] }
        var out: [String] = []
        while let p = e.nextObject() as? String {
            var info = stat()
            lstat(dir + "/" + p, &info)
            out.append(info.st_mode & S_IFMT == S_IFREG ? "\(p) \(info.st_size)" : p)
        }
        return out.sorted()
    }

    /// One setup step of a case, run in `dir`.
    static func run(_ step: [String], in dir: String) throws {
        let fm = FileManager.default
        func path(_ name: String) -> String { dir + "/" + name }
        switch (step.first, step.count) {
        case ("mkdir", 2): try fm.createDirectory(atPath: path(step[1]), withIntermediateDirectories: true)
        case ("mkfifo", 2): XCTAssertEqual(mkfifo(path(step[1]), 0o644), 0, "mkfifo \(step[1])")
        case ("symlink", 3): try fm.createSymbolicLink(atPath: path(step[2]), withDestinationPath: step[1])
        case ("copy", 3): try fm.copyItem(atPath: path(step[1]), toPath: path(step[2]))
        case ("chmod", 3): XCTAssertEqual(chmod(path(step[2]), mode_t(step[1], radix: 8)!), 0, "chmod \(step[2])")
        case ("write", 3):
            // TEXT with {dir} and {parent} standing for the case's directory and the one above it.
            let text = step[2].replacingOccurrences(of: "{dir}", with: dir).replacingOccurrences(of: "{parent}", with: (dir as NSString).deletingLastPathComponent)
            try text.write(toFile: path(step[1]), atomically: false, encoding: .utf8)
        case ("fill", 3):
            XCTAssertTrue(fm.createFile(atPath: path(step[1]), contents: nil))
            XCTAssertEqual(truncate(path(step[1]), off_t(step[2])!), 0, "fill \(step[1])")
        case ("manyEvents", 3):
            let event = #"{"at":0.5,"tap":"add"}"#
            let text = #"{"events": ["# + Array(repeating: event, count: Int(step[2])!).joined(separator: ",") + "]}"
            try text.write(toFile: path(step[1]), atomically: false, encoding: .utf8)
        case ("manyItems", 3):
            let items = (0..<Int(step[2])!).map { #"{"id":"i\#($0)","name":"Item \#($0)","price":"1.00"}"# }
            let text = #"{"screen": "cart", "cart": {"items": ["# + items.joined(separator: ",") + "]}}"
            try text.write(toFile: path(step[1]), atomically: false, encoding: .utf8)
        default: XCTFail("unknown setup step \(step)")
        }
    }
}
