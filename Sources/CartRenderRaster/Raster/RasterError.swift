import CartRenderCore

/// A failure in the raster layer or an encoder, with one sentence naming the cause.
public struct RasterError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// What failed, which decides the exit status.
    public enum Kind: Sendable, Equatable {
        /// An input (image file, font) is corrupt or unusable (exit 65).
        case invalidInput
        /// A required system file (font, icon) is missing: install the named Debian package.
        case missingDependency
        /// A library reported an internal failure (exit 70).
        case library
    }
    /// Bad input, a missing dependency or a library failure.
    public var kind: Kind
    /// The sentence naming the cause.
    public var message: String
    /// The error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }
    /// The sentence (``message``).
    public var description: String { message }

    /// 65 for bad input, 69 for a missing dependency, 70 for a library failure.
    public var exitCode: ExitCode {
        switch kind {
        case .invalidInput: return .dataError
        case .missingDependency: return .unavailable
        case .library: return .software
        }
    }

    /// ``message``, after `internal error: ` for a library failure.
    public var sentence: String { kind == .library ? "internal error: " + message : message }
}
