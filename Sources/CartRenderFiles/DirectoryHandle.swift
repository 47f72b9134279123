import CartRenderCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An open directory, and the calls cartrender makes on the entries in it: each takes a plain
/// name (never a path), works relative to the open descriptor (`openat`, `renameat`,
/// `unlinkat`, `fstatat`) and never follows a symbolic link at that name. So once a directory
/// is open, no entry in it — a link planted where an output goes, a staging directory that is
/// really a link — can lead a read, write, rename or removal out of it, and renaming the
/// directory meanwhile changes nothing.
///
/// The descriptor is closed when the value goes away. Every call returns what the C call
/// returns and leaves `errno` as it left it.
public final class DirectoryHandle: @unchecked Sendable {
    /// The descriptor (`O_RDONLY | O_DIRECTORY | O_CLOEXEC`).
    public let fd: Int32
    /// The path it was opened by, for messages.
    public let path: String

    /// Opens the directory at `path` (a link given by the user as the directory itself is
    /// followed: it is the user's choice of directory).
    /// - Returns: nil with `errno` set when it cannot be opened or is not a directory.
    public init?(path: String) {
        let fd = FileSystemPath.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.path = path
    }

    /// Opens the subdirectory `name`, refusing a symbolic link (`ELOOP` or `ENOTDIR`).
    /// - Returns: nil with `errno` set.
    public init?(_ name: String, in parent: DirectoryHandle) {
        let fd = FileSystemPath.withCString(name) { openat(parent.fd, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.path = parent.url(name)
    }

    /// A second descriptor (`F_DUPFD_CLOEXEC`) for the directory `other` has open, labelled
    /// `parent/name` for messages: for a directory renamed after it was opened (a staging
    /// directory made under a temporary name), so that its paths in messages are the new ones.
    /// - Returns: nil with `errno` set when no descriptor is left.
    public init?(duplicating other: DirectoryHandle, renamedTo name: String, in parent: DirectoryHandle) {
        let fd = fcntl(other.fd, F_DUPFD_CLOEXEC, 0)
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.path = parent.url(name)
    }

    deinit { close(fd) }

    /// `path/name`, for messages.
    public func url(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// `fstatat` without following a link at `name`; nil (with `errno`) when there is nothing.
    public func info(_ name: String) -> stat? {
        var s = stat()
        return FileSystemPath.withCString(name) { fstatat(fd, $0, &s, AT_SYMLINK_NOFOLLOW) } == 0 ? s : nil
    }

    /// The directory's own `fstat`.
    public func info() -> stat? {
        var s = stat()
        return fstat(fd, &s) == 0 ? s : nil
    }

    /// Whether there is an entry `name` (of any kind, a dangling link included).
    public func contains(_ name: String) -> Bool { info(name) != nil }

    /// `renameat(self, name, target, newName)`: moves the entry itself (a link stays a link).
    public func rename(_ name: String, to target: DirectoryHandle, as newName: String) -> Int32 {
        FileSystemPath.withCString(name) { f in FileSystemPath.withCString(newName) { t in renameat(fd, f, target.fd, t) } }
    }

    /// `unlinkat` of a file (or link, which is removed itself).
    public func unlink(_ name: String) -> Int32 { FileSystemPath.withCString(name) { unlinkat(fd, $0, 0) } }

    /// `unlinkat(…, AT_REMOVEDIR)` of an empty subdirectory.
    public func removeDirectory(_ name: String) -> Int32 { FileSystemPath.withCString(name) { unlinkat(fd, $0, AT_REMOVEDIR) } }

    /// Creates `name` for writing: `O_CREAT | O_EXCL | O_NOFOLLOW`, so an existing entry — a
    /// file, a link — is never opened through.
    /// - Returns: the descriptor, or -1 with `errno` set.
    public func create(_ name: String, mode: mode_t = 0o644) -> Int32 {
        FileSystemPath.withCString(name) { openat(fd, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode) }
    }

    /// Writes `bytes` as the new file `name` (see ``create(_:mode:)``).
    /// - Parameter durable: `fsync` the file before closing it (a journal that must survive a
    ///   crash; not for frames, where it would cost milliseconds each).
    /// - Returns: 0, or the `errno` of the call that failed, after removing what was written.
    public func writeFile(_ bytes: [UInt8], to name: String, durable: Bool = false) -> Int32 {
        let file = create(name)
        guard file >= 0 else { return errno }
        var failure = FileSystemPath.writeAll(bytes, to: file)
        if failure == 0 && durable && fsync(file) != 0 && errno != EINVAL { failure = errno }
        if close(file) != 0 && failure == 0 && errno != EINTR { failure = errno }
        if failure != 0 { _ = unlink(name) }
        return failure
    }

    /// The bytes of the regular file `name`, not following a link (``RegularFile``).
    /// - Throws: ``FileReadError`` naming `path/name`.
    public func read(_ name: String, limit: Int) throws(FileReadError) -> [UInt8] {
        try RegularFile.read(name, limit: limit, in: fd, naming: url(name))
    }

    /// The names in the directory (not `.` and `..`), sorted by their bytes; nil with `errno` set
    /// when it cannot be listed.
    public func names() -> [String]? {
        let copy = dup(fd)
        guard copy >= 0, let dir = fdopendir(copy) else { return nil }
        defer { closedir(dir) }
        rewinddir(dir)
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { p in
                p.withMemoryRebound(to: UInt8.self, capacity: 256) {
                    FileSystemPath.string(fromBytes: UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))))
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { FileSystemPath.bytes($0).lexicographicallyPrecedes(FileSystemPath.bytes($1)) }
    }

    /// Makes what was renamed or written into the directory durable (`fsync` on it).
    public func sync() { _ = fsync(fd) }
}
