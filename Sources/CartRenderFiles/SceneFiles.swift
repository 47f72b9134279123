import CartRenderCore
import Foundation

/// Reading scene files and checking the image files they name, so that every way a path can be
/// wrong becomes one sentence (docs/bad-input.md) and nothing can make cartrender wait forever.
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

    /// How standard input is named in messages when it holds the scene (`cartrender -`).
    public static let standardInputName = "<stdin>"

    /// The bytes of a scene on standard input, read to its end: at most `limit` bytes.
    /// - Throws: `SceneError` naming ``standardInputName``: kind `.unreadable` when a read fails
    ///   (standard input closed, a directory), `.invalid` when there are more than `limit` bytes.
    public static func readStandardInput(limit: Int = maxSceneBytes) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(0, $0.baseAddress, $0.count) }
            if n == 0 { return bytes }
            if n < 0 {
                if errno == EINTR { continue }
                throw SceneError(kind: .unreadable, file: standardInputName, location: nil, path: "",
                                 message: "cannot be read (\(errnoText(errno)))")
            }
            bytes += chunk[..<n]
            if bytes.count > limit {
                throw SceneError(file: standardInputName, location: nil, path: "",
                                 message: FileReadError(path: standardInputName, problem: .tooLarge(limit: limit)).reason() + "; a scene file is a small JSON document")
            }
        }
    }

}
