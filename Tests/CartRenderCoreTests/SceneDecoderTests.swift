import CartRenderCore
import Foundation
import XCTest

final class SceneDecoderTests: XCTestCase {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Examples").standardized

    func decode(_ text: String) throws -> Scene {
        try SceneDecoder.decode(Array(text.utf8), file: "s.json", baseDirectory: Self.examples.path)
    }

    func message(_ text: String) -> String {
        do { _ = try decode(text); return "no error" } catch { return "\(error)" }
    }

    func testDefaultSceneIsTheSeedDemo() throws {
        let s = try DefaultScene.scene(baseDirectory: "/")
        guard let shop = s.content as? ShopContent else { return XCTFail("not the shop screen") }
        XCTAssertEqual(s.device, .iPhone16)
        XCTAssertEqual(s.tint, .system("indigo"))
        XCTAssertEqual(shop.image, .symbol("backpack.fill"))
        XCTAssertEqual(shop.productName, "Trail backpack")
        XCTAssertEqual(s.events.map(\.at), [0.30, 0.50, 1.40])
        XCTAssertNil(s.duration)
    }

    /// Each event keeps where its object starts in the file (sorted by time, it keeps its index).
    func testEventsKeepTheirPlaceInTheFile() throws {
        let s = try decode("{\"screen\": \"shop\",\n \"events\": [\n  {\"at\": 0.9, \"tap\": \"add\"},\n    {\"at\": 0.2, \"tap\": \"add\"}]}")
        XCTAssertEqual(s.events.map(\.index), [1, 0])
        XCTAssertEqual(s.events.map(\.location), [SourceLocation(line: 4, column: 5), SourceLocation(line: 3, column: 3)])
        var moved = s.events[0]
        moved.location = SourceLocation(line: 9, column: 9)
        XCTAssertEqual(moved, s.events[0], "where an event is written does not make it another event")
    }

    func testExamplesFileMatchesTheEmbeddedDefault() throws {
        let data = try Data(contentsOf: Self.examples.appendingPathComponent("fly-button.json"))
        XCTAssertEqual(String(decoding: data, as: UTF8.self), DefaultScene.json)
    }

    func testEveryExampleDecodes() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.examples.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 5)
        for f in files {
            XCTAssertNoThrow(try SceneDecoder.load(path: Self.examples.appendingPathComponent(f).path), f)
        }
    }

    func testOverridesApply() throws {
        let s = try SceneDecoder.decode(Array(DefaultScene.json.utf8), file: "d", baseDirectory: "/",
                                        overrides: SceneOverrides(fps: 30, scale: 1, colorScheme: .dark, reduceMotion: true))
        XCTAssertEqual(s.fps, 30)
        XCTAssertEqual(s.device.scale, 1)
        XCTAssertEqual(s.colorScheme, .dark)
        XCTAssertTrue(s.reduceMotion)
    }

    func testCustomDeviceAndHexTint() throws {
        let s = try decode(##"{"device": {"width": 400, "height": 800, "scale": 2, "safeArea": {"top": 40, "bottom": 20}}, "tint": "#FF8000"}"##)
        XCTAssertEqual(s.device, Device(name: nil, width: 400, height: 800, scale: 2, safeAreaTop: 40, safeAreaBottom: 20))
        XCTAssertEqual(s.tint, .rgb(Color(r8: 255, g8: 128, b8: 0)))
    }

    func testEventsAreSortedStably() throws {
        let s = try decode(#"{"events": [{"at": 1, "tap": "add"}, {"at": 0.5, "tap": "add"}, {"at": 1, "tap": "add"}]}"#)
        XCTAssertEqual(s.events.map(\.index), [1, 0, 2])
    }

    /// Error sentences: file:line:column: JSON path: what is wrong (docs/command-line.md; docs/bad-input.md).
    func testErrorMessages() {
        let table: [(String, String)] = [
            ("{\"fps\": 60,}", "s.json:1:11: trailing comma before '}'"),
            ("{\"fps\": 60", "s.json:1:11: unexpected end of file inside an object; expected '}'"),
            ("", "s.json:1:1: the file is empty; expected a JSON object"),
            ("// c\n{}", "s.json:1:1: comments are not allowed in JSON"),
            ("{\"fps\": NaN}", "s.json:1:9: fps: NaN and Infinity are not JSON numbers; times and sizes must be finite"),
            ("{\"fps\": 1e999}", "s.json:1:9: fps: the number 1e999 is out of the range of a double (at most about 1.8e308 in magnitude)"),
            ("{\"fps\": 1, \"fps\": 2}", "s.json:1:12: duplicate key \"fps\""),
            ("[1]", "s.json:1:1: expected an object, got an array"),
            ("{\"fsp\": 30}", "s.json:1:2: fsp: unknown key \"fsp\"; did you mean \"fps\"?"),
            ("{\n  \"fps\": 0\n}", "s.json:2:10: fps: must be between 1 and 240, got 0"),
            ("{\"fps\": 30.5}", "s.json:1:9: fps: expected an integer, got 30.5"),
            ("{\"fps\": \"60\"}", "s.json:1:9: fps: expected an integer, got a string"),
            ("{\"scale\": 5}", "s.json:1:11: scale: must be between 1 and 4, got 5"),
            ("{\"device\": \"iphone-15\"}", "s.json:1:12: device: unknown device \"iphone-15\"; did you mean \"iphone-16\"? (presets: iphone-16, iphone-16-pro-max, iphone-se; or give {\"width\", \"height\", \"scale\", \"safeArea\"})"),
            ("{\"device\": {\"width\": 5000, \"height\": 800, \"scale\": 4}}", "s.json:1:12: device: the canvas is 20000 px wide at scale 4; at most 16384 px a side"),
            ("{\"device\": {\"width\": 4096, \"height\": 800, \"scale\": 4.5}}", "s.json:1:52: device.scale: must be between 1 and 4, got 4.5"),
            ("{\"tint\": \"indgo\"}", "s.json:1:10: tint: unknown color \"indgo\"; did you mean \"indigo\"?"),
            ("{\"tint\": \"#12345\"}", "s.json:1:10: tint: must be a system color name or #RRGGBB, got \"#12345\""),
            ("{\"colorScheme\": \"blue\"}", "s.json:1:17: colorScheme: must be \"light\" or \"dark\", got \"blue\""),
            ("{\"events\": [{\"at\": -1, \"tap\": \"add\"}]}", "s.json:1:20: events[0].at: must be ≥ 0 s, got -1"),
            ("{\"events\": [{\"at\": 1}]}", "s.json:1:13: events[0]: needs \"tap\" or \"swipe\""),
            ("{\"events\": [{\"at\": 1, \"tap\": \"plus\"}]}", "s.json:1:30: events[0].tap: on the shop screen must be \"add\", got \"plus\""),
            ("{\"events\": [{\"tap\": \"add\"}]}", "s.json:1:13: events[0].at: is required"),
            ("{\"duration\": 1, \"events\": [{\"at\": 2, \"tap\": \"add\"}]}", "s.json:1:35: events[0].at: 2 s is after the end of the render (duration 1 s)"),
            ("{\"duration\": 3000, \"fps\": 60}", "s.json:1:14: duration: 3000 s at 60 fps is 180001 frames; at most 100000"),
            ("{\"shop\": {\"image\": \"symbol:backpak.fill\"}}", "s.json:1:20: shop.image: unknown symbol \"backpak.fill\"; did you mean \"symbol:backpack.fill\"?"),
            ("{\"shop\": {\"image\": \"images/none.png\"}}", "s.json:1:20: shop.image: image file \(Self.examples.path)/images/none.png does not exist"),
            ("{\"shop\": {\"image\": \"photo.gif\"}}", "s.json:1:20: shop.image: must be \"symbol:NAME\" or a .png, .jpg, .jpeg or .svg file, got \"photo.gif\""),
            ("{\"shop\": {\"cartFrame\": {\"x\": 1, \"y\": 2, \"width\": 3}}}", "s.json:1:24: shop.cartFrame.height: is required"),
            ("{\"shop\": {\"count\": -1}}", "s.json:1:20: shop.count: must be between 0 and \(Int.max), got -1"),
            ("{\"shop\": {\"titel\": \"x\"}}", "s.json:1:11: shop.titel: unknown key \"titel\"; did you mean \"title\"?"),
            ("{\"screen\": \"cart\"}", "s.json:1:1: cart: is required when \"screen\" is \"cart\""),
            ("{\"locale\": \"xx_YY\"}", "s.json:1:12: locale: unknown locale \"xx_YY\""),
            ("{\"version\": 2}", "s.json:1:13: version: this cartrender reads scene version 1, got 2"),
            ("{\"a\": \"\u{1}\"}", "s.json:1:8: a: control character 0x01 inside a string (escape it, e.g. \\n)"),
        ]
        for (input, expected) in table {
            XCTAssertEqual(message(input), expected, "input: \(input)")
        }
    }

    func testInvalidUTF8AndByteOrderMark() throws {
        XCTAssertThrowsError(try SceneDecoder.decode([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], file: "s.json", baseDirectory: "/")) { e in
            XCTAssertEqual("\(e)", "s.json:1:3: the file is not valid UTF-8 (byte 0xFF); save it as UTF-8")
        }
        XCTAssertNoThrow(try SceneDecoder.decode([0xEF, 0xBB, 0xBF] + Array("{}".utf8), file: "s.json", baseDirectory: "/"))
    }

    func testDeepNestingIsRejectedWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000)
        XCTAssertEqual(message(deep), "s.json:1:257: " + String(repeating: "[0]", count: 13) + "…: nesting is deeper than 256 levels")
    }

    func testCanonicalFormRoundTrips() throws {
        let s = try SceneDecoder.load(path: Self.examples.appendingPathComponent("png-image.json").path)
        let again = try SceneDecoder.decode(Array(s.canonicalJSON.serialized().utf8), file: "c", baseDirectory: s.baseDirectory)
        XCTAssertEqual(again.canonicalJSON.serialized(), s.canonicalJSON.serialized())
        XCTAssertFalse(s.canonicalJSON.serialized().contains(Self.examples.path), "image paths are relative to the scene")
    }
}

/// Several problems in one scene are reported at once, each with its place; one problem is
/// reported exactly as before.
final class SceneErrorsAtOnceTests: XCTestCase {
    func testTwoWrongTypesAreBothNamed() throws {
        let json = "{\n  \"fps\": \"fast\",\n  \"reduceMotion\": 3\n}\n"
        XCTAssertThrowsError(try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")) { error in
            guard let errors = error as? SceneErrors else { return XCTFail("\(error)") }
            XCTAssertEqual(errors.sentences, ["s.json:2:10: fps: expected an integer, got a string",
                                              "s.json:3:19: reduceMotion: expected true or false, got a number"])
            XCTAssertEqual(errors.exitCode, .dataError)
        }
    }

    func testUnknownKeysAndAWrongTypeInFileOrder() throws {
        let json = "{\n  \"fsp\": 30,\n  \"shop\": {\"titel\": \"x\"},\n  \"colorScheme\": 1\n}\n"
        XCTAssertThrowsError(try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")) { error in
            guard let errors = error as? SceneErrors else { return XCTFail("\(error)") }
            XCTAssertEqual(errors.errors.map(\.path), ["fsp", "shop.titel", "colorScheme"])
        }
    }

    func testOneProblemIsOneSceneError() throws {
        let json = "{\n  \"fps\": \"fast\"\n}\n"
        XCTAssertThrowsError(try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")) { error in
            XCTAssertEqual((error as? SceneError)?.description, "s.json:2:10: fps: expected an integer, got a string")
        }
    }

    func testAtMostTwentyAreReported() throws {
        let members = (0..<30).map { "  \"k\($0)\": 1" }.joined(separator: ",\n")
        XCTAssertThrowsError(try SceneDecoder.decode(Array("{\n\(members)\n}\n".utf8), file: "s.json", baseDirectory: "/")) { error in
            XCTAssertEqual((error as? SceneErrors)?.errors.count, SceneDecoder.maxErrors)
        }
    }
}
