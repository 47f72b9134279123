import CartRender
@testable import CartRenderCLI
import CartRenderCore
import Foundation
import XCTest

/// What people expect of a command-line tool: `-h` and `--help` on every command (exit 0, help on
/// stdout), `help COMMAND`, `-` for standard input, short `-o`, `version`, usage errors that
/// point to the command's own help, and a hint for a mistyped command.
final class CommandLineConventionsTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws { dir = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func run(_ args: [String], env: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> Binary.Result {
        try Binary.run(args, in: dir, environment: env, file: file, line: line)
    }

    func testEveryCommandTakesDashHAndDashDashHelp() throws {
        // Every command of the list: a new one is checked without being named here.
        let helps = CLI.commands.map { ($0.configuration.name, $0.help) }
        for (command, text) in helps {
            for flag in ["-h", "--help"] {
                for args in [[command, flag], [command, "x.json", flag]] {
                    let r = try run(args)
                    XCTAssertEqual(r.status, 0, args.joined(separator: " "))
                    XCTAssertEqual(r.stdout, text + "\n", args.joined(separator: " "))
                    XCTAssertEqual(r.stderr, "", args.joined(separator: " "))
                }
            }
            let viaHelp = try run(["help", command])
            XCTAssertEqual(viaHelp.status, 0, command)
            XCTAssertEqual(viaHelp.stdout, text + "\n", "help \(command) prints \(command)'s help")
        }
        for args in [["-h"], ["--help"], ["help"], ["scene.json", "-h"]] {
            let r = try run(args)
            XCTAssertEqual(r.status, 0, args.joined(separator: " "))
            XCTAssertEqual(r.stdout, Help.main + "\n", args.joined(separator: " "))
        }
        // After `--`, -h is a file name.
        let literal = try run(["verify", "--baseline", "b", "--", "-h"])
        XCTAssertEqual(literal.status, 66)
        XCTAssertEqual(literal.stderr, "cartrender: -h: no such file\n")
    }

    /// The main help's USAGE lists every command from the list of subcommands, render's name in
    /// brackets (it may be left out); EXIT STATUS lists every exit code.
    func testUsageAndExitStatusComeFromTheirTables() {
        XCTAssertTrue(Help.main.contains("""
            USAGE
              cartrender [render] [SCENE.json | -] [options]
                                                     render frames (the built-in demo when no SCENE;
                                                     - reads the scene from standard input)
              cartrender verify [SCENE.json | -] --baseline DIR [options]
            """), Help.main)
        XCTAssertTrue(Help.main.contains("  cartrender diff A B [options]          compare two PNG files or two frame directories\n"))
        XCTAssertTrue(Help.main.contains("""
            EXIT STATUS
              0 success · 1 differences found (verify, diff) or issues found (audit) · 64 bad command
              line · 65 invalid scene or input data · 66 input file missing or unreadable · 69 a
              required Debian package is missing · 70 internal error · 73 output cannot be written ·
              130/143 interrupted
            """), Help.main)
        XCTAssertTrue(RenderCommand.help.contains("\n  0 success · 64 bad command line · 65 invalid scene or input data"), RenderCommand.help)
        XCTAssertTrue(HelpCommand.help.hasSuffix("cartrender help [render | verify | review | preview | diff | merge | view | audit | schema | help | version | completions | man]"), HelpCommand.help)
    }

    func testVersionAsCommandAndOption() throws {
        for args in [["version"], ["--version"]] {
            let r = try run(args)
            XCTAssertEqual(r.status, 0)
            XCTAssertEqual(r.stdout, Help.version + "\n")
        }
        let extra = try run(["version", "now"])
        XCTAssertEqual(extra.status, 64)
        XCTAssertEqual(extra.stderr, "cartrender: version takes no arguments\nRun 'cartrender version --help' for usage.\n")
    }

    /// Without /proc (a bare chroot, as `debootstrap` leaves one) Swift's runtime cannot read the
    /// program's arguments: one sentence and exit 69, not a crash (it trapped on `1..<0`).
    func testWithoutProcItSaysWhyItCannotReadItsCommandLine() throws {
        let probe = try Binary.run(["-m", "true"], executable: "/usr/bin/unshare")
        try XCTSkipUnless(probe.status == 0, "unshare -m needs CAP_SYS_ADMIN: \(probe.stderr)")
        let r = try Binary.run(["-m", "sh", "-c", "umount -l /proc && exec \"$0\" --version", Binary.url.path],
                               executable: "/usr/bin/unshare")
        XCTAssertEqual(r.status, 69, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: cannot read its command line: /proc is not mounted (in a chroot: mount -t proc proc /proc)\n")
        XCTAssertEqual(r.stdout, "")
    }

    func testUsageErrorsPointToTheirCommandsHelp() throws {
        let table: [([String], String)] = [
            (["verify", "--threshold", "2", "--baseline", "b"], "cartrender: --threshold: expected a number from 0 (exact) to 1 (black vs white), got \"2\"\nRun 'cartrender verify --help' for usage.\n"),
            (["verify", "--baseline", "b", "--frames", "0-9999"], "cartrender: --frames: the render has frames 0-197, got 9999 as the last\nRun 'cartrender verify --help' for usage.\n"),
            (["diff", "a.png"], "cartrender: diff: expected two PNG files or two directories (A = expected, B = actual), got 1 argument\nRun 'cartrender diff --help' for usage.\n"),
            (["merge", "--frobnicate"], "cartrender: unknown option --frobnicate\nRun 'cartrender merge --help' for usage.\n"),
            (["schema", "x"], "cartrender: schema takes no arguments\nRun 'cartrender schema --help' for usage.\n"),
            (["--frames", "0-9999"], "cartrender: --frames: the render has frames 0-197, got 9999 as the last\nRun 'cartrender --help' for usage.\n"),
            (["--fsp", "30"], "cartrender: unknown option --fsp; did you mean --fps?\nRun 'cartrender --help' for usage.\n"),
        ]
        for (args, stderr) in table {
            let r = try run(args)
            XCTAssertEqual(r.status, 64, args.joined(separator: " "))
            XCTAssertEqual(r.stderr, stderr, args.joined(separator: " "))
            XCTAssertEqual(r.stdout, "")
        }
    }

    /// `verfy` that is no file is a mistyped command; a file of that name is a scene.
    func testAMistypedCommandGetsAHint() throws {
        for (typo, command) in [("verfy", "verify"), ("dif", "diff"), ("schma", "schema"), ("merg", "merge")] {
            let r = try run([typo, "--baseline", "b"])
            XCTAssertEqual(r.status, 64, typo)
            XCTAssertEqual(r.stderr, "cartrender: \(typo): no such command or scene file; did you mean \(command)?\nRun 'cartrender --help' for usage.\n")
        }
        try #"{"duration": 0.1, "fps": 10}"#.write(toFile: dir + "/verfy", atomically: true, encoding: .utf8)
        let scene = try run(["verfy", "-o", "out", "--scale", "1", "--quiet"])
        XCTAssertEqual(scene.status, 0, scene.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/out/manifest.json"))
        let missing = try run(["nope.json"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stderr, "cartrender: nope.json: no such file\n", "a scene file name is not taken for a command")
    }

    /// Foundation's `deletingLastPathComponent` traps on one-letter paths: a baseline, a report,
    /// a diff image or a summary file named with one letter is an ordinary path.
    func testOneLetterPaths() throws {
        let r = try run(["verify", "--baseline", "b", "--report", "r", "--summary-markdown", "s", "--frames", "0-1", "--scale", "1", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/b/frame_0001.png"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/s"))
        let defaultReport = try run(["verify", "--baseline", "b", "--frames", "0-1", "--scale", "1", "--quiet"])
        XCTAssertEqual(defaultReport.status, 0, defaultReport.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/cartrender-report/index.html"))
        let diff = try run(["diff", "b/frame_0000.png", "b/frame_0001.png", "-o", "d"])
        XCTAssertEqual(diff.status, 0, diff.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/d"))
    }

    /// `-` reads the scene from standard input; its relative image paths resolve against the
    /// working directory. `-o` is `--out`.
    func testSceneFromStandardInput() throws {
        try FileManager.default.createDirectory(atPath: dir + "/images", withIntermediateDirectories: true)
        let png = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus/images/tiny.png")
        try FileManager.default.copyItem(atPath: png.path, toPath: dir + "/images/tiny.png")
        let scene = #"{"duration": 0.2, "fps": 10, "shop": {"image": "images/tiny.png"}}"#
        try scene.write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
        let piped = try Binary.run(["-c", "exec \"$0\" - -o piped --scale 1 --quiet < scene.json", Binary.url.path], in: dir, executable: "/bin/sh")
        XCTAssertEqual(piped.status, 0, piped.stderr)
        let file = try run(["scene.json", "-o", "file", "--scale", "1", "--quiet"])
        XCTAssertEqual(file.status, 0, file.stderr)
        for name in ["frame_0000.png", "frame_0002.png"] {
            XCTAssertEqual(FileManager.default.contents(atPath: dir + "/piped/" + name), FileManager.default.contents(atPath: dir + "/file/" + name), name)
        }
        let manifest = try String(contentsOfFile: dir + "/piped/manifest.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"frameCount\": 3"), manifest)

        // From another directory the relative image path no longer resolves: the error names
        // the working directory's path.
        try FileManager.default.createDirectory(atPath: dir + "/elsewhere", withIntermediateDirectories: true)
        let moved = try Binary.run(["-c", "exec \"$0\" - -o out < ../scene.json", Binary.url.path], in: dir + "/elsewhere", executable: "/bin/sh")
        XCTAssertEqual(moved.status, 66)
        XCTAssertEqual(moved.stderr, "cartrender: <stdin>:1:48: shop.image: image file \(URL(fileURLWithPath: dir + "/elsewhere").resolvingSymlinksInPath().path)/images/tiny.png does not exist\n")
    }

    /// An empty or closed standard input is no scene: one sentence naming standard input, 66
    /// (the scene is missing), for render and verify alike.
    func testEmptyOrClosedStandardInputIsAMissingScene() throws {
        let sentence = "cartrender: <stdin>: standard input is empty or closed; with - as SCENE, pipe a scene into cartrender (cartrender - < scene.json)\n"
        for redirect in ["< /dev/null", "<&-"] {
            for command in ["- -o out --scale 1 --quiet", "verify - --baseline b --scale 1 --quiet"] {
                let r = try Binary.run(["-c", "exec \"$0\" \(command) \(redirect)", Binary.url.path], in: dir, executable: "/bin/sh")
                XCTAssertEqual(r.status, 66, "\(command) \(redirect): \(r.stderr)")
                XCTAssertEqual(r.stderr, sentence, "\(command) \(redirect)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/b"))
    }

    /// The schema's description points to the README, which ships with the tool.
    func testTheSchemaCitesTheREADME() throws {
        let r = try run(["schema"])
        XCTAssertEqual(r.status, 0)
        XCTAssertFalse(r.stdout.contains("SPEC.md"), r.stdout)
        XCTAssertTrue(r.stdout.contains("README.md, section Scene file"))
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("\n## Scene file\n"))
    }

    /// Runs `cartrender ARGS` with standard output a pipe whose reader has already gone (as
    /// `| head -c 10` is once head has its bytes): returns how the process ended and its stderr.
    private func runIntoClosedPipe(_ args: [String]) throws -> (reason: Process.TerminationReason, status: Int32, stderr: String) {
        let binary = Binary.url.path
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        close(fds[0])
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        p.environment = Binary.environment()
        p.standardOutput = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
        let err = Pipe()
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationReason, p.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    /// A reader that goes away is not an error: no death by SIGPIPE (exit 141 in a shell), no
    /// message, and the command's own status (0 for the schema and help, 1 for the audit of the
    /// default scene, which finds issues, 64 for a bad command line still).
    func testAReaderThatGoesAwayEndsTheRunQuietlyWithItsOwnStatus() throws {
        let table: [([String], Int32)] = [
            (["schema"], 0),
            (["--help"], 0),
            (["audit", "--json", "--scale", "1", "--fps", "4", "--quiet"], 1),
            (["verify", "--bogus"], 64),
        ]
        for (args, status) in table {
            let r = try runIntoClosedPipe(args)
            XCTAssertEqual(r.reason, .exit, "\(args): ended by a signal (\(r.status))")
            XCTAssertEqual(r.status, status, "\(args) \(r.stderr)")
            XCTAssertEqual(r.stderr, status == 64 ? "cartrender: unknown option --bogus\nRun 'cartrender verify --help' for usage.\n" : "", "\(args)")
        }
    }
}
