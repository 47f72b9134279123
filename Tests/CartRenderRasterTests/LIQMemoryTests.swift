@testable import CartRenderRaster
import XCTest

/// Reused memory for libimagequant (`LIQMemory`): a block given back is handed out again.
final class LIQMemoryTests: XCTestCase {
    func testLibimagequantBlocksOfAMebibyteAndMoreAreReusedUntilTrimmed() throws {
        LIQMemory.trim()
        let large = LIQMemory.cachedBlockSize + 4096
        let block = try XCTUnwrap(LIQMemory.allocate(large))
        XCTAssertEqual(Int(bitPattern: block) % 16, 0, "libimagequant's SSE code needs 16-byte alignment")
        memset(block, 0xAB, large)
        LIQMemory.release(block)
        XCTAssertEqual(LIQMemory.cachedBytes, large)
        let again = try XCTUnwrap(LIQMemory.allocate(large - 100))
        XCTAssertEqual(again, block, "a free block that fits is handed out again")
        XCTAssertEqual(LIQMemory.cachedBytes, 0)
        LIQMemory.release(again)
        let tooBig = try XCTUnwrap(LIQMemory.allocate(3 * large))
        XCTAssertNotEqual(tooBig, block, "a block less than half the size asked for is not used")
        LIQMemory.release(tooBig)
        let small = try XCTUnwrap(LIQMemory.allocate(100))
        LIQMemory.release(small)
        XCTAssertEqual(LIQMemory.cachedBytes, large + 3 * large, "small blocks are freed, not kept")
        LIQMemory.trim()
        XCTAssertEqual(LIQMemory.cachedBytes, 0)
    }
}
