import CartRender
@testable import CartRenderCLI
import CartRenderCore
import Foundation
import XCTest

/// For every command, its help, the three completion scripts and its section of the man page
/// offer the same options as its parser (issue 36): one missing from any of them fails.
final class CommandSurfacesTests: XCTestCase {
    /// The long option names on the lines of `text` that match `pattern` (its first group).
    private func names(in text: String, _ pattern: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        let ns = text as NSString
        return Set(regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) })
    }

    /// The lines of `text` from the first that starts with `start` up to (not including) the
    /// next that matches `end`.
    private func block(of text: String, from start: String, until end: (String) -> Bool) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.firstIndex(where: { $0.hasPrefix(start) }) else { return "" }
        let rest = lines[(first + 1)...]
        let stop = rest.firstIndex(where: end) ?? lines.endIndex
        return lines[first..<stop].joined(separator: "\n")
    }

    private func helpOptions(_ name: String) -> Set<String> {
        guard let sub = CLI.command(named: name) else { return [] }
        let help = sub.help
        let own = names(in: help, #"^  (?:-\w, )?(--[a-z][a-z0-9-]*)"#)
        // review's help lists its own options, then points to verify's instead of repeating them.
        if help.contains("Those of verify") || help.contains("those of verify") {
            return own.union(helpOptions("verify").subtracting(["--json", "--summary-markdown"]))
        }
        return own
    }

    func testHelpCompletionsAndManPageOfferEveryOptionOfEveryCommand() {
        let bash = ShellCompletion.script(.bash)
        let zsh = ShellCompletion.script(.zsh)
        let fish = ShellCompletion.script(.fish)
        let man = ManPage.page(date: "2026-01-01")
        for command in CommandReference.all {
            let parser = Set(command.options.map(\.name))
            let label = command.name.isEmpty ? "cartrender" : "cartrender \(command.name)"
            XCTAssertFalse(parser.isEmpty, label)
            // Help: the main help lists render's options (RENDER OPTIONS), each command's its own.
            let help = command.name.isEmpty
                ? names(in: Help.main, #"^  (?:-\w, )?(--[a-z][a-z0-9-]*)"#) : helpOptions(command.name)
            // Every command takes -h and --help (the main help says so); not every help lists it.
            XCTAssertEqual(help.union(["--help"]), parser, "\(label): help")
            // bash: the words offered after `-` for the command.
            let bashCase = (command.name.isEmpty ? "''" : command.name) + ") mapfile"
            let bashLine = bash.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(bashCase) && $0.contains("compgen -W '--") }
            XCTAssertEqual(names(in: String(bashLine ?? ""), #"(?:^|[ '])(--[a-z][a-z0-9-]*)"#), parser, "\(label): bash")
            // zsh: the command's _arguments specs (the bare form's come last).
            let zshBlock = command.name.isEmpty
                ? block(of: zsh, from: "    _arguments -s -S :", until: { !$0.hasPrefix("                '") })
                : block(of: zsh, from: "            \(command.name)) _arguments", until: { !$0.hasPrefix("                '") })
            XCTAssertEqual(names(in: zshBlock, #"'\*?(--[a-z][a-z0-9-]*)\["#), parser, "\(label): zsh")
            // fish: the options completed under the command's condition.
            let condition = command.name.isEmpty ? "'not __fish_seen_subcommand_from " : "'__fish_seen_subcommand_from \(command.name)' "
            let fishLines = fish.split(separator: "\n").filter { $0.contains(condition) }.joined(separator: "\n")
            XCTAssertEqual(Set(names(in: fishLines, #" -l ([a-z][a-z0-9-]*)"#).map { "--" + $0 }), parser, "\(label): fish")
            // The man page: OPTIONS for the bare form, the command's .SS section otherwise.
            let section = command.name.isEmpty
                ? block(of: man, from: ".SH OPTIONS", until: { $0.hasPrefix(".SH") })
                : block(of: man, from: ".SS \"cartrender \(command.name)\"", until: { $0.hasPrefix(".SS") || $0.hasPrefix(".SH") })
            let manNames = Set(names(in: section, #"\\fB((?:\\-){2}[a-z][a-z0-9\\-]*)\\fR"#).map { $0.replacingOccurrences(of: "\\-", with: "-") })
            // As in the help, -h and --help are implied where the section lists no option.
            XCTAssertEqual(manNames.isEmpty ? ["--help"] : manNames, parser, "\(label): man page")
        }
    }

    /// Each command of ``CLI/commands`` owns its name (once in the list), a help that begins
    /// with `cartrender NAME — `, and its synopsis in the main help's USAGE: nothing about a
    /// command lives outside its type and its line in the list.
    func testEveryCommandOfTheListOwnsItsNameHelpAndUsage() {
        let names = CLI.commandNames
        XCTAssertEqual(Set(names).count, names.count, "a name twice in CLI.commands: \(names)")
        XCTAssertEqual(CLI.defaultCommand.configuration.name, "render")
        for command in CLI.commands {
            let c = command.configuration
            XCTAssertTrue(command.help.hasPrefix("cartrender \(c.name) — "), c.name)
            XCTAssertEqual(CLI.command(named: c.name).map { ObjectIdentifier($0) }, ObjectIdentifier(command), c.name)
            guard c.summary != nil else { continue }
            let name = c.name == "render" ? "[render]" : c.name
            XCTAssertTrue(Help.main.contains("  cartrender " + ([name, c.usage].filter { !$0.isEmpty }.joined(separator: " "))), c.name)
        }
    }
}
