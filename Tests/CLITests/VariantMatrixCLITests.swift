import CartRender
import CartRenderCLI
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A scene's `"variants"` matrix on the command line: one complete render per variant in its
/// subdirectory with `variants.json` on top, `--variant` to pick some, and `verify` per variant.
final class VariantMatrixCLITests: XCTestCase {
    private var dir = ""

    /// The default shop at 4 fps for 0.5 s (3 frames).
    private func scene(_ variants: String) -> String {
        #"{"screen": "shop", "fps": 4, "duration": 0.5, "events": [{"at": 0.25, "tap": "add"}], "variants": \#(variants)}"#
    }

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory()
        try scene(#"{"colorScheme": ["light", "dark"], "locale": ["en_US", "he_IL"], "reduceMotion": [false, true]}"#)
            .write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func run(_ args: [String], env: [String: String] = [:]) throws -> Binary.Result {
        try Binary.run(args, in: dir, environment: env, timeout: 300)
    }

    private func files(_ sub: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir + "/" + sub).sorted() }

    func testEveryVariantIsACompleteRenderListedInVariantsJSON() throws {
        let out = try run(["scene.json", "--out", "out", "--scale", "1", "--quiet"])
        XCTAssertEqual(out.status, 0, out.stderr)
        let names = ["light-en_US-motion", "light-en_US-reduceMotion", "light-he_IL-motion", "light-he_IL-reduceMotion",
                     "dark-en_US-motion", "dark-en_US-reduceMotion", "dark-he_IL-motion", "dark-he_IL-reduceMotion"]
        XCTAssertEqual(try files("out"), ([".cartrender-files.sha256"] + names + ["variants.json"]).sorted())
        for name in names {
            XCTAssertEqual(try files("out/" + name), [".cartrender-files.sha256", "frame_0000.png", "frame_0001.png", "frame_0002.png", "manifest.json"], name)
        }
        let listing = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/out/variants.json"))) as! [String: Any]
        let entries = listing["variants"] as! [[String: Any]]
        XCTAssertEqual(entries.map { $0["name"] as! String }, names, "matrix order: the first key varies slowest")
        XCTAssertEqual(entries[6]["values"] as! [String: String], ["colorScheme": "dark", "locale": "he_IL", "reduceMotion": "motion"])
        XCTAssertEqual(entries[6]["frames"] as? Int, 3)
        XCTAssertEqual(entries[6]["manifest"] as? String, "dark-he_IL-motion/manifest.json")

        // A variant is the render of the scene with its values written in: same bytes, same manifest.
        try #"{"screen": "shop", "fps": 4, "duration": 0.5, "events": [{"at": 0.25, "tap": "add"}], "colorScheme": "dark", "locale": "he_IL"}"#
            .write(toFile: dir + "/plain.json", atomically: true, encoding: .utf8)
        let plain = try run(["plain.json", "--out", "plain", "--scale", "1", "--quiet"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        for file in try files("plain") {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/plain/" + file)),
                           try Data(contentsOf: URL(fileURLWithPath: dir + "/out/dark-he_IL-motion/" + file)), file)
        }
    }

    /// `render --viewer` of a matrix writes each variant's page and, on top, `index.html` linking
    /// them; `cartrender view TOP` on the same render without `--viewer` writes the same pages
    /// (it said "no manifest" before). A variant without its manifest is refused (66) before any page is written.
    func testViewerOfAVariantMatrixLinksEachVariantsPage() throws {
        let pick = ["--variant", "dark-en_US-motion", "--variant", "light-he_IL-reduceMotion", "--scale", "1", "--quiet"]
        let viewer = try run(["scene.json", "--out", "out", "--viewer"] + pick)
        XCTAssertEqual(viewer.status, 0, viewer.stderr)
        XCTAssertEqual(try files("out"), [".cartrender-files.sha256", "dark-en_US-motion", "index.html", "light-he_IL-reduceMotion", "variants.json"])
        let top = try String(contentsOfFile: dir + "/out/index.html", encoding: .utf8)
        XCTAssertTrue(top.contains("<title>cartrender viewer: 2 variants</title>"), top)
        XCTAssertTrue(top.contains(#"<li><a href="dark-en_US-motion/index.html">dark-en_US-motion</a> <span>colorScheme dark · locale en_US · reduceMotion motion · 3 frames</span></li>"#), top)
        XCTAssertTrue(top.contains(#"<a href="light-he_IL-reduceMotion/index.html">"#), top)
        XCTAssertTrue(try files("out/dark-en_US-motion").contains("index.html"))

        XCTAssertEqual(try run(["scene.json", "--out", "plain"] + pick).status, 0)
        XCTAssertFalse(try files("plain").contains("index.html"))
        let view = try run(["view", "plain"])
        XCTAssertEqual(view.status, 0, view.stderr)
        XCTAssertEqual(view.stderr, "cartrender: wrote plain/index.html and the page of each of its 2 variants\n")
        for page in ["index.html", "dark-en_US-motion/index.html", "light-he_IL-reduceMotion/index.html"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/plain/" + page)),
                           try Data(contentsOf: URL(fileURLWithPath: dir + "/out/" + page)), page)
        }

        try FileManager.default.removeItem(atPath: dir + "/plain/index.html")
        try FileManager.default.removeItem(atPath: dir + "/plain/dark-en_US-motion/index.html")
        try FileManager.default.removeItem(atPath: dir + "/plain/light-he_IL-reduceMotion/manifest.json")
        let missing = try run(["view", "plain"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stderr, "cartrender: plain/light-he_IL-reduceMotion/manifest.json: no such file: plain/light-he_IL-reduceMotion is not the directory of a finished render\n")
        XCTAssertFalse(try files("plain").contains("index.html"))
        XCTAssertFalse(try files("plain/dark-en_US-motion").contains("index.html"), "nothing is written before every variant is read")
    }

    func testVariantSelectsAndCommandLineOverridesApplyToAll() throws {
        let out = try run(["scene.json", "--out", "out", "--scale", "1", "--quiet", "--variant", "dark-en_US-motion", "--variant", "light-he_IL-motion", "--fps", "2"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(try files("out"), [".cartrender-files.sha256", "dark-en_US-motion", "light-he_IL-motion", "variants.json"])
        XCTAssertEqual(try files("out/light-he_IL-motion"), [".cartrender-files.sha256", "frame_0000.png", "frame_0001.png", "manifest.json"], "--fps 2: 2 frames")

        let unknown = try run(["scene.json", "--out", "out", "--variant", "dark"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.hasPrefix(#"cartrender: --variant: scene.json has no variant "dark"; its variants: light-en_US-motion, "#), unknown.stderr)
        try #"{"screen": "shop"}"#.write(toFile: dir + "/plain.json", atomically: true, encoding: .utf8)
        let none = try run(["plain.json", "--out", "out", "--variant", "dark"])
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.hasPrefix(#"cartrender: --variant dark: plain.json has no "variants" matrix"#), none.stderr)
    }

    func testVerifyEachVariantAndOneFailingVariantFailsTheRun() throws {
        try scene(#"{"colorScheme": ["light", "dark"]}"#).write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
        let verify = ["verify", "scene.json", "--baseline", "snaps", "--scale", "1", "--quiet"]
        let record = try run(verify)
        XCTAssertEqual(record.status, 0, record.stderr)
        XCTAssertEqual(try files("snaps"), ["dark", "light"])
        XCTAssertEqual(try files("cartrender-report"), [".cartrender-files.sha256", "dark", "index.html", "junit.xml", "light"],
                       "one report per variant, one index and one junit.xml over them")

        let again = try run(verify, env: ["CI": "true"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, """
            variant light:
            cartrender verify: passed, 3 frames, 3 matched (3 byte-identical); report: cartrender-report/light/index.html
            variant dark:
            cartrender verify: passed, 3 frames, 3 matched (3 byte-identical); report: cartrender-report/dark/index.html
            2 of 2 variants passed; report: cartrender-report/index.html

            """)

        // The dark baseline holds the light frames: that variant fails, and so does the run.
        for f in try files("snaps/dark") where f.hasSuffix(".png") {
            try FileManager.default.removeItem(atPath: dir + "/snaps/dark/" + f)
            try FileManager.default.copyItem(atPath: dir + "/snaps/light/" + f, toPath: dir + "/snaps/dark/" + f)
        }
        let failed = try run(verify + ["--summary-markdown", "summary.md"], env: ["CI": "true", "GITHUB_STEP_SUMMARY": dir + "/step.md"])
        XCTAssertEqual(failed.status, 1, failed.stderr)
        XCTAssertTrue(failed.stdout.hasSuffix("1 of 2 variants passed; failed: dark; report: cartrender-report/index.html\n"), failed.stdout)

        // One summary, a row per variant, the same in both files.
        let summary = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        XCTAssertEqual(try String(contentsOfFile: dir + "/step.md", encoding: .utf8), summary)
        XCTAssertTrue(summary.hasPrefix("### ❌ cartrender verify: FAILED — `scene.json`, 2 variants\n"), summary)
        XCTAssertTrue(summary.contains("| `light` | ✅ passed | 3 | 0 | 0 | [index.html](cartrender-report/light/index.html) |\n"), summary)
        XCTAssertTrue(summary.contains("| `dark` | ❌ FAILED | 3 | 3 | 0 | [index.html](cartrender-report/dark/index.html) |\n"), summary)
        XCTAssertTrue(summary.contains("#### variant `dark`: ❌ cartrender verify: FAILED"), summary)

        // One junit.xml: a suite per variant, its name, class and test names carrying the variant.
        let junit = try XMLDocument(contentsOf: URL(fileURLWithPath: dir + "/cartrender-report/junit.xml"))
        let suites = try junit.nodes(forXPath: "/testsuites/testsuite").compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
        XCTAssertEqual(suites, ["cartrender verify scene.json[light]", "cartrender verify scene.json[dark]"])
        let cases = try junit.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        let keys = cases.map { ($0.attribute(forName: "classname")?.stringValue ?? "") + " " + ($0.attribute(forName: "name")?.stringValue ?? "") }
        XCTAssertEqual(Set(cases.compactMap { $0.attribute(forName: "name")?.stringValue }).count, 6, "test names unique across the file")
        XCTAssertEqual(keys.filter { $0.hasPrefix("cartrender.verify.scene[dark] frame_0001.png [dark]") }.count, 1, "\(keys)")
        XCTAssertEqual(try junit.nodes(forXPath: "//testcase[failure]").count, 3)
        XCTAssertEqual((try junit.nodes(forXPath: "/testsuites").first as? XMLElement)?.attribute(forName: "failures")?.stringValue, "3")

        // The index lists every variant with its status and links its report.
        let index = try String(contentsOfFile: dir + "/cartrender-report/index.html", encoding: .utf8)
        XCTAssertTrue(index.contains("<tr class=\"pass\"><td><a href=\"light/index.html\">light</a></td><td><span class=\"status\">passed</span></td>"), index)
        XCTAssertTrue(index.contains("<tr class=\"fail\"><td><a href=\"dark/index.html\">dark</a></td><td><span class=\"status\">FAILED</span></td>"), index)
        let json = try run(verify + ["--json", "--variant", "dark"], env: ["CI": "true"])
        XCTAssertEqual(json.status, 1)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(report["passed"] as? Bool, false)
        XCTAssertEqual((report["variants"] as! [[String: Any]]).map { $0["name"] as! String }, ["dark"])
    }
    /// A variant's subdirectory that is a symbolic link (git keeps them) is never followed:
    /// `out/light -> ../other` stops a render (73) before anything in `../other` changes, and so
    /// does `BASE/light` for `verify --record` and `REPORTS/light` for a verify's reports. It
    /// committed into `../other` before, replacing its frames and removing the rest.
    func testAVariantSubdirectoryThatIsALinkIsNeverFollowed() throws {
        try scene(#"{"colorScheme": ["light", "dark"]}"#).write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
        try #"{"screen": "shop", "fps": 4, "duration": 2, "colorScheme": "light"}"#.write(toFile: dir + "/long.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["long.json", "--out", "other", "--scale", "1", "--quiet"]).status, 0)
        let before = try snapshot(dir + "/other")
        XCTAssertEqual(before.keys.filter { $0.hasSuffix(".png") }.count, 9)
        let link = "The link is left alone"
        for (top, command) in [("out", ["scene.json", "--out", "out", "--scale", "1", "--quiet"]),
                               ("snaps", ["verify", "scene.json", "--baseline", "snaps", "--record", "all", "--scale", "1", "--quiet"]),
                               ("cartrender-report", ["verify", "scene.json", "--baseline", "base", "--record", "all", "--scale", "1", "--quiet"])] {
            try FileManager.default.createDirectory(atPath: dir + "/" + top, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: dir + "/" + top + "/light", withDestinationPath: "../other")
            let r = try run(command)
            XCTAssertEqual(r.status, 73, "\(top): \(r.stderr)")
            XCTAssertEqual(r.stderr, "cartrender: \(top)/light: is a symbolic link, and cartrender follows no link below \(top); it is left alone: replace it with a directory, or write somewhere else\n")
            XCTAssertEqual(try snapshot(dir + "/other"), before, top)
            XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + top + "/light"), "../other", link)
        }
    }
}
