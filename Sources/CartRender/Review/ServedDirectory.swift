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
/// - The file is read from the descriptor opened (`O_NONBLOCK`, so a FIFO swapped in is not
///   waited on), and only when `fstat` calls it a regular file.
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
        guard !segments.isEmpty, !segments.contains(where: { [".", "..", ""].contains($0) || $0.utf8.contains(UInt8(ascii: "/")) || $0.utf8.contains(0) }) else {
            return .refused
        }
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return errno == ELOOP ? .refused : .missing }
        for (i, name) in segments.enumerated() {
            let last = i == segments.count - 1
            var info = stat()
            let kind = fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info.st_mode & S_IFMT : 0
            guard kind != S_IFLNK else { close(fd); return .refused }
            guard kind == (last ? S_IFREG : S_IFDIR) else { close(fd); return .missing }
            let flags = last ? O_RDONLY | O_NONBLOCK : O_RDONLY | O_DIRECTORY
            let next = openat(fd, name, flags | O_NOFOLLOW | O_CLOEXEC)
            close(fd)
            guard next >= 0 else { return errno == ELOOP ? .refused : .missing }
            fd = next
        }
        let file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let path = (root == "/" ? "" : root) + "/" + segments.joined(separator: "/")
        guard let real = realpath(path, nil) else { return .missing }
        let resolved = String(cString: real)
        free(real)
        guard resolved == path else { return .refused }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= limit,
              let data = try? file.readToEnd() ?? Data(), data.count <= limit else { return .missing }
        return .file(Array(data))
    }
}
