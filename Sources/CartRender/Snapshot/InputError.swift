import CartRenderCore

/// An input of `verify` or `diff` that is missing or not what it should be (exit 66 or 65).
/// Errors of the PNG files themselves are ``ImageDecodingError``s.
public struct InputError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// Missing or unreadable (exit 66).
        case unreadable
        /// Present but unusable, e.g. a directory where a file is expected (exit 65).
        case invalid
    }
    public var kind: Kind
    public var path: String
    public var reason: String

    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    /// `baseline/: is not a directory`
    public var description: String { "\(path): \(reason)" }

    public var exitCode: ExitCode { kind == .unreadable ? .noInput : .dataError }
}
