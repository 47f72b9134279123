@testable import CartRenderCore
import Foundation
import XCTest

/// Timeline events are typed; their manifest form is read back into the same events.
final class TimelineEventTests: XCTestCase {
    private let every: [TimelineEvent] = [
        TimelineEvent(time: 0.3, ShopEvent.tap),
        TimelineEvent(time: 0.3, ShopEvent.launch(flight: 1, destination: Vector(dx: 151.5, dy: -222.5))),
        TimelineEvent(time: 0.95, ShopEvent.land(flight: 1, count: Int.max)),
        TimelineEvent(time: 1, ShopEvent.increment(count: 2, reason: .maximumFlights)),
        TimelineEvent(time: 1.1, CartEvent.swipe(item: "a", translation: -120, duration: 0.25, offset: -90)),
        TimelineEvent(time: 1.35, CartEvent.release(item: "a", translation: -120, offset: -210, target: -1000)),
        TimelineEvent(time: 1.4, CartEvent.open(item: "b")),
        TimelineEvent(time: 1.5, CartEvent.close(item: "b")),
        TimelineEvent(time: 1.6, CartEvent.delete(item: "a", reason: .trash, total: "$1.00")),
        TimelineEvent(time: 1.7, CartEvent.tap(.row(.minus, item: "b"))),
        TimelineEvent(time: 1.7, CartEvent.quantity(item: "b", from: 2, to: 1, total: "$0.50")),
        TimelineEvent(time: 1.8, CartEvent.tap(.checkout)),
        TimelineEvent(time: 1.8, CartEvent.checkout(total: "$0.50")),
    ]

    private func reread(_ json: JSONValue) throws -> [TimelineEvent] {
        let parsed = JSONValue(try JSONParser.parse(Array(json.serialized().utf8)))
        return try JSONValueDecoder().decode([TimelineEvent].self, from: parsed)
    }

    func testEveryKindReadsBackAsWritten() throws {
        let json = try JSONValue(encoding: every)
        XCTAssertEqual(try reread(json), every)
        XCTAssertEqual(try JSONValue(encoding: every[2]).serialized(), #"{"time":0.95,"kind":"land","flight":1,"count":9223372036854775807,"hook":"onAdd"}"#)
        XCTAssertEqual(try JSONValue(encoding: every[8]).serialized(), #"{"time":1.6,"kind":"delete","item":"a","reason":"trash","animation":"easeIn","total":"$1.00"}"#)
        XCTAssertEqual(try JSONValue(encoding: every[9]).serialized(), #"{"time":1.7,"kind":"tap","target":"minus","item":"b"}"#)
    }

    func testWhatNoTimelineWritesIsRefusedAtItsMember() throws {
        let cases: [(String, String, String)] = [
            (#"[{"time": 1, "kind": "jump"}]"#, "[0].kind", #"unknown event kind "jump""#),
            (#"[{"time": 1, "kind": "land", "flight": 1, "count": 1, "hook": "onRemove"}]"#, "[0].hook", #"must be "onAdd", got "onRemove""#),
            (#"[{"time": 1, "kind": "delete", "item": "a", "reason": "swipe", "animation": "easeIn", "total": "$1"}]"#, "[0].animation", #"must be "easeOut", got "easeIn""#),
            (#"[{"time": 1, "kind": "open"}]"#, "[0].item", "is missing"),
        ]
        for (text, path, reason) in cases {
            XCTAssertThrowsError(try reread(JSONValue(JSONParser.parse(Array(text.utf8)))), text) { error in
                XCTAssertEqual((error as? DecodingError)?.jsonPath, path, text)
                XCTAssertEqual((error as? DecodingError)?.reason, reason, text)
            }
        }
    }
}
