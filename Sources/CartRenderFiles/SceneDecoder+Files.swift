import CartRenderCore
import Foundation

/// Scene files read from disk, and the folder rule as the decoder's default: the core decodes
/// bytes with the resolver it is given; this layer reads the file (``SceneFiles``) and gives
/// it ``AssetFolder`` (no link followed below the scene's folder, nothing outside it).
extension SceneDecoder {
    /// ``SceneDecoder/decode(_:file:baseDirectory:overrides:files:)`` with the image and font
    /// files checked and read through `AssetFolder(directory: baseDirectory)`.
    /// - Throws: `SceneError`.
    public static func decode(_ data: [UInt8], file: String, baseDirectory: String,
                              overrides: SceneOverrides = SceneOverrides()) throws -> Scene {
        try decode(data, file: file, baseDirectory: baseDirectory, overrides: overrides, files: AssetFolder(directory: baseDirectory))
    }

    /// ``SceneDecoder/decodeVariants(_:file:baseDirectory:overrides:files:)`` with the files
    /// checked and read through `AssetFolder(directory: baseDirectory)`.
    /// - Throws: `SceneError`.
    public static func decodeVariants(_ data: [UInt8], file: String, baseDirectory: String,
                                      overrides: SceneOverrides = SceneOverrides()) throws -> [SceneVariant]? {
        try decodeVariants(data, file: file, baseDirectory: baseDirectory, overrides: overrides, files: AssetFolder(directory: baseDirectory))
    }

    /// Reads and decodes the variants of a scene file (see `decodeVariants`).
    /// - Parameter files: how the files the scene names are checked and read, given the scene's
    ///   folder (``AssetFolder`` of that folder unless given).
    /// - Throws: `SceneError` (see ``load(path:overrides:files:)``).
    public static func loadVariants(path: String, overrides: SceneOverrides = SceneOverrides(),
                                    files: (String) -> any SceneFileResolver = { AssetFolder(directory: $0) }) throws -> [SceneVariant]? {
        try decodeVariants(SceneFiles.readScene(path), ofSceneAt: path, overrides: overrides, files: files)
    }

    /// Decodes the variants of the scene file at `path` from `data`, its bytes as read
    /// (``SceneFiles/readScene(_:limit:)``), its relative paths resolved against its folder.
    /// - Throws: `SceneError` (see `decodeVariants`).
    public static func decodeVariants(_ data: [UInt8], ofSceneAt path: String, overrides: SceneOverrides = SceneOverrides(),
                                      files: (String) -> any SceneFileResolver = { AssetFolder(directory: $0) }) throws -> [SceneVariant]? {
        let base = baseDirectory(ofSceneAt: path)
        return try decodeVariants(data, file: path, baseDirectory: base, overrides: overrides, files: files(base))
    }

    /// Reads and decodes a scene file.
    /// - Throws: `SceneError` of kind `.unreadable` when the file is missing, a directory, not
    ///   a regular file or unreadable; `.invalid` otherwise (see `SceneFiles.readScene`).
    /// - Parameter files: how the files the scene names are checked and read, given the scene's
    ///   folder (``AssetFolder`` of that folder unless given).
    public static func load(path: String, overrides: SceneOverrides = SceneOverrides(),
                            files: (String) -> any SceneFileResolver = { AssetFolder(directory: $0) }) throws -> Scene {
        try decode(SceneFiles.readScene(path), ofSceneAt: path, overrides: overrides, files: files)
    }

    /// Decodes the scene file at `path` from `data`, its bytes as read
    /// (``SceneFiles/readScene(_:limit:)``), its relative paths resolved against its folder.
    /// - Throws: `SceneError` (see `decode`).
    public static func decode(_ data: [UInt8], ofSceneAt path: String, overrides: SceneOverrides = SceneOverrides(),
                              files: (String) -> any SceneFileResolver = { AssetFolder(directory: $0) }) throws -> Scene {
        let base = baseDirectory(ofSceneAt: path)
        return try decode(data, file: path, baseDirectory: base, overrides: overrides, files: files(base))
    }

    /// The absolute directory of the scene file at `path`, which its relative image paths are
    /// resolved against (names that are not UTF-8 kept as `FileSystemPath` spells them).
    static func baseDirectory(ofSceneAt path: String) -> String {
        URL(fileURLWithPath: FileSystemPath.absolute(path)).deletingLastPathComponent().path
    }
}
