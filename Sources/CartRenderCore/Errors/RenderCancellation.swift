import Foundation

/// A request to stop a render, made from any thread (the CLI makes it on SIGINT and SIGTERM).
///
/// Workers look at it between frames: a frame being drawn is finished, no new one is started,
/// and `Renderer.render` then throws ``RenderCancelled`` after removing everything it wrote, so
/// the output directory is as it was before the run.
public final class RenderCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    /// A request not made yet.
    public init() {}

    /// Asks the render to stop. Idempotent.
    public func cancel() { lock.withLock { cancelled = true } }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { lock.withLock { cancelled } }
}

/// A run stopped by a ``RenderCancellation`` (SIGINT or SIGTERM): what it was doing and what it
/// left, as the one sentence the command line prints, and exit 130 or 143 (128 + the signal's
/// number; docs/command-line.md, “Exit status and error messages”).
///
/// Thrown without context where the run stops (the frame loop, a staging area waiting for a
/// lock); the command that ran it gives it the signal and what was interrupted
/// (``interrupted(by:while:)``) before it reaches the command line.
public struct RenderCancelled: ReportableError, Equatable, Sendable {
    /// What was interrupted, and so what the sentence says was left.
    public enum Activity: Equatable, Sendable {
        /// A render; the frames are removed, `outputDirectory` is as it was before.
        case render(outputDirectory: String)
        /// A render whose finished frames were being moved into place: `outputDirectory` is complete.
        case renderMovingIntoPlace(outputDirectory: String)
        /// `merge`; the merged files are removed, `out` is as it was before.
        case merge(out: String)
        /// `verify`; no report written, `baseline` as it was before.
        case verify(baseline: String)
        /// `diff` of two directories; no report written, the diff directory (if any) as it was before.
        case diffDirectories(out: String?)
        /// `diff` of two files; nothing written.
        case diffFiles
        /// `audit`.
        case audit
    }

    /// The signal that stopped the run (`SIGINT` or `SIGTERM`).
    public var signal: Int32
    /// What was interrupted; nil until the command says.
    public var activity: Activity?

    /// A cancellation by SIGINT, of a run not named yet.
    public init() {
        signal = SIGINT
        activity = nil
    }

    /// This cancellation, by `signal`, of `activity`.
    public func interrupted(by signal: Int32, while activity: Activity) -> RenderCancelled {
        var c = self
        c.signal = signal
        c.activity = activity
        return c
    }

    /// 130 for SIGINT, 143 for SIGTERM.
    public var exitCode: ExitCode { signal == SIGTERM ? .terminated : .interrupted }

    /// "SIGINT" or "SIGTERM".
    public var signalName: String { signal == SIGTERM ? "SIGTERM" : "SIGINT" }

    /// `interrupted by SIGINT; removed the unfinished frames, frames is as it was before`, and so on
    /// for each ``Activity``.
    public var sentence: String {
        switch activity {
        case let .render(dir)?:
            return "interrupted by \(signalName); removed the unfinished frames, \(dir) is as it was before"
        case let .renderMovingIntoPlace(dir)?:
            return "interrupted by \(signalName) while moving the finished frames into place; \(dir) is complete"
        case let .merge(out)?:
            return "merge interrupted by \(signalName); removed the unfinished files, \(out) is as it was before"
        case let .verify(baseline)?:
            return "verify interrupted by \(signalName); no report written, \(baseline) is as it was before"
        case let .diffDirectories(out)?:
            return "diff interrupted by \(signalName); no report written" + (out.map { ", \($0) is as it was before" } ?? "")
        case .diffFiles?:
            return "diff interrupted by \(signalName); nothing written"
        case .audit?:
            return "audit interrupted by \(signalName)"
        case nil:
            return "interrupted by \(signalName)"
        }
    }

    /// Equal when the signal and the activity are.
    public static func == (a: RenderCancelled, b: RenderCancelled) -> Bool { a.signal == b.signal && a.activity == b.activity }
}
