import Foundation

/// The frame pipeline's worker pool: runs one job per item (a frame, or a run of identical
/// frames) on a few threads and returns the results in item order, so that what is printed and
/// written never depends on which thread finished first. Render, verify and diff all use it.
enum ParallelFrames {
    /// Calls `body(worker, i)` for every `i` in `0 ..< count` on `jobs` threads that each make
    /// their own worker with `makeWorker` (Pango contexts and the like are not thread-safe).
    ///
    /// - Parameters:
    ///   - ordered: called with each result in item order, from whichever thread completes the
    ///     next item, before the result is kept; it may shrink the result (drop pixels it has
    ///     consumed). Threads do not run more than `2 × jobs` items ahead of it, so at most that
    ///     many finished results wait for their turn: memory stays bounded for streaming
    ///     consumers such as the GIF encoder.
    ///   - cancellation: checked before each item; once cancelled, no new item starts.
    /// - Throws: the error of the lowest-numbered item that failed (or of a worker's set-up, or
    ///   of `ordered`); no new items start once one has failed. `RenderCancelled` when
    ///   `cancellation` was cancelled.
    static func map<Worker, Result>(
        count: Int, jobs: Int,
        makeWorker: () throws -> Worker,
        progress: ((Int, Int) -> Void)? = nil,
        cancellation: RenderCancellation? = nil,
        ordered: ((Int, inout Result) throws -> Void)? = nil,
        body: (Worker, Int) throws -> Result
    ) throws -> [Result] {
        guard count > 0 else { return [] }
        let shared = Shared<Result>(count: count)
        let threads = max(1, min(jobs, count))
        let window = 2 * threads
        func fail(_ index: Int, _ error: Error) {
            shared.condition.lock(); shared.errors.append((index, error)); shared.condition.broadcast(); shared.condition.unlock()
        }
        withoutActuallyEscaping(makeWorker) { makeWorker in
            withoutActuallyEscaping(body) { body in
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    let worker: Worker
                    do { worker = try makeWorker() } catch { return fail(-1, error) }
                    while true {
                        shared.condition.lock()
                        // Bounded look-ahead for the ordered consumer. Re-read the next item after
                        // every wait: another thread may have taken it meanwhile.
                        while ordered != nil && shared.next >= shared.delivered + window && shared.errors.isEmpty
                            && cancellation?.isCancelled != true {
                            _ = shared.condition.wait(until: Date(timeIntervalSinceNow: 0.1))
                        }
                        let slot = shared.next
                        let stop = slot >= count || !shared.errors.isEmpty || cancellation?.isCancelled == true
                        if !stop { shared.next += 1 }
                        shared.condition.broadcast()
                        shared.condition.unlock()
                        if stop { return }
                        do {
                            let result = try body(worker, slot)
                            shared.condition.lock()
                            if let ordered {
                                shared.pending[slot] = result
                                // Deliver every result whose turn has come, in order, under the lock.
                                while var next = shared.pending.removeValue(forKey: shared.delivered) {
                                    do { try ordered(shared.delivered, &next) } catch { shared.errors.append((shared.delivered, error)); break }
                                    shared.results[shared.delivered] = next
                                    shared.delivered += 1
                                }
                            } else {
                                shared.results[slot] = result
                            }
                            shared.done += 1
                            let done = shared.done
                            shared.condition.broadcast()
                            shared.condition.unlock()
                            progress?(done, count)
                        } catch {
                            return fail(slot, error)
                        }
                    }
                }
            }
        }
        if let first = shared.errors.min(by: { $0.0 < $1.0 }) { throw first.1 }
        if cancellation?.isCancelled == true { throw RenderCancelled() }
        return shared.results.map { $0! }
    }
}

/// The state the threads of ``ParallelFrames/map(count:jobs:makeWorker:progress:cancellation:ordered:body:)``
/// share, under `condition`.
private final class Shared<Result>: @unchecked Sendable {
    let condition = NSCondition()
    var next = 0
    var done = 0
    var delivered = 0
    var results: [Result?]
    var pending: [Int: Result] = [:]
    var errors: [(Int, Error)] = []
    init(count: Int) { results = Array(repeating: nil, count: count) }
}
