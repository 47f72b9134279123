import CartRender
import CartRenderCore

/// Every command of `cartrender` with its options as the option tables define them, for the
/// shell completions (``ShellCompletion``) and the man page (``ManPage``), which are generated
/// from it and so cannot drift from the parser and the help.
struct CommandReference {
    /// An option's spellings, the placeholder of its value (nil for a flag) and its help.
    struct OptionRow: Equatable {
        var name: String
        var short: String?
        var placeholder: String?
        var help: String
        var repeatable: Bool

        /// What a shell offers for the option's value: the words of a placeholder such as
        /// `light|dark` or of a placeholder in ``namedValues``, directories for `DIR`, file names
        /// for a file or a path, else nothing.
        var values: Values {
            guard let placeholder else { return .none }
            let words = placeholder.split(separator: "|").map(String.init)
            if words.count > 1 { return .words(words + (CommandReference.combinedValues[placeholder] ?? [])) }
            if let named = CommandReference.namedValues[placeholder] { return .words(named) }
            if placeholder == "DIR" || placeholder.hasSuffix("_DIR") { return .directories }
            if placeholder == "PATH" || placeholder.hasSuffix("FILE") || placeholder.contains(".") { return .files }
            return .none
        }
    }

    /// The values of placeholders that do not list them: `--format FORMAT` (one format; several
    /// are written with commas), `--record MODE` and the named times of `--at TIME` (a number
    /// of seconds is typed).
    static let namedValues: [String: [String]] = [
        "FORMAT": OutputFormat.all.map(\.name),
        "MODE": RecordMode.allCases.map(\.rawValue),
        "TIME": ["start", "end"],
    ]

    /// Values written with commas that a listed placeholder also takes: `--color-scheme light,dark`
    /// renders both appearances.
    static let combinedValues: [String: [String]] = [
        "light|dark": ["light,dark"],
    ]

    /// What a shell offers for a value or a positional argument.
    enum Values: Equatable {
        case none, files, directories
        case words([String])
    }

    /// The subcommand's name; "" for a render (`cartrender [SCENE.json] [options]`).
    var name: String
    /// Its help as sections (``HelpPage``): the main help's for the render.
    var page: HelpPage
    /// Its options, as its parser takes them.
    var options: [OptionRow]
    /// What its positional arguments are.
    var positionals: Values

    /// The help text (`cartrender NAME --help`).
    var help: String { page.text }

    /// The first paragraph of the overview, up to the end of its first clause (a period, colon
    /// or semicolon before a space, or a parenthesis after one): what the command does, in a
    /// few words. `frame_NNNN.png` and `cartrender(1)` stay whole.
    var summary: String {
        let text = page.overview.split(separator: "\n\n", maxSplits: 1).first.map(String.init) ?? page.overview
        let joined = text.split(separator: "\n").joined(separator: " ") + " "
        let end = [". ", ": ", "; ", " ("].compactMap { joined.range(of: $0)?.lowerBound }.min() ?? joined.endIndex
        return joined[..<end].trimmingCharacters(in: .whitespaces)
    }

    /// The render, then every command of ``CLI/commands``, in the order of `cartrender help`.
    static var all: [CommandReference] {
        [CommandReference(name: "", page: Help.mainPage, options: CLI.defaultCommand.optionRows, positionals: .files)]
            + CLI.commands.map { command in
                CommandReference(name: command.configuration.name, page: command.helpPage, options: command.optionRows,
                                 positionals: command.configuration.positionals())
            }
    }

    /// The rows of a command's option table, as completions and the man page list them.
    static func rows<Options>(_ table: OptionTable<Options>) -> [OptionRow] {
        table.rows.map { OptionRow(name: $0.name, short: $0.short, placeholder: $0.placeholder, help: $0.help, repeatable: $0.repeatable) }
    }
}
