import CartRender
import CartRenderCore
import Foundation

/// Tells `cartrender preview` when one of a set of files changed, through inotify(7): no polling,
/// so a preview where nothing changes sleeps in `poll(2)`.
///
/// - It watches the directories that hold the files, not the files' inodes: an editor that
///   saves by writing a temporary file and renaming it over the old one (vim, most IDEs) puts a
///   new inode at the name, which a watch on the old inode would never see. Events in a
///   directory count only for the names watched there: a close after writing, a rename to or
///   from the name, its creation, removal or change of attributes.
/// - ``wait(until:debounce:)`` returns once events stopped arriving for `debounce` seconds after
///   the first one, so a burst (a save that truncates, writes and renames, or several files
///   saved together) is one change.
/// - ``watch(_:)`` replaces the set (the scene names other images after a save); directories no
///   longer needed are unwatched.
final class FileWatcher {
    private let fd: Int32
    /// Watch descriptor → directory, and directory → the names watched in it.
    private var directories: [Int32: String] = [:]
    private var names: [String: Set<String>] = [:]

    /// An inotify instance with nothing watched.
    /// - Throws: ``FileWatchError`` when the kernel gives no instance (the per-user limit).
    init() throws {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw FileWatchError(path: nil, errno: errno) }
    }

    deinit { close(fd) }

    /// The events that count for a watched name.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)

    /// Watches exactly the files at `paths` (absolute): their directories, for their names.
    /// - Throws: ``FileWatchError`` naming a directory that cannot be watched (missing,
    ///   unreadable, or the per-user watch limit reached).
    func watch(_ paths: [String]) throws {
        var wanted: [String: Set<String>] = [:]
        for path in paths {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            wanted[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        for (wd, directory) in directories where wanted[directory] == nil {
            inotify_rm_watch(fd, wd)
            directories[wd] = nil
        }
        for directory in wanted.keys where !directories.values.contains(directory) {
            let wd = inotify_add_watch(fd, directory, Self.mask | UInt32(IN_ONLYDIR))
            guard wd >= 0 else { throw FileWatchError(path: directory, errno: errno) }
            directories[wd] = directory
        }
        names = wanted
    }

    /// The directories watched, sorted (for tests and messages).
    var watchedDirectories: [String] { directories.values.sorted() }

    /// Sleeps until a watched file changed and then `debounce` s passed without another event,
    /// or until `stop` returns true (asked every `check` s while nothing happens).
    /// - Returns: the paths that changed, sorted; empty when stopped.
    func wait(until stop: () -> Bool, debounce: Double = 0.1, check: Double = 0.25) -> [String] {
        var changed: Set<String> = []
        while !stop() {
            let timeout = changed.isEmpty ? check : debounce
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(timeout * 1000))
            if ready > 0 {
                changed.formUnion(read())
            } else if ready == 0 && !changed.isEmpty {
                return changed.sorted()
            }
        }
        return []
    }

    /// Whether an event is waiting to be read (a save during a render): never blocks.
    var hasPending: Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    /// Reads every queued event; the watched paths they name.
    private func read() -> Set<String> {
        var changed: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let (wd, length) = buffer.withUnsafeBytes { raw -> (Int32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, Int(event.len))
                }
                let nameBytes = buffer[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if let directory = directories[wd], names[directory]?.contains(name) == true {
                    changed.insert(directory == "/" ? "/" + name : directory + "/" + name)
                }
                offset += header + length
            }
        }
        return changed
    }
}

/// A directory `cartrender preview` cannot watch (exit 70: the system refuses, or 66 for a
/// directory that is missing or unreadable).
struct FileWatchError: ReportableError, CustomStringConvertible {
    /// The directory; nil when inotify itself is unavailable.
    var path: String?
    var errno: Int32
    var description: String {
        let reason = OutputDirectory.describe(errno)
        guard let path else { return "internal error: preview cannot watch files (inotify_init1: \(reason))" }
        if errno == ENOSPC { return "preview cannot watch \(FileSystemPath.display(path)): the limit of inotify watches is reached (sysctl fs.inotify.max_user_watches)" }
        return "preview cannot watch \(FileSystemPath.display(path)) (\(reason))"
    }
    var exitCode: ExitCode { path != nil && (errno == ENOENT || errno == EACCES || errno == ENOTDIR) ? .noInput : .software }
}
