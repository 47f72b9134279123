import Foundation

/// A request to stop a render, made from any thread (the CLI makes it on SIGINT and SIGTERM).
///
/// Workers look at it between frames: a frame being drawn is finished, no new one is started,
/// and `Renderer.render` then throws `RenderCancelled` after removing everything it wrote, so
/// the output directory is as it was before the run.
public final class RenderCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    /// Asks the render to stop. Idempotent.
    public func cancel() { lock.withLock { cancelled = true } }

    public var isCancelled: Bool { lock.withLock { cancelled } }
}

/// A render stopped by `RenderCancellation`; its output directory is as it was before the run.
public struct RenderCancelled: Error, Equatable, Sendable {
    public init() {}
}
