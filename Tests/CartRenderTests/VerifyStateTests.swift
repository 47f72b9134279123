@testable import CartRender
import CartRenderCore
import Foundation
import XCTest

/// Motion-aware `verify` through the library: a baseline recorded from one scene keeps its
/// `manifest.json`, and a verify of a changed scene names the first frame whose state diverges,
/// the events that moved, and fails on state alone unless told to ignore it.
final class VerifyStateTests: XCTestCase {
    private static let examples = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples").path

    private var root = ""
    private var baseline: String { root + "/baseline" }

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "cartrender-state-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    /// The fly button with taps at `taps` (s), 1.7 s long.
    private func fly(_ taps: [Double], fps: Int) throws -> Renderer {
        let events = taps.map { #"{"at": \#($0), "tap": "add"}"# }.joined(separator: ", ")
        let json = #"{"screen": "shop", "duration": 1.7, "shop": {"cartFrame": "measured"}, "events": [\#(events)]}"#
        return try Renderer(scene: SceneDecoder.decode(Array(json.utf8), file: "fly.json", baseDirectory: Self.examples,
                                                       overrides: SceneOverrides(fps: fps, scale: 1)))
    }

    /// `Examples/cart-swipe.json` with its first swipe `translation` pt long.
    private func cart(firstSwipe translation: Int) throws -> Renderer {
        var json = try String(contentsOfFile: Self.examples + "/cart-swipe.json", encoding: .utf8)
        json = json.replacingOccurrences(of: #""translation": -120"#, with: #""translation": \#(translation)"#)
        return try Renderer(scene: SceneDecoder.decode(Array(json.utf8), file: "cart.json", baseDirectory: Self.examples,
                                                       overrides: SceneOverrides(fps: 10, scale: 1)))
    }

    private func verify(_ renderer: Renderer, _ record: RecordMode, frames: [FrameSelection] = [.all],
                        ignoreState: Bool = false) throws -> SnapshotResult {
        var options = VerifyOptions(baseline: baseline)
        options.reportDirectory = root + "/report"
        options.record = record
        options.frames = frames
        options.ignoreState = ignoreState
        options.jobs = 2
        return try Verifier.verify(renderer: renderer, subject: "scene.json", options: options)
    }

    private func manifest() throws -> Manifest {
        try Manifest(json: Array(try Data(contentsOf: URL(fileURLWithPath: baseline + "/manifest.json"))))
    }

    private func paths(_ frame: FrameResult?) -> [String] { (frame?.stateChanges ?? []).map(\.path) }

    /// The second tap one frame later (0.5 → 0.6 s at 10 fps): frame 5 is the first to differ,
    /// where the baseline has a second flight that has just launched and a pressed button.
    func testATapMovedByOneFrame() throws {
        let recorded = try verify(try fly([0.3, 0.5], fps: 10), .missing)
        XCTAssertTrue(recorded.passed)
        XCTAssertFalse(recorded.stateCompared, "a new baseline: nothing to compare with")
        XCTAssertEqual(recorded.warnings, [], "and nothing to say about it")

        let moved = try verify(try fly([0.3, 0.6], fps: 10), .never)
        XCTAssertTrue(moved.stateCompared)
        XCTAssertFalse(moved.passed)
        let first = try XCTUnwrap(moved.stateDivergence)
        XCTAssertEqual(first.index, 5)
        XCTAssertEqual(first.time, 0.5)
        XCTAssertEqual(paths(first), ["flights[1]", "buttonPressed"])
        XCTAssertEqual(first.stateChanges?[1], ManifestComparison.Change(path: "buttonPressed", expected: true, actual: false))
        XCTAssertNil(first.stateChanges?[0].actual, "the flight is not in the air yet")
        XCTAssertEqual(moved.stateDivergenceLine?.hasPrefix(#"state diverges first at frame 5 (t=0.5 s): flights[1] {"id":2,"progress":0,"#), true,
                       moved.stateDivergenceLine ?? "")
        XCTAssertEqual(moved.stateDivergenceLine?.hasSuffix(", buttonPressed true → false"), true)
        XCTAssertEqual(moved.movedEvents.map { $0.json.serialized() }, [
            #"{"kind":"tap","target":"add","expected":0.5,"actual":0.6}"#,
            #"{"kind":"launch","flight":2,"expected":0.5,"actual":0.6}"#,
            #"{"kind":"land","flight":2,"expected":1.15,"actual":1.25}"#,
        ])
        XCTAssertNil(moved.frames[4].stateChanges.map { $0.isEmpty ? nil : $0 } ?? nil, "frame 4 agrees")
        // The first moved event (the tap) was caused by the scene's events[1], written on line 1
        // where its object starts.
        let source = try XCTUnwrap(moved.firstMovedEventSource)
        XCTAssertEqual(source.index, 1)
        let json1 = #"{"screen": "shop", "duration": 1.7, "shop": {"cartFrame": "measured"}, "events": [{"at": 0.3, "tap": "add"}, "#
        XCTAssertEqual(source.location, SourceLocation(line: 1, column: json1.unicodeScalars.count + 1))
        XCTAssertTrue(moved.json.serialized().contains(#""firstMovedEvent":{"event":1,"line":1,"column":\#(json1.unicodeScalars.count + 1)}"#),
                      moved.json.serialized())

        let json = moved.json
        guard case .object(let members) = json, let divergence = members.first(where: { $0.0 == "stateDivergence" })?.1 else {
            return XCTFail("no stateDivergence in \(json.serialized())")
        }
        XCTAssertTrue(divergence.serialized().hasPrefix(#"{"frame":5,"time":0.5,"ignored":false,"changes":[{"path":"flights[1]","expected":{"id":2,"#),
                      divergence.serialized())
    }

    /// The first tap 0.05 s later at 20 fps: its landing moves from 0.95 to 1 s, so at 0.95 s the
    /// baseline counts 1 item and this run still 0, with the flight short of the cart.
    func testALandingMoved() throws {
        XCTAssertTrue(try verify(try fly([0.3], fps: 20), .missing, frames: [.range(17, 21)]).passed)
        let moved = try verify(try fly([0.35], fps: 20), .never, frames: [.range(17, 21)])
        XCTAssertEqual(moved.movedEvents.map { $0.json.serialized() }, [
            #"{"kind":"tap","target":"add","expected":0.3,"actual":0.35}"#,
            #"{"kind":"launch","flight":1,"expected":0.3,"actual":0.35}"#,
            #"{"kind":"land","flight":1,"expected":0.95,"actual":1}"#,
        ])
        XCTAssertEqual(moved.stateDivergence?.index, 17)
        XCTAssertEqual(moved.firstMovedEventSource?.index, 0, "the landing's tap")
        let landing = try XCTUnwrap(moved.frames.first { $0.index == 19 })
        XCTAssertEqual(landing.stateChanges?.first, ManifestComparison.Change(path: "count", expected: 1, actual: 0))
        XCTAssertTrue(paths(landing).contains("flights[0]"), "the flight is still in the air: \(paths(landing))")
        XCTAssertTrue(paths(landing).contains("badgeText"))
        let after = try XCTUnwrap(moved.frames.first { $0.index == 21 })
        XCTAssertFalse(paths(after).contains("count"), "both have landed by 1.05 s")
    }

    /// A shorter first swipe on the cart page: the swiped row's offset is the first difference.
    func testARowsOffsetChanged() throws {
        XCTAssertTrue(try verify(try cart(firstSwipe: -120), .missing, frames: [.range(0, 8)]).passed)
        let shorter = try verify(try cart(firstSwipe: -100), .never, frames: [.range(0, 8)])
        let first = try XCTUnwrap(shorter.stateDivergence)
        XCTAssertEqual(first.index, 4, "the first frame after the finger lands at 0.3 s")
        XCTAssertEqual(paths(first), ["rows[2].offset"])
        XCTAssertEqual(shorter.movedEvents.map(\.kind), [], "the events keep their times")
        XCTAssertNil(shorter.firstMovedEventSource)
        XCTAssertTrue(shorter.json.serialized().contains(#""firstMovedEvent":null"#))
    }

    /// A state difference alone fails the frame (the pixels are the same: the baseline's
    /// manifest was edited); `ignoreState` reports it and passes.
    func testStateAloneFailsUnlessIgnored() throws {
        let renderer = try fly([0.3], fps: 10)
        XCTAssertTrue(try verify(renderer, .missing, frames: [.range(0, 3)]).passed)
        var m = try manifest()
        guard case .object(var state) = m.frames[2].state else { return XCTFail("state is an object") }
        state[0].1 = 7
        m.frames[2].state = .object(state)
        try m.serialized().write(toFile: baseline + "/manifest.json", atomically: true, encoding: .utf8)

        let failed = try verify(renderer, .never, frames: [.range(0, 3)])
        XCTAssertFalse(failed.passed)
        XCTAssertEqual(failed.frames.map(\.status), [.pass, .pass, .pass, .pass], "pixels all match")
        XCTAssertEqual(failed.failures.map(\.index), [2])
        XCTAssertEqual(failed.stateDivergenceLine, "state diverges first at frame 2 (t=0.2 s): count 7 → 0")
        XCTAssertTrue(failed.summaryLine.hasPrefix("cartrender verify: FAILED, 1 of 4 frames failed (1 state)"), failed.summaryLine)
        // The report counts that frame as failing on state, not as a pass, and marks it so.
        let html = HTMLReport.html(for: failed)
        XCTAssertTrue(html.contains(#"<span class="n pass">3 pass</span>"#), "3 pass, not 4")
        XCTAssertTrue(html.contains(#"<span class="n state">1 state</span>"#))
        XCTAssertTrue(html.contains(#"<section class="frame state" id="frame_0002">"#))
        XCTAssertTrue(html.contains(##"<a class="cell state" href="#frame_0002""##))

        let ignored = try verify(renderer, .never, frames: [.range(0, 3)], ignoreState: true)
        XCTAssertTrue(ignored.passed)
        XCTAssertEqual(ignored.stateDivergence?.index, 2, "still reported")
        XCTAssertEqual(ignored.stateDivergenceLine, "state diverges first at frame 2 (t=0.2 s): count 7 → 0 (ignored: --ignore-state)")

        // `failed` rewrites that frame's entry, and only that one.
        let before = try manifest()
        XCTAssertEqual(try verify(renderer, .failed, frames: [.range(0, 3)]).recordedCount, 1)
        let after = try manifest()
        XCTAssertEqual(after.frames[2].state.serialized(), try JSONValue(encoding: renderer.makeWorker().frame(at: 0.2).state).serialized())
        XCTAssertEqual(Array(after.frames.prefix(2)), Array(before.frames.prefix(2)))
        XCTAssertTrue(try verify(renderer, .never, frames: [.range(0, 3)]).passed)
    }

    /// Without a `manifest.json` the pixels are compared and one warning says the states are not.
    func testWithoutABaselineManifestOnlyPixelsAreCompared() throws {
        let renderer = try fly([0.3], fps: 10)
        XCTAssertTrue(try verify(renderer, .missing, frames: [.range(0, 3)]).passed)
        try FileManager.default.removeItem(atPath: baseline + "/manifest.json")
        let r = try verify(try fly([0.2], fps: 10), .never, frames: [.range(0, 1)])
        XCTAssertTrue(r.passed, "frames 0 and 1 look the same")
        XCTAssertFalse(r.stateCompared)
        XCTAssertNil(r.stateDivergence)
        XCTAssertEqual(r.warnings, ["\(baseline) has no manifest.json: comparing pixels only, not states (verify --record all writes one)"])
    }

    /// `missing` writes a baseline manifest of the frames it records; `all` rewrites it for the
    /// render of now (another scene: it is a baseline's, not a render's, so that is allowed),
    /// with the new events; so does `failed` when the frames it keeps agree with this render;
    /// a run with failures records nothing under `missing` and leaves the manifest as it was.
    func testRecordModesWriteTheManifest() throws {
        XCTAssertTrue(try verify(try fly([0.3], fps: 10), .missing, frames: [.range(0, 4)]).passed)
        var m = try manifest()
        XCTAssertTrue(m.baseline)
        XCTAssertEqual(m.frames.map(\.index), [0, 1, 2, 3, 4])
        XCTAssertEqual(m.frames.map { $0.files.map(\.name) }, (0...4).map { [String(format: "frame_%04d.png", $0)] })
        XCTAssertEqual(m.events.first?.time, 0.3)

        XCTAssertTrue(try verify(try fly([0.3], fps: 10), .missing, frames: [.range(0, 6)]).passed)
        XCTAssertEqual(try manifest().frames.map(\.index), Array(0...6), "frames 5 and 6 added")

        let later = try fly([0.4], fps: 10)
        XCTAssertEqual(try verify(later, .all, frames: [.range(0, 6)]).recordedCount, 7)
        m = try manifest()
        XCTAssertEqual(m.events.first?.time, 0.4, "every frame rewritten: the manifest is this render's")
        XCTAssertTrue(try verify(later, .never, frames: [.range(0, 6)]).passed)

        let r = try verify(try fly([0.5], fps: 10), .missing, frames: [.range(0, 8)])
        XCTAssertEqual(r.frames.filter(\.recorded).map(\.index), [])
        XCTAssertEqual(r.notRecorded, ["frame_0007.png", "frame_0008.png"])
        XCTAssertEqual(r.failures.map(\.index), [4, 5, 6, 7, 8])
        let partial = try manifest()
        XCTAssertEqual(partial.events.first?.time, 0.4, "frames 4–6 still show the 0.4 s render")
        XCTAssertEqual(partial.frames, m.frames, "nothing recorded")

        XCTAssertEqual(try verify(try fly([0.5], fps: 10), .failed, frames: [.range(0, 8)]).frames.filter(\.recorded).map(\.index), [4, 5, 6, 7, 8])
        let rewritten = try manifest()
        XCTAssertEqual(rewritten.events.first?.time, 0.5, "frames 0–3 agree with this render, 4–8 were recorded by it")
        XCTAssertEqual(Array(rewritten.frames.prefix(4)), Array(m.frames.prefix(4)))
        XCTAssertNotEqual(rewritten.frames[4], m.frames[4])

        // Another fps (a baseline's manifest may change render): every frame rewritten, the
        // extra ones removed, and the manifest is the 4 fps render's.
        let slower = try fly([0.5], fps: 4)
        let all = try verify(slower, .all)
        XCTAssertTrue(all.passed)
        XCTAssertEqual(all.frames.filter { $0.status == .extra }.map(\.name), ["frame_0008.png"])
        let four = try manifest()
        XCTAssertEqual(four.fps, 4)
        XCTAssertEqual(four.frames.map(\.index), Array(0..<slower.frameCount))
        XCTAssertFalse(FileManager.default.fileExists(atPath: baseline + "/frame_0008.png"))
    }

    /// The library route records and compares the manifest too.
    func testSnapshotsRecordAndCompareTheManifest() throws {
        let first = try Snapshots.verify(.scene(try fly([0.3], fps: 10).scene), baseline: baseline, times: [0.3, 0.5], record: .missing)
        XCTAssertTrue(first.passed)
        XCTAssertEqual(try manifest().frames.map(\.index), [3, 5])
        let moved = try Snapshots.verify(.scene(try fly([0.4], fps: 10).scene), baseline: baseline, times: [0.3, 0.5], record: .never)
        XCTAssertEqual(moved.stateDivergence?.index, 3)
        XCTAssertTrue(moved.failureMessage?.contains("\n  state diverges first at frame 3 (t=0.3 s): ") == true, moved.failureMessage ?? "")
    }
}
