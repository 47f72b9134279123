import CartRenderCore

/// A bad command line: one sentence for stderr, followed by where to find the usage (exit 64).
public struct UsageError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var exitCode: ExitCode { .usage }
    public var hint: String? { Self.hint }
    /// The line under every command-line error.
    public static let hint = "Run 'cartrender --help' for usage."

}
