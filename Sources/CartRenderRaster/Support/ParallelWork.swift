import Foundation

/// Independent pieces of an encoder's work (the GIF images remapped to the global palette, the
/// WebP sub-frames) on a few threads. Results come back in item order, so what an encoder
/// writes does not depend on the number of threads or on their timing.
enum ParallelWork {
    /// Processors available to this process (≥ 1).
    static let processorCount = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Calls `body(thread, i)` for every `i` in `0 ..< count` on `min(jobs, count)` threads (the
    /// calling thread is thread 0; `thread` is in `0 ..< jobs`, for per-thread state) and
    /// returns the results in item order. Items are taken in index order.
    ///
    /// - Throws: the error of the lowest-numbered item that failed; once an item has failed, no
    ///   new item starts.
    static func map<Result>(count: Int, jobs: Int, _ body: @escaping (_ thread: Int, _ item: Int) throws -> Result) throws -> [Result] {
        guard count > 0 else { return [] }
        let threads = max(1, min(jobs, count))
        if threads == 1 { return try (0..<count).map { try body(0, $0) } }
        let state = SharedState<Result>(count: count)
        let finished = DispatchGroup()
        // A thread the system cannot give (a memory or thread limit) is done without: the
        // others, and the calling thread, take its items.
        for thread in 1..<threads {
            finished.enter()
            if !WorkerThread.start({ state.run(thread: thread, body); finished.leave() }) { finished.leave() }
        }
        state.run(thread: 0, body)
        finished.wait()
        return try state.results()
    }

    private final class SharedState<Result>: @unchecked Sendable {
        private let lock = NSLock()
        private let count: Int
        private var next = 0
        private var slots: [Result?]
        private var failure: (item: Int, error: Error)?

        init(count: Int) {
            self.count = count
            slots = Array(repeating: nil, count: count)
        }

        func run(thread: Int, _ body: (Int, Int) throws -> Result) {
            while true {
                let item: Int? = lock.withLock {
                    guard next < count, failure == nil else { return nil }
                    defer { next += 1 }
                    return next
                }
                guard let item else { return }
                do {
                    let result = try body(thread, item)
                    lock.withLock { slots[item] = result }
                } catch {
                    lock.withLock { if failure.map({ item < $0.item }) ?? true { failure = (item, error) } }
                }
            }
        }

        func results() throws -> [Result] {
            if let failure { throw failure.error }
            return slots.map { $0! }
        }
    }
}
