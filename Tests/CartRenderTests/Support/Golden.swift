import CartRender
import CartRenderRaster
import Foundation
import XCTest

/// Golden-image assertions: compare a rendered frame with `Goldens/<name>.png` using the
/// pixelmatch distance (threshold 0.1, anti-aliasing ignored) and allow a small number of
/// differing pixels. On failure the actual image and a diff image are written under
/// `.build/golden-failures/` and named in the message. A missing golden is recorded and the
/// test fails so that it is reviewed; `CARTRENDER_RECORD_GOLDENS=1` re-records all.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Goldens")
    static let failures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../.build/golden-failures").standardized

    static func assertMatches(_ image: RGBAImage, named name: String, maxDifferingRatio: Double = 0.0005,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let golden = directory.appendingPathComponent(name + ".png")
        let record = ProcessInfo.processInfo.environment["CARTRENDER_RECORD_GOLDENS"] == "1"
        if record || !FileManager.default.fileExists(atPath: golden.path) {
            try Data(PNGEncoder.encode(image, compression: .small)).write(to: golden)
            if !record { XCTFail("recorded missing golden \(golden.path); review it and run again", file: file, line: line) }
            return
        }
        let expected = try PNGDecoder.decode(contentsOf: golden.path)
        guard expected.width == image.width, expected.height == image.height else {
            try writeFailure(name, actual: image, diff: nil)
            return XCTFail("\(name): size \(image.width)×\(image.height) px, golden \(expected.width)×\(expected.height) px", file: file, line: line)
        }
        let (result, diff) = try Pixelmatch.diff(expected, image)
        let allowed = Int(Double(result.totalPixels) * maxDifferingRatio)
        if result.differingPixels > allowed {
            let paths = try writeFailure(name, actual: image, diff: diff)
            XCTFail("\(name): \(result.differingPixels) pixels differ from \(golden.path) (allowed \(allowed)); actual \(paths.actual), diff \(paths.diff ?? "-")", file: file, line: line)
        }
    }

    @discardableResult
    static func writeFailure(_ name: String, actual: RGBAImage, diff: RGBAImage?) throws -> (actual: String, diff: String?) {
        try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
        let a = failures.appendingPathComponent(name + "-actual.png")
        try Data(PNGEncoder.encode(actual)).write(to: a)
        var d: URL?
        if let diff {
            d = failures.appendingPathComponent(name + "-diff.png")
            try Data(PNGEncoder.encode(diff)).write(to: d!)
        }
        return (a.path, d?.path)
    }
}
