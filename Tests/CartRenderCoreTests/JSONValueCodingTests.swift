import CartRenderCore
import Foundation
import XCTest

/// `JSONValueEncoder` / `JSONValueDecoder`: the bytes come from `JSONValue`'s serializer, so
/// member order, number formatting and pretty printing are the project's, not Foundation's.
final class JSONValueCodingTests: XCTestCase {
    struct Inner: Codable, Equatable {
        var label: String
        var value: String?
    }

    struct Sample: Codable, Equatable {
        var zeta: Int
        var alpha: Double
        var flags: [Bool]
        var inner: Inner
        var optional: Inner?
        var raw: JSONValue
        var big: Int
    }

    let sample = Sample(zeta: 3, alpha: 1.0 / 3, flags: [true, false], inner: Inner(label: "a", value: nil),
                        optional: nil, raw: .object([("b", .numberText("1.50")), ("a", .null)]), big: Int.max)

    func testMembersInDeclarationOrderNumbersAtSixDigitsNilLeftOut() throws {
        let json = try JSONValue(encoding: sample)
        XCTAssertEqual(json.serialized(),
                       #"{"zeta":3,"alpha":0.333333,"flags":[true,false],"inner":{"label":"a"},"raw":{"b":1.50,"a":null},"big":9223372036854775807}"#)
    }

    func testDecodingGivesBackWhatWasEncoded() throws {
        let text = try JSONValue(encoding: sample).serialized(pretty: true)
        let back = try JSONValueDecoder().decode(Sample.self, from: JSONValue(JSONParser.parse(Array(text.utf8))))
        XCTAssertEqual(back.zeta, 3)
        XCTAssertEqual(back.alpha, 0.333333)
        XCTAssertEqual(back.big, Int.max, "integers are read from their text, not through a Double")
        XCTAssertEqual(back.raw.serialized(), #"{"b":1.50,"a":null}"#, "a JSONValue member keeps its number text")
        XCTAssertEqual(try JSONValue(encoding: back).serialized(pretty: true), text)
    }

    func testErrorsNameTheJSONPath() throws {
        func error(_ text: String) -> DecodingError? {
            do {
                _ = try JSONValueDecoder().decode([String: [Inner]].self, from: JSONValue(JSONParser.parse(Array(text.utf8))))
                return nil
            } catch { return error as? DecodingError }
        }
        let missing = error(#"{"rows": [{"label": "a"}, {"value": "b"}]}"#)
        XCTAssertEqual(missing?.jsonPath, "rows[1].label")
        XCTAssertEqual(missing?.reason, "is missing")
        let wrong = error(#"{"rows": [{"label": 7}]}"#)
        XCTAssertEqual(wrong?.jsonPath, "rows[0].label")
        XCTAssertEqual(wrong?.reason, "expected a string, got a number")
    }

    func testIntegersAreExactOrRefused() throws {
        func int(_ text: String) throws -> Int {
            try JSONValueDecoder().decode(Int.self, from: JSONValue(JSONParser.parse(Array(text.utf8))))
        }
        XCTAssertEqual(try int("1e3"), 1000)
        XCTAssertEqual(try int("-9223372036854775808"), Int.min)
        XCTAssertThrowsError(try int("1.5")) { XCTAssertEqual(($0 as? DecodingError)?.reason, "expected an integer from \(Int.min) to \(Int.max), got 1.5") }
        XCTAssertThrowsError(try int("\"1\"")) { XCTAssertEqual(($0 as? DecodingError)?.reason, "expected an integer, got a string") }
    }
}
