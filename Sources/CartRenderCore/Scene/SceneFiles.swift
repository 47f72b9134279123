import Foundation

/// Reading scene files and checking the image files they name, so that every way a path can be
/// wrong becomes one sentence (SPEC.md §7) and nothing can make cartrender wait forever.
///
/// A FIFO, socket or device is refused without being read (opening is non-blocking, so a FIFO
/// with no writer cannot hang the run), read errors are reported instead of being taken for an
/// empty file (`/proc/self/mem` fails with EIO), and sizes are checked before reading.
public enum SceneFiles {
    /// Largest scene file accepted (bytes): scene files are small JSON documents.
    public static let maxSceneBytes = 16 << 20

    /// The bytes of the scene file (or another JSON file cartrender reads) at `path`, at most
    /// `limit` bytes.
    /// - Throws: `SceneError` naming `path`: kind `.unreadable` when it is missing, a directory,
    ///   not a regular file, or cannot be read; `.invalid` when it is larger than `limit`.
    public static func readScene(_ path: String, limit: Int = maxSceneBytes) throws -> [UInt8] {
        func unreadable(_ message: String) -> SceneError {
            SceneError(kind: .unreadable, file: path, location: nil, path: "", message: message)
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw unreadable(openFailure(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw unreadable("cannot be read (\(reason(errno)))") }
        if let problem = notARegularFile(info.st_mode) {
            throw unreadable(problem == "a directory" ? "is a directory, not a scene file" : "is \(problem), not a scene file")
        }
        let tooLarge = SceneError(file: path, location: nil, path: "",
                                  message: "is larger than \(limit >> 20) MiB; a scene file is a small JSON document")
        if info.st_size > limit { throw tooLarge }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw unreadable("cannot be read (\(reason(errno)))")
            }
            bytes += chunk[0..<n]
            // Files in /proc report size 0: check as they are read, too.
            if bytes.count > limit { throw tooLarge }
        }
        return bytes
    }

    /// Why the image file at `path` (absolute) cannot be used, or nil when it is a readable
    /// regular file. Only looks at the file system entry; contents are checked when decoding.
    static func imageProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let e = errno
            if e == ENOENT || e == ENOTDIR { return "image file \(path) does not exist" }
            return "image file \(path) cannot be read (\(reason(e)))"
        }
        if let problem = notARegularFile(info.st_mode) { return "image file \(path) is \(problem), not an image" }
        guard access(path, R_OK) == 0 else { return "image file \(path) cannot be read (\(reason(errno)))" }
        return nil
    }

    /// "a directory", "a FIFO"… for anything but a regular file.
    static func notARegularFile(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "not a regular file"
        }
    }

    static func openFailure(_ e: Int32) -> String {
        switch e {
        case ENOENT, ENOTDIR: return "no such file"
        default: return "cannot be read (\(reason(e)))"
        }
    }

    /// `strerror` in lower case, as it reads inside a sentence: "permission denied".
    static func reason(_ e: Int32) -> String {
        let s = String(cString: strerror(e))
        guard let first = s.first else { return "error \(e)" }
        return first.lowercased() + s.dropFirst()
    }
}
