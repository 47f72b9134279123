@testable import CartRenderCore
import Foundation
import XCTest

/// `SceneFields` is the one declaration of the scene file's single-value members: the decoder,
/// the schema and the canonical scene take their keys, order and ranges from it, and the events'
/// members come from the screens.
final class SceneFieldTests: XCTestCase {
    private let schema = try! JSONSerialization.jsonObject(with: Data(SceneSchema.json.serialized().utf8)) as! [String: Any]

    private func decode(_ json: String, overrides: SceneOverrides = SceneOverrides()) throws -> Scene {
        try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/", overrides: overrides)
    }

    private func message(_ json: String, overrides: SceneOverrides = SceneOverrides()) -> String? {
        do { _ = try decode(json, overrides: overrides); return nil } catch { return (error as? SceneError)?.message }
    }

    /// The table's keys, in its order, are the scene file's top-level keys and the schema's
    /// properties (the schema's object keeps its order in the serialized text).
    func testTheTopLevelKeysAreTheTables() {
        let keys = SceneFields.top.map(\.key)
        XCTAssertEqual(Array(SceneDecoder.topKeys.prefix(keys.count)), keys)
        XCTAssertEqual(SceneDecoder.topKeys.dropFirst(keys.count), ArraySlice(Screens.all.map { $0.name } + ["events", "variants"]))
        guard case .object(let root) = SceneSchema.json, case .object(let properties)? = root.first(where: { $0.0 == "properties" })?.1 else {
            return XCTFail("the schema has properties")
        }
        XCTAssertEqual(Array(properties.map(\.0).dropFirst().prefix(keys.count)), keys, "after $schema, the table's members in its order")
    }

    /// Each range is the table's in the decoder (the file's value and the command line's
    /// override, checked after it is applied) and in the schema.
    func testTheRangesAreTheTables() throws {
        let fps = SceneFields.fps.integerRange, scale = SceneFields.scale.numberRange
        let props = schema["properties"] as! [String: Any]
        XCTAssertEqual((props["fps"] as! [String: Any])["minimum"] as? Double, Double(fps.lowerBound))
        XCTAssertEqual((props["fps"] as! [String: Any])["maximum"] as? Double, Double(fps.upperBound))
        XCTAssertEqual((props["scale"] as! [String: Any])["maximum"] as? Double, scale.upperBound)
        XCTAssertEqual(try decode(#"{"fps": \#(fps.upperBound)}"#).fps, fps.upperBound)
        XCTAssertEqual(message(#"{"fps": \#(fps.upperBound + 1)}"#), "must be between \(fps.lowerBound) and \(fps.upperBound), got \(fps.upperBound + 1)")
        XCTAssertEqual(message("{}", overrides: SceneOverrides(fps: fps.upperBound + 1)),
                       "must be between \(fps.lowerBound) and \(fps.upperBound), got \(fps.upperBound + 1)")
        XCTAssertEqual(message("{}", overrides: SceneOverrides(scale: scale.upperBound + 1)), "must be between 1 and 4, got 5.0")
        XCTAssertEqual(SceneFields.fps.rangeText, "1…240")
        XCTAssertEqual(SceneFields.scale.rangeText, "1…4")
        XCTAssertEqual(message(#"{"device": {"width": 99, "height": 800}}"#), "must be ≥ 100 pt, got 99")
    }

    /// A choice field lists its names in messages, with a hint only where the table asks for one.
    func testChoiceFieldsReadTheirNames() {
        XCTAssertEqual(message(#"{"colorScheme": "blue"}"#), #"must be "light" or "dark", got "blue""#)
        XCTAssertEqual(message(#"{"layoutDirection": "up"}"#), #"must be "leftToRight" or "rightToLeft", got "up""#)
        XCTAssertTrue(message(#"{"dynamicTypeSize": "larg"}"#)?.hasSuffix(#"got "larg"; did you mean "large"?"#) == true)
    }

    /// The canonical scene writes the members it writes in the table's order.
    func testTheCanonicalSceneFollowsTheTable() throws {
        let scene = try decode(#"{"systemChrome": true, "dynamicTypeSize": "xLarge", "layoutDirection": "rightToLeft", "duration": 2}"#)
        guard case .object(let members) = scene.canonicalJSON else { return XCTFail("an object") }
        let order = SceneFields.top.map(\.key)
        let written = members.map(\.0).filter(order.contains)
        XCTAssertEqual(written, order.filter(written.contains))
        XCTAssertEqual(written, ["version", "screen", "device", "colorScheme", "reduceMotion", "systemChrome", "locale",
                                 "layoutDirection", "dynamicTypeSize", "tint", "fps", "duration"])
    }

    /// An event's members and gestures are the screens': the decoder's keys and messages and the
    /// schema's `oneOf` come from `Screen.gestures` and `Screen.eventMembers`.
    func testEventMembersComeFromTheScreens() {
        XCTAssertEqual(ShopContent.gestures, ["tap"])
        XCTAssertEqual(CartContent.gestures, ["tap", "swipe"])
        XCTAssertEqual(Screens.eventGestures, ["tap", "swipe"])
        XCTAssertEqual(Screens.eventKeys, ["at", "tap", "swipe", "item"])
        XCTAssertEqual(message(#"{"events": [{"at": 0}]}"#), #"needs "tap" or "swipe""#)
        XCTAssertEqual(message(#"{"events": [{"at": 0, "tap": "add", "swipe": {}}]}"#), #"an event is either a "tap" or a "swipe", not both"#)
        let event = ((schema["properties"] as! [String: Any])["events"] as! [String: Any])["items"] as! [String: Any]
        XCTAssertEqual((event["oneOf"] as! [[String: Any]]).map { $0["required"] as! [String] }, Screens.eventGestures.map { [$0] })
        XCTAssertEqual(Set((event["properties"] as! [String: Any]).keys), Set(Screens.eventKeys))
    }
}
