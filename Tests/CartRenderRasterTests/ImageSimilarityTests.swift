import CartRenderRaster
import CartRenderTestSupport
import XCTest

final class ImageSimilarityTests: XCTestCase {
    /// Two flat images have no variance, so SSIM reduces to the luminance term
    /// (2 μx μy + C1) / (μx² + μy² + C1) with C1 = (0.01 × 255)² = 6.5025.
    func testFlatImagesGiveTheLuminanceTerm() {
        let table: [(a: UInt8, b: UInt8, size: Int, expected: Double, line: UInt)] = [
            (100, 110, 16, (2 * 100 * 110 + 6.5025) / (100 * 100 + 110 * 110 + 6.5025), #line),  // 0.995476
            (0, 255, 16, 6.5025 / (255 * 255 + 6.5025), #line),                                  // 0.0001
            (100, 110, 5, (2 * 100 * 110 + 6.5025) / (100 * 100 + 110 * 110 + 6.5025), #line),   // smaller than the window
        ]
        for row in table {
            let a = solidImage(width: row.size, height: row.size, row.a, row.a, row.a)
            let b = solidImage(width: row.size, height: row.size, row.b, row.b, row.b)
            XCTAssertEqual(ImageSimilarity.meanSSIM(a, b), row.expected, accuracy: 1e-5, line: row.line)
        }
    }

    func testIdenticalImagesScoreOne() {
        let frame = UIAnimationFixture.frames[10]
        XCTAssertEqual(ImageSimilarity.meanSSIM(frame, frame), 1, accuracy: 1e-9)
    }

    /// Transparency is composited over white: a transparent image equals a white one.
    func testTransparentIsWhite() {
        XCTAssertEqual(ImageSimilarity.meanSSIM(solidImage(width: 12, height: 12, 0, 0, 0, 0),
                                                solidImage(width: 12, height: 12, 255, 255, 255)), 1, accuracy: 1e-9)
    }

    func testMoreNoiseScoresLowerAndTheScoreIsSymmetric() {
        let frame = UIAnimationFixture.frames[0]
        var generator = SplitMix64(seed: 7)
        func noisy(_ amplitude: Int) -> RGBAImage {
            var copy = frame
            for i in 0..<copy.pixels.count where i % 4 != 3 {
                let delta = Int(generator.next() % UInt64(2 * amplitude + 1)) - amplitude
                copy.pixels[i] = UInt8(min(max(Int(copy.pixels[i]) + delta, 0), 255))
            }
            return copy
        }
        let light = noisy(4), heavy = noisy(32)
        let lightScore = ImageSimilarity.meanSSIM(frame, light), heavyScore = ImageSimilarity.meanSSIM(frame, heavy)
        XCTAssertLessThan(lightScore, 1)
        XCTAssertLessThan(heavyScore, lightScore)
        XCTAssertEqual(ImageSimilarity.meanSSIM(light, frame), lightScore, accuracy: 1e-9)
    }

    /// An inverted checkerboard has opposite structure: negative covariance, SSIM below zero.
    func testInvertedStructureScoresBelowZero() {
        func checkerboard(_ invert: Bool) -> RGBAImage {
            RGBAImage(width: 16, height: 16, pixels: Array((0..<256).map { p -> [UInt8] in
                let on = ((p % 16) + (p / 16)) % 2 == (invert ? 1 : 0)
                let v: UInt8 = on ? 220 : 30
                return [v, v, v, 255]
            }.joined()))
        }
        XCTAssertLessThan(ImageSimilarity.meanSSIM(checkerboard(false), checkerboard(true)), 0)
    }
}
