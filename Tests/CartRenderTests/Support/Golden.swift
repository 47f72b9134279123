import CartRender
import CartRenderRaster
import Foundation
import XCTest

/// Golden-image assertions: a rendered frame is compared with `Goldens/<name>.png` through the
/// library's one snapshot strategy (``SnapshotStrategy``, the one `verify` and `assertFrames`
/// take; its comparison is ``ImageDiffing/pixelmatch(_:compression:)``: threshold 0.1,
/// anti-aliasing ignored), allowing no differing pixel by default: a changed digit, a moved
/// glyph, a color off by more than the threshold fail (``GoldenCatalogTests`` proves it with a
/// price changed by one digit). On failure the strategy writes the actual image, the diff image
/// and the panel expected | diff | actual under `.build/golden-failures/`, named in the
/// message. Record policy: a missing golden is recorded and the test fails so that it is
/// reviewed (`missing` with `failOnRecord`); `CARTRENDER_RECORD_GOLDENS=1` re-records all and
/// passes (`all`).
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Goldens")
    static let failures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../.build/golden-failures").standardized

    /// The environment variable that re-records every golden when it is `1`.
    static let recordVariable = "CARTRENDER_RECORD_GOLDENS"

    /// The goldens' strategy: at most `maxDifferingPixels` pixels (px) may differ beyond
    /// pixelmatch's threshold and anti-aliasing detection; panels on failure; `record`: re-record
    /// every golden, else record only missing ones and fail.
    static func strategy(maxDifferingPixels: Int = 0, record: Bool) -> SnapshotStrategy {
        SnapshotStrategy(record: record ? .all : .missing, failOnRecord: !record,
                         tolerance: ComparisonOptions(maxDiffPixels: maxDifferingPixels), panels: true)
    }

    static func assertMatches(_ image: RGBAImage, named name: String, maxDifferingPixels: Int = 0,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let record = ProcessInfo.processInfo.environment[recordVariable] == "1"
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
        let golden = goldens.appendingPathComponent(name + ".png")
        let check = try strategy(maxDifferingPixels: maxDifferingPixels, record: record)
            .check(image, reference: golden.path, artifactsDirectory: failures.path, name: name)
        if check.passed { return nil }
        if check.recorded { return "recorded missing golden \(golden.path); review it and run again" }
        let actual = check.artifacts["actual"] ?? "-"
        guard let comparison = check.comparison, let result = comparison.result else {
            let size = check.comparison.map { "\($0.expectedSize.width)×\($0.expectedSize.height) px" } ?? "?"
            return "\(name): size \(image.width)×\(image.height) px, golden \(size) (\(golden.path)); actual \(actual)"
        }
        let panel = check.artifacts["panel"] ?? "-"
        return "\(name): \(result.differingPixels) pixels differ from \(golden.path) (allowed \(maxDifferingPixels)); expected | diff | actual \(panel); actual \(actual)"
    }
}
