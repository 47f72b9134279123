@testable import CartRenderRaster
import XCTest

/// Reused memory for frame copies (`PixelBufferPool`) and for libimagequant (`LIQMemory`): a
/// buffer given back is handed out again, and reuse never changes what a holder sees.
final class PixelBufferPoolTests: XCTestCase {
    private func address(_ bytes: [UInt8]) -> UnsafeRawPointer? { bytes.withUnsafeBytes { $0.baseAddress } }

    func testAGivenBufferIsTakenAgainForTheSameSizeOnly() {
        let pool = PixelBufferPool(limit: 2)
        let buffer = pool.take(count: 64)
        XCTAssertEqual(buffer.count, 64)
        let storage = address(buffer)
        pool.give(buffer)
        XCTAssertEqual(pool.count, 1)
        XCTAssertEqual(pool.take(count: 32).count, 32, "another size gets a new buffer")
        XCTAssertEqual(pool.count, 1)
        XCTAssertEqual(address(pool.take(count: 64)), storage, "the kept buffer is handed out again")
        XCTAssertEqual(pool.count, 0)
    }

    func testAtMostLimitBuffersAreKept() {
        let pool = PixelBufferPool(limit: 2)
        for _ in 0..<5 { pool.give([UInt8](repeating: 0, count: 16)) }
        XCTAssertEqual(pool.count, 2)
        XCTAssertEqual(PixelBufferPool(limit: 0).count, 0)
    }

    /// A frame copied into a reused buffer equals a fresh copy; an image still holding the
    /// buffer when it is reused keeps its pixels (copy on write).
    func testCopiesIntoReusedBuffersAreExactAndLeaveEarlierHoldersAlone() {
        var argb: [UInt32] = [0xFF10_2030, 0x8040_2010, 0x0000_0000, 0xFFFF_FFFF, 0x7F7F_0000, 0xFF00_00FF]
        let pool = PixelBufferPool(limit: 1)
        argb.withUnsafeMutableBytes { raw in
            let rows = PixelRows(base: raw.baseAddress!, width: 3, height: 2, stride: 12, format: .premultipliedARGB32)
            let first = RGBAImage(rows, bufferFrom: pool)
            XCTAssertEqual(first, RGBAImage(rows))
            pool.give(first.pixels)
            let before = first.pixels
            raw.storeBytes(of: 0xFF00_FF00, toByteOffset: 0, as: UInt32.self)
            let second = RGBAImage(rows, bufferFrom: pool)
            XCTAssertEqual(second, RGBAImage(rows))
            XCTAssertEqual(first.pixels, before, "the image that still held the buffer is unchanged")
            XCTAssertNotEqual(second.pixels, first.pixels)
        }
    }

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
