@testable import CartRender
import CartRenderCore
import CartRenderRaster
import XCTest

/// The audit's numbers (WCAG 2.2 luminance, ratios, thresholds) and its contrast measurement on
/// display lists built for it: the ratio against the pixels actually behind the glyphs.
final class AuditTests: XCTestCase {
    private struct NoState: FrameState {}

    func testWCAGCheckValues() {
        let white = WCAGContrast.luminance(r: 255, g: 255, b: 255), black = WCAGContrast.luminance(r: 0, g: 0, b: 0)
        XCTAssertEqual(white, 1, accuracy: 1e-12)
        XCTAssertEqual(black, 0)
        XCTAssertEqual(WCAGContrast.ratio(white, black), 21, accuracy: 1e-12)
        XCTAssertEqual(WCAGContrast.ratio(black, white), 21, accuracy: 1e-12)
        // #767676 on white is the lightest gray that passes AA: 4.54:1 (WebAIM).
        XCTAssertEqual(WCAGContrast.ratio(WCAGContrast.luminance(r: 0x76, g: 0x76, b: 0x76), white), 4.54, accuracy: 0.005)
        // #777777 just fails: 4.48:1.
        XCTAssertEqual(WCAGContrast.ratio(WCAGContrast.luminance(r: 0x77, g: 0x77, b: 0x77), white), 4.48, accuracy: 0.005)
    }

    func testThresholdsBySizeWeightAndLevel() {
        let table: [(FontSpec, AuditLevel, Double)] = [
            (FontSpec(size: 17), .aa, 4.5), (FontSpec(size: 18), .aa, 3), (FontSpec(size: 14, weight: .bold), .aa, 3),
            (FontSpec(size: 14, weight: .semibold), .aa, 4.5), (FontSpec(size: 13.9, weight: .heavy), .aa, 4.5),
            (FontSpec(size: 17), .aaa, 7), (FontSpec(size: 18), .aaa, 4.5), (FontSpec(size: 14, weight: .bold), .aaa, 4.5),
        ]
        for (font, level, required) in table {
            XCTAssertEqual(WCAGContrast.required(for: font, level: level), required, "\(font) \(level)")
        }
    }

    private func auditor() throws -> FrameAuditor {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 2, scale: 2), baseDirectory: "/")
        return FrameAuditor(worker: try Renderer(scene: scene).makeWorker())
    }

    private func list(_ items: [DisplayItem]) -> DisplayList {
        DisplayList(size: Size(width: 200, height: 100), background: .white, items: items)
    }

    private func text(_ s: String, _ color: Color, x: Double = 20) -> DisplayItem {
        .text(TextRun(s, font: FontSpec(size: 17), color: color, origin: Point(x: x, y: 30)))
    }

    private func contrast(_ findings: [AuditFinding]) -> [AuditFinding] { findings.filter { $0.kind == .contrast } }

    func testContrastIsExactOverASolidFill() throws {
        // Black text on #777777: every glyph pixel has that gray behind it, so the ratio is exact.
        let gray = Color(r8: 0x77, g8: 0x77, b8: 0x77)
        let findings = try auditor().audit(list([.fill(.rect(Rect(x: 0, y: 0, width: 200, height: 100)), .color(gray)), text("Total", .black)]),
                                           state: NoState(), level: .aaa)
        let expected = WCAGContrast.ratio(WCAGContrast.luminance(r: 0x77, g: 0x77, b: 0x77), 0)
        XCTAssertEqual(contrast(findings).count, 1)
        XCTAssertEqual(contrast(findings).first?.measured ?? 0, expected, accuracy: 1e-9)
        XCTAssertEqual(contrast(findings).first?.required, 7)
        // At AA the same text passes (4.69 ≥ 4.5).
        XCTAssertEqual(contrast(try auditor().audit(list([.fill(.rect(Rect(x: 0, y: 0, width: 200, height: 100)), .color(gray)), text("Total", .black)]),
                                                   state: NoState(), level: .aa)), [])
    }

    func testTranslucentTextIsCompositedOverWhatIsBehindIt() throws {
        // secondaryLabel (60,60,67 at 0.6) over white: composited 138,138,142, about 3.5:1.
        let secondary = Color(r8: 60, g8: 60, b8: 67, alpha: 0.6)
        let f = contrast(try auditor().audit(list([text("Total", secondary)]), state: NoState(), level: .aa))
        let c = { (v: Double, bg: Double) in 0.6 * v + 0.4 * bg }
        let expected = WCAGContrast.ratio(WCAGContrast.luminance(r: c(60, 255), g: c(60, 255), b: c(67, 255)), 1)
        XCTAssertEqual(f.first?.measured ?? 0, expected, accuracy: 1e-9)
        XCTAssertEqual(f.first?.subject, "Total")
    }

    func testOverAGradientTheWorstPixelCounts() throws {
        // White text over a gradient from blue (left, 5.4:1) to light blue (right, 2.2:1), both
        // below AAA's 7:1: the ratio is the one against the lightest blue under a glyph, below
        // that of the text's first letter alone.
        let dark = Color(r8: 90, g8: 90, b8: 220), light = Color(r8: 120, g8: 170, b8: 255)
        let gradient = DisplayItem.fill(.rect(Rect(x: 0, y: 0, width: 200, height: 100)),
                                        .linearGradient(start: Point(x: 0, y: 50), end: Point(x: 200, y: 50), colors: [dark, light]))
        let whole = contrast(try auditor().audit(list([gradient, text("Check out now", .white)]), state: NoState(), level: .aaa))
        let left = contrast(try auditor().audit(list([gradient, text("C", .white)]), state: NoState(), level: .aaa))
        let lightest = WCAGContrast.ratio(1, WCAGContrast.luminance(r: 120, g: 170, b: 255))
        let darkest = WCAGContrast.ratio(1, WCAGContrast.luminance(r: 90, g: 90, b: 220))
        let worst = try XCTUnwrap(whole.first?.measured), first = try XCTUnwrap(left.first?.measured)
        XCTAssertLessThan(worst, first)
        XCTAssertGreaterThanOrEqual(worst, lightest - 1e-9)
        XCTAssertLessThan(first, darkest)
    }

    func testHiddenAndFadingTextIsNotChecked() throws {
        let gray = Color(r8: 200, g8: 200, b8: 200)
        // Covered by an opaque fill drawn after it: no pixel of it shows.
        let covered = try auditor().audit(list([text("Total", gray), .fill(.rect(Rect(x: 0, y: 0, width: 200, height: 100)), .color(.white))]),
                                          state: NoState(), level: .aa)
        XCTAssertEqual(contrast(covered), [])
        // In a group fading in: a transition, checked where it rests.
        let fading = try auditor().audit(list([.group(transform: .identity, opacity: 0.5, clip: nil, items: [text("Total", gray)])]),
                                         state: NoState(), level: .aa)
        XCTAssertEqual(contrast(fading), [])
        // Blurred (a rolling digit): a transition as well.
        let blurred = try auditor().audit(list([.blur(radius: 0.5, items: [text("Total", gray)])]), state: NoState(), level: .aa)
        XCTAssertEqual(contrast(blurred), [])
        // The same text at rest fails.
        XCTAssertEqual(contrast(try auditor().audit(list([text("Total", gray)]), state: NoState(), level: .aa)).count, 1)
    }

    /// Truncation is reported only for text someone can see: a run cut with "…" or running past
    /// the screen's edge is a finding while it shows, and none while an opaque fill drawn after
    /// it (the checkout button over the last row's price) covers every pixel of it.
    func testCoveredTextIsNotReportedAsTruncated() throws {
        func truncation(_ findings: [AuditFinding]) -> [AuditFinding] { findings.filter { $0.kind == .truncation } }
        let long = DisplayItem.text(TextRun("$1,000,000.00 and more text than fits", font: FontSpec(size: 17), color: .black,
                                            origin: Point(x: 20, y: 30), maxWidth: 60, maxLines: 1))
        let offScreen = DisplayItem.text(TextRun("$10.00", font: FontSpec(size: 17), color: .black, origin: Point(x: 170, y: 60)))
        let cover = DisplayItem.fill(.rect(Rect(x: 0, y: 0, width: 200, height: 100)), .color(.white))
        XCTAssertEqual(truncation(try auditor().audit(list([long, offScreen]), state: NoState(), level: .aa)).map(\.subject),
                       ["$1,000,000.00 and more text than fits", "$10.00"])
        XCTAssertEqual(truncation(try auditor().audit(list([long, offScreen, cover]), state: NoState(), level: .aa)), [])
        // Half covered: still seen, still reported.
        let half = DisplayItem.fill(.rect(Rect(x: 0, y: 0, width: 200, height: 38)), .color(.white))
        XCTAssertEqual(truncation(try auditor().audit(list([long, half]), state: NoState(), level: .aa)).count, 1)
    }

    func testContrastRegionIsTheFramesOwnPixels() throws {
        // The region drawn for a run, moved by whole pixels, is the frame's crop pixel for pixel.
        let json = #"{"screen": "cart", "fps": 2, "duration": 0.5, "cart": {"title": "My cart", "currencyCode": "USD", "items": [{"id": "a", "name": "Tek", "details": "Gift", "image": "symbol:backpack.fill", "price": "9.99", "quantity": 1}]}}"#
        let scene = try SceneDecoder.decode(Array(json.utf8), file: "t.json", baseDirectory: "/", overrides: SceneOverrides(scale: 2))
        let worker = try Renderer(scene: scene).makeWorker()
        let display = worker.frame(at: 0).display
        let frame = try worker.rasterize(display)
        let rect = Rect(x: 10.5, y: 690, width: 300, height: 150)  // whole pixels at 2×: "Total", the gradient of "Check out"
        let region = DisplayList(size: rect.size, background: display.background,
                                 items: [.group(transform: .translation(Vector(dx: -rect.x, dy: -rect.y)), opacity: 1, clip: nil, items: display.items)])
        let part = try worker.rasterize(region)
        XCTAssertEqual(part.width, 600)
        var differing = 0
        for y in 0..<part.height {
            for x in 0..<part.width where part[x, y] != frame[x + 21, y + 1380] { differing += 1 }
        }
        XCTAssertEqual(differing, 0)
    }

    func testFramesAreGatheredIntoIssuesInAFixedOrder() {
        let a = AuditFinding(kind: .label, subject: "back button", rect: Rect(x: 0, y: 0, width: 1, height: 1), detail: "button")
        let b = AuditFinding(kind: .contrast, subject: "Total", rect: Rect(x: 0, y: 5, width: 1, height: 1), measured: 2.95, required: 4.5, detail: "17")
        var worse = b
        worse.measured = 2.9
        worse.rect.y = 9
        let report = AuditReport(findings: [(2, [a, b]), (0, [a]), (1, [a, worse]), (3, [])], distinctFrames: 3, level: .aa, ignored: [])
        XCTAssertEqual(report.issues.map(\.kind), [.contrast, .label])
        XCTAssertEqual(report.issues[0].frames, [1, 2])
        XCTAssertEqual(report.issues[0].measured, 2.9)
        XCTAssertEqual(report.issues[0].rect.y, 9, "the rect of the frame with the worst ratio")
        XCTAssertEqual(report.issues[1].frames, [0, 1, 2])
        XCTAssertEqual(AuditIssue.ranges([0, 1, 2, 5, 7, 8]), "0-2, 5, 7-8")
        XCTAssertEqual(report.issues[0].line, "contrast: \"Total\" 2.9:1, needs 4.5:1 (17 pt text) at 0,9 1×1 pt; frames 1-2")
        let ignoring = AuditReport(findings: [(0, [a, b])], distinctFrames: 1, level: .aa, ignored: [.label, .contrast])
        XCTAssertTrue(ignoring.passed)
        XCTAssertEqual(ignoring.summaryLine, "cartrender audit: passed, no issues in 1 frame (1 distinct), WCAG AA, ignoring contrast, label")
        // 4.499 is reported as 4.49, never as a passing-looking 4.5.
        XCTAssertEqual(AuditIssue.roundedDown(4.499), 4.49)
    }

    func testRenderAuditRoundTripsThroughTheManifest() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 2, scale: 1), baseDirectory: "/")
        let renderer = try Renderer(scene: scene)
        var options = RenderOptions()
        options.outputDirectory = tempDir()
        options.audit = AuditOptions()
        let result = try renderer.render(options)
        let report = try XCTUnwrap(result.summary(AuditReport.self))
        XCTAssertEqual(report, try renderer.audit(AuditOptions()), "the same report as the audit alone")
        XCTAssertFalse(report.passed)
        XCTAssertEqual(report.issues.first?.subject, "Twenty liters, water resistant and light enough for every day.")
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: options.outputDirectory + "/manifest.json"))
        let manifest = try Manifest(json: Array(bytes))
        XCTAssertEqual(manifest.audit, report.json)
        XCTAssertEqual(Data(try manifest.serialized().utf8), bytes, "read and written again, byte for byte")
    }

    /// The system chrome (status bar, home indicator) is drawn over the screen and changes none
    /// of its controls: on both screens, with and without `"systemChrome": true`, every frame has
    /// the same accessibility elements, and the audit the same touch-target and label issues.
    /// (With the chrome the audit once found no element at all and checked nothing.)
    func testSystemChromeKeepsTheScreensAccessibilityElements() throws {
        let cart = #""screen": "cart", "cart": {"items": [{"id": "a", "name": "Tek", "details": "Gift", "image": "symbol:backpack.fill", "price": "9.99", "quantity": 1}]}, "#
            + #""events": [{"at": 0.2, "swipe": {"item": "a", "translation": -120, "duration": 0.2}}, {"at": 0.8, "tap": "plus", "item": "a"}]"#
        let screens = ["shop": #""screen": "shop", "shop": {"imageLabel": " "}, "events": [{"at": 0.2, "tap": "add"}]"#, "cart": cart]
        for (name, body) in screens.sorted(by: { $0.key < $1.key }) {
            var elements: [[[AccessibilityElement]]] = []
            var issues: [[String]] = []
            for chrome in [false, true] {
                let json = "{" + body + #", "fps": 4, "duration": 1.5, "scale": 1, "systemChrome": \#(chrome)}"#
                let renderer = try Renderer(scene: try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/"))
                let worker = try renderer.makeWorker()
                elements.append((0..<renderer.frameCount).map { i in
                    AccessibilityElement.elements(model: worker.model, state: worker.frame(at: renderer.time(ofFrame: i)).state)
                })
                let report = try renderer.audit(AuditOptions())
                issues.append(report.issues.filter { $0.kind == .touchTarget || $0.kind == .label }.map(\.line))
            }
            XCTAssertFalse(elements[0].contains { $0.isEmpty }, "\(name): every frame has elements")
            XCTAssertEqual(elements[1], elements[0], "\(name): the same elements with the chrome")
            XCTAssertFalse(issues[0].isEmpty, "\(name): the scene has touch-target or label issues")
            XCTAssertEqual(issues[1], issues[0], "\(name): the same issues with the chrome")
        }
    }
}
