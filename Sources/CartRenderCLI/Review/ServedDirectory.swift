import CartRender
import CartRenderCore
import Foundation

/// A directory whose regular files `cartrender review` serves (the report, the baseline), by path
/// segments below it, so that no symbolic link leads a request anywhere else.
///
/// - The directory's path is resolved once, when the review starts (`realpath`): a report or
///   baseline below a linked directory (`snaps -> /data/snaps`) is served.
/// - A request is walked segment by segment from that directory: every segment is looked at
///   with `fstatat(AT_SYMLINK_NOFOLLOW)` and opened with `openat(O_NOFOLLOW)` (`O_DIRECTORY` for
///   all but the last) relative to the one before, so a symbolic link on any segment, first,
///   middle or last, is refused; one swapped in between the look and the open fails the open
///   (`ELOOP`) and is refused as well.
/// - The path must then resolve (`realpath`) to itself, the directory's path followed by the
///   segments, which lies inside the directory: otherwise (a segment swapped for a link since)
///   it is refused too.
/// - The file is read with ``RegularFile`` relative to its directory's descriptor (`O_NOFOLLOW`,
///   `O_NONBLOCK`, so a FIFO swapped in is not waited on), and only when `fstat` calls it a
///   regular file.
struct ServedDirectory {
    /// The directory's real path: absolute, without `.`, `..` or symbolic links.
    let root: String

    /// The directory at `path` (absolute or relative to the working directory); nil when it
    /// cannot be resolved (it does not exist, or a component cannot be searched).
    init?(_ path: String) {
        guard let resolved = realpath(path, nil) else { return nil }
        root = String(cString: resolved)
        free(resolved)
    }

    /// What a look-up found.
    enum Lookup: Equatable {
        /// The bytes of the regular file named.
        case file([UInt8])
        /// A segment is a symbolic link, or the file resolves outside the directory: 403.
        case refused
        /// No such file, a segment that is not a directory, not a regular file, unreadable, or
        /// larger than the limit: 404.
        case missing
    }

    /// The regular file at `segments` below the directory.
    /// - Parameters:
    ///   - segments: path components, at least one; one that is empty, `.` or `..`, or holds a
    ///     `/` or NUL byte, is refused.
    ///   - limit: the largest file read (bytes).
    func read(_ segments: [String], limit: Int) -> Lookup {
        guard let last = segments.last, !segments.contains(where: { [".", "..", ""].contains($0) || $0.utf8.contains(UInt8(ascii: "/")) || $0.utf8.contains(0) }) else {
            return .refused
        }
        guard var directory = DirectoryHandle(path: root) else { return .missing }
        for (i, name) in segments.enumerated() {
            guard let info = directory.info(name) else { return .missing }
            guard info.st_mode & S_IFMT != S_IFLNK else { return .refused }
            guard info.st_mode & S_IFMT == (i == segments.count - 1 ? S_IFREG : S_IFDIR) else { return .missing }
            if i == segments.count - 1 { break }
            // A link swapped in since the look fails the open (`O_NOFOLLOW`).
            guard let next = DirectoryHandle(name, in: directory) else { return errno == ELOOP ? .refused : .missing }
            directory = next
        }
        let path = (root == "/" ? "" : root) + "/" + segments.joined(separator: "/")
        guard let real = realpath(path, nil) else { return .missing }
        let resolved = String(cString: real)
        free(real)
        guard resolved == path else { return .refused }
        // The one file reader: not through a link, a regular file only, at most `limit` bytes.
        do { return .file(try directory.read(last, limit: limit)) } catch {
            return error.problem == .unreadable(errno: ELOOP) ? .refused : .missing
        }
    }
}
