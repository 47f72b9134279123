@testable import CartRender
@testable import CartRenderCLI
import Foundation
import XCTest

/// `cartrender completions bash|zsh|fish` and `cartrender man`, generated from the option tables
/// and the help: each script completes options, passes its shell's syntax check, and the page
/// renders without a warning. zsh, fish, groff and man-db are installed by `make deps`; a test
/// whose tool is missing is skipped with the package to install.
final class CompletionAndManTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws { dir = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    /// The script the binary prints for `shell`, written to a file.
    private func script(_ shell: String) throws -> String {
        let r = try Binary.run(["completions", shell])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let path = dir + "/cartrender." + shell
        try r.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `tool arguments` in the test's directory with HOME and the XDG directories there, and
    /// returns its status and output (stdout, then stderr).
    private func shell(_ tool: String, _ arguments: [String], package: String) throws -> (status: Int32, output: String) {
        guard let path = ["/usr/bin/", "/bin/"].map({ $0 + tool }).first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("\(tool) is not installed: apt-get install \(package) (make deps does)")
        }
        let r = try Binary.run(arguments, in: dir, environment: ["HOME": dir, "LANG": "C.UTF-8", "XDG_CONFIG_HOME": dir, "XDG_DATA_HOME": dir],
                               timeout: 60, executable: path)
        return (r.status, r.stdout + r.stderr)
    }

    /// What bash's completion function offers for the words of `line`, the last being completed.
    private func bashCompletions(_ file: String, _ words: [String]) throws -> [String] {
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let r = try shell("bash", ["--norc", "--noprofile", "-c", """
            source \(file)
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(words.joined(separator: " "))'; COMP_POINT=${#COMP_LINE}
            _cartrender cartrender "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """], package: "bash")
        XCTAssertEqual(r.status, 0, r.output)
        return r.output.split(separator: "\n").map(String.init)
    }

    func testBashCompletesOptionsCommandsAndValues() throws {
        let file = try script("bash")
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "--for"]), ["--format"])
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "verify", "--base"]), ["--baseline"])
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "--png-compression", "s"]), ["small"])
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "audit", "--level", ""]), ["AA", "AAA"])
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "--format", "w"]), ["webp", "webm"])
        // `render` is the bare form named: the same options and values.
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "render", "--for"]), ["--format"])
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "render", "--format", "w"]), ["webp", "webm"])
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "verify", "--record", "m"]), ["missing"])
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "ver"]), ["verify", "version"])
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "completions", ""]), ["bash", "zsh", "fish"])
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "--color-scheme", ""]), ["light", "dark", "light,dark"])
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "--color-scheme", "light,"]), ["light,dark"])
        for command in [["render"], ["verify"], ["audit"]] {
            XCTAssertEqual(try bashCompletions(file, ["cartrender"] + command + ["--at", ""]), ["start", "end"], "\(command)")
        }
        // review refuses --json (verify's), so it is not offered.
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "review", "--js"]), [])
        XCTAssertEqual(try bashCompletions(file, ["cartrender", "verify", "--js"]), ["--json"])
        let n = try shell("bash", ["-n", file], package: "bash")
        XCTAssertEqual(n.status, 0, n.output)
        XCTAssertEqual(n.output, "")
    }

    func testZshScriptPassesItsSyntaxCheck() throws {
        let file = try script("zsh")
        let r = try shell("zsh", ["-n", file], package: "zsh")
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertEqual(r.output, "")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#compdef cartrender\n"))
        XCTAssertTrue(text.contains("'--format[png, svg, gif"), "the render's --format with its help")
    }

    func testFishCompletesOptionsAndPassesItsSyntaxCheck() throws {
        let file = try script("fish")
        let n = try shell("fish", ["--no-execute", file], package: "fish")
        XCTAssertEqual(n.status, 0, n.output)
        XCTAssertEqual(n.output, "")
        let r = try shell("fish", ["--no-config", "-c", "source \(file); complete -C 'cartrender --for'; complete -C 'cartrender verify --base'; complete -C 'cartrender render --for'"], package: "fish")
        XCTAssertEqual(r.status, 0, r.output)
        let offered = r.output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        XCTAssertEqual(offered, ["--format", "--baseline", "--format"], r.output)
    }

    func testUnknownShellIsAUsageError() throws {
        let r = try Binary.run(["completions", "tcsh"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.hasPrefix("cartrender: completions takes one shell name: bash, zsh, fish, got \"tcsh\"\n"), r.stderr)
    }

    /// The page renders with groff's man macros with every warning on and none printed, and
    /// `man -l` shows it; it lists every option of every command.
    func testManPageRendersWithoutWarnings() throws {
        let r = try Binary.run(["man"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let page = dir + "/cartrender.1"
        try r.stdout.write(toFile: page, atomically: true, encoding: .utf8)
        XCTAssertTrue(r.stdout.unicodeScalars.allSatisfy(\.isASCII), "non-ASCII characters are escaped")
        let groff = try shell("groff", ["-man", "-Tutf8", "-ww", "-z", page], package: "groff-base")
        XCTAssertEqual(groff.status, 0, groff.output)
        XCTAssertEqual(groff.output, "", "groff's warnings")
        let man = try shell("man", ["--warnings", "-l", page], package: "man-db")
        XCTAssertEqual(man.status, 0, man.output)
        XCTAssertTrue(man.output.contains("cartrender - draws every frame"), man.output)
        XCTAssertFalse(man.output.contains("warning"), man.output)
        for command in CommandReference.all {
            if !command.name.isEmpty { XCTAssertTrue(r.stdout.contains(".SS \"cartrender \(command.name)\"\n"), command.name) }
            for option in command.options {
                XCTAssertTrue(r.stdout.contains("\\fB" + ManPage.escaped(option.name, option: true) + "\\fR"), "\(command.name) \(option.name)")
            }
        }
    }

    /// mandoc -Tlint, the checker Debian's lintian and man page reviewers use, finds nothing at
    /// any level, style included: the page has a date (SOURCE_DATE_EPOCH's, as `make deb` sets
    /// it to the commit's), no redundant paragraph macro (`.PP` after `.SH`) and no text line
    /// over 80 bytes.
    func testManPagePassesMandocLint() throws {
        let r = try Binary.run(["man"], environment: ["SOURCE_DATE_EPOCH": "1765238400"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\n.TH CARTRENDER 1 2025-12-09 "), "the date of SOURCE_DATE_EPOCH")
        let page = dir + "/cartrender.1"
        try r.stdout.write(toFile: page, atomically: true, encoding: .utf8)
        let lint = try shell("mandoc", ["-Tlint", page], package: "mandoc")
        XCTAssertEqual(lint.output, "", "mandoc's messages")
        XCTAssertEqual(lint.status, 0, lint.output)
    }

    /// The page's date: SOURCE_DATE_EPOCH in UTC when it is a number, else today's.
    func testManPageDate() {
        XCTAssertEqual(ManPage.date(environment: ["SOURCE_DATE_EPOCH": "1765238399"]), "2025-12-08")
        XCTAssertEqual(ManPage.date(environment: [:], now: Date(timeIntervalSince1970: 0)), "1970-01-01")
        XCTAssertEqual(ManPage.date(environment: ["SOURCE_DATE_EPOCH": "soon"], now: Date(timeIntervalSince1970: 86_400)), "1970-01-02")
    }

    /// Every subcommand is in the reference, with its own option table when it has one.
    func testTheReferenceCoversEveryCommand() {
        XCTAssertEqual(CommandReference.all.map(\.name), [""] + CLI.commandNames)
        XCTAssertEqual(CommandReference.all.first { $0.name == "verify" }?.options.map(\.name), VerifyCommand.options.rows.map(\.name))
        let summaries = Dictionary(uniqueKeysWithValues: CommandReference.all.map { ($0.name, $0.summary) })
        XCTAssertEqual(summaries[""], "draws every frame of two iOS commerce animations")
        XCTAssertEqual(summaries["verify"], "render a scene and compare every frame with a baseline directory of frame_NNNN.png files")
        XCTAssertEqual(summaries["view"], "write DIR/index.html, the viewer of a render, from DIR/manifest.json")
        XCTAssertEqual(summaries["schema"], "print the JSON Schema")
    }

    /// Every section of every command's help is a section of its part of the man page, under
    /// its own heading (verify's two-letter `CI` once ran into the section before it).
    func testEveryHelpSectionIsAManPageSection() {
        let man = ManPage.page(date: "2026-01-01")
        for command in CommandReference.all where !command.name.isEmpty {
            guard let start = man.range(of: ".SS \"cartrender \(command.name)\"\n") else { XCTFail(command.name); continue }
            let part = man[start.upperBound...].components(separatedBy: "\n.SS ")[0].components(separatedBy: "\n.SH ")[0]
            for (heading, _) in command.page.headed {
                XCTAssertTrue(part.contains(".B \"\(ManPage.escaped(heading))\"\n"), "\(command.name): \(heading)")
            }
        }
        XCTAssertTrue(man.contains(".B \"CI\"\n"))
    }
}
