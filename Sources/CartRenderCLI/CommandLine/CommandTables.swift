import CartRender
import CartRenderCore

/// The option tables of docs/command-line.md, generated from the command list
/// (``CommandReference/all``) so that they say what `--help` says: a Markdown table per command
/// with options of its own, between ``begin`` and ``end``. `cartrender docs-tables` (a command
/// for the project's own scripts, left out of the help and the completions) reads the document
/// on standard input and prints it with the tables made again; `Scripts/command-tables.sh`
/// rewrites the file with it, and a test fails while the file is out of date.
enum CommandTables: CartRenderCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "docs-tables", usage: "< docs/command-line.md", abstract: nil,
                             overview: "print docs/command-line.md (read on standard input) with its option tables\ngenerated again from the commands' option tables (Scripts/command-tables.sh).",
                             positionals: { .none }, checksAddressSpace: false)
    }

    /// The line before the tables.
    static let begin = "<!-- BEGIN option tables: generated from the commands by Scripts/command-tables.sh; edit the commands, not this -->"
    /// The line after the tables.
    static let end = "<!-- END option tables -->"

    /// The tables: for each command of ``CLI/commands`` with options besides `-h` (the render
    /// first), a heading and one row per option (`| `-o`, `--out PATH` | Output directory … |`).
    static var markdown: String {
        var s = ""
        for command in CommandReference.all where !command.name.isEmpty && command.options.contains(where: { $0.name != "--help" }) {
            s += "\n### " + (command.name == CLI.defaultCommand.configuration.name ? "`cartrender [\(command.name)]`" : "`cartrender \(command.name)`") + "\n\n"
            s += "| option | meaning |\n|---|---|\n"
            for row in command.options {
                let spellings = ([row.short].compactMap { $0 } + [row.name + (row.placeholder.map { " " + $0 } ?? "")]).map { "`\($0)`" }
                s += "| " + cell(spellings.joined(separator: ", ")) + " | " + cell(row.help) + " |\n"
            }
        }
        return s
    }

    /// A table cell's text: `|` escaped (GitHub splits cells at it even inside code spans), and
    /// `<` and `&` as entities, so `<picture>` is text, not an element.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "|", with: "\\|")
    }

    /// `document` with the lines between ``begin`` and ``end`` replaced by ``markdown``.
    /// - Throws: `InputError` when the document lacks either marker line, or has them out of order.
    static func updated(_ document: String) throws -> String {
        var lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.firstIndex(of: begin), let last = lines.firstIndex(of: end), first < last else {
            throw UsageError("docs-tables: standard input has no line \(begin) followed by a line \(end)")
        }
        lines.replaceSubrange((first + 1)..<last, with: markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        return lines.joined(separator: "\n")
    }

    /// Reads the document on standard input and prints it with the tables made again.
    /// - Throws: `UsageError` for any argument, or a document without the markers.
    static func run(_ arguments: [String]) throws -> ExitCode {
        guard try NoOptions.positionals(arguments).isEmpty else { throw UsageError("docs-tables takes no arguments") }
        let input = String(decoding: try SceneFiles.readStandardInput(), as: UTF8.self)
        StandardOutput.print(try updated(input), terminator: "")
        return .success
    }
}
