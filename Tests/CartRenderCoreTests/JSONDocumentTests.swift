import CartRenderCore
import XCTest

/// `JSONDocument.swift`: the parser keeps each value's line and column, and a syntax error is
/// one message at its place with the JSON path of the value it was in.
final class JSONDocumentTests: XCTestCase {
    func testValuesKeepTheirLineAndColumn() throws {
        let root = try JSONParser.parse(Array("{\n  \"a\": [1, true],\n  \"b\": null\n}".utf8))
        guard case .object(let members) = root.value else { return XCTFail("not an object") }
        XCTAssertEqual(root.location, SourceLocation(line: 1, column: 1))
        XCTAssertEqual(members.map(\.key), ["a", "b"])
        XCTAssertEqual(members[0].keyLocation, SourceLocation(line: 2, column: 3))
        XCTAssertEqual(members[0].value.location, SourceLocation(line: 2, column: 8))
        guard case .array(let items) = members[0].value.value else { return XCTFail("not an array") }
        XCTAssertEqual(items.map(\.typeName), ["a number", "a boolean"])
        XCTAssertEqual(items[1].location, SourceLocation(line: 2, column: 12))
        XCTAssertEqual(members[1].value.typeName, "null")
        XCTAssertEqual(members[1].value.location.description, "3:8")
    }

    func testNumbersKeepTheirText() throws {
        guard case .number(let v, let text) = try JSONParser.parse(Array("1.50e1".utf8)).value else { return XCTFail("not a number") }
        XCTAssertEqual(v, 15)
        XCTAssertEqual(text, "1.50e1")
    }

    func testSyntaxErrorsNameTheirPlaceAndPath() {
        let table: [(String, SourceLocation, String)] = [
            ("{\"a\": [1, }", SourceLocation(line: 1, column: 11), "a[1]"),
            ("{\"a\": {\"b\": tru}}", SourceLocation(line: 1, column: 13), "a.b"),
            ("[1]\n x", SourceLocation(line: 2, column: 2), ""),
        ]
        for (input, location, path) in table {
            XCTAssertThrowsError(try JSONParser.parse(Array(input.utf8)), input) { e in
                let error = e as? JSONSyntaxError
                XCTAssertEqual(error?.location, location, input)
                XCTAssertEqual(error?.path, path, input)
                XCTAssertFalse(error?.message.isEmpty ?? true, input)
            }
        }
    }
}
