@testable import CartRenderCore
import Foundation
import XCTest

/// The shop's typed events: each `ShopEvent` as the manifest writes it and reads it back, each
/// `ShopAction` as a scene file gives it and as the canonical scene writes it.
final class ShopEventsTests: XCTestCase {
    private func reread(_ text: String) throws -> TimelineEvent {
        try JSONValueDecoder().decode(TimelineEvent.self, from: JSONValue(JSONParser.parse(Array(text.utf8))))
    }

    func testEveryEventHasItsManifestForm() throws {
        let table: [(ShopEvent, String)] = [
            (.tap, #"{"time":0.5,"kind":"tap","target":"add"}"#),
            (.launch(flight: 2, destination: Vector(dx: 151.5, dy: -222.25)),
             #"{"time":0.5,"kind":"launch","flight":2,"destination":{"x":151.5,"y":-222.25}}"#),
            (.land(flight: 2, count: 7), #"{"time":0.5,"kind":"land","flight":2,"count":7,"hook":"onAdd"}"#),
            (.increment(count: 1, reason: .reduceMotion), #"{"time":0.5,"kind":"increment","count":1,"reason":"reduceMotion","hook":"onAdd"}"#),
            (.increment(count: 3, reason: .noCartFrame), #"{"time":0.5,"kind":"increment","count":3,"reason":"noCartFrame","hook":"onAdd"}"#),
            (.increment(count: 9, reason: .maximumFlights), #"{"time":0.5,"kind":"increment","count":9,"reason":"maximumFlights","hook":"onAdd"}"#),
        ]
        for (kind, json) in table {
            let event = TimelineEvent(time: 0.5, kind)
            XCTAssertEqual(try JSONValue(encoding: event).serialized(), json)
            let back = try reread(json)
            XCTAssertEqual(back, event, json)
            XCTAssertTrue(back.kind is ShopEvent, "\(json) is read by the shop's type")
            XCTAssertEqual(back.kind.name, kind.name)
        }
        XCTAssertEqual(Set(table.map(\.0.name)), ["tap", "launch", "land", "increment"])
        XCTAssertEqual(ShopEvent.IncrementReason.allCases.count, 3, "every reason is in the table")
    }

    func testKindsOfOtherScreensAreLeftToThem() throws {
        let c = try JSONValueDecoder().decode(KindReader.self, from: JSONValue(JSONParser.parse(Array(#"{"kind": "swipe"}"#.utf8))))
        XCTAssertNil(c.shop, "swipe is not the shop's")
        XCTAssertEqual(try reread(#"{"time":1,"kind":"tap","target":"plus","item":"a"}"#).kind as? CartEvent, .tap(.row(.plus, item: "a")),
                       "a tap on another target is another screen's")
        XCTAssertThrowsError(try reread(#"{"time":1,"kind":"tap","target":"buy"}"#)) { error in
            XCTAssertEqual((error as? DecodingError)?.reason, #"unknown tap target "buy""#)
            XCTAssertEqual((error as? DecodingError)?.jsonPath, "target")
        }
    }

    /// Calls `ShopEvent.decode` directly on an object's `kind`.
    private struct KindReader: Decodable {
        var shop: ShopEvent?
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: TimelineEventKey.self)
            shop = try ShopEvent.decode(kind: c.decode(String.self, forKey: "kind"), from: c)
        }
    }

    private func decode(_ events: String) throws -> Scene {
        try SceneDecoder.decode(Array(#"{"events": \#(events)}"#.utf8), file: "shop.json", baseDirectory: "/")
    }

    func testSceneActionsAreReadAndWrittenTyped() throws {
        let scene = try decode(#"[{"at": 0.3, "tap": "add"}, {"at": 0.1, "tap": "add"}]"#)
        XCTAssertEqual(scene.events, [SceneEvent(at: 0.1, action: ShopAction.tapAdd, index: 1), SceneEvent(at: 0.3, action: ShopAction.tapAdd, index: 0)])
        XCTAssertEqual(scene.events(of: ShopAction.self).map(\.action), [.tapAdd, .tapAdd])
        XCTAssertTrue(scene.events(of: CartAction.self).isEmpty)
        XCTAssertEqual(JSONValue.object(ShopAction.tapAdd.canonicalMembers).serialized(), #"{"tap":"add"}"#)
        guard case .object(let members) = scene.canonicalJSON, let events = members.first(where: { $0.0 == "events" })?.1 else { return XCTFail("no events") }
        XCTAssertEqual(events.serialized(), #"[{"at":0.1,"tap":"add"},{"at":0.3,"tap":"add"}]"#)
    }

    func testWhatTheShopCannotDoIsRefusedAtItsMember() {
        let table: [(String, String)] = [
            (#"[{"at": 1, "tap": "plus"}]"#, #"shop.json:1:30: events[0].tap: on the shop screen must be "add", got "plus""#),
            (#"[{"at": 1, "tap": "add", "item": "a"}]"#, #"shop.json:1:45: events[0].item: is not used by "tap": "add""#),
            (#"[{"at": 1, "swipe": {"item": "a", "translation": -50}}]"#, "shop.json:1:32: events[0].swipe: swipes are only for the cart screen"),
        ]
        for (events, message) in table {
            XCTAssertThrowsError(try decode(events), events) { error in
                XCTAssertEqual((error as? SceneError)?.description, message, events)
            }
        }
    }
}
