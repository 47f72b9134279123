import CartRenderCore
import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM during a render into a `RenderCancellation`, so that the run stops
/// between frames, removes what it wrote and exits 130 or 143 (128 + the signal number).
///
/// The signals are ignored by the process and delivered through Dispatch signal sources, so
/// the handler is ordinary Swift code on its own queue rather than an async-signal handler. A
/// second SIGINT or SIGTERM (an impatient double Ctrl-C) ends the process at once, with the
/// signal's exit status, after removing its staging directories — unless files are being moved
/// into place, which takes milliseconds and is let finish. A signal the process was started
/// with ignored (as shells start background jobs with SIGINT ignored) stays ignored.
final class InterruptWatcher: @unchecked Sendable {
    let cancellation = RenderCancellation()
    private let lock = NSLock()
    private var first: Int32?
    private var sources: [DispatchSourceSignal] = []
    private var watched: [Int32] = []
    private let queue = DispatchQueue(label: "cartrender.signals")

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
        if !isFirst && StagingArea.removeAbandoned() {
            let message = "cartrender: interrupted again by \(sig == SIGTERM ? "SIGTERM" : "SIGINT"); removed the unfinished frames and stopped at once\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            _exit(128 + sig)
        }
    }

    /// The first signal received, if any.
    var received: Int32? { lock.withLock { first } }

    /// The exit status for the signal received: 130 (SIGINT) or 143 (SIGTERM).
    var exitCode: ExitCode { received == SIGTERM ? .terminated : .interrupted }

    /// "SIGINT" or "SIGTERM".
    var signalName: String { received == SIGTERM ? "SIGTERM" : "SIGINT" }

    /// Stops watching and restores the default actions.
    func stop() {
        for s in sources { s.cancel() }
        for s in watched { signal(s, SIG_DFL) }
    }
}
