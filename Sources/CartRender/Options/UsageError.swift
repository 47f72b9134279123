import CartRenderCore

/// A bad command line (exit 64): its sentence, then a line pointing to the usage of the command
/// it came from (`Run 'cartrender verify --help' for usage.`). `CLI.run` sets ``command`` for
/// the errors a subcommand throws.
public protocol UsageProblem: ReportableError {
    /// The subcommand whose command line was wrong (`verify`), or nil for a render.
    var command: String? { get set }
}

extension UsageProblem {
    /// 64 (`EX_USAGE`).
    public var exitCode: ExitCode { .usage }
    /// Where to find the usage of ``command`` (`cartrender help verify`).
    public var hint: String? { UsageError.hint(for: command) }
}

/// A bad command line: one sentence for stderr, followed by where to find the usage (exit 64).
public struct UsageError: UsageProblem, Equatable, Sendable, CustomStringConvertible {
    /// The sentence, without the `cartrender: ` prefix.
    public var message: String
    /// The subcommand whose arguments were wrong, nil for a render.
    public var command: String?
    /// The error saying `message` about `command`'s arguments.
    public init(_ message: String, command: String? = nil) { self.message = message; self.command = command }
    /// The sentence (``message``).
    public var description: String { message }
    /// The line under a render's command-line errors.
    public static let hint = hint(for: nil)

    /// The line under a command-line error of `command` (nil: the render command).
    public static func hint(for command: String?) -> String {
        "Run 'cartrender\(command.map { " " + $0 } ?? "") --help' for usage."
    }

    /// `--NAME: expected WHAT, got "TEXT"`, the text cut as ``echoedQuoted(_:)`` cuts it.
    package static func expected(_ option: String, _ what: String, got text: String) -> UsageError {
        UsageError("\(option): expected \(what), got \(echoedQuoted(text))")
    }
}
