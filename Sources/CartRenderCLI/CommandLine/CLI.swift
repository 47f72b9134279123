import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

/// The `cartrender` command: dispatches to subcommands, maps errors to exit codes (docs/command-line.md),
/// prints errors as one sentence on stderr and help on stdout.
public enum CLI {
    /// The command that runs without its name: `cartrender [SCENE.json | -] [options]` renders.
    static var defaultCommand: any CartRenderCommand.Type { RenderCommand.self }

    /// `cartrender NAME …`: every command, in the order of the help; the main help, `help`,
    /// the completions and the man page are derived from this list. Anything else is a render
    /// (``defaultCommand``).
    static var commands: [any CartRenderCommand.Type] {
        [RenderCommand.self, VerifyCommand.self, ReviewCommand.self, PreviewCommand.self, DiffCommand.self, MergeCommand.self, ViewCommand.self,
         AuditCommand.self, SchemaCommand.self, HelpCommand.self, VersionCommand.self, ShellCompletion.self, ManPage.self]
    }

    /// Commands for the project's own scripts, left out of the help, the completions and the
    /// man page: `docs-tables` (``CommandTables``).
    static var hiddenCommands: [any CartRenderCommand.Type] { [CommandTables.self] }

    /// The names of ``commands``, in their order.
    static var commandNames: [String] { commands.map { $0.configuration.name } }

    /// The command called `name` (of ``commands`` or ``hiddenCommands``), if any.
    static func command(named name: String) -> (any CartRenderCommand.Type)? {
        (commands + hiddenCommands).first { $0.configuration.name == name }
    }

    /// Whether `arguments` ask for help (`-h` or `--help` before any `--`).
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "-h" || $0 == "--help" }
    }

    /// Runs the command line (without the program name) and returns its exit status.
    public static func run(_ arguments: [String]) -> ExitCode {
        if let name = arguments.first, let command = command(named: name) {
            let rest = Array(arguments.dropFirst())
            if asksForHelp(rest) { StandardOutput.print(command.help); return .success }
            do {
                if command.configuration.checksAddressSpace { try checkAddressSpace() }
                return try command.run(rest)
            } catch var e as any UsageProblem {
                e.command = name
                return report(e)
            } catch {
                return report(error)
            }
        }
        do {
            if asksForHelp(arguments) { StandardOutput.print(Help.main); return .success }
            if asksForVersion(arguments) { StandardOutput.print(Help.version); return .success }
            try checkNotAMistypedCommand(arguments.first)
            try checkAddressSpace()
            return try defaultCommand.run(arguments)
        } catch {
            return report(error)
        }
    }

    /// Whether `arguments` ask for the version (`--version` before any `--`): render's option.
    static func asksForVersion(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--version")
    }

    /// Stops at once, before any thread starts, when the address-space limit (`ulimit -v`) leaves
    /// no room for one drawing worker: libraries that cannot start their threads would abort or,
    /// in libdispatch's case, retry forever.
    /// - Throws: `OutOfMemoryError` (exit 70).
    static func checkAddressSpace() throws {
        _ = try MemoryBudget.workers(requested: 1, canvasPixels: 0, what: "a run of cartrender")
    }

    /// `cartrender verfy …`: a first argument that is no file and no option but close to a
    /// command name is a mistyped command, not a scene file.
    /// - Throws: `UsageError` suggesting the command.
    static func checkNotAMistypedCommand(_ first: String?) throws {
        guard let first, !first.hasPrefix("-"), !first.contains("/"), !first.contains("."),
              !FileManager.default.fileExists(atPath: first),
              let guess = nearestKey(to: first, in: commandNames) else { return }
        throw UsageError("\(echoed(first)): no such command or scene file; did you mean \(guess)?")
    }

    /// Prints `error` on stderr as `cartrender: SENTENCE` on one line (user input in it has its
    /// control characters escaped), then its hint line if it has one, and returns its exit code.
    /// An error that is not a ``ReportableError`` is an internal error (exit 70).
    public static func report(_ error: Error) -> ExitCode {
        waitWhileEndingOnASignal()
        let reportable = error as? ReportableError
        let sentences = reportable?.sentences ?? ["internal error: \(error)"]
        let hint = reportable?.hint.map { "\n" + singleLine($0) } ?? ""
        Stderr.write(sentences.map { "cartrender: " + singleLine($0) }.joined(separator: "\n") + hint + "\n")
        return reportable?.exitCode ?? .software
    }

    /// Once a second signal has removed the unfinished files, the signal's thread ends the
    /// process (130, 143) with its own sentence: an error that removal caused on another thread
    /// (a frame that can no longer be written) waits for that instead of being reported.
    public static func waitWhileEndingOnASignal() {
        guard StagingArea.wereAbandoned else { return }
        while true { sleep(1) }
    }
}
