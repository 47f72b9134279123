import CartRenderCore
@testable import CartRenderTesting
import Foundation
import Testing

/// `assertFrames(of:)`: the baseline named after the test file and function, the record mode
/// from a trait, one issue at the call site naming the state divergence and the report.
/// Each test passes a test file path in a temporary directory, so that its baselines are written
/// there and not beside this file.
@Suite struct AssertFramesTests {
    /// A temporary directory with `Scenes/fly.json` (Examples/fly-button.json, its first tap at
    /// `firstTap` s) and the path of a test file `FlyTests.swift` in it.
    private static func package(firstTap: Double = 0.3) throws -> (dir: String, testFile: String) {
        let dir = NSTemporaryDirectory() + "cartrender-assert-frames-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/Scenes", withIntermediateDirectories: true)
        try writeScene(in: dir, firstTap: firstTap)
        return (dir, dir + "/FlyTests.swift")
    }

    private static func writeScene(in dir: String, firstTap: Double) throws {
        let example = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../Examples/fly-button.json").standardized
        let text = try String(contentsOf: example, encoding: .utf8)
            .replacingOccurrences(of: #"{ "at": 0.30, "tap": "add" }"#, with: #"{ "at": \#(firstTap), "tap": "add" }"#)
        try text.write(toFile: dir + "/Scenes/fly.json", atomically: true, encoding: .utf8)
    }

    @Test func baselinesAreNamedAfterTheFileAndTheTest() {
        let a = FrameBaselineName(filePath: "/p/Tests/X/CartTests.swift", function: "checkout(scale:)", named: nil)
        #expect(a.baseline == "__Snapshots__/CartTests/checkout-scale")
        #expect(a.report == "__Snapshots__/CartTests/cartrender-report/checkout-scale")
        let b = FrameBaselineName(filePath: "/p/Tests/X/CartTests.swift", function: "checkout(scale:)", named: nil)
        #expect(b.baseline == "__Snapshots__/CartTests/checkout-scale.2", "a second call in the same test")
        let named = FrameBaselineName(filePath: "/p/Tests/X/CartTests.swift", function: "checkout(scale:)", named: "dark mode")
        #expect(named.baseline == "__Snapshots__/CartTests/dark-mode")
        #expect(FrameBaselineName.sanitized("testFlyButton()") == "testFlyButton")
    }

    /// `checkFrames` as `assertFrames` calls it, for a test file at `testFile`, reporting at `location`.
    private static func check(_ testFile: String, function: String = "flyButton()", location: Testing.SourceLocation) throws {
        try checkFrames(of: "Scenes/fly.json", times: [0.0, 0.4], named: nil, record: nil, tolerance: ComparisonOptions(), masks: [],
                        overrides: SceneOverrides(), testFile: testFile, function: function, location: location)
    }

    /// Under `.recordFrames(.missing)` the first call records and passes, whatever CI says; a
    /// later call with the same baseline passes without recording; after the scene changes, one
    /// issue at the call site names the state divergence and the report, whose images exist.
    @Test(.recordFrames(.missing)) func recordsThenReportsOneIssueAtTheCallSite() throws {
        let (dir, testFile) = try Self.package()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let baseline = dir + "/__Snapshots__/FlyTests/recordsThenReports"
        try Self.check(testFile, function: "recordsThenReports()", location: #_sourceLocation)
        #expect(FileManager.default.fileExists(atPath: baseline + "/frame_0000.png"))
        #expect(FileManager.default.fileExists(atPath: baseline + "/frame_0024.png"))
        #expect(FileManager.default.fileExists(atPath: baseline + "/manifest.json"))

        // The first tap now comes at 0.1 s: the frame at 0.4 s shows another state.
        try Self.writeScene(in: dir, firstTap: 0.1)
        let callSite = #_sourceLocation
        let collected = Mutex<[Issue]>([])
        try withKnownIssue {
            // `named:` the same baseline: without it, this second call of the test would get `.2`.
            try checkFrames(of: "Scenes/fly.json", times: [0.0, 0.4], named: "recordsThenReports", record: .never,
                            tolerance: ComparisonOptions(), masks: [], overrides: SceneOverrides(), testFile: testFile,
                            function: "recordsThenReports()", location: callSite)
        } matching: { issue in
            collected.withLock { $0.append(issue) }
            return true
        }
        let issues = collected.withLock { $0 }
        #expect(issues.count == 1)
        let issue = try #require(issues.first)
        #expect(issue.sourceLocation == callSite)
        // Swift Testing's first line of the issue is its kind: the message, not "Issue recorded".
        let comment = try #require(issue.error as? FramesDiffer).description
        #expect("\(issue.kind)".hasPrefix("Caught error: cartrender verify: FAILED, 1 of 2 frames failed"), "\(issue.kind)")
        #expect(comment.hasPrefix("cartrender verify: FAILED, 1 of 2 frames failed"), "\(comment)")
        #expect(comment.contains("\n  state diverges first at frame 24 (t=0.4 s): "), "\(comment)")
        let report = dir + "/__Snapshots__/FlyTests/cartrender-report/recordsThenReports"
        #expect(comment.contains("report: \(report)/index.html"), "\(comment)")
        // The failing frame's expected, actual and diff images, named by their content.
        let files = try FileManager.default.contentsOfDirectory(atPath: report)
        #expect(files.filter { $0.hasPrefix("img_") }.count == 2, "\(files)")
        #expect(files.filter { $0.hasPrefix("diff_") }.count == 1, "\(files)")
    }

    /// A trait's mode is in force while the test it scopes runs, and only then (without one,
    /// `record:` nil falls back to CARTRENDER_RECORD and CI).
    @Test func aTraitSetsTheRecordModeWhileItsTestRuns() async throws {
        #expect(RecordFramesTrait.current == nil)
        try await RecordFramesTrait(mode: .all).provideScope(for: Test.current!, testCase: nil) {
            #expect(RecordFramesTrait.current == .all)
        }
    }
}
