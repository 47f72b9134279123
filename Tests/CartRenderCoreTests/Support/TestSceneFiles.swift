import CartRenderCore
import Foundation

/// The core tests' resolver of the files a scene names: read as their paths say, links
/// followed (the core reads no file; the product's rule, `AssetFolder`, is in CartRenderFiles
/// and tested there).
struct TestSceneFiles: SceneFileResolver {
    func imageProblem(_ path: String) -> SceneFileProblem? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return SceneFileProblem(reason: "does not exist", unreadable: true) }
        return isDirectory.boolValue ? SceneFileProblem(reason: "is a directory, not an image", unreadable: true) : nil
    }

    func readFont(_ path: String, limit: Int) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw SceneFileProblem(reason: "is a directory, not a font", unreadable: true)
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw SceneFileProblem(reason: "does not exist", unreadable: true) }
        guard data.count <= limit else { throw SceneFileProblem(reason: "is larger than \(limit) bytes", unreadable: false) }
        return Array(data)
    }
}

/// The decoder as the core tests call it: with ``TestSceneFiles``, and scene files read with
/// Foundation.
extension SceneDecoder {
    static func decode(_ data: [UInt8], file: String, baseDirectory: String, overrides: SceneOverrides = SceneOverrides()) throws -> Scene {
        try decode(data, file: file, baseDirectory: baseDirectory, overrides: overrides, files: TestSceneFiles())
    }

    static func decodeVariants(_ data: [UInt8], file: String, baseDirectory: String, overrides: SceneOverrides = SceneOverrides()) throws -> [SceneVariant]? {
        try decodeVariants(data, file: file, baseDirectory: baseDirectory, overrides: overrides, files: TestSceneFiles())
    }

    static func load(path: String) throws -> Scene {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try decode(Array(data), file: path, baseDirectory: (path as NSString).deletingLastPathComponent)
    }
}
