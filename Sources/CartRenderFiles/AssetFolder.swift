import CartRenderCore
import Foundation

/// The folder a scene's image and font files must come from: the scene file's folder, the
/// working directory for a scene on standard input, or the `--assets DIR` the user names
/// (docs/bad-input.md, “Image and font files”).
///
/// A file is opened component by component from the folder, each directory with
/// `openat(…, O_DIRECTORY | O_NOFOLLOW)` and the file itself with `O_NOFOLLOW`, so no symbolic
/// link is followed below the folder (the folder itself may be a link: the user chose it) and
/// nothing can be swapped in between the check and the read. A path is taken apart as the scene
/// decoder made it: absolute, with `.` and `..` already applied to its text, so `../x.png`
/// names the folder's parent and is refused as outside. With ``allowsOutside``
/// (`--allow-outside-assets`) paths are read as given, links followed, as before.
public struct AssetFolder: Equatable, Sendable {
    /// The folder (absolute path, any bytes as ``FileSystemPath`` spells them).
    public var directory: String
    /// Whether files outside the folder, and links, may be read (`--allow-outside-assets`).
    public var allowsOutside: Bool

    /// Files must lie in `directory` (made absolute against the working directory, `.` and
    /// `..` applied to its text as to the paths checked) unless `allowsOutside`.
    public init(directory: String, allowsOutside: Bool = false) {
        self.directory = "/" + Self.components(FileSystemPath.absolute(directory)).joined(separator: "/")
        self.allowsOutside = allowsOutside
    }

    /// Why a file cannot be read from the folder.
    public enum Problem: Error, Equatable, Sendable {
        /// The path does not lie in the folder (absolute elsewhere, or `..` leads out).
        case outside
        /// A component of the path (the prefix up to it, absolute) is a symbolic link.
        case link(String)
        /// The file was reached but cannot be read (missing, not regular, too large…).
        case read(FileReadError)
    }

    /// The bytes of the regular file at `path` (absolute), read as the type's summary says.
    /// - Parameter limit: the largest size accepted (bytes).
    /// - Throws: ``Problem``.
    public func read(_ path: String, limit: Int) throws(Problem) -> [UInt8] {
        if allowsOutside {
            do { return try RegularFile.read(path, limit: limit) } catch { throw .read(error) }
        }
        let (dir, name) = try open(path)
        defer { close(dir) }
        do {
            return try RegularFile.read(name, limit: limit, in: dir, naming: path)
        } catch {
            if error.problem == .unreadable(errno: ELOOP) || isLink(name, in: dir) { throw .link(path) }
            throw .read(error)
        }
    }

    /// Whether `path` (absolute) lies in the folder by its text: the prefix check of ``read``,
    /// without touching the file system.
    public func contains(_ path: String) -> Bool {
        guard let rest = Self.relativeComponents(of: path, under: directory) else { return false }
        return !rest.isEmpty
    }

    /// The components of `path` below `root`, both taken apart at `/` with `.` dropped and `..`
    /// applied; nil when `path` is not below `root`.
    static func relativeComponents(of path: String, under root: String) -> [String]? {
        let r = components(root), p = components(path)
        guard p.count >= r.count, Array(p.prefix(r.count)) == r else { return nil }
        return Array(p.dropFirst(r.count))
    }

    /// The components of the absolute `path`, `.` dropped and `..` applied (by the text: no
    /// link is followed); also the rule of CI annotation paths (`AnnotationPath`).
    package static func components(_ path: String) -> [String] {
        var out: [String] = []
        for c in path.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." { if !out.isEmpty { out.removeLast() }; continue }
            out.append(String(c))
        }
        return out
    }

    /// Opens the directory that holds `path`, component by component from the folder.
    /// - Returns: the directory's descriptor (the caller closes it) and the file's name in it.
    private func open(_ path: String) throws(Problem) -> (Int32, String) {
        guard let rest = Self.relativeComponents(of: path, under: directory), let name = rest.last else { throw .outside }
        var fd: Int32
        repeat { fd = FileSystemPath.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw .read(Self.failure(directory, errno)) }
        var walked = directory
        for component in rest.dropLast() {
            walked = (walked as NSString).appendingPathComponent(component)
            var next: Int32
            repeat {
                next = FileSystemPath.withCString(component) { openat(fd, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            } while next < 0 && errno == EINTR
            if next < 0 {
                let e = errno
                let link = isLink(component, in: fd)
                close(fd)
                if link { throw .link(walked) }
                throw .read(Self.failure(path, e))
            }
            close(fd)
            fd = next
        }
        return (fd, name)
    }

    /// Why the file at `path` (absolute) cannot be read from the folder, or nil when it is a
    /// regular file there that can be opened: the check of ``read(_:limit:)`` without reading
    /// (a FIFO is never opened).
    public func check(_ path: String) -> Problem? {
        if allowsOutside {
            var info = stat()
            guard FileSystemPath.stat(path, &info) == 0 else { return .read(Self.failure(path, errno)) }
            if let what = RegularFile.nonRegularKind(info.st_mode) { return .read(FileReadError(path: path, problem: .notRegularFile(what: what))) }
            return FileSystemPath.access(path, R_OK) == 0 ? nil : .read(Self.failure(path, errno))
        }
        let dir: Int32, name: String
        do { (dir, name) = try open(path) } catch { return error }
        defer { close(dir) }
        var info = stat()
        guard FileSystemPath.withCString(name, { fstatat(dir, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else { return .read(Self.failure(path, errno)) }
        if info.st_mode & S_IFMT == S_IFLNK { return .link(path) }
        if let what = RegularFile.nonRegularKind(info.st_mode) { return .read(FileReadError(path: path, problem: .notRegularFile(what: what))) }
        let fd = FileSystemPath.withCString(name) { openat(dir, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return .read(Self.failure(path, errno)) }
        close(fd)
        return nil
    }

    /// Opens the regular file at `path` (absolute) for reading, reached as ``read(_:limit:)``
    /// reaches it (no link followed below the folder), so that a library handed the descriptor
    /// (`/proc/self/fd/N`) loads the very file that was checked, whatever is at the name later.
    /// - Returns: the open descriptor, which the caller owns.
    /// - Throws: ``Problem``.
    public func openFile(_ path: String) throws(Problem) -> Int32 {
        var fd: Int32
        if allowsOutside {
            fd = FileSystemPath.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw .read(Self.failure(path, errno)) }
        } else {
            let (dir, name) = try open(path)
            defer { close(dir) }
            fd = FileSystemPath.withCString(name) { openat(dir, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
            guard fd >= 0 else {
                let e = errno
                if e == ELOOP || isLink(name, in: dir) { throw .link(path) }
                throw .read(Self.failure(path, e))
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { let e = errno; close(fd); throw .read(Self.failure(path, e)) }
        if let what = RegularFile.nonRegularKind(info.st_mode) {
            close(fd)
            throw .read(FileReadError(path: path, problem: .notRegularFile(what: what)))
        }
        return fd
    }

    private func isLink(_ name: String, in dir: Int32) -> Bool {
        var info = stat()
        let r = FileSystemPath.withCString(name) { fstatat(dir, $0, &info, AT_SYMLINK_NOFOLLOW) }
        return r == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    private static func failure(_ path: String, _ e: Int32) -> FileReadError {
        FileReadError(path: path, problem: e == ENOENT || e == ENOTDIR ? .missing : .unreadable(errno: e))
    }
}

extension AssetFolder.Problem {
    /// The end of a sentence that starts with "image file PATH" or "font file PATH":
    /// `is outside /s, the folder a scene's files must lie in; …`, `is reached through the
    /// symbolic link /s/l, …`, or the read problem (`does not exist`, `is larger than 64 MiB`…).
    /// - Parameters:
    ///   - folder: the folder the file had to lie in.
    ///   - notA: what the file should have been (`an image`).
    public func reason(folder: AssetFolder, notA: String) -> String {
        switch self {
        case .outside:
            return "is outside \(FileSystemPath.display(folder.directory)), the folder a scene's files must lie in; name another with --assets DIR, or allow any with --allow-outside-assets"
        case .link(let p):
            return "is reached through the symbolic link \(FileSystemPath.display(p)), which cartrender does not follow below the scene's folder; allow it with --allow-outside-assets"
        case .read(let e): return e.reason(missing: "does not exist", notA: notA)
        }
    }

    /// 66 for a file that cannot be read; 65 for one outside the folder, through a link or too large.
    public var unreadable: Bool {
        if case .read(let e) = self { return e.exitCode == .noInput }
        return false
    }
}

/// The rule of the folder for the files a scene names, as the scene decoder checks them: every
/// command that decodes a scene (render, audit, schema checks) refuses what a render refuses.
extension AssetFolder: SceneFileResolver {
    /// ``check(_:)``'s problem, as the end of an `image file PATH` sentence.
    public func imageProblem(_ path: String) -> SceneFileProblem? {
        check(path).map { SceneFileProblem(reason: $0.reason(folder: self, notA: "an image"), unreadable: $0.unreadable) }
    }

    /// ``read(_:limit:)``, its problem as the end of a `font file PATH` sentence.
    public func readFont(_ path: String, limit: Int) throws -> [UInt8] {
        do { return try read(path, limit: limit) } catch {
            throw SceneFileProblem(reason: error.reason(folder: self, notA: "a font"), unreadable: error.unreadable)
        }
    }
}
