import CartRender
import CartRenderCore
import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM during a command into a `RenderCancellation`, so that the run stops
/// between frames (or while waiting for another run's directory lock), removes what it wrote
/// and exits 130 or 143 (128 + the signal number).
///
/// Every long-running command (render, verify, diff, merge) makes one before anything else, so
/// that no signal finds the default action (which ends the process without a word). The
/// process's handler only writes the signal's number to a pipe (``SignalRelay``); a Dispatch
/// read source on the other end hands it to every live watcher, so the watcher's work is
/// ordinary Swift code on its own queue rather than an async-signal handler. (Dispatch signal
/// sources lose signals: on Linux they block the signal in some threads only, and a thread that
/// does not block it takes the signal and drops it as ignored.)
///
/// The first signal asks the run to stop. A run that has not ended `grace` seconds later (a
/// frame that takes long, a read that blocks) is ended then, as by a second SIGINT or SIGTERM
/// (an impatient double Ctrl-C): its staging directories are removed and the process exits at
/// once with the signal's status — unless files are being moved into place, which takes
/// milliseconds and is let finish. A signal the process was started with ignored (as shells
/// start background jobs with SIGINT ignored) stays ignored.
final class InterruptWatcher: @unchecked Sendable {
    let cancellation = RenderCancellation()
    private let lock = NSLock()
    private var first: Int32?
    private var stopped = false
    private var watched: [Int32] = []
    private let queue = DispatchQueue(label: "cartrender.signals")
    /// How long a run may take to stop after the first signal (s).
    static let grace = 5.0
    /// What the process is doing while this watcher ends it at the first signal
    /// (``endingAtOnce(while:_:)``), or nil for a watcher that asks the run to stop.
    private let activity: String?

    /// Starts watching.
    /// - Parameter activity: for ``endingAtOnce(while:_:)``.
    init(endingAtOnceWhile activity: String? = nil) {
        self.activity = activity
        for sig in [SIGINT, SIGTERM] {
            if SignalRelay.startedIgnored(sig) { continue }
            watched.append(sig)
        }
        SignalRelay.add(self, signals: watched)
    }

    /// Called by ``SignalRelay`` on its queue for each signal received.
    fileprivate func deliver(_ sig: Int32) { queue.async { self.received(sig) } }

    /// The first SIGINT or SIGTERM any watcher of this process has received, if any.
    static let firstReceived = LockedValue<Int32?>(nil)

    private func received(_ sig: Int32) {
        Self.firstReceived.withLock { if $0 == nil { $0 = sig } }
        let isFirst = lock.withLock { () -> Bool in
            if first == nil { first = sig; return true }
            return false
        }
        cancellation.cancel()
        let name = Self.name(sig)
        if let activity {
            endNow(sig, "interrupted by \(name) while \(activity); nothing was written")
        } else if isFirst {
            queue.asyncAfter(deadline: .now() + Self.grace) { [weak self] in
                self?.endNow(sig, "interrupted by \(name) and not stopped within \(Int(Self.grace)) s; removed the unfinished files and stopped at once")
            }
        } else {
            endNow(sig, "interrupted again by \(name); removed the unfinished files and stopped at once")
        }
    }

    /// Removes this process's staging directories and exits with `sig`'s status, saying
    /// `sentence` on stderr; while files are being moved into place, tries again in 50 ms.
    /// Nothing once `stop()` ran.
    private func endNow(_ sig: Int32, _ sentence: String) {
        guard !lock.withLock({ stopped }) else { return }
        guard StagingArea.removeAbandoned() else {
            queue.asyncAfter(deadline: .now() + 0.05) { [weak self] in self?.endNow(sig, sentence) }
            return
        }
        let message = "cartrender: \(sentence)\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        _exit(128 + sig)
    }

    /// Runs `body`, a read that may block for as long as its writer likes (the scene from
    /// standard input), so that SIGINT or SIGTERM during it ends the process at once with one
    /// sentence — `cartrender: interrupted by SIGTERM while ACTIVITY; nothing was written` — and
    /// exit 130 or 143, as a signal at any other moment does. A signal that came before (to the
    /// command's own watcher) ends it the same way, before the read starts. Only for what comes
    /// before anything is written, as the sentence says.
    /// - Parameter activity: what the process is doing, in the sentence (`reading the scene from
    ///   standard input`).
    static func endingAtOnce<T>(while activity: String, _ body: () throws -> T) rethrows -> T {
        let watcher = InterruptWatcher(endingAtOnceWhile: activity)
        defer { watcher.stop() }
        if let sig = firstReceived.withLock({ $0 }) { watcher.received(sig) }
        return try body()
    }

    /// "SIGINT" or "SIGTERM".
    private static func name(_ sig: Int32) -> String { sig == SIGTERM ? "SIGTERM" : "SIGINT" }

    /// The first signal received, if any.
    var received: Int32? { lock.withLock { first } }

    /// The exit status for the signal received: 130 (SIGINT) or 143 (SIGTERM).
    var exitCode: ExitCode { received == SIGTERM ? .terminated : .interrupted }

    /// "SIGINT" or "SIGTERM".
    var signalName: String { Self.name(received ?? SIGINT) }

    /// Runs `body`; a ``RenderCancelled`` it throws is thrown on with the signal received and
    /// `activity`, so that its sentence says what was interrupted and what was left.
    /// - Parameter cleanUp: runs before the cancellation is thrown on (a progress bar to end).
    func during<T>(_ activity: RenderCancelled.Activity, cleanUp: () -> Void = {}, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let cancelled as RenderCancelled {
            cleanUp()
            throw cancelled.interrupted(by: received ?? SIGINT, while: activity)
        }
    }

    /// Throws the ``RenderCancelled`` of `activity` when a signal was received.
    func checkNotInterrupted(while activity: RenderCancelled.Activity) throws {
        if let received { throw RenderCancelled().interrupted(by: received, while: activity) }
    }

    /// Stops watching and restores the default actions.
    func stop() {
        lock.withLock { stopped = true }
        SignalRelay.remove(self)
    }
}

/// SIGINT and SIGTERM for the whole process: an async-signal-safe handler writes the signal's
/// number to a pipe, and one Dispatch read source passes each to the live ``InterruptWatcher``s.
/// The handler is installed while any watcher lives; the default actions come back after the
/// last one stops.
private enum SignalRelay {
    private struct State {
        var watchers: [InterruptWatcher] = []
        var installed: Set<Int32> = []
        var source: DispatchSourceRead?
    }
    private static let state = LockedValue(State())
    private static let queue = DispatchQueue(label: "cartrender.signal-relay")

    /// Whether `sig` was ignored when the process started (shells start background jobs with
    /// SIGINT ignored); such a signal stays ignored.
    static func startedIgnored(_ sig: Int32) -> Bool {
        var current = sigaction()
        sigaction(sig, nil, &current)
        return current.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) } == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    static func add(_ watcher: InterruptWatcher, signals: [Int32]) {
        state.withLock { s in
            s.watchers.append(watcher)
            if s.source == nil, signalPipeWrite >= 0 {
                let source = DispatchSource.makeReadSource(fileDescriptor: signalPipeRead, queue: queue)
                source.setEventHandler { relay() }
                source.resume()
                s.source = source
            }
            for sig in signals where !s.installed.contains(sig) {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = signalToPipe
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                sigaction(sig, &action, nil)
                s.installed.insert(sig)
            }
        }
    }

    static func remove(_ watcher: InterruptWatcher) {
        state.withLock { s in
            s.watchers.removeAll { $0 === watcher }
            guard s.watchers.isEmpty else { return }
            for sig in s.installed { signal(sig, SIG_DFL) }
            s.installed = []
        }
    }

    /// Reads the signals the handler wrote and delivers each to every watcher.
    private static func relay() {
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = read(signalPipeRead, &bytes, bytes.count)
        guard n > 0 else { return }
        let watchers = state.withLock { $0.watchers }
        for sig in bytes[..<n] {
            for w in watchers { w.deliver(Int32(sig)) }
        }
    }
}

/// The pipe from the signal handler to ``SignalRelay`` (close-on-exec; the write end does not
/// block, so a flood of signals drops bytes rather than blocking the handler). Made before any
/// handler is installed; -1 when it cannot be made (no relay then: the signals keep their
/// default actions).
private let signalPipeRead: Int32 = signalPipe.0
private let signalPipeWrite: Int32 = signalPipe.1
private let signalPipe: (Int32, Int32) = {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return (-1, -1) }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
    _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
    return (fds[0], fds[1])
}()

/// The signal handler: one `write(2)`, which is async-signal-safe.
private let signalToPipe: @convention(c) (Int32) -> Void = { sig in
    var byte = UInt8(truncatingIfNeeded: sig)
    _ = write(signalPipeWrite, &byte, 1)
}

/// A test hook, for tests only: makes a command pause at a named point, so that a test can send
/// a signal at a known moment. With `CARTRENDER_TEST_PAUSE=NAME:PATH` in the environment,
/// `pause("NAME")` creates the file PATH, then waits until PATH is removed (at most 60 s). A
/// test that has sent a signal writes `after-signal` into PATH instead: the pause then ends (and
/// removes PATH) once the process's ``InterruptWatcher`` has received the signal, however long
/// its delivery takes on a loaded machine. Points: `load-scene`, before the scene of `render`
/// or `verify` is read. Without the variable it does nothing.
///
/// Compiled only with `CARTRENDER_TEST_HOOKS`, which Package.swift defines for debug builds (the
/// binary the tests run): in a release build `pause` does nothing, so no environment variable
/// can make the shipped binary create a file or wait.
enum TestHook {
    static func pause(_ point: String) {
        #if CARTRENDER_TEST_HOOKS
        guard let value = ProcessInfo.processInfo.environment["CARTRENDER_TEST_PAUSE"], value.hasPrefix(point + ":") else { return }
        let path = String(value.dropFirst(point.count + 1))
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return }
        for _ in 0..<6000 where access(path, F_OK) == 0 {
            if InterruptWatcher.firstReceived.withLock({ $0 }) != nil, (try? String(contentsOfFile: path, encoding: .utf8)) == "after-signal" {
                unlink(path)
                return
            }
            usleep(10_000)
        }
        #endif
    }
}
