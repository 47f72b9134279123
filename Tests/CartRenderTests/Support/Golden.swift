import CartRender
import CartRenderRaster
import Foundation
import XCTest

/// Golden-image assertions: a rendered frame is compared with `Goldens/<name>.png` through the
/// comparison `verify` and `diff` use (``ImageDiffing/pixelmatch(_:compression:)``: threshold 0.1,
/// anti-aliasing ignored), allowing no differing pixel by default: a changed digit, a moved
/// glyph, a color off by more than the threshold fail (``GoldenCatalogTests`` proves it with a
/// price changed by one digit). On failure the actual
/// image and the panel image expected | diff | actual are written under `.build/golden-failures/`
/// and named in the message. A missing golden is recorded and the test fails so that it is
/// reviewed; `CARTRENDER_RECORD_GOLDENS=1` re-records all.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Goldens")
    static let failures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../.build/golden-failures").standardized

    /// The goldens' tolerance: at most `maxDifferingPixels` pixels (px) may differ beyond
    /// pixelmatch's threshold and anti-aliasing detection.
    static func options(maxDifferingPixels: Int = 0) -> ComparisonOptions {
        ComparisonOptions(maxDiffPixels: maxDifferingPixels)
    }

    static func assertMatches(_ image: RGBAImage, named name: String, maxDifferingPixels: Int = 0,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let record = ProcessInfo.processInfo.environment["CARTRENDER_RECORD_GOLDENS"] == "1"
        if let message = try check(image, named: name, maxDifferingPixels: maxDifferingPixels, record: record) {
            XCTFail(message, file: file, line: line)
        }
    }

    /// Compares `image` with `goldens/NAME.png`.
    /// - Returns: nil when it matches (or was re-recorded); otherwise the failure message, which
    ///   names the golden and the files written into `failures` (`NAME.actual.png`,
    ///   `NAME.diff.png`, `NAME.panel.png`).
    static func check(_ image: RGBAImage, named name: String, maxDifferingPixels: Int = 0,
                      goldens: URL = directory, failures: URL = failures, record: Bool = false) throws -> String? {
        let diffing = ImageDiffing.pixelmatch(options(maxDifferingPixels: maxDifferingPixels))
        let golden = goldens.appendingPathComponent(name + ".png")
        if record || !FileManager.default.fileExists(atPath: golden.path) {
            try Data(PNGEncoder.encode(image, compression: .small)).write(to: golden)
            return record ? nil : "recorded missing golden \(golden.path); review it and run again"
        }
        let expected = try diffing.fromData(Array(Data(contentsOf: golden)), golden.path)
        let comparison = try diffing.compare(expected, image, keepImages: true)
        guard comparison.status != .pass else { return nil }

        try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
        func write(_ bytes: [UInt8], _ suffix: String) throws -> String {
            let url = failures.appendingPathComponent(name + suffix)
            try Data(bytes).write(to: url)
            return url.path
        }
        let actual = try write(diffing.toData(image), ".actual.png")
        guard let result = comparison.result else {
            return "\(name): size \(image.width)×\(image.height) px, golden \(expected.width)×\(expected.height) px (\(golden.path)); actual \(actual)"
        }
        for artifact in try diffing.artifacts(comparison) { _ = try write(artifact.bytes, artifact.suffix) }
        var panel = "-"
        if let images = comparison.images, let diff = images.diff {
            panel = try write(diffing.toData(ImageDiffing.panel(images.expected, diff, images.actual)), ".panel.png")
        }
        return "\(name): \(result.differingPixels) pixels differ from \(golden.path) (allowed \(maxDifferingPixels)); expected | diff | actual \(panel); actual \(actual)"
    }
}
