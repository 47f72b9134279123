@testable import CartRenderCore
import Foundation
import XCTest

/// The cart's typed events: each `CartEvent` as the manifest writes it and reads it back, each
/// `CartAction` as a scene file gives it and as the canonical scene writes it, and the
/// `CartButton` names the manifest's `target` and `pressed` use.
final class CartEventsTests: XCTestCase {
    private func reread(_ text: String) throws -> TimelineEvent {
        try JSONValueDecoder().decode(TimelineEvent.self, from: JSONValue(JSONParser.parse(Array(text.utf8))))
    }

    func testEveryEventHasItsManifestForm() throws {
        let table: [(CartEvent, String)] = [
            (.tap(.row(.plus, item: "a")), #"{"time":2,"kind":"tap","target":"plus","item":"a"}"#),
            (.tap(.row(.minus, item: "b")), #"{"time":2,"kind":"tap","target":"minus","item":"b"}"#),
            (.tap(.row(.delete, item: "c")), #"{"time":2,"kind":"tap","target":"delete","item":"c"}"#),
            (.tap(.checkout), #"{"time":2,"kind":"tap","target":"checkout"}"#),
            (.swipe(item: "a", translation: -120.5, duration: 0.25, offset: -90),
             #"{"time":2,"kind":"swipe","item":"a","translation":-120.5,"duration":0.25,"offset":-90}"#),
            (.release(item: "a", translation: -120, offset: -210, target: -1000),
             #"{"time":2,"kind":"release","item":"a","translation":-120,"offset":-210,"target":-1000}"#),
            (.open(item: "a"), #"{"time":2,"kind":"open","item":"a"}"#),
            (.close(item: "a"), #"{"time":2,"kind":"close","item":"a"}"#),
            (.delete(item: "a", reason: .swipe, total: "$1.00"), #"{"time":2,"kind":"delete","item":"a","reason":"swipe","animation":"easeOut","total":"$1.00"}"#),
            (.delete(item: "a", reason: .trash, total: "$0.00"), #"{"time":2,"kind":"delete","item":"a","reason":"trash","animation":"easeIn","total":"$0.00"}"#),
            (.quantity(item: "b", from: 2, to: 3, total: "€3,00"), #"{"time":2,"kind":"quantity","item":"b","from":2,"to":3,"total":"€3,00"}"#),
            (.checkout(total: "$291.98"), #"{"time":2,"kind":"checkout","total":"$291.98"}"#),
        ]
        for (kind, json) in table {
            let event = TimelineEvent(time: 2, kind)
            XCTAssertEqual(try JSONValue(encoding: event).serialized(), json)
            let back = try reread(json)
            XCTAssertEqual(back, event, json)
            XCTAssertTrue(back.kind is CartEvent, "\(json) is read by the cart's type")
        }
        XCTAssertEqual(Set(table.map(\.0.name)), ["tap", "swipe", "release", "open", "close", "delete", "quantity", "checkout"])
        XCTAssertNotEqual(TimelineEvent(time: 2, CartEvent.tap(.checkout)), TimelineEvent(time: 2, ShopEvent.tap), "same kind, other screen")
    }

    func testWhatNoCartTimelineWritesIsRefused() {
        let table: [(String, String, String)] = [
            (#"{"time":1,"kind":"tap","target":"plus"}"#, "item", "is missing"),
            (#"{"time":1,"kind":"delete","item":"a","reason":"fade","animation":"easeIn","total":"$1"}"#, "reason", #"unknown deletion reason "fade""#),
            (#"{"time":1,"kind":"delete","item":"a","reason":"trash","animation":"easeOut","total":"$1"}"#, "animation", #"must be "easeIn", got "easeOut""#),
            (#"{"time":1,"kind":"quantity","item":"a","from":"1","to":2,"total":"$1"}"#, "from", "expected an integer, got a string"),
        ]
        for (text, path, reason) in table {
            XCTAssertThrowsError(try reread(text), text) { error in
                XCTAssertEqual((error as? DecodingError)?.jsonPath, path, text)
                XCTAssertEqual((error as? DecodingError)?.reason, reason, text)
            }
        }
    }

    func testButtonsHaveTheirNames() {
        let table: [(CartButton, name: String, item: String?, pressed: String)] = [
            (.row(.plus, item: "tek1"), "plus", "tek1", "plus:tek1"),
            (.row(.minus, item: "tek2"), "minus", "tek2", "minus:tek2"),
            (.row(.delete, item: "x"), "delete", "x", "delete:x"),
            (.checkout, "checkout", nil, "checkout"),
        ]
        for (button, name, item, pressed) in table {
            XCTAssertEqual(button.name, name)
            XCTAssertEqual(button.item, item)
            XCTAssertEqual(button.pressedName, pressed)
        }
        XCTAssertEqual(CartEvent.DeletionReason.allCases.map(\.animation), ["easeOut", "easeIn"])
    }

    private func decode(_ events: String) throws -> Scene {
        let text = #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1"}, {"id": "b", "name": "B", "price": "2"}]}, "events": \#(events)}"#
        return try SceneDecoder.decode(Array(text.utf8), file: "cart.json", baseDirectory: "/")
    }

    func testSceneActionsAreReadAndWrittenTyped() throws {
        let table: [(String, CartAction, String)] = [
            (#"{"at": 0, "tap": "plus", "item": "a"}"#, .tap(.row(.plus, item: "a")), #"{"at":0,"tap":"plus","item":"a"}"#),
            (#"{"at": 0, "tap": "minus", "item": "b"}"#, .tap(.row(.minus, item: "b")), #"{"at":0,"tap":"minus","item":"b"}"#),
            (#"{"at": 0, "tap": "checkout"}"#, .tap(.checkout), #"{"at":0,"tap":"checkout"}"#),
            (#"{"at": 0, "swipe": {"item": "a", "translation": -50}}"#, .swipe(item: "a", translation: -50, duration: CartTimeline.defaultSwipeDuration),
             #"{"at":0,"swipe":{"item":"a","translation":-50,"duration":\#(JSONValue.num(CartTimeline.defaultSwipeDuration).serialized())}}"#),
            (#"{"at": 0, "swipe": {"item": "b", "translation": 30, "duration": 0.5}}"#, .swipe(item: "b", translation: 30, duration: 0.5),
             #"{"at":0,"swipe":{"item":"b","translation":30,"duration":0.5}}"#),
        ]
        for (event, action, canonical) in table {
            let scene = try decode("[\(event)]")
            XCTAssertEqual(scene.events, [SceneEvent(at: 0, action: action, index: 0)], event)
            XCTAssertEqual(scene.events(of: CartAction.self).map(\.action), [action])
            XCTAssertTrue(scene.events(of: ShopAction.self).isEmpty)
            guard case .object(let members) = scene.canonicalJSON, let events = members.first(where: { $0.0 == "events" })?.1 else { return XCTFail("no events") }
            XCTAssertEqual(events.serialized(), "[\(canonical)]", event)
        }
    }

    func testWhatTheCartCannotDoIsRefusedAtItsMember() {
        let table: [(String, String)] = [
            (#"[{"at": 1, "tap": "add"}]"#, #"events[0].tap: on the cart screen must be "plus", "minus", "delete", "checkout", got "add""#),
            (#"[{"at": 1, "tap": "plus"}]"#, #"events[0].item: is required for "tap": "plus""#),
            (#"[{"at": 1, "tap": "checkout", "item": "a"}]"#, #"events[0].item: is not used by "tap": "checkout""#),
        ]
        for (events, message) in table {
            XCTAssertThrowsError(try decode(events), events) { error in
                let description = (error as? SceneError)?.description ?? "\(error)"
                XCTAssertTrue(description.hasSuffix(message), "\(events): \(description)")
            }
        }
    }
}
