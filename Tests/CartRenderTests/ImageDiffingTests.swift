import CartRender
import CartRenderCore
import CartRenderRaster
import XCTest

/// ``ImageDiffing/pixelmatch(_:compression:)``: what a comparison keeps, the artifacts a failing
/// one leaves (a palette PNG), the panel image.
final class ImageDiffingTests: XCTestCase {
    private func image(_ pixels: TestPixels) -> RGBAImage {
        RGBAImage(width: pixels.width, height: pixels.height, pixels: pixels.bytes)
    }

    private func png(_ pixels: TestPixels) throws -> [UInt8] { try PNGEncoder.encode(image(pixels)) }

    /// `KeptImages.always` (`diff A.png B.png --out`): equal files are decoded too and the diff
    /// image is drawn whatever the outcome, with the counts of the pass that drew it; a size
    /// mismatch keeps both images and no diff.
    func testKeepingAlwaysDrawsTheDiffOfEqualAndPassingImages() throws {
        let first = TestPixels(width: 9, height: 9, fill: (240, 240, 240, 255))
        var second = first
        second[4, 4] = (10, 10, 10, 255)
        let diffing = ImageDiffing.pixelmatch(ComparisonOptions())
        let table: [(expected: TestPixels, actual: TestPixels, status: FrameStatus, differing: Int)] = [
            (first, first, .pass, 0), (first, second, .fail, 1),
        ]
        for row in table {
            let c = try diffing.compare(expected: png(row.expected), actual: png(row.actual), keeping: .always)
            XCTAssertEqual(c.status, row.status)
            XCTAssertFalse(c.byteEqual, "decoded even when the bytes are equal")
            XCTAssertEqual(c.result?.differingPixels, row.differing)
            let drawn = try Pixelmatch.diff(image(row.expected), image(row.actual), options: ComparisonOptions().pixelmatch)
            XCTAssertEqual(c.result, drawn.result)
            XCTAssertEqual(c.images?.diff, drawn.image)
        }
        XCTAssertNil(try diffing.compare(expected: png(first), actual: png(first), keeping: .whenFailing).images, "a pass keeps nothing")
        XCTAssertTrue(try diffing.compare(expected: png(first), actual: png(first), keeping: .whenFailing).byteEqual)
        let mismatch = try diffing.compare(expected: png(first), actual: png(TestPixels(width: 3, height: 9)), keeping: .always)
        XCTAssertEqual(mismatch.status, .sizeMismatch)
        XCTAssertNotNil(mismatch.images)
        XCTAssertNil(mismatch.images?.diff)
    }

    /// A failing frame leaves its diff image, as a palette PNG of the same pixels; a passing
    /// frame, a size mismatch (no diff) and a comparison that kept no images leave nothing.
    func testArtifactsOfTheComparison() throws {
        let first = TestPixels(width: 9, height: 9, fill: (240, 240, 240, 255))
        var second = first
        second[4, 4] = (10, 10, 10, 255)
        let diffing = ImageDiffing.pixelmatch(ComparisonOptions())
        let failing = try diffing.compare(expected: png(first), actual: png(second), keepImages: true)
        let artifacts = try diffing.artifacts(failing)
        XCTAssertEqual(artifacts.map(\.kind), [.diff])
        XCTAssertEqual(artifacts.map(\.suffix), [".diff.png"])
        let diff = try XCTUnwrap(failing.images?.diff)
        XCTAssertEqual(try PNGDecoder.decode(artifacts[0].bytes), diff)
        XCTAssertEqual(artifacts[0].bytes[25], 3, "IHDR color type 3: palette")

        XCTAssertEqual(try diffing.artifacts(diffing.compare(expected: png(first), actual: png(second))), [], "no images kept")
        XCTAssertEqual(try diffing.artifacts(diffing.compare(expected: png(first), actual: png(first), keepImages: true)), [])
        let small = TestPixels(width: 3, height: 9)
        XCTAssertEqual(try diffing.artifacts(diffing.compare(expected: png(first), actual: png(small), keepImages: true)), [])
    }

    func testPanelPutsImagesSideBySide() {
        let a = RGBAImage(width: 2, height: 2, pixels: [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4])
        let b = RGBAImage(width: 2, height: 2, pixels: Array(repeating: 9, count: 16))
        XCTAssertEqual(ImageDiffing.panel(a, b).pixels,
                       [1, 1, 1, 1, 2, 2, 2, 2, 9, 9, 9, 9, 9, 9, 9, 9,
                        3, 3, 3, 3, 4, 4, 4, 4, 9, 9, 9, 9, 9, 9, 9, 9])
        XCTAssertEqual(ImageDiffing.panel(a, b, a).width, 6)
    }
}
