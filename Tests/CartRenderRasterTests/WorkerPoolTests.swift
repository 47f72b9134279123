import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// ``WorkerPool``: results in item order whatever the threads, the lowest-numbered failure
/// wins, a cancellation stops it, each thread makes one worker.
final class WorkerPoolTests: XCTestCase {
    private struct Failure: Error, Equatable { var item: Int }

    func testResultsComeInItemOrderForAnyNumberOfThreads() throws {
        for jobs in [1, 2, 3, 8] {
            let squares = try WorkerPool.map(count: 50, jobs: jobs) { _, i -> Int in
                if i % 7 == 0 { usleep(2_000) }  // later items finish first
                return i * i
            }
            XCTAssertEqual(squares, (0..<50).map { $0 * $0 }, "jobs \(jobs)")
        }
        XCTAssertEqual(try WorkerPool.map(count: 0, jobs: 4) { _, i in i }, [])
    }

    /// Thread numbers are in `0 ..< min(jobs, count)`; each thread makes one worker.
    func testEachThreadHasItsNumberAndOneWorker() throws {
        let threads = try WorkerPool.map(count: 40, jobs: 3) { thread, _ -> Int in usleep(500); return thread }
        XCTAssertTrue(Set(threads).isSubset(of: [0, 1, 2]), "\(Set(threads))")
        let made = LockedCounter()
        _ = try WorkerPool.map(count: 40, jobs: 4, makeWorker: { made.add() }, body: { worker, i in (worker, i) })
        XCTAssertLessThanOrEqual(made.value, 4)
        XCTAssertGreaterThanOrEqual(made.value, 1)
    }

    /// Of several failing items, the lowest-numbered one's error is thrown, and the items before
    /// it were all delivered in order.
    func testTheLowestNumberedFailureWins() {
        for jobs in [1, 4] {
            var delivered: [Int] = []
            XCTAssertThrowsError(try WorkerPool.stream(count: 30, jobs: jobs, makeWorker: { () }, body: { _, i -> Int in
                if i == 9 { usleep(5_000) }
                if i == 9 || i == 12 { throw Failure(item: i) }
                return i
            }, deliver: { _, r in delivered.append(r) })) { error in
                XCTAssertEqual(error as? Failure, Failure(item: 9), "jobs \(jobs)")
            }
            XCTAssertEqual(delivered, Array(0..<9), "jobs \(jobs)")
        }
    }

    /// A failure of `deliver` stops the pool and is what it throws.
    func testAFailingDeliveryIsThrown() {
        XCTAssertThrowsError(try WorkerPool.stream(count: 100, jobs: 2, makeWorker: { () }, body: { _, i in i },
                                                   deliver: { _, r in if r == 5 { throw Failure(item: 5) } })) { error in
            XCTAssertEqual(error as? Failure, Failure(item: 5))
        }
    }

    func testACancelledPoolThrowsRenderCancelled() {
        let cancellation = RenderCancellation()
        var delivered = 0
        XCTAssertThrowsError(try WorkerPool.stream(count: 1000, jobs: 2, makeWorker: { () }, cancellation: cancellation,
                                                   body: { _, i in i }, deliver: { _, _ in
            delivered += 1
            if delivered == 10 { cancellation.cancel() }
        })) { error in
            XCTAssertEqual(error as? RenderCancelled, RenderCancelled())
            XCTAssertEqual((error as? RenderCancelled)?.exitCode, .interrupted)
        }
        XCTAssertLessThan(delivered, 1000)
        cancellation.cancel()
        XCTAssertThrowsError(try WorkerPool.map(count: 3, jobs: 1, makeWorker: { () }, cancellation: cancellation) { _, i in i })
    }
}

/// A count shared by threads.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
