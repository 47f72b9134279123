import CartRenderCore
import Foundation

/// The one worker pool: runs one job per item on a few threads and hands the results back in
/// item order, so that what is made does not depend on the number of threads or their timing.
/// The frame pipeline runs its runs of frames on it (``stream(count:jobs:makeWorker:cancellation:threadsNeeded:body:deliver:)``,
/// through `FrameStream`), `diff` its pairs of frame files, and the encoders their independent
/// pieces of work (the GIF images remapped to the global palette, the WebP sub-frames) with
/// ``map(count:jobs:_:)``.
///
/// The pool's lock guards only its own bookkeeping: results are handed to the consumer on the
/// calling thread after the lock is released, so a slow consumer (an animation encoder, a
/// manifest write) never holds up a worker that is drawing.
public enum WorkerPool {
    /// Processors available to this process (≥ 1).
    public static let processorCount = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Calls `body(worker, i)` for every `i` in `0 ..< count` on `min(jobs, count)` threads that
    /// each make their own worker with `makeWorker` (Pango contexts and the like are not
    /// thread-safe), and hands each result to `deliver` in item order, on the calling thread,
    /// outside the pool's lock.
    ///
    /// Items are taken in index order. Threads do not start an item more than `2 × jobs` items
    /// ahead of the last one delivered, so at most that many finished results wait for their
    /// turn: memory stays bounded whatever the speed of `deliver`.
    ///
    /// When an item fails, no new item starts, the items before it still finish and are
    /// delivered, and the error is thrown: the error of the lowest-numbered failing item (or of
    /// `deliver`) wins, whatever the thread timing.
    ///
    /// Threads the system cannot give (a memory or thread limit) are done without: fewer workers
    /// do the same items.
    ///
    /// - Parameters:
    ///   - count: items (≥ 0).
    ///   - jobs: threads asked for (≥ 1).
    ///   - cancellation: checked before each item and each delivery; once cancelled, no new item
    ///     starts and nothing more is delivered.
    ///   - threadsNeeded: what the threads are, for the `OutOfMemoryError` thrown when not one can
    ///     be started (`a drawing thread`); nil: the calling thread then does the items itself.
    /// - Throws: the error of the lowest-numbered item that failed (a worker's set-up failure
    ///   counts as item -1, the earliest), or of `deliver`; `RenderCancelled` when `cancellation`
    ///   was cancelled; `OutOfMemoryError` when no thread starts and `threadsNeeded` names them.
    public static func stream<Worker, Result>(
        count: Int, jobs: Int,
        makeWorker: @escaping () throws -> Worker,
        cancellation: RenderCancellation? = nil,
        threadsNeeded: String? = nil,
        body: @escaping (Worker, Int) throws -> Result,
        deliver: (Int, Result) throws -> Void
    ) throws {
        guard count > 0 else { return }
        if cancellation?.isCancelled == true { throw RenderCancelled() }
        let threads = max(1, min(jobs, count))
        let pool = Pool<Result>(window: 2 * threads)
        let isCancelled = { cancellation?.isCancelled == true }
        pool.started(threads)
        var started = 0
        for _ in 0..<threads {
            let ok = WorkerThread.start {
                let worker: Worker
                do { worker = try makeWorker() } catch { return pool.fail(-1, error) }
                while let slot = pool.take(count: count, isCancelled: isCancelled) {
                    do { pool.finish(slot, try body(worker, slot)) } catch { return pool.fail(slot, error) }
                }
                pool.exit()
            }
            if ok { started += 1 } else { pool.exit() }
        }
        guard started > 0 else {
            if let threadsNeeded {
                throw OutOfMemoryError(what: threadsNeeded, neededBytes: WorkerThread.stackBytes, limitBytes: MemoryBudget.addressSpaceLimit ?? 0)
            }
            let worker = try makeWorker()
            for slot in 0..<count {
                if isCancelled() { throw RenderCancelled() }
                try deliver(slot, try body(worker, slot))
            }
            return
        }
        var deliverError: (Int, Error)?
        while let (slot, result) = pool.next(count: count, isCancelled: isCancelled) {
            do { try deliver(slot, result) } catch {
                deliverError = (slot, error)
                pool.stop()
                break
            }
            pool.delivered(slot)
        }
        pool.waitForWorkers()
        if let first = pool.firstError(besides: deliverError) { throw first }
        if isCancelled() { throw RenderCancelled() }
    }

    /// Runs `body` for every item on `jobs` threads and returns the results in item order
    /// (see ``stream(count:jobs:makeWorker:cancellation:threadsNeeded:body:deliver:)``).
    /// - Throws: as ``stream(count:jobs:makeWorker:cancellation:threadsNeeded:body:deliver:)``.
    public static func map<Worker, Result>(
        count: Int, jobs: Int,
        makeWorker: @escaping () throws -> Worker,
        cancellation: RenderCancellation? = nil,
        threadsNeeded: String? = nil,
        body: @escaping (Worker, Int) throws -> Result
    ) throws -> [Result] {
        var results: [Result] = []
        results.reserveCapacity(count)
        try stream(count: count, jobs: jobs, makeWorker: makeWorker, cancellation: cancellation, threadsNeeded: threadsNeeded,
                   body: body) { _, result in
            results.append(result)
        }
        return results
    }

    /// Calls `body(thread, i)` for every `i` in `0 ..< count` on `min(jobs, count)` threads and
    /// returns the results in item order; `thread`, in `0 ..< jobs`, numbers the thread for
    /// state of its own (an encoder's per-thread buffers).
    /// - Throws: the error of the lowest-numbered item that failed; once an item has failed, no
    ///   new item starts.
    public static func map<Result>(count: Int, jobs: Int, _ body: @escaping (_ thread: Int, _ item: Int) throws -> Result) throws -> [Result] {
        let threadNumbers = ThreadNumbers()
        return try map(count: count, jobs: jobs, makeWorker: { threadNumbers.next() }, body: body)
    }
}

/// Numbers the threads of a ``WorkerPool/map(count:jobs:_:)`` from 0 as they start.
private final class ThreadNumbers: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func next() -> Int { lock.withLock { defer { count += 1 }; return count } }
}

/// The bookkeeping the pool's threads share, under `condition`.
private final class Pool<Result>: @unchecked Sendable {
    private let condition = NSCondition()
    private let window: Int
    /// Next item to start, and next item to deliver.
    private var next = 0
    private var delivering = 0
    private var pending: [Int: Result] = [:]
    private var errors: [(Int, Error)] = []
    private var running = 0

    init(window: Int) { self.window = window }

    func started(_ threads: Int) { condition.withLock { running = threads } }

    /// The next item for a worker, or nil when there is none to start (all taken, a failure,
    /// a cancellation). Waits while the worker would run more than `window` items ahead.
    func take(count: Int, isCancelled: () -> Bool) -> Int? {
        condition.lock(); defer { condition.unlock() }
        while true {
            if next >= count || !errors.isEmpty || isCancelled() { return nil }
            if next < delivering + window { break }
            // Bounded wait: a cancellation has no way to signal the condition.
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        defer { next += 1 }
        return next
    }

    func finish(_ slot: Int, _ result: Result) {
        condition.withLock { pending[slot] = result; condition.broadcast() }
    }

    func fail(_ slot: Int, _ error: Error) {
        condition.withLock { errors.append((slot, error)); running -= 1; condition.broadcast() }
    }

    /// Starts no new item (the consumer failed); items under way finish.
    func stop() { condition.withLock { errors.append((Int.max, StopRequest())); condition.broadcast() } }

    func exit() { condition.withLock { running -= 1; condition.broadcast() } }

    /// The next result in item order, once it is there; nil when everything was delivered, or
    /// when the next item will never come (it failed, was never started, or the run was
    /// cancelled). Items before a failed one are still delivered.
    func next(count: Int, isCancelled: () -> Bool) -> (Int, Result)? {
        condition.lock(); defer { condition.unlock() }
        while true {
            if delivering >= count || isCancelled() { return nil }
            if let result = pending.removeValue(forKey: delivering) { return (delivering, result) }
            // The item failed or nobody will start it: nothing more comes in order.
            if errors.contains(where: { $0.0 <= delivering }) { return nil }
            if running == 0 { return nil }
            if !errors.isEmpty && delivering >= next { return nil }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
    }

    func delivered(_ slot: Int) { condition.withLock { delivering = slot + 1; condition.broadcast() } }

    func waitForWorkers() {
        condition.withLock {
            while running > 0 { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05)) }
            pending.removeAll()
        }
    }

    /// The error of the lowest-numbered failure.
    func firstError(besides delivery: (Int, Error)?) -> Error? {
        condition.withLock { (errors.filter { !($0.1 is StopRequest) } + (delivery.map { [$0] } ?? [])).min { $0.0 < $1.0 }?.1 }
    }
}

/// Stands in the pool's error list when the consumer stopped it (its own error is thrown).
private struct StopRequest: Error {}
