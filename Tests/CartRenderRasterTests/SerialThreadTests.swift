@testable import CartRenderRaster
import Foundation
import XCTest

/// The encoders' side thread: work runs in the order it was handed, `wait()` drains it, and the
/// first error is reported once, the work after it skipped.
final class SerialThreadTests: XCTestCase {
    private struct Failure: Error, Equatable { let item: Int }

    private final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [Int] = []
        func append(_ i: Int) { lock.withLock { items.append(i) } }
        var all: [Int] { lock.withLock { items } }
    }

    func testWorkRunsInOrderAndWaitDrainsIt() throws {
        let thread = SerialThread()
        let log = Log()
        for i in 0..<200 {
            thread.async {
                if i % 50 == 0 { Thread.sleep(forTimeInterval: 0.002) }
                log.append(i)
            }
        }
        try thread.wait()
        XCTAssertEqual(log.all, Array(0..<200))
        thread.async { log.append(200) }
        try thread.wait()
        XCTAssertEqual(log.all.last, 200)
    }

    func testTheFirstErrorIsReportedOnceAndTheWorkAfterItIsSkipped() throws {
        let thread = SerialThread()
        let log = Log()
        for i in 0..<10 {
            thread.async {
                if i == 3 || i == 6 { throw Failure(item: i) }
                log.append(i)
            }
        }
        XCTAssertThrowsError(try thread.wait()) { XCTAssertEqual($0 as? Failure, Failure(item: 3)) }
        XCTAssertEqual(log.all, [0, 1, 2])
        XCTAssertNoThrow(try thread.wait())
    }
}
