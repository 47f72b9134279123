import CartRender
import CartRenderRaster
import Foundation
import XCTest

/// Golden-image comparison for rendered frames.
///
/// Goldens live in `Tests/CartRenderTests/Goldens/` (read from the source tree, so that a
/// recorded golden is used by the next run without a rebuild). A frame matches when at most
/// `maxDiffPixels` pixels differ by pixelmatch 7.1's measure at `threshold` (anti-aliased pixels
/// excepted), which absorbs FreeType and Cairo version drift in glyph edges but not a moved row.
/// On failure the expected, actual and diff images are written next to each other in a
/// temporary directory named in the failure message. A missing golden is recorded and the test
/// fails saying so; `CARTRENDER_RECORD_GOLDENS=1` re-records every golden.
enum GoldenImage {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Goldens")
    static let failures = FileManager.default.temporaryDirectory.appendingPathComponent("cartrender-golden-failures")

    static func assertMatches(_ image: RGBAImage, named name: String, threshold: Double = 0.1, maxDiffPixels: Int = 150,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let golden = directory.appendingPathComponent(name + ".png")
        let record = ProcessInfo.processInfo.environment["CARTRENDER_RECORD_GOLDENS"] == "1"
        if record || !FileManager.default.fileExists(atPath: golden.path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(PNGEncoder.encode(image, compression: .small)).write(to: golden, options: .atomic)
            XCTFail("recorded golden \(golden.path) (\(record ? "CARTRENDER_RECORD_GOLDENS=1" : "it was missing")); check it by eye and run the tests again",
                    file: file, line: line)
            return
        }
        let expected = try PNGDecoder.decode(contentsOf: golden.path)
        guard expected.width == image.width, expected.height == image.height else {
            let actualPath = try write(image, "\(name)-actual.png")
            XCTFail("\(name): size \(image.width)×\(image.height) px differs from the golden's \(expected.width)×\(expected.height) px; actual frame: \(actualPath)",
                    file: file, line: line)
            return
        }
        if expected.pixels == image.pixels { return }
        let options = PixelmatchOptions(threshold: threshold)
        let result = try Pixelmatch.compare(expected, image, options: options)
        guard result.differingPixels > maxDiffPixels else { return }
        let (_, diff) = try Pixelmatch.diff(expected, image, options: options)
        let paths = try [write(expected, "\(name)-expected.png"), write(image, "\(name)-actual.png"), write(diff, "\(name)-diff.png")]
        XCTFail("\(name): \(result.differingPixels) pixels differ from \(golden.path) (at most \(maxDiffPixels) allowed at threshold \(threshold)); expected / actual / diff: \(paths.joined(separator: " "))",
                file: file, line: line)
    }

    private static func write(_ image: RGBAImage, _ name: String) throws -> String {
        try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
        let url = failures.appendingPathComponent(name)
        try Data(PNGEncoder.encode(image)).write(to: url, options: .atomic)
        return url.path
    }
}
