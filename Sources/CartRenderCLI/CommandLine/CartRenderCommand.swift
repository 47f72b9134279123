import CartRender
import CartRenderCore

/// A command of `cartrender`: one type owns its name, usage, abstract, discussion, examples,
/// options, positional arguments and how it runs. ``CLI/commands`` lists them; the main help,
/// each command's help (``help``), `help`, the completions (``ShellCompletion``), the man page
/// (``ManPage``) and the option tables of docs/command-line.md (``CommandTables``) are derived
/// from that list (``CommandReference``). Adding a command is its file plus a line in
/// ``CLI/commands``.
protocol CartRenderCommand {
    /// What it says about itself: name, usage, abstract, discussion, examples.
    static var configuration: CommandConfiguration { get }
    /// Its options as completions and the man page list them; `-h` alone by default.
    static var optionRows: [CommandReference.OptionRow] { get }
    /// The lines of the OPTIONS section of its help (its option table's); nil, the default, for
    /// a command whose only option is `-h`: its help has no OPTIONS section.
    static var optionsHelp: String? { get }
    /// Runs the arguments after `cartrender NAME`.
    /// - Returns: the exit status.
    /// - Throws: `UsageError` and the command's ``ReportableError``s, which ``CLI/run(_:)`` reports.
    static func run(_ arguments: [String]) throws -> ExitCode
}

extension CartRenderCommand {
    static var optionRows: [CommandReference.OptionRow] { CommandReference.rows(NoOptions.options) }
    static var optionsHelp: String? { nil }

    /// `cartrender NAME --help`, printed on stdout: ``configuration``'s page with the OPTIONS of
    /// ``optionsHelp``.
    static var help: String { helpPage.text }

    /// The help as sections, which the man page sets.
    static var helpPage: HelpPage { configuration.page(options: optionsHelp) }
}

/// A command whose arguments its own option table parses into a value of its type, which then
/// runs: it declares ``options``, ``parse(_:)`` and ``run()``; its option rows, the OPTIONS of
/// its help and ``CartRenderCommand/run(_:)`` follow from them.
protocol ParsedCommand: CartRenderCommand {
    /// The option table its arguments are parsed with.
    static var options: OptionTable<Self> { get }
    /// The command as `arguments` (after `cartrender NAME`) give it.
    /// - Throws: `UsageError` with one sentence naming the option.
    static func parse(_ arguments: [String]) throws -> Self
    /// Runs it; the exit status.
    /// - Throws: the command's ``ReportableError``s.
    func run() throws -> ExitCode
}

extension ParsedCommand {
    static var optionRows: [CommandReference.OptionRow] { CommandReference.rows(options) }
    static var optionsHelp: String? { options.help }
    static func run(_ arguments: [String]) throws -> ExitCode { try parse(arguments).run() }
}
