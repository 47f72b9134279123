@testable import CartRenderCore
import Foundation
import XCTest

/// Screens behind the `Screen` protocol: the scene holds one screen's content, and each screen
/// names the images it draws and the keys of its section.
final class ScreenTests: XCTestCase {
    private func decode(_ text: String) throws -> Scene {
        try SceneDecoder.decode(Array(text.utf8), file: "s.json", baseDirectory: "/")
    }

    private let cartScene = #"""
    {"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1"}, {"id": "b", "name": "B", "price": "2", "image": "symbol:backpack.fill"}]},
     "events": [{"at": 0.1, "swipe": {"item": "a", "translation": -120}}, {"at": 0.6, "tap": "plus", "item": "b"}, {"at": 0.8, "tap": "checkout"}]}
    """#

    func testTheSceneHoldsTheContentOfItsScreen() throws {
        let shop = try decode(#"{"shop": {"title": "Store"}}"#)
        guard let s = shop.content as? ShopContent else { return XCTFail("a scene without \"screen\" shows the shop") }
        XCTAssertEqual(s.title, "Store")
        XCTAssertEqual(shop.screenName, "shop")
        let cart = try decode(cartScene)
        guard let c = cart.content as? CartContent else { return XCTFail("not the cart") }
        XCTAssertEqual(c.items.map(\.id), ["a", "b"])
        XCTAssertEqual(cart.screenName, "cart")
    }

    func testTheSceneFileKeysAreTheScreensSections() {
        XCTAssertEqual(Screens.all.map { $0.name }, ["shop", "cart"])
        XCTAssertEqual(SceneDecoder.topKeys.filter { Screens.named($0) != nil }, ["shop", "cart"])
        XCTAssertEqual(SceneDecoder.alternatives(["shop", "cart"]), #""shop" or "cart""#)
        XCTAssertEqual(SceneDecoder.alternatives(["a", "b", "c"]), #""a", "b" or "c""#)
    }

    /// Every image a frame draws is one its screen lists, so everything is loaded (and any
    /// broken image file reported) before the first frame.
    func testEveryDrawnImageIsListedByItsScreen() throws {
        func drawn(_ items: [DisplayItem]) -> [ImageSource] {
            items.flatMap { item -> [ImageSource] in
                switch item {
                case .image(let i): return [i.source]
                case .group(_, _, _, let children): return drawn(children)
                default: return []
                }
            }
        }
        for scene in [try DefaultScene.scene(baseDirectory: "/"), try decode(cartScene)] {
            let model = Screens.model(for: scene, measurer: WrappingMetrics())
            let listed = Set(scene.content.images)
            var seen = Set<ImageSource>()
            for i in 0...120 { seen.formUnion(drawn(model.frame(at: Double(i) / 60).display.items)) }
            XCTAssertTrue(seen.isSubset(of: listed), "\(scene.screenName): \(seen.subtracting(listed)) drawn but not listed")
            XCTAssertTrue(seen.count >= 3, "\(scene.screenName) draws its symbols")
        }
    }

    /// What the generic code relies on in the registry: a manifest `tap` is read by the one
    /// screen that has its target, so no two screens share a target; no two screens add the same
    /// event member to the schema; and the default screen has default content.
    func testTheRegistryIsWhatTheGenericCodeReliesOn() {
        let targets = Screens.all.flatMap { $0.tapTargets }
        XCTAssertEqual(Set(targets).count, targets.count, "tap targets are unique across screens: \(targets)")
        let members = Screens.all.flatMap { $0.eventMembers.map(\.0) }
        XCTAssertEqual(Set(members).count, members.count, "event members are unique across screens: \(members)")
        XCTAssertFalse(members.contains("at") || members.contains("tap"), "at and tap are every screen's")
        XCTAssertTrue(Screens.defaultContent is ShopContent)
        XCTAssertEqual(Screens.all.map { "\($0.timelineEvents)" }, ["ShopEvent", "CartEvent"])
    }

    /// Every kind a screen's timeline writes is read back by the registry as that screen's, in
    /// real timelines of both screens.
    func testTimelinesOfEveryScreenReadBackThroughTheRegistry() throws {
        let shop = try SceneDecoder.decode(Array(#"{"events": [{"at": 0.1, "tap": "add"}, {"at": 0.2, "tap": "add"}]}"#.utf8), file: "s.json", baseDirectory: "/")
        for scene in [shop, try decode(cartScene)] {
            let events = Screens.model(for: scene, measurer: WrappingMetrics()).events
            XCTAssertFalse(events.isEmpty)
            let json = try JSONValue(encoding: events)
            let back = try JSONValueDecoder().decode([TimelineEvent].self, from: JSONValue(JSONParser.parse(Array(json.serialized().utf8))))
            // The manifest keeps 6 fraction digits: what it reads back writes the same bytes.
            XCTAssertEqual(try JSONValue(encoding: back).serialized(), json.serialized(), scene.screenName)
            XCTAssertEqual(back.map(\.kind.name), events.map(\.kind.name), scene.screenName)
            XCTAssertTrue(back.allSatisfy { type(of: $0.kind) == type(of: scene.content).timelineEvents }, scene.screenName)
        }
    }
}
