import CartRenderCore

/// An input of `verify` or `diff` that is missing or not what it should be (exit 66 or 65).
/// Errors of the PNG files themselves are ``ImageDecodingError``s.
public struct InputError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// Why the input cannot be used.
    public enum Kind: Equatable, Sendable {
        /// Missing or unreadable (exit 66).
        case unreadable
        /// Present but unusable, e.g. a directory where a file is expected (exit 65).
        case invalid
    }
    /// Unreadable (exit 66) or not what was expected (exit 65).
    public var kind: Kind
    /// The input file or directory.
    public var path: String
    /// Why, as the end of the sentence.
    public var reason: String

    /// The error of `kind` about `path`.
    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    /// `baseline/: is not a directory`
    public var description: String { "\(path): \(reason)" }

    /// 66 for an unreadable input, 65 otherwise.
    public var exitCode: ExitCode { kind == .unreadable ? .noInput : .dataError }
}
