@testable import CartRender
@testable import CartRenderCLI
import CartRenderCore
import XCTest

/// The option table every command parses with: rows, shared value parsers, repeats and the
/// help lines made from the same rows.
final class OptionTableTests: XCTestCase {
    private struct Sample {
        var count: Int?
        var ratio: Double?
        var scheme: ColorScheme?
        var names: [String] = []
        var loud = false
    }

    private static let table = OptionTable<Sample>([
        Option("--count", short: "-c", "N", "How many, 1…9.", .int(1...9)) { $0.count = $1 },
        Option("--ratio", "R", "A share.", .number(0...1)) { $0.ratio = $1 },
        Option("--scheme", "light|dark", "Appearance.", .oneOf) { $0.scheme = $1 },
        Option("--name", "NAME", "A name (repeatable).", .nonEmpty("a name"), repeatable: true) { $0.names.append($1) },
        Option("--loud", "Louder.") { $0.loud = true },
    ])

    private func parse(_ arguments: [String], _ table: OptionTable<Sample> = table) throws -> (Sample, [String]) {
        var s = Sample()
        let positionals = try table.parse(arguments, into: &s).positionals
        return (s, positionals)
    }

    /// review parses its own options and verify's; verify's arguments (the line it suggests to
    /// record again) hold verify's options only, whichever spelling review's took.
    func testReviewHandsVerifyOnlyVerifysArguments() throws {
        let c = try ReviewCommand.parse(["s.json", "--port", "8123", "--baseline", "b", "--allow-host=x.example", "--fps", "20",
                                         "--allow-host", "y.example:443"])
        XCTAssertEqual(c.verify.arguments, ["s.json", "--baseline", "b", "--fps", "20"])
        XCTAssertEqual(c.port, 8123)
        XCTAssertEqual(c.allowedHosts.map(\.name), ["x.example", "y.example"])
        XCTAssertEqual(c.verify.options.baseline, "b")
        XCTAssertEqual(ReviewCommand.ownOptions.removing(from: ["--port=1", "--quiet", "--port", "2", "a", "--", "--port", "3"]),
                       ["--quiet", "a", "--", "--port", "3"])
        XCTAssertThrowsError(try ReviewCommand.parse(["s.json", "--port", "8123"])) { XCTAssertEqual(($0 as? UsageError)?.message, "verify needs --baseline DIR (the directory of baseline frames)") }
    }

    func testRowsParseTheirValues() throws {
        let (s, positionals) = try parse(["a", "-c", "3", "--ratio=0.5", "--scheme", "dark", "--name", "x", "--name", "y", "--loud", "--", "--loud"])
        XCTAssertEqual(s.count, 3)
        XCTAssertEqual(s.ratio, 0.5)
        XCTAssertEqual(s.scheme, .dark)
        XCTAssertEqual(s.names, ["x", "y"])
        XCTAssertTrue(s.loud)
        XCTAssertEqual(positionals, ["a", "--loud"])
    }

    func testErrorTexts() {
        let long = String(repeating: "9", count: 100)
        let table: [([String], String)] = [
            (["--count", "0"], "--count: expected a whole number from 1 to 9, got \"0\""),
            (["--ratio", "2"], "--ratio: expected a number from 0 to 1, got \"2\""),
            (["--ratio", "nan"], "--ratio: expected a number from 0 to 1, got \"nan\""),
            (["--scheme", "sepia"], "--scheme: expected light or dark, got \"sepia\""),
            (["--name", ""], "--name needs a name"),
            (["--loud=1"], "--loud does not take a value"),
            (["--count"], "--count needs a value (N)"),
            (["--count", "--loud"], "--count needs a value (N)"),
            (["--cuont", "1"], "unknown option --cuont; did you mean --count?"),
            (["--loud", "--loud"], "--loud is given more than once"),
            (["--count", long], "--count: expected a whole number from 1 to 9, got \"\(String(repeating: "9", count: 40))…\""),
        ]
        for (args, message) in table {
            XCTAssertThrowsError(try parse(args), "\(args)") { e in XCTAssertEqual((e as? UsageError)?.message, message, "\(args)") }
        }
    }

    /// Every option is found before a value is parsed, and the positionals are checked before
    /// the values: of several mistakes, the first kind is reported.
    func testOrderOfChecks() {
        var s = Sample()
        XCTAssertThrowsError(try Self.table.parse(["--count", "0", "--bogus"], into: &s)) { e in
            XCTAssertEqual((e as? UsageError)?.message, "unknown option --bogus")
        }
        XCTAssertThrowsError(try Self.table.parse(["a", "b", "--count", "0"], into: &s) { if $0.count > 1 { throw UsageError("one at most") } }) { e in
            XCTAssertEqual((e as? UsageError)?.message, "one at most")
        }
    }

    /// A part's table stores into the part; help lines are aligned at column 30 at least.
    func testIncludingAndHelp() throws {
        struct Whole { var part = Sample(); var flag = false }
        let whole = OptionTable<Whole>([Option("--flag", "A flag.") { $0.flag = true }]).including(Self.table, at: \.part)
        var w = Whole()
        _ = try whole.parse(["--flag", "--count", "4"], into: &w)
        XCTAssertTrue(w.flag)
        XCTAssertEqual(w.part.count, 4)
        XCTAssertEqual(whole.help.split(separator: "\n").prefix(3), [
            "  --flag                      A flag.",
            "  -c, --count N               How many, 1…9.",
            "  --ratio R                   A share.",
        ])
    }

    /// No command has two rows of one spelling (options are added to these tables in parallel).
    func testEveryCommandsSpellingsAreUnique() {
        let tables: [(String, [String])] = [
            ("render", RenderCommand.options.rows.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }),
            ("verify", VerifyCommand.options.rows.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }),
            ("review", ReviewCommand.options.rows.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }),
            ("diff", DiffCommand.options.rows.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }),
            ("merge", MergeCommand.options.rows.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }),
        ]
        for (command, spellings) in tables {
            XCTAssertEqual(spellings.count, Set(spellings).count, "\(command): \(spellings)")
            XCTAssertTrue(spellings.contains("--help") && spellings.contains("-h"), command)
        }
    }
}
