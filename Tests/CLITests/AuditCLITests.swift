import Foundation
import XCTest

/// `cartrender audit` like a user runs it: scenes built to pass and to fail each check, exit
/// codes, the JSON shape, `--ignore`, `--level AAA`, variants, and `--audit` on render and verify.
final class AuditCLITests: XCTestCase {
    private var dir = ""

    /// The dark shop at rest passes every check at AA.
    private let pass = #"{"screen": "shop", "colorScheme": "dark", "fps": 2, "duration": 0.5}"#
    /// The light shop: its secondary description is 3.43:1 on white (AA wants 4.5:1).
    private let lowContrast = #"{"screen": "shop", "fps": 2, "duration": 0.5}"#
    /// The dark shop with a blank image label.
    private let noLabel = #"{"screen": "shop", "colorScheme": "dark", "fps": 2, "duration": 0.5, "shop": {"imageLabel": " "}}"#

    /// A cart of one item at `size`, on a device `width` pt wide, titled `title`.
    private func cart(title: String = "My cart", size: String = "large", width: Int = 393) -> String {
        #"{"screen": "cart", "fps": 2, "duration": 0.5, "dynamicTypeSize": "\#(size)", "device": {"width": \#(width), "height": 600, "scale": 1, "safeArea": {"top": 0, "bottom": 0}}, "#
            + #""cart": {"title": "\#(title)", "currencyCode": "USD", "items": [{"id": "a", "name": "Tek", "details": "Gift", "image": "symbol:backpack.fill", "price": "9.99", "quantity": 1}]}}"#
    }

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory()
        let files = ["pass.json": pass, "contrast.json": lowContrast, "label.json": noLabel, "cart.json": cart(),
                     "truncated.json": cart(title: Array(repeating: "Summary-of-everything", count: 12).joined(separator: " "), size: "accessibility5", width: 200)]
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func run(_ args: [String]) throws -> Binary.Result {
        try Binary.run(args, in: dir, timeout: 300)
    }

    private func json(_ args: [String]) throws -> (status: Int32, report: [String: Any]) {
        let out = try run(args + ["--json", "--quiet"])
        let value = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
        return (out.status, try XCTUnwrap(value, out.stderr))
    }

    private func issues(_ report: [String: Any]) -> [[String: Any]] { report["issues"] as? [[String: Any]] ?? [] }

    func testAPassingSceneExitsZero() throws {
        let out = try run(["audit", "pass.json", "--quiet"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "cartrender audit: passed, no issues in 2 frames (1 distinct), WCAG AA\n")
        let (status, report) = try json(["audit", "pass.json"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(report["passed"] as? Bool, true)
        XCTAssertEqual(report["level"] as? String, "AA")
        XCTAssertEqual(report["frames"] as? Int, 2)
        XCTAssertEqual(report["distinctFrames"] as? Int, 1)
        XCTAssertEqual(issues(report).count, 0)
    }

    func testLowContrastTextFailsWithItsRatioFramesAndRect() throws {
        let (status, report) = try json(["audit", "contrast.json"])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(report["passed"] as? Bool, false)
        let found = issues(report)
        XCTAssertEqual(found.count, 1)
        let issue = try XCTUnwrap(found.first)
        XCTAssertEqual(Array(issue.keys).sorted(), ["fontSize", "frames", "kind", "ratio", "rect", "required", "text"])
        XCTAssertEqual(issue["kind"] as? String, "contrast")
        XCTAssertEqual(issue["text"] as? String, "Twenty liters, water resistant and light enough for every day.")
        XCTAssertEqual(issue["ratio"] as? Double, 3.43)
        XCTAssertEqual(issue["required"] as? Double, 4.5)
        XCTAssertEqual(issue["frames"] as? [Int], [0, 1])
        XCTAssertEqual((issue["rect"] as? [String: Double]).map { Array($0.keys).sorted() }, ["height", "width", "x", "y"])
        XCTAssertEqual((issue["rect"] as? [String: Double])?["x"], 24)
        // One line per issue, then the summary.
        let out = try run(["audit", "contrast.json", "--quiet"])
        XCTAssertEqual(out.stdout.split(separator: "\n").count, 2)
        XCTAssertTrue(out.stdout.hasPrefix("contrast: \"Twenty liters, water resistant and light enough for every day.\" 3.43:1, needs 4.5:1 (17 pt text) at 24,"), out.stdout)
        XCTAssertTrue(out.stdout.hasSuffix("cartrender audit: FAILED, 1 issue in 2 frames (1 distinct), WCAG AA\n"), out.stdout)
    }

    func testLevelAAAAsksSevenToOne() throws {
        let (status, report) = try json(["audit", "pass.json", "--level", "AAA"])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(report["level"] as? String, "AAA")
        let texts = issues(report).map { "\($0["text"] as? String ?? "") \($0["ratio"] as? Double ?? 0) \($0["required"] as? Double ?? 0)" }
        XCTAssertEqual(texts, ["Add to Cart 5.06 7.0", "Twenty liters, water resistant and light enough for every day. 6.36 7.0"])
        let bad = try run(["audit", "pass.json", "--level", "A"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.stderr, "cartrender: --level: expected AA or AAA, got \"A\"\nRun 'cartrender audit --help' for usage.\n")
    }

    func testAnImageWithoutALabelFailsAndIgnoreLeavesItOut() throws {
        let (status, report) = try json(["audit", "label.json"])
        XCTAssertEqual(status, 1)
        let issue = try XCTUnwrap(issues(report).first)
        XCTAssertEqual(issues(report).count, 1)
        XCTAssertEqual(Array(issue.keys).sorted(), ["element", "frames", "kind", "rect", "role"])
        XCTAssertEqual(issue["kind"] as? String, "label")
        XCTAssertEqual(issue["element"] as? String, "product image")
        XCTAssertEqual(issue["role"] as? String, "image")

        let (ignored, quiet) = try json(["audit", "label.json", "--ignore", "label"])
        XCTAssertEqual(ignored, 0)
        XCTAssertEqual(quiet["passed"] as? Bool, true)
        XCTAssertEqual(quiet["ignored"] as? [String], ["label"])
    }

    func testSmallStepperButtonsAndIconOnlyButtonsFail() throws {
        let (status, report) = try json(["audit", "cart.json"])
        XCTAssertEqual(status, 1)
        let targets = issues(report).filter { $0["kind"] as? String == "touchTarget" }
        XCTAssertEqual(targets.map { $0["element"] as? String ?? "" }, ["back button", "minus (a)", "plus (a)"])
        let plus = try XCTUnwrap(targets.last)
        XCTAssertEqual(Array(plus.keys).sorted(), ["element", "frames", "kind", "rect", "required", "role", "size"])
        XCTAssertEqual(plus["size"] as? [String: Double], ["width": 15, "height": 15])
        XCTAssertEqual(plus["required"] as? Double, 44)
        XCTAssertEqual(plus["role"] as? String, "stepper")
        // Icon-only buttons have no label; "Check out" is labelled by its title.
        let unlabelled = issues(report).filter { $0["kind"] as? String == "label" }.map { $0["element"] as? String ?? "" }
        XCTAssertEqual(unlabelled, ["back button", "image (a)", "minus (a)", "plus (a)"])
        // The kinds' order: contrast, touchTarget, label, truncation.
        let kinds = issues(report).map { $0["kind"] as? String ?? "" }
        XCTAssertEqual(kinds, kinds.sorted { ["contrast", "touchTarget", "label", "truncation"].firstIndex(of: $0)! < ["contrast", "touchTarget", "label", "truncation"].firstIndex(of: $1)! })
        let (passed, _) = try json(["audit", "cart.json", "--ignore", "touchTarget", "--ignore", "label", "--ignore", "contrast"])
        XCTAssertEqual(passed, 0)
    }

    func testTruncatedAndClippedTextAtTheDynamicTypeSize() throws {
        let (status, report) = try json(["audit", "truncated.json", "--ignore", "contrast", "--ignore", "touchTarget", "--ignore", "label"])
        XCTAssertEqual(status, 1)
        let found = issues(report)
        XCTAssertEqual(found.map { "\($0["text"] as? String ?? "") \($0["reason"] as? String ?? "")" },
                       [Array(repeating: "Summary-of-everything", count: 12).joined(separator: " ") + " truncated", "Total truncated", "$9.99 truncated",
                        "Check out truncated"],
                       "top to bottom: the title, \"Total\" and the total (each wrapped in its share, with no height left for all their lines), then the button's title")
        let truncated = try XCTUnwrap(found.first)
        XCTAssertEqual(truncated["lines"] as? Int, 1)
        XCTAssertGreaterThan(truncated["linesNeeded"] as? Int ?? 0, 1)
        // At the default size on a full-width screen nothing is cut.
        let (fits, _) = try json(["audit", "cart.json", "--ignore", "contrast", "--ignore", "touchTarget", "--ignore", "label"])
        XCTAssertEqual(fits, 0)
    }

    func testAnUnknownKindIsAUsageErrorNamingTheKinds() throws {
        let out = try run(["audit", "pass.json", "--ignore", "colour"])
        XCTAssertEqual(out.status, 64)
        XCTAssertEqual(out.stderr, "cartrender: --ignore: unknown kind \"colour\"; expected contrast, touchTarget, label, truncation\nRun 'cartrender audit --help' for usage.\n")
        XCTAssertEqual(out.stdout, "")
        let twice = try run(["audit", "pass.json", "--json", "--json"])
        XCTAssertEqual(twice.status, 64)
        let missing = try run(["audit", "nothing.json"])
        XCTAssertEqual(missing.status, 66)
    }

    func testTheReportDoesNotDependOnJobs() throws {
        let one = try run(["audit", "contrast.json", "--json", "--quiet", "--jobs", "1", "--fps", "8"])
        let three = try run(["audit", "contrast.json", "--json", "--quiet", "--jobs", "3", "--fps", "8"])
        XCTAssertEqual(one.status, 1)
        XCTAssertEqual(one.stdout, three.stdout)
    }

    func testRenderAuditPutsTheReportInTheManifest() throws {
        let out = try run(["contrast.json", "--audit", "--out", "out", "--scale", "1"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertTrue(out.stderr.contains("cartrender audit: FAILED, 1 issue in 2 frames (1 distinct), WCAG AA (in manifest.json)\n"), out.stderr)
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/out/manifest.json"))) as? [String: Any])
        let audit = try XCTUnwrap(manifest["audit"] as? [String: Any])
        let (_, report) = try json(["audit", "contrast.json", "--scale", "1"])
        XCTAssertEqual(audit as NSDictionary, report as NSDictionary)
        // Without --audit the manifest has no "audit".
        XCTAssertEqual(try run(["contrast.json", "--out", "plain", "--scale", "1", "--quiet"]).status, 0)
        let plain = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/plain/manifest.json"))) as? [String: Any])
        XCTAssertNil(plain["audit"])
        let shard = try run(["contrast.json", "--audit", "--shard", "1/2", "--out", "s"])
        XCTAssertEqual(shard.status, 64)
        XCTAssertEqual(shard.stderr, "cartrender: --shard and --audit cannot be used together: audit the whole render\nRun 'cartrender --help' for usage.\n")
    }

    func testVerifyAuditFailsOnIssuesAndReportsThem() throws {
        XCTAssertEqual(try run(["verify", "pass.json", "--baseline", "b", "--record", "all", "--quiet"]).status, 0)
        let clean = try run(["verify", "pass.json", "--baseline", "b", "--quiet", "--audit"])
        XCTAssertEqual(clean.status, 0, clean.stdout)
        XCTAssertTrue(clean.stdout.hasSuffix("cartrender audit: passed, no issues in 2 frames (1 distinct), WCAG AA\n"), clean.stdout)
        // Same pixels (the label is not drawn), so the frames pass and the audit fails the run. The
        // label is part of the frames' state, which differs from the baseline's: not compared here.
        let out = try run(["verify", "label.json", "--baseline", "b", "--quiet", "--audit", "--json", "--ignore-state"])
        XCTAssertEqual(out.status, 1)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["passed"] as? Bool, true)
        let audit = try XCTUnwrap(report["audit"] as? [String: Any])
        XCTAssertEqual(audit["passed"] as? Bool, false)
        XCTAssertEqual(issues(audit).map { $0["element"] as? String ?? "" }, ["product image"])
        XCTAssertEqual(try run(["verify", "label.json", "--baseline", "b", "--quiet", "--ignore-state"]).status, 0, "without --audit")
    }

    func testEachVariantIsAuditedAndReported() throws {
        try #"{"screen": "shop", "fps": 2, "duration": 0.5, "variants": {"colorScheme": ["light", "dark"]}}"#
            .write(toFile: dir + "/variants.json", atomically: true, encoding: .utf8)
        let (status, report) = try json(["audit", "variants.json"])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(report["passed"] as? Bool, false)
        let variants = try XCTUnwrap(report["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.map { $0["name"] as? String ?? "" }, ["light", "dark"])
        XCTAssertEqual(variants.map { $0["passed"] as? Bool ?? true }, [false, true])
        let dark = try run(["audit", "variants.json", "--variant", "dark", "--quiet"])
        XCTAssertEqual(dark.status, 0)
        XCTAssertEqual(dark.stdout, "dark: cartrender audit: passed, no issues in 2 frames (1 distinct), WCAG AA\n")

        // verify --audit per variant: the light variant's frames match, its audit fails it.
        XCTAssertEqual(try run(["verify", "variants.json", "--baseline", "vb", "--record", "all", "--quiet"]).status, 0)
        let verified = try run(["verify", "variants.json", "--baseline", "vb", "--quiet", "--audit"])
        XCTAssertEqual(verified.status, 1, verified.stdout)
        XCTAssertTrue(verified.stdout.hasSuffix("1 of 2 variants passed; failed: light; report: cartrender-report/index.html\n"), verified.stdout)
    }

    /// A rectangle of the JSON report as `height=… width=… x=… y=…`: the description of a
    /// dictionary lists its keys in an order that differs from one dictionary to another.
    private func rect(_ value: Any?) -> String {
        ((value as? [String: Any]) ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// `"systemChrome": true` draws the status bar over the same screen: the audit reports the
    /// same touch-target and label issues, on the shop (the blank image label) and on the cart
    /// page (small stepper buttons, icon-only buttons). It once found no element with the chrome.
    func testTheSystemChromeKeepsTheScreensElements() throws {
        for name in ["label.json", "cart.json"] {
            let scene = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
            try (String(scene.dropLast()) + #", "systemChrome": true}"#).write(toFile: dir + "/chrome-" + name, atomically: true, encoding: .utf8)
            func elementIssues(_ report: [String: Any]) -> [String] {
                issues(report).filter { ["touchTarget", "label"].contains($0["kind"] as? String) }
                    .map { issue -> String in
                        // The rectangle's members in a fixed order (a dictionary's description has none).
                        let rect = (issue["rect"] as? [String: Any]).map { r in ["x", "y", "width", "height"].map { "\(r[$0] ?? "")" }.joined(separator: ",") } ?? ""
                        return "\(issue["kind"] ?? "") \(issue["element"] ?? "") \(rect)"
                    }
            }
            let plain = elementIssues(try json(["audit", name]).report)
            let chrome = elementIssues(try json(["audit", "chrome-" + name]).report)
            XCTAssertFalse(plain.isEmpty, name)
            XCTAssertEqual(chrome, plain, name)
        }
    }
}
