import CartRenderCore
import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM during a command into a `RenderCancellation`, so that the run stops
/// between frames (or while waiting for another run's directory lock), removes what it wrote
/// and exits 130 or 143 (128 + the signal number).
///
/// Every long-running command (render, verify, diff, merge) makes one before anything else, so
/// that no signal finds the default action (which ends the process without a word). The
/// signals are ignored by the process and delivered through Dispatch signal sources, so the
/// handler is ordinary Swift code on its own queue rather than an async-signal handler.
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
    private var sources: [DispatchSourceSignal] = []
    private var watched: [Int32] = []
    private let queue = DispatchQueue(label: "cartrender.signals")
    /// How long a run may take to stop after the first signal (s).
    static let grace = 5.0

    /// Starts watching.
    init() {
        for sig in [SIGINT, SIGTERM] {
            let previous = signal(sig, SIG_IGN)
            if previous.map({ unsafeBitCast($0, to: Int.self) }) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            watched.append(sig)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { [weak self] in self?.received(sig) }
            source.resume()
            sources.append(source)
        }
    }

    private func received(_ sig: Int32) {
        let isFirst = lock.withLock { () -> Bool in
            if first == nil { first = sig; return true }
            return false
        }
        cancellation.cancel()
        let name = sig == SIGTERM ? "SIGTERM" : "SIGINT"
        if isFirst {
            queue.asyncAfter(deadline: .now() + Self.grace) { [weak self] in
                self?.endNow(sig, "interrupted by \(name) and not stopped within \(Int(Self.grace)) s")
            }
        } else {
            endNow(sig, "interrupted again by \(name)")
        }
    }

    /// Removes this process's staging directories and exits with `sig`'s status, saying `why`;
    /// while files are being moved into place, tries again in 50 ms. Nothing once `stop()` ran.
    private func endNow(_ sig: Int32, _ why: String) {
        guard !lock.withLock({ stopped }) else { return }
        guard StagingArea.removeAbandoned() else {
            queue.asyncAfter(deadline: .now() + 0.05) { [weak self] in self?.endNow(sig, why) }
            return
        }
        let message = "cartrender: \(why); removed the unfinished files and stopped at once\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        _exit(128 + sig)
    }

    /// The first signal received, if any.
    var received: Int32? { lock.withLock { first } }

    /// The exit status for the signal received: 130 (SIGINT) or 143 (SIGTERM).
    var exitCode: ExitCode { received == SIGTERM ? .terminated : .interrupted }

    /// "SIGINT" or "SIGTERM".
    var signalName: String { received == SIGTERM ? "SIGTERM" : "SIGINT" }

    /// Stops watching and restores the default actions.
    func stop() {
        lock.withLock { stopped = true }
        for s in sources { s.cancel() }
        for s in watched { signal(s, SIG_DFL) }
    }
}

/// A test hook, for tests only: makes a command pause at a named point, so that a test can send
/// a signal at a known moment. With `CARTRENDER_TEST_PAUSE=NAME:PATH` in the environment,
/// `pause("NAME")` creates the file PATH, then waits until PATH is removed (at most 60 s).
/// Points: `load-scene`, before the scene of `render` or `verify` is read. Without the variable
/// it does nothing.
enum TestHook {
    static func pause(_ point: String) {
        guard let value = ProcessInfo.processInfo.environment["CARTRENDER_TEST_PAUSE"], value.hasPrefix(point + ":") else { return }
        let path = String(value.dropFirst(point.count + 1))
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return }
        for _ in 0..<6000 where access(path, F_OK) == 0 { usleep(10_000) }
    }
}
