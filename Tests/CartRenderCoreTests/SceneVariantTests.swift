@testable import CartRenderCore
import Foundation
import XCTest

/// A scene file's `"variants"` matrix: every combination, named by its values in key order,
/// each a validated scene; bad values are errors at their JSON path.
final class SceneVariantTests: XCTestCase {
    private func variants(_ json: String, overrides: SceneOverrides = SceneOverrides()) throws -> [SceneVariant]? {
        try SceneDecoder.decodeVariants(Array(json.utf8), file: "scene.json", baseDirectory: "/", overrides: overrides)
    }

    func testEveryCombinationInKeyOrder() throws {
        let all = try XCTUnwrap(variants(#"{"variants": {"colorScheme": ["light", "dark"], "locale": ["en_US", "ar_SA"], "dynamicTypeSize": ["large", "accessibility3"], "reduceMotion": [false, true]}}"#))
        XCTAssertEqual(all.count, 16)
        XCTAssertEqual(all.prefix(3).map(\.name), ["light-en_US-large-motion", "light-en_US-large-reduceMotion", "light-en_US-accessibility3-motion"])
        XCTAssertEqual(all.last?.name, "dark-ar_SA-accessibility3-reduceMotion")
        let v = all.last!.scene
        XCTAssertEqual([v.colorScheme.rawValue, v.locale, v.dynamicTypeSize.rawValue], ["dark", "ar_SA", "accessibility3"])
        XCTAssertTrue(v.reduceMotion)
        XCTAssertEqual(v.layoutDirection, .rightToLeft, "the locale's direction")
        XCTAssertEqual(Set(all.map(\.name)).count, 16)
        // Key order is the file's.
        XCTAssertEqual(try XCTUnwrap(variants(#"{"variants": {"locale": ["de_DE"], "colorScheme": ["dark"]}}"#)).map(\.name), ["de_DE-dark"])
    }

    /// A variant is the scene the file would be with those values written in.
    func testAVariantIsTheSceneWithItsValues() throws {
        let all = try XCTUnwrap(variants(#"{"locale": "de_DE", "variants": {"device": ["iphone-se", {"width": 390, "height": 844, "scale": 2}], "colorScheme": ["dark"]}}"#))
        XCTAssertEqual(all.map(\.name), ["iphone-se-dark", "390x844@2-dark"])
        XCTAssertEqual(all[0].scene, try SceneDecoder.decode(Array(#"{"locale": "de_DE", "device": "iphone-se", "colorScheme": "dark"}"#.utf8), file: "s", baseDirectory: "/"))
        XCTAssertEqual(all[1].scene.device.width, 390)
        XCTAssertNil(try variants("{}"), "no matrix")
    }

    /// Command-line overrides apply to every variant and do not rename them.
    func testOverridesApplyToAll() throws {
        let all = try XCTUnwrap(variants(#"{"variants": {"colorScheme": ["light", "dark"]}}"#, overrides: SceneOverrides(scale: 1, colorScheme: .dark)))
        XCTAssertEqual(all.map(\.name), ["light", "dark"])
        XCTAssertEqual(all.map(\.scene.colorScheme), [.dark, .dark])
        XCTAssertEqual(all.map(\.scene.device.scale), [1, 1])
    }

    func testBadMatricesAreErrorsAtTheirPath() {
        let cases: [(String, String)] = [
            (#"{"variants": {"locale": ["en_US", "xx_YY"]}}"#, #"scene.json:1:35: variants.locale[1]: unknown locale "xx_YY""#),
            (#"{"variants": {"colorScheme": ["light", "blue"]}}"#, #"scene.json:1:40: variants.colorScheme[1]: must be "light" or "dark", got "blue""#),
            (#"{"variants": {"dynamicTypeSize": "large"}}"#, #"scene.json:1:34: variants.dynamicTypeSize: expected an array of values, got a string"#),
            (#"{"variants": {"reduceMotion": []}}"#, #"scene.json:1:31: variants.reduceMotion: must list at least one value"#),
            (#"{"variants": {"tint": ["red"]}}"#, #"scene.json:1:15: variants.tint: unknown key "tint"; known keys: colorScheme, locale, dynamicTypeSize, device, reduceMotion"#),
            (#"{"variants": {}}"#, #"scene.json:1:14: variants: must name at least one of colorScheme, locale, dynamicTypeSize, device, reduceMotion"#),
            // A value given twice, or two spellings of one value, is named at the later one.
            (#"{"variants": {"colorScheme": ["dark", "dark"]}}"#, #"scene.json:1:39: variants.colorScheme[1]: makes the same variant as variants.colorScheme[0] ("dark"); list each value once"#),
            (#"{"variants": {"locale": ["en_US", "de_DE"], "colorScheme": ["dark"], "reduceMotion": [true, false, true]}}"#,
             #"scene.json:1:100: variants.reduceMotion[2]: makes the same variant as variants.reduceMotion[0] ("en_US-dark-reduceMotion"); list each value once"#),
            (#"{"variants": {"device": ["iphone-16", {"width": 393, "height": 852, "scale": 3}, "iphone-16"]}}"#,
             #"scene.json:1:82: variants.device[2]: makes the same variant as variants.device[0] ("iphone-16"); list each value once"#),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try variants(json), json) { e in
                XCTAssertEqual((e as? SceneError)?.description, message, json)
            }
        }
        let many = "[" + (0..<17).map { _ in "\"light\"" }.joined(separator: ",") + "]"
        XCTAssertThrowsError(try variants(#"{"variants": {"colorScheme": \#(many), "locale": \#(many)}}"#)) { e in
            XCTAssertTrue((e as? SceneError)?.description.hasSuffix("variants.locale: makes more than 256 variants") ?? false, "\(e)")
        }
    }

    /// The events are checked in every variant: a swipe that deletes on a narrow device but
    /// only opens on a wide one leaves a later trash tap impossible on the narrow one.
    func testEventsAreCheckedInEachVariant() {
        let json = #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "details": "", "image": "symbol:bag.fill", "price": "1"}]}, "#
            + #""events": [{"at": 0.1, "swipe": {"item": "a", "translation": -200, "duration": 0.1}}, {"at": 1, "tap": "delete", "item": "a"}], "#
            + #""variants": {"device": ["iphone-16-pro-max", "iphone-se"]}}"#
        XCTAssertThrowsError(try variants(json)) { e in
            XCTAssertTrue((e as? SceneError)?.description.contains("events[1]") ?? false, "\(e)")
        }
    }
}
