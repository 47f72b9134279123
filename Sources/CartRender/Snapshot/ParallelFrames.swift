import Foundation

/// Runs one job per frame on a few threads and returns the results in frame order, so that what
/// is printed and written never depends on which thread finished first.
enum ParallelFrames {
    /// Calls `body(worker, i)` for every `i` in `0 ..< count`, on `jobs` threads that each make
    /// their own worker with `makeWorker` (Pango contexts and the like are not thread-safe).
    /// Only the workers' results are kept: a frame's pixels are dropped when its body returns.
    ///
    /// - Throws: the error of the lowest-numbered frame that failed (or of a worker's set-up);
    ///   no new frames are started once one has failed. `RenderCancelled` when `cancellation`
    ///   was cancelled: no new frames are started after that either.
    static func map<Worker, Result>(
        count: Int, jobs: Int,
        makeWorker: () throws -> Worker,
        progress: ((Int, Int) -> Void)? = nil,
        cancellation: RenderCancellation? = nil,
        body: (Worker, Int) throws -> Result
    ) throws -> [Result] {
        guard count > 0 else { return [] }
        let shared = SharedProgress<Result>(count: count)
        let threads = max(1, min(jobs, count))
        withoutActuallyEscaping(makeWorker) { makeWorker in
            withoutActuallyEscaping(body) { body in
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    let worker: Worker
                    do { worker = try makeWorker() } catch {
                        shared.lock.lock(); shared.errors.append((-1, error)); shared.lock.unlock()
                        return
                    }
                    while true {
                        shared.lock.lock()
                        let slot = shared.next
                        shared.next += 1
                        let stop = slot >= count || !shared.errors.isEmpty || cancellation?.isCancelled == true
                        shared.lock.unlock()
                        if stop { return }
                        do {
                            let result = try body(worker, slot)
                            shared.lock.lock()
                            shared.results[slot] = result
                            shared.done += 1
                            let done = shared.done
                            shared.lock.unlock()
                            progress?(done, count)
                        } catch {
                            shared.lock.lock(); shared.errors.append((slot, error)); shared.lock.unlock()
                            return
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

/// The state the threads of ``ParallelFrames/map(count:jobs:makeWorker:progress:body:)`` share, under `lock`.
private final class SharedProgress<Result>: @unchecked Sendable {
    let lock = NSLock()
    var next = 0
    var done = 0
    var results: [Result?]
    var errors: [(Int, Error)] = []
    init(count: Int) { results = Array(repeating: nil, count: count) }
}

/// Byte equality through `memcmp`.
@inline(__always)
func bytesEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in
        a.isEmpty || memcmp(pa.baseAddress!, pb.baseAddress!, a.count) == 0
    } }
}
