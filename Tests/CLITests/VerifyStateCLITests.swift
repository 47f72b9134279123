import CartRenderCore
import Foundation
import XCTest

/// Motion-aware `cartrender verify` as a user runs it: the baseline's `manifest.json`, the state
/// divergence in every output, `--ignore-state`, provenance warnings, and the variants path.
final class VerifyStateCLITests: XCTestCase {
    private var dir = ""

    /// The fly button at 10 fps for 1 s (11 frames), one tap at 0.3 s (its flight lands at 0.95 s).
    private func scene(tap: Double = 0.3, variants: String? = nil) -> String {
        #"{"screen": "shop", "fps": 10, "duration": 1, "events": [{"at": \#(tap), "tap": "add"}]"#
            + (variants.map { #", "variants": \#($0)"# } ?? "") + "}"
    }

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory()
        try scene().write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func run(_ args: [String], env: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> Binary.Result {
        try Binary.run(args, in: dir, environment: env, timeout: 300, file: file, line: line)
    }

    private let verify = ["verify", "scene.json", "--baseline", "snaps", "--scale", "1", "--quiet", "--summary-markdown", "summary.md"]

    private func text(_ name: String) throws -> String { try String(contentsOfFile: dir + "/" + name, encoding: .utf8) }

    private func editManifest(_ path: String = "snaps/manifest.json", _ change: (inout Manifest) -> Void) throws {
        var m = try Manifest(json: Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + path))))
        change(&m)
        try m.serialized().write(toFile: dir + "/" + path, atomically: true, encoding: .utf8)
    }

    /// `count` in frame `index`'s state set to `value`.
    private func setCount(_ m: inout Manifest, frame index: Int, _ value: Int) {
        guard case .object(var state) = m.frames[index].state, state[0].0 == "count" else { return XCTFail("count comes first") }
        state[0].1 = .int(value)
        m.frames[index].state = .object(state)
    }

    /// A state difference alone (same pixels) fails with exit 1 and is named before the pixel
    /// lines, in JSON, junit.xml, the Markdown summary and the HTML report; `--ignore-state`
    /// reports it and passes.
    func testAStateDifferenceAloneFailsUnlessIgnored() throws {
        let record = try run(verify)
        XCTAssertEqual(record.status, 0, record.stderr)
        XCTAssertEqual(record.stderr, "", "a new baseline: nothing to warn about")
        XCTAssertFalse(try text("cartrender-report/index.html").contains(#"id="state""#), "nor to show")
        let m = try Manifest(json: Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/snaps/manifest.json"))))
        XCTAssertTrue(m.baseline)
        XCTAssertEqual(m.frames.count, 11)
        try editManifest { setCount(&$0, frame: 5, 7) }

        let failed = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(failed.status, 1, failed.stderr)
        XCTAssertEqual(failed.stderr, "")
        XCTAssertEqual(failed.stdout, """
            state diverges first at frame 5 (t=0.5 s): count 7 → 0
            cartrender verify: FAILED, 1 of 11 frames failed (1 state); report: cartrender-report/index.html

            """)
        let junit = try text("cartrender-report/junit.xml")
        XCTAssertTrue(junit.contains(#"<failure type="state" message="pixels match, but the state differs from the baseline manifest&apos;s: count 7 → 0">"#), junit)
        let summary = try text("summary.md")
        XCTAssertTrue(summary.contains("| state divergence | images |\n| --- | ---: | ---: | --- | --- | --- |\n| `frame_0005.png` | 0.5 s | 0 (0 %) | state | count 7 → 0 | — |\n"),
                      summary)
        XCTAssertTrue(summary.contains("- State diverges first at frame 5 \\(t=0.5 s\\): count 7 → 0\n"), summary)
        let html = try text("cartrender-report/index.html")
        XCTAssertTrue(html.contains("<h2>State diverges first at frame 5 (t=0.5 s)</h2>"), html)
        XCTAssertTrue(html.contains("<tr><td><code>count</code></td><td>7</td><td>0</td></tr>"))

        let json = try run(verify + ["--json"], env: ["CI": "true"])
        XCTAssertEqual(json.status, 1)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let divergence = report["stateDivergence"] as! [String: Any]
        XCTAssertEqual(divergence["frame"] as? Int, 5)
        XCTAssertEqual(divergence["time"] as? Double, 0.5)
        XCTAssertEqual((divergence["changes"] as! [[String: Any]]).map { $0["path"] as! String }, ["count"])
        XCTAssertEqual((report["events"] as? [Any])?.count, 0)
        XCTAssertEqual((report["summary"] as! [String: Any])["stateDiffers"] as? Int, 1)

        let ignored = try run(verify + ["--ignore-state"], env: ["CI": "true"])
        XCTAssertEqual(ignored.status, 0, ignored.stdout)
        XCTAssertTrue(ignored.stdout.hasPrefix("state diverges first at frame 5 (t=0.5 s): count 7 → 0 (ignored: --ignore-state)\ncartrender verify: passed"), ignored.stdout)
        XCTAssertTrue(try text("cartrender-report/junit.xml").contains("<system-out>ignored (--ignore-state): pixels match, but the state differs"))
    }

    /// After the scene changed, the change (from the baseline manifest's scene), the first
    /// diverging frame and the moved events are named;
    /// `--record failed` rewrites the failing frames and their manifest entries (a baseline's
    /// manifest is not refused like another render's), and then verify passes.
    func testRecordFailedAfterTheSceneChanged() throws {
        XCTAssertEqual(try run(verify).status, 0)
        try scene(tap: 0.4).write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
        let moved = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(moved.status, 1)
        let lines = moved.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "scene changed: events[0].at 0.3 → 0.4")
        XCTAssertTrue(lines[1].hasPrefix(#"state diverges first at frame 3 (t=0.3 s): flights[0] {"id":1,"progress":0,"center":{"x":196.… → none, "#), lines[1])
        XCTAssertEqual(lines[2], #"events moved: tap (target "add") at 0.3 s → 0.4 s, launch (flight 1) at 0.3 s → 0.4 s, land (flight 1) at 0.95 s → 1.05 s"#)
        XCTAssertTrue(lines[3].hasPrefix("FAIL     frame_0003.png (t=0.3 s): "), lines[3])

        let record = try run(verify + ["--record", "failed"])
        XCTAssertEqual(record.status, 0, record.stderr)
        let again = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(again.status, 0, again.stdout)
        XCTAssertEqual(again.stdout, "cartrender verify: passed, 11 frames, 11 matched (11 byte-identical); report: cartrender-report/index.html\n",
                       "frames 0–2 agree with this render, the others were rewritten: the manifest's events are this render's")
    }

    /// A baseline manifest that leaves frames without one state entry — one not listed, one listed
    /// twice (in place of another, which is then missing too) — says so in one warning naming the
    /// manifest and the frames, and `stateCompared` is false with the frames in
    /// `framesWithoutState`; the other frames' states are still compared.
    func testAPartialBaselineManifestNamesTheFramesWithoutState() throws {
        XCTAssertEqual(try run(verify).status, 0)
        try editManifest { m in
            m.frames.remove(at: 3)                         // frame 3 not listed
            m.frames[6] = m.frames[4]                      // frame 5 twice, in place of frame 7, not listed then
        }
        let partial = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(partial.status, 0, partial.stdout)
        XCTAssertEqual(partial.stderr, "cartrender: snaps/manifest.json has no state for frames 3, 5, 7 (not listed, listed more than once, or without \"state\"): comparing their pixels only\n")
        let report = try JSONSerialization.jsonObject(with: Data(try run(verify + ["--json"], env: ["CI": "true"]).stdout.utf8)) as! [String: Any]
        XCTAssertEqual(report["stateCompared"] as? Bool, false)
        XCTAssertEqual(report["framesWithoutState"] as? [Int], [3, 5, 7])
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(try text("cartrender-report/report.json").utf8)) as? NSDictionary, report as NSDictionary)

        try editManifest { setCount(&$0, frame: 8, 4) }  // frame 9's entry: still compared
        let failed = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stdout.hasPrefix("state diverges first at frame 9 (t=0.9 s): count 4 → "), failed.stdout)

        XCTAssertEqual(try run(verify + ["--record", "all"]).status, 0)
        let whole = try run(verify + ["--json"], env: ["CI": "true"])
        XCTAssertEqual(whole.stderr, "")
        let full = try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(full["stateCompared"] as? Bool, true)
        XCTAssertEqual(full["framesWithoutState"] as? [Int], [])
    }

    /// A baseline without `manifest.json` is compared by its pixels, and stderr says so once;
    /// `--record all` writes the manifest.
    func testWithoutABaselineManifestVerifySaysSoOnce() throws {
        XCTAssertEqual(try run(verify).status, 0)
        try FileManager.default.removeItem(atPath: dir + "/snaps/manifest.json")
        let pixels = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(pixels.status, 0)
        XCTAssertEqual(pixels.stderr, "cartrender: snaps has no manifest.json: comparing pixels only, not states (verify --record all writes one)\n")
        XCTAssertTrue(try text("cartrender-report/index.html").contains("<p>snaps has no manifest.json: comparing pixels only, not states (verify --record all writes one).</p>"))
        let report = try JSONSerialization.jsonObject(with: Data(try run(verify + ["--json"], env: ["CI": "true"]).stdout.utf8)) as! [String: Any]
        XCTAssertEqual(report["stateCompared"] as? Bool, false)
        XCTAssertTrue(report["stateDivergence"] is NSNull)

        XCTAssertEqual(try run(verify + ["--record", "all"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/snaps/manifest.json"))
        XCTAssertEqual(try run(verify, env: ["CI": "true"]).stderr, "")
    }

    /// Software of the baseline manifest that differs from this run's: one warning line each on
    /// stderr, and in the JSON, HTML, junit.xml and Markdown reports; the run still passes.
    func testProvenanceWarningsFromAnEditedBaselineManifest() throws {
        XCTAssertEqual(try run(verify).status, 0)
        var cairo = "", font = Manifest.Software.Font(file: "", package: "")
        try editManifest { m in
            cairo = m.software.cairo
            font = m.software.fonts.removeFirst()
            m.software.cairo = "0.0.1"
        }
        let r = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let cairoLine = "baseline recorded with cairo 0.0.1, this run uses \(cairo): pixel differences may come from that"
        let fontLine = "baseline recorded without font \(font.file), this run uses it from \(font.package): pixel differences may come from that"
        XCTAssertEqual(r.stderr, "cartrender: snaps/manifest.json: \(cairoLine)\ncartrender: snaps/manifest.json: \(fontLine)\n")
        XCTAssertTrue(try text("cartrender-report/index.html").contains("<h2>Provenance</h2>\n<ul>\n<li>\(cairoLine)</li>"))
        XCTAssertTrue(try text("cartrender-report/junit.xml").contains("<system-out>snaps/manifest.json: \(cairoLine)&#10;"))
        let summary = try text("summary.md")
        XCTAssertTrue(summary.contains("- ⚠️ Baseline recorded with cairo 0.0.1, this run uses \(cairo): pixel differences may come from that\n"), summary)
        let report = try JSONSerialization.jsonObject(with: Data(try text("cartrender-report/report.json").utf8)) as! [String: Any]
        let provenance = report["provenance"] as! [[String: Any]]
        XCTAssertEqual(provenance.map { $0["component"] as! String }, ["cairo", "font " + font.file])
        XCTAssertEqual(provenance[0]["baseline"] as? String, "0.0.1")
        XCTAssertEqual(provenance[0]["current"] as? String, cairo)
    }

    /// With a `"variants"` matrix each variant's baseline keeps its own manifest and is
    /// compared with it.
    func testEachVariantKeepsAndComparesItsManifest() throws {
        try scene(variants: #"{"colorScheme": ["light", "dark"]}"#).write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(verify).status, 0)
        for name in ["light", "dark"] {
            XCTAssertTrue(try Manifest(json: Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/snaps/\(name)/manifest.json")))).baseline, name)
        }
        try editManifest("snaps/dark/manifest.json") { setCount(&$0, frame: 2, 3) }
        let r = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, """
            variant light:
            cartrender verify: passed, 11 frames, 11 matched (11 byte-identical); report: cartrender-report/light/index.html
            variant dark:
            state diverges first at frame 2 (t=0.2 s): count 3 → 0
            cartrender verify: FAILED, 1 of 11 frames failed (1 state); report: cartrender-report/dark/index.html
            1 of 2 variants passed; failed: dark; report: cartrender-report/index.html

            """)
    }
}
