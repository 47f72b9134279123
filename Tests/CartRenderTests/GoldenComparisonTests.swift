import CartRender
import CartRenderRaster
import Foundation
import XCTest

/// The golden check itself: it goes through the product's comparison and, when it fails, leaves
/// expected | diff | actual in one image, named in the message.
final class GoldenComparisonTests: XCTestCase {
    private let white: [UInt8] = [255, 255, 255, 255]
    private let red: [UInt8] = [255, 0, 0, 255]
    private let navy: [UInt8] = [20, 30, 90, 255]

    /// 6 × 4 px: white, one navy pixel at (2, 1) in the actual image.
    private func images() -> (expected: RGBAImage, actual: RGBAImage) {
        let expected = RGBAImage(width: 6, height: 4, pixels: Array(repeating: white, count: 24).flatMap { $0 })
        var actual = expected
        actual.pixels.replaceSubrange(((1 * 6 + 2) * 4)..<((1 * 6 + 3) * 4), with: navy)
        return (expected, actual)
    }

    private func directories() throws -> (goldens: URL, failures: URL) {
        let root = URL(fileURLWithPath: tempDir())
        let goldens = root.appendingPathComponent("goldens")
        try FileManager.default.createDirectory(at: goldens, withIntermediateDirectories: true)
        return (goldens, root.appendingPathComponent("failures"))
    }

    func testAFailingGoldenWritesThePanelExpectedDiffActual() throws {
        let (expected, actual) = images()
        let (goldens, failures) = try directories()
        try Data(PNGEncoder.encode(expected)).write(to: goldens.appendingPathComponent("dot.png"))

        let message = try XCTUnwrap(try Golden.check(actual, named: "dot", maxDifferingPixels: 0, goldens: goldens, failures: failures),
                                    "one differing pixel with none allowed fails")
        let panelPath = failures.appendingPathComponent("dot.panel.png").path
        XCTAssertEqual(message, "dot: 1 pixels differ from \(goldens.path)/dot.png (allowed 0); expected | diff | actual \(panelPath); actual \(failures.path)/dot.actual.png")

        let panel = try PNGDecoder.decode(contentsOf: panelPath)
        XCTAssertEqual(panel.width, 3 * 6)
        XCTAssertEqual(panel.height, 4)
        for y in 0..<4 {
            for x in 0..<6 {
                let at = "(\(x), \(y))"
                XCTAssertEqual(pixel(panel, x, y), white, "expected panel \(at)")
                // pixelmatch's diff: the differing pixel red, the rest white faded to gray (white stays white).
                XCTAssertEqual(pixel(panel, 6 + x, y), x == 2 && y == 1 ? red : white, "diff panel \(at)")
                XCTAssertEqual(pixel(panel, 12 + x, y), pixel(actual, x, y), "actual panel \(at)")
            }
        }
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: failures.path + "/dot.actual.png"), actual)
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: failures.path + "/dot.diff.png"),
                       try Pixelmatch.diff(expected, actual).image)
    }

    func testAGoldenWithinTheToleranceWritesNothing() throws {
        let (expected, actual) = images()
        let (goldens, failures) = try directories()
        try Data(PNGEncoder.encode(expected)).write(to: goldens.appendingPathComponent("dot.png"))
        // 1 px allowed.
        XCTAssertNil(try Golden.check(actual, named: "dot", maxDifferingPixels: 1, goldens: goldens, failures: failures))
        XCTAssertFalse(FileManager.default.fileExists(atPath: failures.path))
    }

    func testAGoldenOfAnotherSizeFailsWithoutAPanel() throws {
        let (expected, _) = images()
        let (goldens, failures) = try directories()
        try Data(PNGEncoder.encode(expected)).write(to: goldens.appendingPathComponent("dot.png"))
        let message = try Golden.check(RGBAImage(width: 5, height: 4), named: "dot", goldens: goldens, failures: failures)
        XCTAssertEqual(message, "dot: size 5×4 px, golden 6×4 px (\(goldens.path)/dot.png); actual \(failures.path)/dot.actual.png")
        XCTAssertFalse(FileManager.default.fileExists(atPath: failures.path + "/dot.panel.png"))
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let p = image[x, y]
        return [p.r, p.g, p.b, p.a]
    }
}
