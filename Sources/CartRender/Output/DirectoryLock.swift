import CartRenderCore
import Foundation

/// The lock runs of cartrender take on a directory whose files they move or read as a whole:
/// `flock(2)` on the directory itself, so it is released when the process ends however it ends.
///
/// - Exclusive while files are moved into the directory (`StagingArea`'s commit) and for the
///   whole of a `verify` that may record into it.
/// - Shared while `verify` only reads a baseline: several verifies read at once, and none sees a
///   render's frames half moved in.
///
/// Waiting for it polls every 10 ms and stops when the run's `RenderCancellation` is cancelled
/// (SIGINT, SIGTERM), so a run waiting for another run's lock stops on the first signal.
package final class DirectoryLock {
    enum Mode { case shared, exclusive }

    let path: String
    let mode: Mode
    private var fd: Int32

    /// Opens the directory at `path` and waits until the lock is held.
    /// - Parameters:
    ///   - cancellation: stops the wait.
    ///   - cannotOpen: the error for the `errno` of a failed `open` (the directory is missing
    ///     or cannot be read).
    /// - Throws: `RenderCancelled` when `cancellation` was cancelled while waiting; what
    ///   `cannotOpen` returns.
    init(_ path: String, _ mode: Mode, cancellation: RenderCancellation?, cannotOpen: (Int32) -> Error) throws {
        self.path = path
        self.mode = mode
        fd = FileSystemPath.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw cannotOpen(errno) }
        while flock(fd, (mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { break }
            if cancellation?.isCancelled == true {
                release()
                throw RenderCancelled()
            }
            usleep(10_000)
        }
    }

    /// The exclusive lock on the directory at `path` when it can be taken at once; nil when
    /// another run (or another descriptor of this process) holds a lock on it, or it cannot be
    /// opened. For a recovery that must not wait on another folder while holding its own.
    init?(exclusiveIfFree path: String) {
        self.path = path
        mode = .exclusive
        fd = FileSystemPath.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var r: Int32
        repeat { r = flock(fd, LOCK_EX | LOCK_NB) } while r != 0 && errno == EINTR
        guard r == 0 else {
            close(fd)
            fd = -1
            return nil
        }
    }

    /// Releases the lock (also when the value goes away). Idempotent.
    func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }

    /// Whether `a` and `b` (links followed) name the same file or directory (the same device and inode).
    package static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        return FileSystemPath.stat(a, &x) == 0 && FileSystemPath.stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }
}
