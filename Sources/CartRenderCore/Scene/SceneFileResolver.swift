/// How the scene decoder reaches the image and font files a scene names: supplied by the layer
/// that owns the file system and its rule for a scene's files (the command line and the library
/// pass `AssetFolder`, which opens every component without following a link and refuses a
/// file outside the scene's folder), so that a command that only decodes a scene applies the
/// same rule as one that renders it.
public protocol SceneFileResolver: Sendable {
    /// Why the image file at `path` (absolute: the scene's text resolved against its folder)
    /// cannot be used, or nil when it is a readable regular file (its contents are checked when
    /// it is decoded).
    func imageProblem(_ path: String) -> SceneFileProblem?
    /// The bytes of the font file at `path` (absolute), at most `limit` bytes.
    /// - Throws: ``SceneFileProblem``.
    func readFont(_ path: String, limit: Int) throws -> [UInt8]
}

/// Why a file a scene names cannot be used, as the end of a sentence that begins with
/// `image file PATH` or `font file PATH` (`does not exist`, `is outside /s, …`).
public struct SceneFileProblem: Error, Equatable, Sendable {
    /// The end of the sentence.
    public var reason: String
    /// Whether the file cannot be read (exit 66) rather than refused (exit 65).
    public var unreadable: Bool
    /// A problem `reason`; `unreadable` for exit 66.
    public init(reason: String, unreadable: Bool) { self.reason = reason; self.unreadable = unreadable }
}

/// The resolver of a decoder that reads no file: the default scene (which names none) and the
/// decoder's own checks after decoding. Every file is refused, so a file reached through it
/// by mistake is an error, never a read.
struct NoSceneFiles: SceneFileResolver {
    func imageProblem(_ path: String) -> SceneFileProblem? {
        SceneFileProblem(reason: "cannot be read here (the scene's files are checked by the layer that reads them)", unreadable: true)
    }

    func readFont(_ path: String, limit: Int) throws -> [UInt8] {
        throw SceneFileProblem(reason: "cannot be read here (the scene's files are checked by the layer that reads them)", unreadable: true)
    }
}
