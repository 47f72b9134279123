import CartRenderCore
import Foundation

/// A failure to write outputs (exit 73).
public struct OutputError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// The file or directory that could not be written.
    public var path: String
    /// Why, as the end of the sentence.
    public var reason: String
    /// `PATH: REASON`.
    public var description: String { "\(path): \(reason)" }
    /// 73 (`EX_CANTCREAT`).
    public var exitCode: ExitCode { .cannotCreate }

    /// `path` could not be written, for `reason`.
    package init(path: String, reason: String) { self.path = path; self.reason = reason }
}

/// The directory a render writes into. Every file is written atomically: to a temporary file
/// in the same directory, then renamed over the final name, so a reader never sees half a file.
public struct OutputDirectory: Sendable {
    /// The directory's path as given.
    public let path: String
    /// The directories `init` created, outermost first (empty when `path` existed).
    public let createdDirectories: [String]

    /// Creates the directory (and parents) when missing and checks that it is writable.
    /// - Throws: `OutputError` when the path is a file or cannot be created or written.
    public init(path: String) throws {
        self.path = path
        var missing: [String] = []
        if let isDirectory = FileSystemPath.isDirectory(path) {
            guard isDirectory else { throw OutputError(path: path, reason: "exists and is not a directory") }
        } else {
            var p = path
            while !p.isEmpty && p != "/" && FileSystemPath.isDirectory(p) == nil {
                missing.insert(p, at: 0)
                p = Self.parent(of: p)
            }
            for (i, d) in missing.enumerated() where FileSystemPath.mkdir(d, 0o755) != 0 && errno != EEXIST {
                let e = errno
                for made in missing[..<i].reversed() { _ = FileSystemPath.rmdir(made) }
                throw OutputError(path: path, reason: "cannot create the output directory (\(Self.describe(e)))")
            }
        }
        createdDirectories = missing
        guard FileSystemPath.access(path, W_OK) == 0 else {
            removeCreatedDirectories()
            throw OutputError(path: path, reason: "the output directory is not writable")
        }
    }

    /// Removes the directories `init` created, innermost first, as long as they are empty: a
    /// failed or interrupted run leaves no trace.
    public func removeCreatedDirectories() {
        for d in createdDirectories.reversed() where FileSystemPath.rmdir(d) != 0 { return }
    }

    /// The full path of a file in the directory.
    public func url(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Writes `bytes` to `name` atomically.
    /// - Parameter shown: the path errors name (default: the file's path in the directory).
    /// - Throws: `OutputError` (disk full, permissions…); the temporary file is removed.
    public func write(_ bytes: [UInt8], to name: String, naming shown: String? = nil) throws {
        let final = url(name)
        let temp = url(".\(name).tmp-\(getpid())")
        let failure = Self.writeFile(bytes, to: temp)
        if failure != 0 {
            throw OutputError(path: shown ?? final, reason: "cannot be written (\(Self.describe(failure)))")
        }
        guard FileSystemPath.rename(temp, final) == 0 else {
            let e = errno
            _ = FileSystemPath.unlink(temp)
            throw OutputError(path: shown ?? final, reason: "cannot be written (\(String(cString: strerror(e))))")
        }
    }

    /// Writes `bytes` to a new file at `path` (a stale one there is removed first, a link
    /// itself, never followed) and returns 0, or
    /// `errno` after removing what was written (disk full, EFBIG from a file size limit…).
    static func writeFile(_ bytes: [UInt8], to path: String) -> Int32 {
        // A new file, never one opened through a link planted at the temporary name.
        var fd = FileSystemPath.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if fd < 0 && errno == EEXIST && FileSystemPath.unlink(path) == 0 {
            fd = FileSystemPath.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { return errno }
        var failure = FileSystemPath.writeAll(bytes, to: fd)
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure != 0 { _ = FileSystemPath.unlink(path) }
        return failure
    }

    /// `path` without its last component ("a/b/" → "a", "o" → "", "/o" → "/"). Not
    /// `NSString.deletingLastPathComponent`, which traps on one-letter relative paths such as
    /// "o" in swift-corelibs-foundation 6.3.
    static func parent(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        var head = p[..<slash]
        while head.count > 1 && head.hasSuffix("/") { head = head.dropLast() }
        return head.isEmpty ? "/" : String(head)
    }

    /// `parent/name`, a subdirectory cartrender creates or enters below a directory the user
    /// named (a variant's `DIR/NAME`, `BASE/NAME`, `REPORTS/NAME`): the user may have chosen
    /// `parent` to be a link, but below it cartrender follows none (docs/bad-input.md).
    /// - Returns: the path, when nothing is there yet or it is a real directory.
    /// - Throws: ``OutputError`` (73) when `parent/name` is a symbolic link or another file that
    ///   is not a directory; nothing was read or written through it.
    package static func subdirectory(_ name: String, of parent: String) throws -> String {
        let path = (parent as NSString).appendingPathComponent(name)
        var info = stat()
        guard FileSystemPath.lstat(path, &info) == 0 else { return path }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return path
        case S_IFLNK:
            throw OutputError(path: path, reason: "is a symbolic link, and cartrender follows no link below \(parent); it is left alone: replace it with a directory, or write somewhere else")
        default:
            throw OutputError(path: path, reason: "exists and is not a directory; it is left alone: remove it, or write somewhere else")
        }
    }

    /// `strerror` as it reads inside a sentence ("No space left on device").
    package static func describe(_ e: Int32) -> String { String(cString: strerror(e)) }
}
