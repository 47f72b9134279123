import CartRenderCore
import XCTest

/// `"systemChrome"`: decoded, written in the canonical scene only when on, and drawn above
/// every frame of both screens, mirrored right to left (`SystemChrome`).
final class SystemChromeTests: XCTestCase {
    private func decode(_ json: String) throws -> Scene {
        try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")
    }

    func testOffByDefaultAndAbsentFromTheCanonicalScene() throws {
        let plain = try decode("{}"), off = try decode(#"{"systemChrome": false}"#), on = try decode(#"{"systemChrome": true}"#)
        XCTAssertFalse(plain.systemChrome)
        XCTAssertTrue(on.systemChrome)
        XCTAssertEqual(plain.canonicalJSON.serialized(), off.canonicalJSON.serialized(), "false is the scene without the key")
        XCTAssertFalse(plain.canonicalJSON.serialized().contains("systemChrome"))
        XCTAssertTrue(on.canonicalJSON.serialized().contains(#""systemChrome":true"#))
        XCTAssertEqual(try decode(on.canonicalJSON.serialized()).systemChrome, true, "the canonical scene reads back")
    }

    func testWrongTypeNamesTheKey() {
        XCTAssertThrowsError(try decode(#"{"systemChrome": "yes"}"#)) { e in
            XCTAssertEqual((e as? SceneError)?.description, "s.json:1:18: systemChrome: expected true or false, got a string")
        }
    }

    /// The chrome is the last items of every frame, on both screens; without it the frames are
    /// the screen's own.
    func testDrawnAboveBothScreens() throws {
        for screen in ["shop", "cart"] {
            let cart = screen == "cart" ? #", "cart": {"items": [{"id": "a", "name": "A", "image": "symbol:gift.fill", "price": "1"}]}"# : ""
            let plain = try decode(#"{"screen": "\#(screen)"\#(cart)}"#)
            var chromed = plain
            chromed.systemChrome = true
            let chrome = SystemChrome.items(for: chromed, measurer: WrappingMetrics())
            for t in [0.0, 1.0] {
                let a = Screens.model(for: plain, measurer: WrappingMetrics()).frame(at: t).display
                let b = Screens.model(for: chromed, measurer: WrappingMetrics()).frame(at: t).display
                XCTAssertEqual(b.items, a.items + chrome, screen)
            }
        }
    }

    /// Light: black glyphs; dark: white. The home indicator is 5 pt tall, 8 pt above the bottom,
    /// and 134/375 of the screen wide: 140.4 pt on an iPhone 16, 134 pt on a 375 pt wide iPhone
    /// (github.com/apparata/Bezeler's device table: 134 at 375 pt, 139 at 390, 148 at 414, 153 at 428).
    func testColorsAndHomeIndicator() throws {
        var s = try decode("{}")
        s.systemChrome = true
        for (scheme, color) in [(ColorScheme.light, Color.black), (.dark, .white)] {
            s.colorScheme = scheme
            let items = SystemChrome.items(for: s, measurer: WrappingMetrics())
            guard case .text(let time) = items.first, case .fill(.capsule(let indicator), .color(let c)) = items.last else {
                return XCTFail("the time first, the home indicator last")
            }
            XCTAssertEqual(time.text, "9:41")
            XCTAssertEqual(time.color, color)
            XCTAssertEqual(c, color)
            let width = 393.0 * 134 / 375
            XCTAssertEqual(indicator.width, 140.4, accuracy: 0.05)
            XCTAssertEqual(indicator, Rect(x: (393 - width) / 2, y: 852 - 8 - 5, width: width, height: 5))
        }
        for (width, expected) in [(375.0, 134.0), (390, 139), (414, 148), (428, 153)] {
            s.device = Device(name: nil, width: width, height: 812, scale: 3, safeAreaTop: 47, safeAreaBottom: 34)
            guard case .fill(.capsule(let indicator), _)? = SystemChrome.items(for: s, measurer: WrappingMetrics()).last else {
                return XCTFail("the home indicator last")
            }
            XCTAssertEqual(indicator.width, expected, accuracy: 0.5, "\(width) pt wide")
            XCTAssertEqual(indicator.midX, width / 2, accuracy: 1e-9)
            XCTAssertEqual(indicator.maxY, 812 - 8, accuracy: 1e-9)
        }
        s.device = .iPhoneSE
        let se = SystemChrome.items(for: s, measurer: WrappingMetrics())
        XCTAssertFalse(se.contains { if case .fill(.capsule, _) = $0 { return true }; return false }, "no home indicator without a bottom inset")
    }

    /// Right to left the time moves to the right ear and the glyphs to the left, mirrored
    /// about the screen's center line.
    func testMirroredRightToLeft() throws {
        var s = try decode("{}")
        s.systemChrome = true
        let ltr = SystemChrome.items(for: s, measurer: WrappingMetrics())
        s.layoutDirection = .rightToLeft
        let rtl = SystemChrome.items(for: s, measurer: WrappingMetrics())
        func timeCenter(_ items: [DisplayItem]) -> Double {
            guard case .text(let t) = items[0] else { XCTFail("time first"); return 0 }
            return t.origin.x + WrappingMetrics().measure(t.text, font: t.font, maxWidth: nil).width / 2
        }
        func batteryCenter(_ items: [DisplayItem]) -> Double {
            let strokes = items.compactMap { i -> Rect? in if case .stroke(let shape, _, _) = i { return shape.bounds }; return nil }
            // The whole glyph: the body (its outline inset 0.5 pt), 1 pt, the cap.
            return strokes[0].x - 0.5 + (SystemChrome.batteryBody.width + 1 + SystemChrome.batteryCap.width) / 2
        }
        XCTAssertLessThan(timeCenter(ltr), 393 / 2)
        XCTAssertEqual(timeCenter(rtl), 393 - timeCenter(ltr), accuracy: 1e-9)
        XCTAssertGreaterThan(batteryCenter(ltr), 393 / 2)
        XCTAssertEqual(batteryCenter(rtl), 393 - batteryCenter(ltr), accuracy: 1e-9)
    }
}
