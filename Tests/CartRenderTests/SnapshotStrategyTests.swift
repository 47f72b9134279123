@testable import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// ``SnapshotStrategy``: one value holds the record policy, the comparison with its tolerance
/// and the failure images, for single images (the goldens) and for `verify` runs
/// (`Snapshots`, `assertFrames`).
final class SnapshotStrategyTests: XCTestCase {
    private let white: [UInt8] = [255, 255, 255, 255]
    private var root = ""
    private var reference: String { root + "/ref.png" }
    private var failures: String { root + "/failures" }

    override func setUpWithError() throws {
        root = tempDir()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    /// 4 × 3 px white; with `dot`, one black pixel at (1, 1).
    private func image(dot: Bool = false) -> RGBAImage {
        var image = RGBAImage(width: 4, height: 3, pixels: Array(repeating: white, count: 12).flatMap { $0 })
        if dot { image.pixels.replaceSubrange(20..<24, with: [0, 0, 0, 255]) }
        return image
    }

    private func files(_ dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    func testAMissingReferenceIsRecordedAndFailsOnlyWithFailOnRecord() throws {
        let recorded = try SnapshotStrategy(record: .missing).check(image(), reference: reference, artifactsDirectory: failures, name: "ref")
        XCTAssertTrue(recorded.passed && recorded.recorded)
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: reference), image())
        try FileManager.default.removeItem(atPath: reference)
        let review = try SnapshotStrategy(record: .missing, failOnRecord: true).check(image(), reference: reference, artifactsDirectory: failures, name: "ref")
        XCTAssertTrue(review.recorded)
        XCTAssertFalse(review.passed, "a reference recorded for the first time is looked at first")
        let never = try SnapshotStrategy(record: .never).check(image(), reference: root + "/none.png", artifactsDirectory: failures, name: "none")
        XCTAssertFalse(never.passed || never.recorded)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/none.png"))
    }

    func testAFailureLeavesTheActualAndDiffImagesAndWithPanelsThePanel() throws {
        try Data(PNGEncoder.encode(image())).write(to: URL(fileURLWithPath: reference))
        let plain = try SnapshotStrategy(record: .never).check(image(dot: true), reference: reference, artifactsDirectory: failures, name: "ref")
        XCTAssertFalse(plain.passed)
        XCTAssertEqual(plain.comparison?.result?.differingPixels, 1)
        XCTAssertEqual(files(failures), [OwnershipLedger.fileName, "ref.actual.png", "ref.diff.png"], "written by the staging area, with its ledger")
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: failures + "/ref.actual.png"), image(dot: true))
        let panels = try SnapshotStrategy(record: .never, panels: true).check(image(dot: true), reference: reference, artifactsDirectory: failures, name: "ref")
        XCTAssertEqual(panels.artifacts.keys.sorted(), ["actual", "diff", "panel"])
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: failures + "/ref.panel.png").width, 12, "expected | diff | actual")
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: reference), image(), "never records")
    }

    func testTheToleranceAndTheRecordModeDecide() throws {
        try Data(PNGEncoder.encode(image())).write(to: URL(fileURLWithPath: reference))
        let within = try SnapshotStrategy(record: .never, tolerance: ComparisonOptions(maxDiffPixels: 1))
            .check(image(dot: true), reference: reference, artifactsDirectory: failures, name: "ref")
        XCTAssertTrue(within.passed)
        XCTAssertEqual(files(failures), [], "a pass writes nothing")
        let failed = try SnapshotStrategy(record: .failed).check(image(dot: true), reference: reference, artifactsDirectory: failures, name: "ref")
        XCTAssertTrue(failed.passed && failed.recorded)
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: reference), image(dot: true), "failed rewrites a failing reference")
        XCTAssertTrue(try SnapshotStrategy(record: .all).check(image(), reference: reference, artifactsDirectory: failures, name: "ref").recorded)
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: reference), image())
    }

    /// The artifacts and the reference are written as every output of cartrender: a link at an
    /// artifact's name or at the reference is refused (exit 73), never followed, and the file it
    /// leads to is untouched (`Data.write` followed both).
    func testALinkAtAnArtifactOrAtTheReferenceIsRefusedAndNotFollowed() throws {
        try Data(PNGEncoder.encode(image())).write(to: URL(fileURLWithPath: reference))
        let outside = root + "/outside.txt"
        try Data("not cartrender's".utf8).write(to: URL(fileURLWithPath: outside))
        try FileManager.default.createDirectory(atPath: failures, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: failures + "/ref.diff.png", withDestinationPath: outside)
        XCTAssertThrowsError(try SnapshotStrategy(record: .never).check(image(dot: true), reference: reference, artifactsDirectory: failures, name: "ref")) { error in
            XCTAssertEqual((error as? any ReportableError)?.exitCode.rawValue, 73, "\(error)")
            XCTAssertTrue("\(error)".contains(failures + "/ref.diff.png"), "names the link: \(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: outside, encoding: .utf8), "not cartrender's")
        XCTAssertEqual(files(failures), ["ref.diff.png"], "nothing else written: the actual image neither")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: failures + "/ref.diff.png"), outside, "the link stays")

        let linked = root + "/linked.png"
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: outside)
        XCTAssertThrowsError(try SnapshotStrategy(record: .all).check(image(), reference: linked, artifactsDirectory: failures, name: "linked")) { error in
            XCTAssertEqual((error as? any ReportableError)?.exitCode.rawValue, 73, "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: outside, encoding: .utf8), "not cartrender's")
    }

    func testTheRecordModeResolvesFromTheEnvironmentUnlessGiven() throws {
        XCTAssertEqual(try SnapshotStrategy.resolving(record: nil, environment: ["CI": "true"]).record, .never)
        XCTAssertEqual(try SnapshotStrategy.resolving(record: nil, environment: ["CARTRENDER_RECORD": "failed", "CI": "1"]).record, .failed)
        XCTAssertEqual(try SnapshotStrategy.resolving(record: .all, environment: ["CI": "true"]).record, .all)
        XCTAssertThrowsError(try SnapshotStrategy.resolving(record: nil, environment: ["CARTRENDER_RECORD": "sometimes"]))
    }

    /// The strategy a `verify` run takes: its record mode, `failOnRecord` and tolerance.
    func testVerifyTakesTheStrategysRecordPolicy() throws {
        var options = VerifyOptions(baseline: root + "/baseline")
        options.strategy = SnapshotStrategy(record: .all, failOnRecord: true, tolerance: ComparisonOptions(maxDiffPixels: 7))
        XCTAssertEqual(options.record, .all)
        XCTAssertTrue(options.failOnRecord)
        XCTAssertEqual(options.tolerance.maxDiffPixels, 7)

        try FileManager.default.createDirectory(atPath: root + "/baseline", withIntermediateDirectories: true)
        let result = try Snapshots.verify(.defaultScene, baseline: root + "/baseline", times: [0],
                                          strategy: SnapshotStrategy(record: .missing, failOnRecord: true),
                                          overrides: SceneOverrides(fps: 4, scale: 1), reportDirectory: root + "/report", jobs: 1)
        XCTAssertEqual(result.recordedCount, 1)
        XCTAssertFalse(result.passed, "recorded, and failing because the strategy says so")
        XCTAssertEqual(result.record, .missing)
    }
}
