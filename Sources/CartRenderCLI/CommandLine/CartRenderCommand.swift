import CartRender
import CartRenderCore

/// A command of `cartrender`: one type owns its name, usage, summary, help text, options,
/// positional arguments and how it runs. ``CLI/commands`` lists them; the main help, `help`,
/// the completions (``ShellCompletion``) and the man page (``ManPage``) are derived from that
/// list (``CommandReference``). Adding a command is its file plus a line in ``CLI/commands``.
protocol CartRenderCommand {
    /// Its name and what the main help and the completions say of it.
    static var configuration: CommandConfiguration { get }
    /// `cartrender NAME --help`: the whole help text (description, USAGE, OPTIONS from
    /// ``optionRows``' table, EXIT STATUS, EXAMPLES), printed on stdout.
    static var help: String { get }
    /// Its options as completions and the man page list them; `-h` alone by default.
    static var optionRows: [CommandReference.OptionRow] { get }
    /// Runs the arguments after `cartrender NAME`.
    /// - Returns: the exit status.
    /// - Throws: `UsageError` and the command's ``ReportableError``s, which ``CLI/run(_:)`` reports.
    static func run(_ arguments: [String]) throws -> ExitCode
}

extension CartRenderCommand {
    static var optionRows: [CommandReference.OptionRow] { CommandReference.rows(NoOptions.options) }
}

/// What a command says about itself outside its help text, as swift-argument-parser's
/// `CommandConfiguration` does.
struct CommandConfiguration {
    /// The word after `cartrender` (`verify`).
    var name: String
    /// What follows `cartrender NAME` in the USAGE of the main help (`A B [options]`).
    var usage: String
    /// What it does, in the USAGE of the main help, as the lines printed there; nil for a
    /// command listed only in the main help's last line (`version`).
    var summary: [String]?
    /// What its positional arguments are, for the completions; evaluated when they are
    /// generated (`help` offers the names of ``CLI/commands``).
    var positionals: () -> CommandReference.Values = { .files }
    /// Whether it checks before running that the address-space limit leaves room for a drawing
    /// worker (``CLI/checkAddressSpace()``); false for commands that draw nothing.
    var checksAddressSpace = true
}
