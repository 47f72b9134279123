import CartRenderCore
import Foundation

/// Reading a whole file that a user or a directory names (a scene, an image, a baseline frame, an
/// earlier report, a shard manifest) so that nothing in the file system can make cartrender wait
/// forever or take a failure for content.
///
/// - The file is opened with `O_NONBLOCK | O_CLOEXEC`: opening a FIFO that has no writer returns
///   at once instead of blocking, and no child process inherits the descriptor.
/// - `fstat` on the open descriptor (not on the path, so nothing can be swapped in between) refuses
///   anything but a regular file — a directory, FIFO, socket or device — before a byte is read.
/// - `O_NONBLOCK` is then cleared, so a read is never cut short with `EAGAIN`.
/// - The size is checked against the caller's limit before reading, and again while reading
///   (files in `/proc` report size 0).
/// - Reads are retried after `EINTR`; a read error (`/proc/self/mem` fails with `EIO`) is reported,
///   never taken for the end of the file.
///
/// ```swift
/// let bytes = try RegularFile.read("scene.json", limit: 16 << 20)
/// let frame = try RegularFile.readIfPresent("baseline/frame_0001.png", limit: 512 << 20)  // nil: no such file
/// ```
public enum RegularFile {
    /// The bytes of the regular file at `path`.
    /// - Parameters:
    ///   - path: a file system path, absolute or relative to the working directory (a
///     ``FileSystemPath`` string: any bytes).
    ///   - limit: the largest size accepted (bytes).
    /// - Returns: the file's bytes, at most `limit` of them.
    /// - Throws: ``FileReadError`` naming `path`: `.missing`, `.notRegularFile`, `.unreadable`
    ///   (with the `errno` of the failed call) or `.tooLarge`.
    /// - Complexity: O(file size); one `read` call for a file whose size `fstat` reports.
    public static func read(_ path: String, limit: Int) throws(FileReadError) -> [UInt8] {
        try read(path, limit: limit, in: AT_FDCWD, followingLinks: true)
    }

    /// The bytes of the regular file `name` in the directory open as `directory`, never following
    /// a symbolic link at `name` (`O_NOFOLLOW`: a link is `.unreadable(errno: ELOOP)`), so a
    /// name inside an output directory cannot lead out of it.
    /// - Parameters:
    ///   - name: the file's name in the directory (a ``FileSystemPath`` string).
    ///   - directory: an open directory descriptor (`O_DIRECTORY`), or `AT_FDCWD`.
    ///   - limit: the largest size accepted (bytes).
    /// - Throws: ``FileReadError`` naming `shown` (default: `name`), as ``read(_:limit:)``.
    public static func read(_ name: String, limit: Int, in directory: Int32, naming shown: String? = nil) throws(FileReadError) -> [UInt8] {
        try read(name, limit: limit, in: directory, followingLinks: false, naming: shown)
    }

    private static func read(_ path: String, limit: Int, in directory: Int32, followingLinks: Bool, naming shown: String? = nil) throws(FileReadError) -> [UInt8] {
        func failure(_ problem: FileReadError.Problem) -> FileReadError { FileReadError(path: shown ?? path, problem: problem) }
        var fd: Int32
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW)
        repeat { fd = FileSystemPath.withCString(path) { openat(directory, $0, flags) } } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let e = errno
            throw failure(e == ENOENT || e == ENOTDIR ? .missing : .unreadable(errno: e))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(.unreadable(errno: errno)) }
        if let what = nonRegularKind(info.st_mode) { throw failure(.notRegularFile(what: what)) }
        let status = fcntl(fd, F_GETFL)
        guard status >= 0, fcntl(fd, F_SETFL, status & ~O_NONBLOCK) == 0 else { throw failure(.unreadable(errno: errno)) }
        guard info.st_size <= limit else { throw failure(.tooLarge(limit: limit)) }

        // One byte more than the reported size, so that the end of the file is seen without
        // growing the buffer; it grows only for files that report less than they hold.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { throw failure(.tooLarge(limit: limit)) }
                bytes.append(contentsOf: repeatElement(0, count: min(max(count, 1 << 16), limit - count) + 1))
            }
            let n = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(.unreadable(errno: errno))
            }
            count += n
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// The bytes of the regular file `name` in the directory at `directory` (a frame of a
    /// baseline, a shard, a directory being compared): the directory is opened as given, and a
    /// symbolic link at `name` is never followed, so no entry leads the read out of it.
    /// - Returns: the bytes, or nil when there is no such file.
    /// - Throws: ``FileReadError`` naming `directory/name`, as ``read(_:limit:)`` (a link is
    ///   `.unreadable(errno: ELOOP)`).
    public static func readIfPresent(_ name: String, inDirectory directory: String, limit: Int) throws(FileReadError) -> [UInt8]? {
        let shown = (directory as NSString).appendingPathComponent(name)
        var dir: Int32
        repeat { dir = FileSystemPath.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } while dir < 0 && errno == EINTR
        guard dir >= 0 else {
            let e = errno
            if e == ENOENT || e == ENOTDIR { return nil }
            throw FileReadError(path: shown, problem: .unreadable(errno: e))
        }
        defer { close(dir) }
        do {
            return try read(name, limit: limit, in: dir, naming: shown)
        } catch {
            if error.problem == .missing { return nil }
            throw error
        }
    }

    /// The bytes of the regular file at `path`, or nil when there is no such file.
    /// - Throws: ``FileReadError`` as ``read(_:limit:)`` does, except for `.missing`.
    public static func readIfPresent(_ path: String, limit: Int) throws(FileReadError) -> [UInt8]? {
        do {
            return try read(path, limit: limit)
        } catch {
            if error.problem == .missing { return nil }
            throw error
        }
    }

    /// "a directory", "a FIFO (named pipe)"… for anything but a regular file; nil for a regular file.
    public static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "not a regular file"
        }
    }
}

/// Why ``RegularFile`` could not read a file: exit 66 (missing, not a regular file, unreadable)
/// or 65 (larger than the limit).
///
/// `description` is `PATH: REASON` (`baseline/frame_0001.png: is a FIFO (named pipe), not a
/// regular file`); callers that name the file in their own words use ``reason(missing:notA:)``.
public struct FileReadError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// Why the file could not be read.
    public enum Problem: Equatable, Sendable {
        /// There is no such file (`ENOENT`, or `ENOTDIR`: a component of the path is a file).
        case missing
        /// The path names something else; `what` is "a directory", "a FIFO (named pipe)",
        /// "a socket" or "a device".
        case notRegularFile(what: String)
        /// `open`, `fstat` or `read` failed with this `errno` (`EACCES`, `ELOOP`, `EIO`…).
        case unreadable(errno: Int32)
        /// The file is larger than the caller's limit (bytes).
        case tooLarge(limit: Int)
    }

    /// The path as the caller gave it.
    public var path: String
    /// Missing, not a regular file, unreadable or too large.
    public var problem: Problem

    /// The error of `problem` about `path`.
    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// The problem as the end of a sentence that starts with the file's name: "no such file",
    /// "is a FIFO (named pipe), not a regular file", "cannot be read (permission denied)",
    /// "is larger than 16 MiB".
    /// - Parameters:
    ///   - missing: the words for a missing file.
    ///   - expected: what the file should have been, after "not".
    public func reason(missing: String = "no such file", notA expected: String = "a regular file") -> String {
        switch problem {
        case .missing: return missing
        case .notRegularFile(let what): return "is \(what), not \(expected)"
        case .unreadable(let e): return "cannot be read (\(errnoText(e)))"
        case .tooLarge(let limit):
            return "is larger than " + (limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes")
        }
    }

    /// `PATH: REASON` (``reason(missing:notA:)``).
    public var description: String { "\(path): \(reason())" }

    /// 65 for a file over the limit, 66 otherwise.
    public var exitCode: ExitCode {
        if case .tooLarge = problem { return .dataError }
        return .noInput
    }
}

/// `strerror` in lower case, as it reads inside a sentence: "permission denied".
func errnoText(_ e: Int32) -> String {
    let s = String(cString: strerror(e))
    guard let first = s.first else { return "error \(e)" }
    return first.lowercased() + s.dropFirst()
}
