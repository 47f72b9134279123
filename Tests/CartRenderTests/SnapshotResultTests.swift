@testable import CartRender
import CartRenderCore
import Foundation
import XCTest

/// ``SnapshotResult`` in each of its forms: the console lines and failure message, `junit.xml`
/// (``JUnitReport``) and `report.json` (``SnapshotResult/json``), for one hand-made run of a
/// passing, a failing and a missing frame.
final class SnapshotResultTests: XCTestCase {
    /// frame 0 passes byte for byte; frame 1 has 12 of 100 px differing (3 anti-aliased);
    /// frame 2 has no baseline frame and was not recorded (`never`).
    private func result(report: String? = "snaps/cartrender-report") -> SnapshotResult {
        var pass = FrameResult(name: "frame_0000.png", index: 0, time: 0, status: .pass)
        pass.byteEqual = true
        pass.result = DiffResult(differingPixels: 0, antialiasedPixels: 0, totalPixels: 100)
        var fail = FrameResult(name: "frame_0001.png", index: 1, time: 0.25, status: .fail)
        fail.result = DiffResult(differingPixels: 12, antialiasedPixels: 3, totalPixels: 100)
        fail.diffFile = "diff_0123456789abcdef.png"
        fail.expectedFile = "frame_1111111111111111.png"
        fail.actualFile = "frame_2222222222222222.png"
        let missing = FrameResult(name: "frame_0002.png", index: 2, time: 0.5, status: .missing)
        return SnapshotResult(command: .verify, subject: "scenes/fly.json", baseline: "snaps/fly", reportDirectory: report,
                              record: .never, options: ComparisonOptions(maxDiffPixels: 5), fps: 4, frames: [pass, fail, missing])
    }

    func testTheConsoleLinesNameEachFailingFrameAndItsImage() {
        let r = result()
        XCTAssertFalse(r.passed)
        XCTAssertEqual(r.failures.map(\.name), ["frame_0001.png", "frame_0002.png"])
        XCTAssertNil(r.line(for: r.frames[0]), "a passing frame has no line")
        XCTAssertEqual(r.line(for: r.frames[1]),
                       "FAIL     frame_0001.png (t=0.25 s): 12 px differ (12 %), 3 anti-aliased px ignored, allowed \(r.allowance) → snaps/cartrender-report/diff_0123456789abcdef.png")
        XCTAssertEqual(r.line(for: r.frames[2]),
                       "MISSING  frame_0002.png (t=0.5 s): no baseline frame at snaps/fly/frame_0002.png; record it with --record missing (or CARTRENDER_RECORD=missing)")
        XCTAssertEqual(r.summaryLine, "cartrender verify: FAILED, 2 of 3 frames failed (1 fail, 1 missing); report: snaps/cartrender-report/index.html")
        let message = r.failureMessage ?? ""
        XCTAssertEqual(message.split(separator: "\n").map(String.init), [
            r.summaryLine, "  " + r.line(for: r.frames[1])!, "  " + r.line(for: r.frames[2])!,
            "  report: snaps/cartrender-report/index.html, snaps/cartrender-report/report.json, snaps/cartrender-report/junit.xml",
        ])
        XCTAssertEqual(r.failureAttachments.map(\.name), ["frame_0001.diff.png", "frame_0001.expected.png", "frame_0001.actual.png"])
        XCTAssertEqual(result(report: nil).failureArtifacts, [], "no report, no images")
    }

    func testAPassingRunHasNoFailureMessage() {
        var r = result()
        r.frames.removeLast(2)
        XCTAssertTrue(r.passed)
        XCTAssertNil(r.failureMessage)
        XCTAssertEqual(r.summaryLine, "cartrender verify: passed, 1 frame, 1 matched (1 byte-identical); report: snaps/cartrender-report/index.html")
        r.failOnRecord = true
        r.frames[0].recorded = true
        XCTAssertFalse(r.passed, "--fail-on-record fails a run that recorded")
    }

    func testTheJSONFormCountsEveryStatus() throws {
        let json = result().json.serialized(pretty: false)
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let summary = try XCTUnwrap(value?["summary"] as? [String: Any])
        XCTAssertEqual(summary["frames"] as? Int, 3)
        XCTAssertEqual(summary["pass"] as? Int, 1)
        XCTAssertEqual(summary["fail"] as? Int, 1)
        XCTAssertEqual(summary["missing"] as? Int, 1)
        XCTAssertEqual(summary["failed"] as? Int, 2)
        XCTAssertEqual(value?["passed"] as? Bool, false)
        XCTAssertEqual(value?["scene"] as? String, "scenes/fly.json")
        XCTAssertEqual(value?["record"] as? String, "never")
        let frames = try XCTUnwrap(value?["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.map { $0["frame"] as? String }, ["frame_0000.png", "frame_0001.png", "frame_0002.png"])
    }

    func testTheJUnitFormHasOneTestCasePerFrameAndAFailureForEachFailingOne() {
        let xml = JUnitReport.xml(for: result(), run: JUnitReport.Run(timestamp: Date(timeIntervalSince1970: 0), seconds: 1.5))
        XCTAssertTrue(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cartrender verify\" tests=\"3\" failures=\"2\" errors=\"0\""), xml)
        XCTAssertEqual(xml.components(separatedBy: "<testcase ").count - 1, 3, xml)
        XCTAssertEqual(xml.components(separatedBy: "<failure ").count - 1, 2, xml)
        XCTAssertTrue(xml.contains("frame_0001.png"), xml)
    }

    /// The JUnit `file` of a scene: relative to the workspace by the text of the paths, absolute
    /// outside it (the rule of CI annotations, ``AnnotationPath``).
    func testAnnotationPathsAreRelativeToTheWorkspace() {
        let table: [(path: String, workspace: String, expected: String)] = [
            ("/w/repo/scenes/a.json", "/w/repo", "scenes/a.json"),
            ("/w/repo/./scenes/sub/../a.json", "/w/repo/", "scenes/a.json"),
            ("/w/repo", "/w/repo", "."),
            ("/w/other/a.json", "/w/repo", "/w/other/a.json"),
            ("/w/repo2/a.json", "/w/repo", "/w/repo2/a.json"),
            ("/a.json", "/", "a.json"),
            ("/w//repo/../repo/a.json", "/w/repo", "a.json"),
        ]
        for row in table { XCTAssertEqual(AnnotationPath.relative(row.path, to: row.workspace), row.expected, "\(row.path) in \(row.workspace)") }
        let cwd = FileSystemPath.currentDirectory()
        XCTAssertEqual(AnnotationPath.relative("scenes/a.json", to: cwd), "scenes/a.json", "relative paths start at the working directory")
    }
}
