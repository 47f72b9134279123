import CartRenderCore
import Foundation
import XCTest

/// Bad cart scenes (docs/scene-file.md; docs/bad-input.md): each a `SceneError` naming file, line, column and JSON path.
final class CartScreenDecodingTests: XCTestCase {
    /// A cart scene with two items and the given events (one per line, from line 10).
    private func scene(items: String? = nil, events: [String]) -> String {
        let defaultItems = """
            { "id": "tek1", "name": "One", "price": "10.00" },
            { "id": "tek2", "name": "Two", "price": "90.99", "quantity": 2 }
        """
        return """
        {
          "screen": "cart",
          "device": "iphone-16",
          "cart": {
            "currencyCode": "USD",
            "items": [
        \(items ?? defaultItems)
            ]
          },
          "events": [
        \(events.map { "    " + $0 }.joined(separator: ",\n"))
          ]
        }
        """
    }

    private func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try SceneDecoder.decode(Array(text.utf8), file: "cart.json", baseDirectory: "/")
            XCTFail("decoded without error", file: file, line: line)
            return nil
        } catch let e as SceneError {
            return e.description
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    func testValidCartSceneDecodes() throws {
        let s = try SceneDecoder.decode(Array(scene(events: [
            #"{ "at": 0.3, "swipe": { "item": "tek2", "translation": -120, "duration": 0.3 } }"#,
            #"{ "at": 1.0, "tap": "delete", "item": "tek2" }"#,
            #"{ "at": 1.5, "tap": "checkout" }"#,
        ]).utf8), file: "cart.json", baseDirectory: "/")
        guard let cart = s.content as? CartContent else { return XCTFail("not the cart screen") }
        XCTAssertEqual(cart.items.map(\.price), [Decimal(string: "10.00")!, Decimal(string: "90.99")!])
        XCTAssertEqual(s.events.count, 3)
    }

    /// A cart holds at most `CartContent.maximumItems` (1000) items: that many decode, one more is an error at `cart.items`.
    func testCartItemsAreLimited() throws {
        func items(_ n: Int) -> String { (0..<n).map { #"    { "id": "i\#($0)", "name": "N", "price": "1" }"# }.joined(separator: ",\n") }
        let s = try SceneDecoder.decode(Array(scene(items: items(1000), events: []).utf8), file: "cart.json", baseDirectory: "/")
        guard let cart = s.content as? CartContent else { return XCTFail("not the cart screen") }
        XCTAssertEqual(cart.items.count, 1000)
        XCTAssertEqual(error(scene(items: items(1001), events: [])), "cart.json:6:14: cart.items: has 1001 items; at most 1000 are allowed")
    }

    func testErrorsNameFileLineColumnAndPath() {
        let cases: [(scene: String, error: String)] = [
            (scene(events: [#"{ "at": 0.3, "tap": "plus", "item": "tek9" }"#]),
             #"cart.json:12:41: events[0].item: no cart item has id "tek9"; did you mean "tek1"?"#),
            (scene(items: #"    { "id": "a", "name": "A", "price": "10.00" }, { "id": "a", "name": "B", "price": "1" }"#, events: []),
             #"cart.json:7:59: cart.items[1].id: duplicate id "a" (first used by cart.items[0])"#),
            (scene(items: #"    { "id": "a", "name": "A", "price": "1e3" }"#, events: []),
             #"cart.json:7:40: cart.items[0].price: must be a non-negative decimal such as "90.99", got "1e3""#),
            (scene(items: #"    { "id": "a", "name": "A", "price": "ten" }"#, events: []),
             #"cart.json:7:40: cart.items[0].price: must be a non-negative decimal such as "90.99", got "ten""#),
            (scene(items: #"    { "id": "a", "name": "A", "price": "1.23456789" }"#, events: []),
             #"cart.json:7:40: cart.items[0].price: has 8 digits after the decimal point; at most 6, got "1.23456789""#),
            (scene(items: #"    { "id": "a", "name": "A", "price": "1234567890123.5" }"#, events: []),
             #"cart.json:7:40: cart.items[0].price: has 13 digits before the decimal point; at most 12, got "1234567890123.5""#),
            (scene(items: #"    { "id": "a", "name": "A", "price": "1.00", "quantity": 0 }"#, events: []),
             #"cart.json:7:60: cart.items[0].quantity: must be between 1 and 1000000, got 0"#),
            // Events on a deleted item: the simulation runs in the decoder.
            (scene(events: [
                #"{ "at": 0.3, "swipe": { "item": "tek2", "translation": -300, "duration": 0.2 } }"#,
                #"{ "at": 1.0, "tap": "plus", "item": "tek2" }"#,
            ]), #"cart.json:13:41: events[1].item: "tek2" was deleted at 0.5 s (events[0] swiped it away); no event can target it after that"#),
            (scene(events: [
                #"{ "at": 0.3, "swipe": { "item": "tek1", "translation": -80, "duration": 0.2 } }"#,
                #"{ "at": 0.9, "tap": "delete", "item": "tek1" }"#,
                #"{ "at": 1.5, "swipe": { "item": "tek1", "translation": -10 } }"#,
            ]), #"cart.json:14:37: events[2].swipe.item: "tek1" was deleted at 0.9 s (events[1] tapped its trash button); no event can target it after that"#),
            (scene(events: [#"{ "at": 0.5, "tap": "delete", "item": "tek1" }"#]),
             #"cart.json:12:25: events[0].tap: the trash button of "tek1" is hidden at 0.5 s: the row is not swiped open (a swipe released more than 50 pt to the left opens it)"#),
            (scene(events: [
                #"{ "at": 0.3, "swipe": { "item": "tek1", "translation": -80, "duration": 0.5 } }"#,
                #"{ "at": 0.4, "swipe": { "item": "tek1", "translation": -80 } }"#,
            ]), #"cart.json:13:13: events[1].at: the swipe on "tek1" starts at 0.4 s, while an earlier swipe on that row lasts until 0.8 s"#),
        ]
        for c in cases {
            XCTAssertEqual(error(c.scene), c.error)
        }
    }

    /// Events are simulated in time order, not file order: a tap listed first but timed after a
    /// deletion is the one blamed.
    func testDeletedItemCheckFollowsTime() {
        let text = scene(events: [
            #"{ "at": 2.0, "tap": "minus", "item": "tek2" }"#,
            #"{ "at": 0.3, "swipe": { "item": "tek2", "translation": -300, "duration": 0.2 } }"#,
        ])
        XCTAssertEqual(error(text), #"cart.json:12:42: events[0].item: "tek2" was deleted at 0.5 s (events[1] swiped it away); no event can target it after that"#)
    }
}
