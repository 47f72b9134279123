import Foundation

/// Reading scene files and checking the image files they name, so that every way a path can be
/// wrong becomes one sentence (SPEC.md §7) and nothing can make cartrender wait forever.
///
/// Scene files are read by ``RegularFile``: a FIFO, socket or device is refused without being
/// read, read errors are reported instead of being taken for an empty file (`/proc/self/mem`
/// fails with EIO), and sizes are checked before reading.
public enum SceneFiles {
    /// Largest scene file accepted (bytes): scene files are small JSON documents.
    public static let maxSceneBytes = 16 << 20

    /// The bytes of the scene file (or another JSON file cartrender reads) at `path`, at most
    /// `limit` bytes.
    /// - Throws: `SceneError` naming `path`: kind `.unreadable` when it is missing, a directory,
    ///   not a regular file, or cannot be read; `.invalid` when it is larger than `limit`.
    public static func readScene(_ path: String, limit: Int = maxSceneBytes) throws -> [UInt8] {
        do {
            return try RegularFile.read(path, limit: limit)
        } catch {
            if case .tooLarge = error.problem {
                throw SceneError(file: path, location: nil, path: "",
                                 message: error.reason() + "; a scene file is a small JSON document")
            }
            throw SceneError(kind: .unreadable, file: path, location: nil, path: "", message: error.reason(notA: "a scene file"))
        }
    }

    /// Why the image file at `path` (absolute) cannot be used, or nil when it is a readable
    /// regular file. Only looks at the file system entry (it is read later, by ``RegularFile``);
    /// contents are checked when decoding.
    static func imageProblem(_ path: String) -> String? {
        var info = stat()
        guard FileSystemPath.stat(path, &info) == 0 else {
            let e = errno
            if e == ENOENT || e == ENOTDIR { return "image file \(path) does not exist" }
            return "image file \(path) cannot be read (\(errnoText(e)))"
        }
        if let what = RegularFile.nonRegularKind(info.st_mode) { return "image file \(path) is \(what), not an image" }
        guard FileSystemPath.access(path, R_OK) == 0 else { return "image file \(path) cannot be read (\(errnoText(errno)))" }
        return nil
    }
}
