@testable import CartRenderRaster
import XCTest

/// The changed rows of a frame (`RowPatch`): copied as `RGBAImage(_:)` converts them, and
/// applied they bring the frame before up to this one.
final class RowPatchTests: XCTestCase {
    /// A 3 × 4 px premultiplied canvas, every pixel different (translucent ones included).
    private func canvas(seed: UInt32) -> [UInt32] {
        (0..<12).map { i in
            let a = UInt32([255, 128, 255, 0, 64, 255][(i + Int(seed)) % 6])
            let c = min(a, UInt32(i * 20) + seed)
            return a << 24 | c << 16 | (a / 2) << 8 | (c / 3)
        }
    }

    private func withRows<R>(_ words: [UInt32], _ body: (PixelRows) throws -> R) rethrows -> R {
        try words.withUnsafeBytes { try body(PixelRows(base: $0.baseAddress!, width: 3, height: 4, stride: 12, format: .premultipliedARGB32)) }
    }

    func testAPatchOfEveryRowIsTheWholeConvertedFrame() throws {
        let words = canvas(seed: 1)
        let patch = withRows(words) { RowPatch($0, rows: nil) }
        XCTAssertTrue(patch.isComplete)
        XCTAssertEqual(patch.rows, [0..<4])
        var image: RGBAImage?
        try patch.apply(to: &image)
        XCTAssertEqual(image, withRows(words) { RGBAImage($0) })
    }

    func testChangedRowsBringTheFrameBeforeUpToThisOne() throws {
        let before = canvas(seed: 1)
        var after = before
        for i in [3, 4, 5, 9, 10, 11] { after[i] = canvas(seed: 7)[i] }  // rows 1 and 3
        var image: RGBAImage? = withRows(before) { RGBAImage($0) }
        let patch = withRows(after) { RowPatch($0, rows: [3..<9, 1..<2, -2..<0]) }
        XCTAssertEqual(patch.rows, [1..<2, 3..<4], "clipped to the frame, sorted, empty bands dropped")
        XCTAssertFalse(patch.isComplete)
        try patch.apply(to: &image)
        XCTAssertEqual(image, withRows(after) { RGBAImage($0) })
    }

    func testAPartialPatchNeedsTheFrameBefore() {
        let patch = withRows(canvas(seed: 2)) { RowPatch($0, rows: [1..<2]) }
        var none: RGBAImage?
        XCTAssertThrowsError(try patch.apply(to: &none)) { XCTAssertEqual(($0 as? RasterError)?.kind, .library) }
        var otherSize: RGBAImage? = RGBAImage(width: 2, height: 4)
        XCTAssertThrowsError(try patch.apply(to: &otherSize))
    }

    /// The image handed on before the patch is applied keeps its pixels (copy on write).
    func testAnImageHandedOnBeforeKeepsItsPixels() throws {
        var image: RGBAImage? = withRows(canvas(seed: 1)) { RGBAImage($0) }
        let handedOn = image!
        try withRows(canvas(seed: 9)) { RowPatch($0, rows: [0..<2]) }.apply(to: &image)
        XCTAssertEqual(handedOn, withRows(canvas(seed: 1)) { RGBAImage($0) })
        XCTAssertNotEqual(image, handedOn)
    }
}
