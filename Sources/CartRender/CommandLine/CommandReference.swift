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
    /// are written with commas) and `--record MODE`.
    static let namedValues: [String: [String]] = [
        "FORMAT": OutputFormat.all.map(\.name),
        "MODE": RecordMode.allCases.map(\.rawValue),
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
    /// The help text (`cartrender NAME --help`), whose first sentence describes the command.
    var help: String
    var options: [OptionRow]
    /// What its positional arguments are.
    var positionals: Values

    /// The first paragraph of the help without `cartrender NAME — `, up to the end of its first
    /// clause (a period, colon or semicolon before a space, or a parenthesis after one): what the
    /// command does, in a few words. `frame_NNNN.png` and `cartrender(1)` stay whole.
    var summary: String {
        let text = help.split(separator: "\n\n", maxSplits: 1).first.map(String.init) ?? help
        let joined = text.split(separator: "\n").joined(separator: " ") + " "
        let afterDash = joined.range(of: " — ").map { String(joined[$0.upperBound...]) } ?? joined
        let end = [". ", ": ", "; ", " ("].compactMap { afterDash.range(of: $0)?.lowerBound }.min() ?? afterDash.endIndex
        return afterDash[..<end].trimmingCharacters(in: .whitespaces)
    }

    /// The render, then every subcommand in the order of `cartrender help`.
    static var all: [CommandReference] {
        let commandNames = CLI.subcommands.map(\.name)
        return [CommandReference(name: "", help: Help.main, options: rows(RenderCommand.options), positionals: .files)]
            + CLI.subcommands.map { sub in
                CommandReference(name: sub.name, help: sub.help(), options: optionRows[sub.name] ?? rows(NoOptions.options),
                                 positionals: positionalValues(sub.name, commandNames: commandNames))
            }
    }

    /// The option tables of the subcommands that have more than `-h`; `render` takes the
    /// bare form's (RenderCommand's).
    static var optionRows: [String: [OptionRow]] {
        ["render": rows(RenderCommand.options),
         "verify": rows(VerifyCommand.options),
         // review takes its own and verify's options but those two (ReviewCommand.parse).
         "review": rows(ReviewCommand.options).filter { !["--json", "--summary-markdown"].contains($0.name) },
         "diff": rows(DiffCommand.options),
         "merge": rows(MergeCommand.options), "view": rows(ViewCommand.options), "audit": rows(AuditCommand.options)]
    }

    static func positionalValues(_ name: String, commandNames: [String]) -> Values {
        switch name {
        case "merge", "view": return .directories
        case "help": return .words(commandNames)
        case "completions": return .words(ShellCompletion.Shell.allCases.map(\.rawValue))
        case "schema", "version", "man": return .none
        default: return .files
        }
    }

    static func rows<Options>(_ table: OptionTable<Options>) -> [OptionRow] {
        table.rows.map { OptionRow(name: $0.name, short: $0.short, placeholder: $0.placeholder, help: $0.help, repeatable: $0.repeatable) }
    }
}
