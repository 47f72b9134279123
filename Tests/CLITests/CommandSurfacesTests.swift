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
        if name == "review" {
            XCTAssertTrue(help.contains("\n  And those of verify (cartrender verify --help), except --json and --summary-markdown.\n"), help)
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
            // Only the commands without options of their own take -h alone (render's rows
            // once went missing this way: the completions offered nothing after `render --`).
            XCTAssertEqual(parser == ["--help"], ["schema", "help", "version", "completions", "man"].contains(command.name), "\(label): \(parser)")
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

    /// Each command of ``CLI/commands`` owns its name (once in the list) and a help that begins
    /// with `cartrender NAME — `, which `cartrender NAME --help` prints: nothing about a command
    /// lives outside its type and its line in the list.
    func testEveryCommandOfTheListOwnsItsNameAndHelp() throws {
        let names = CLI.commandNames
        XCTAssertEqual(Set(names).count, names.count, "a name twice in CLI.commands: \(names)")
        XCTAssertEqual(CLI.defaultCommand.configuration.name, "render")
        for command in CLI.commands {
            let c = command.configuration
            XCTAssertTrue(command.help.hasPrefix("cartrender \(c.name) — "), c.name)
            let r = try Binary.run([c.name, "--help"])
            XCTAssertEqual(r.status, 0, c.name)
            XCTAssertEqual(r.stdout, command.help + "\n", "cartrender \(c.name) --help")
        }
    }

    /// The main help's USAGE, made from each command's usage and abstract, as printed: the
    /// default command's name in brackets, an abstract from column 41 (on the next line after a
    /// long synopsis), `version` only in the last line.
    func testTheMainHelpsUsage() {
        XCTAssertEqual(Help.usage, """
              cartrender [render] [SCENE.json | -] [options]
                                                     render frames (the built-in demo when no SCENE;
                                                     - reads the scene from standard input)
              cartrender verify [SCENE.json | -] --baseline DIR [options]
                                                     render and compare every frame with a baseline
              cartrender review [SCENE.json | -] --baseline DIR [options]
                                                     verify, then accept frames from the served report
              cartrender preview SCENE.json [options]
                                                     serve the viewer, updated on every save of the scene
              cartrender diff A B [options]          compare two PNG files or two frame directories
              cartrender merge DIR... [--out DIR]    join the outputs of --shard runs
              cartrender view DIR                    write DIR/index.html, the viewer of a render
              cartrender audit [SCENE.json | -] [options]
                                                     check every distinct frame for accessibility
              cartrender schema                      print the JSON Schema of scene files
              cartrender help [COMMAND]              this help, or a command's
              cartrender completions bash|zsh|fish   print a shell completion script
              cartrender man                         print the manual page cartrender(1)
            """)
        XCTAssertTrue(Help.main.contains("\nUSAGE\n" + Help.usage + "\n  cartrender -h | --help | --version | version\n"))
    }
}
