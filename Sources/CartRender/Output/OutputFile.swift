import CartRenderCore
import Foundation

/// A single output file the user names by path (`verify --summary-markdown FILE`,
/// `diff A.png B.png --out DIFF.png`), written so that the path keeps meaning what it meant:
///
/// - A path that is absent or a regular file gets a new regular file atomically (a temporary
///   file in the same directory, then renamed over the name): a reader sees the old file or the
///   new one, never half of one. Missing parent directories are created.
/// - A symbolic link is followed: its target is written as above and the link stays a link.
/// - A path that exists and is not a regular file — a FIFO, a character device (`/dev/full`,
///   `/dev/null`), standard output as `/dev/stdout` — is opened and written through, never
///   replaced. The process's own standard output or error (whatever name reaches it) is written
///   through that descriptor, after what was printed before, so nothing printed is overwritten.
/// - Every write error is reported (`ENOSPC` from `/dev/full`, `EFBIG` past a file size limit).
public enum OutputFile {
    /// Writes `bytes` to `path` as the type's documentation says.
    /// - Throws: ``OutputError`` (exit 73) naming `path`: "cannot be written (No space left on
    ///   device)", or what creating its directory failed with.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        var info = stat()
        if FileSystemPath.stat(path, &info) == 0 {
            if let fd = standardStream(info) {
                if fd == STDOUT_FILENO { fflush(stdout) }
                let e = FileSystemPath.writeAll(bytes, to: fd)
                if e != 0 { throw OutputError(path: path, reason: "cannot be written (\(OutputDirectory.describe(e)))") }
                return
            }
            if info.st_mode & S_IFMT != S_IFREG {
                try writeThrough(bytes, to: path)
                return
            }
        }
        let target = resolvedLink(path) ?? path
        let dir = OutputDirectory.parent(of: target)
        try OutputDirectory(path: dir.isEmpty ? "." : dir).write(bytes, to: (target as NSString).lastPathComponent, naming: path)
    }

    /// Refuses, before a render draws a frame, a name that a render's named output
    /// (``NamedFiles``) will not replace: a
    /// symbolic link at the name (refused rather than followed, which would write wherever it
    /// leads, or replaced, which would silently stop it leading there: the user decides), a
    /// directory, or any other file that is not a regular file (a FIFO, a device).
    /// - Throws: ``OutputError`` (exit 73) naming `path` and what to do.
    public static func checkReplaceable(_ path: String) throws {
        var info = stat()
        guard FileSystemPath.lstat(path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK:
            throw OutputError(path: path, reason: "is a symbolic link; cartrender neither writes through it nor replaces it: remove the link or name the file it leads to")
        case S_IFDIR:
            throw OutputError(path: path, reason: "is a directory; name a file, or end the name with / to render into the directory")
        default:
            throw OutputError(path: path, reason: "exists and is not a regular file; cartrender replaces only a regular file at a name it is given")
        }
    }

    /// The directory (`.` for a bare name) and the last component of `path`.
    static func split(_ path: String) -> (directory: String, name: String) {
        let dir = OutputDirectory.parent(of: path)
        return (dir.isEmpty ? "." : dir, (path as NSString).lastPathComponent)
    }

    /// Opens the existing non-regular file at `path` for writing (blocking until a FIFO has a
    /// reader, as a shell redirection does) and writes all of `bytes`.
    private static func writeThrough(_ bytes: [UInt8], to path: String) throws {
        func failure(_ e: Int32) -> OutputError { OutputError(path: path, reason: "cannot be written (\(OutputDirectory.describe(e)))") }
        var fd: Int32
        repeat { fd = FileSystemPath.open(path, O_WRONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw failure(errno) }
        var e = FileSystemPath.writeAll(bytes, to: fd)
        if close(fd) != 0 && e == 0 && errno != EINTR { e = errno }
        if e != 0 { throw failure(e) }
    }

    /// The descriptor of standard output or error when `info` is the file it is open on.
    private static func standardStream(_ info: stat) -> Int32? {
        [STDOUT_FILENO, STDERR_FILENO].first { fd in
            var open = stat()
            return fstat(fd, &open) == 0 && open.st_dev == info.st_dev && open.st_ino == info.st_ino
        }
    }

    /// The path a symbolic link at `path` leads to, following links in turn (at most 40, as
    /// the kernel does), relative ones against the directory of the link; nil when `path` is
    /// not a link. The last target may not exist yet (a dangling link gets its file).
    static func resolvedLink(_ path: String) -> String? {
        var current = path
        var hops = 0
        while hops < 40, let target = FileSystemPath.readLink(current) {
            let dir = OutputDirectory.parent(of: current)
            current = target.hasPrefix("/") || dir.isEmpty ? target : (dir as NSString).appendingPathComponent(target)
            hops += 1
        }
        return hops == 0 ? nil : current
    }
}
