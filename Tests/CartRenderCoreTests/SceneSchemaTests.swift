@testable import CartRenderCore
import Foundation
import XCTest

/// `cartrender schema` describes the decoder: its bounds are the decoder's, probed at the edge.
final class SceneSchemaTests: XCTestCase {
    /// The schema as Foundation objects, for walking paths.
    private let schema = try! JSONSerialization.jsonObject(with: Data(SceneSchema.json.serialized().utf8)) as! [String: Any]

    private func node(_ path: [String]) -> [String: Any] {
        path.reduce(schema) { n, key in n[key] as! [String: Any] }
    }

    private func accepts(_ json: String) -> Bool {
        (try? SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")) != nil
    }

    private func cart(item: String = #""price": "1""#, events: String = "[]") -> String {
        #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "# + item + #"}]}, "events": "# + events + "}"
    }

    func testNumericBoundsAreTheDecoders() {
        let props = ["properties"]
        let item = props + ["cart", "properties", "items", "items", "properties"]
        let event = props + ["events", "items", "properties"]
        let swipe = event + ["swipe", "properties"]
        // (schema node, bound, the scene at the bound, the scene just past it)
        let cases: [([String], String, String, String)] = [
            (props + ["duration"], "maximum", #"{"duration": 3600, "fps": 1}"#, #"{"duration": 3600.5, "fps": 1}"#),
            (event + ["at"], "maximum", #"{"duration": 3600, "fps": 1, "events": [{"at": 3600, "tap": "add"}]}"#,
             #"{"duration": 3600, "fps": 1, "events": [{"at": 3600.5, "tap": "add"}]}"#),
            (item + ["quantity"], "maximum", cart(item: #""price": "1", "quantity": 1000000"#), cart(item: #""price": "1", "quantity": 1000001"#)),
            (item + ["quantity"], "minimum", cart(item: #""price": "1", "quantity": 1"#), cart(item: #""price": "1", "quantity": 0"#)),
            (swipe + ["translation"], "minimum", cart(events: #"[{"at": 0, "swipe": {"item": "a", "translation": -10000}}]"#),
             cart(events: #"[{"at": 0, "swipe": {"item": "a", "translation": -10001}}]"#)),
            (props + ["fps"], "maximum", #"{"fps": 240}"#, #"{"fps": 241}"#),
        ]
        for (path, bound, at, past) in cases {
            XCTAssertNotNil(node(path)[bound], "\(path.joined(separator: ".")) has a \(bound)")
            XCTAssertTrue(accepts(at), at)
            XCTAssertFalse(accepts(past), past)
        }
        XCTAssertEqual(node(props + ["duration"])["maximum"] as? Double, SceneDecoder.maxTime)
        XCTAssertEqual(node(item + ["quantity"])["maximum"] as? Double, 1_000_000)
    }

    func testCartIsRequiredOnTheCartScreenOnly() {
        XCTAssertEqual((schema["then"] as? [String: Any])?["required"] as? [String], ["cart"])
        XCTAssertFalse(accepts(#"{"screen": "cart"}"#))
        XCTAssertFalse(accepts(#"{"cart": {"items": []}}"#))
    }

    func testEveryPropertyIsDescribed() {
        func walk(_ n: Any, _ path: String) {
            guard let n = n as? [String: Any] else { return }
            if let props = n["properties"] as? [String: Any] {
                for (k, v) in props {
                    let vd = v as? [String: Any] ?? [:]
                    if let d = vd["description"] as? String { XCTAssertFalse(d.isEmpty, "\(path).\(k) has an empty description") }
                    walk(v, path + "." + k)
                }
            }
            if let items = n["items"] { walk(items, path + "[]") }
        }
        walk(schema, "scene")
    }

    func testNULInTextIsAnError() {
        XCTAssertThrowsError(try SceneDecoder.decode(Array(#"{"shop": {"title": "a\u0000b"}}"#.utf8), file: "s.json", baseDirectory: "/")) { e in
            XCTAssertEqual("\(e)", #"s.json:1:20: shop.title: contains a NUL character (\u0000), which text cannot hold"#)
        }
    }
}
