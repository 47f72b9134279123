import Foundation

/// One thread of its own that runs the work handed to it in the order it was handed, while the
/// caller goes on (an encoder's side work, such as counting colors, beside its main work).
/// The thread has an 8 MiB stack (libimagequant keeps large arrays on the stack in places),
/// starts with the first work handed to it and ends once this object is gone and its work is
/// done. Not for use from several threads at once.
final class SerialThread {
    private final class State: @unchecked Sendable {
        let condition = NSCondition()
        var pending: [() throws -> Void] = []
        var running = false
        var stopping = false
        /// The first error thrown by any work; work after it is skipped.
        var failure: Error?

        func loop() {
            while true {
                let work: (() throws -> Void)? = condition.withLock {
                    while pending.isEmpty && !stopping { condition.wait() }
                    guard !pending.isEmpty else { return nil }
                    running = true
                    let next = pending.removeFirst()
                    return failure == nil ? next : {}
                }
                guard let work else { return }
                var error: Error?
                do { try work() } catch let e { error = e }
                condition.withLock {
                    if failure == nil { failure = error }
                    running = false
                    condition.broadcast()
                }
            }
        }
    }

    private let state = State()
    private var started = false
    /// Set when no thread could be started: work runs on the caller's thread.
    private var inline = false

    deinit {
        state.condition.withLock {
            state.stopping = true
            state.condition.broadcast()
        }
    }

    /// Runs `work` on the thread after the work handed before it.
    func async(_ work: @escaping () throws -> Void) {
        state.condition.withLock {
            state.pending.append(work)
            state.condition.broadcast()
        }
        if !started {
            started = true
            // Without a thread of its own (a memory or thread limit), the work runs on the caller's.
            if !WorkerThread.start({ [state] in state.loop() }) { inline = true }
        }
        if inline {
            state.condition.withLock { state.stopping = true }
            state.loop()
        }
    }

    /// Waits until all work handed so far has run.
    /// - Throws: the first error any of it threw (reported once; work handed after it was skipped).
    func wait() throws {
        let error: Error? = state.condition.withLock {
            while !state.pending.isEmpty || state.running { state.condition.wait() }
            defer { state.failure = nil }
            return state.failure
        }
        if let error { throw error }
    }
}
