import CartRenderCore

/// A failure in the raster layer or an encoder, with one sentence naming the cause.
public struct RasterError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// An input (image file, font) is corrupt or unusable (exit 65).
        case invalidInput
        /// A required system file (font, icon) is missing: install the named Debian package.
        case missingDependency
        /// A library reported an internal failure (exit 70).
        case library
    }
    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }
    public var description: String { message }

    public var exitCode: ExitCode {
        switch kind {
        case .invalidInput: return .dataError
        case .missingDependency: return .unavailable
        case .library: return .software
        }
    }

    public var sentence: String { kind == .library ? "internal error: " + message : message }
}
