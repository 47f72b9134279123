import CartRenderCore
import Foundation
import XCTest

/// Runs the built `cartrender` like a user on the cart examples and on bad cart scenes
/// (docs/motion-and-look.md, “The cart page”; docs/command-line.md; docs/bad-input.md).
final class CartEndToEndTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `cartrender` executable of the tests' own build (``Binary/url``).
    static var binary: URL { Binary.url }

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cartrender-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw XCTSkip("cartrender is not built at \(Self.binary.path); run swift build first")
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = arguments
        p.currentDirectoryURL = scratch
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private func manifest(_ dir: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent("manifest.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    // MARK: The example

    /// Offsets of the example's two swiped rows by docs/motion-and-look.md, “The cart page”, written out independently of
    /// `CartTimeline`: tek3 dragged 120 pt over 0.3 s from 0.3 s, released (open, `.easeOut` to
    /// −90), trash-deleted at 1.2 s (`.easeIn` 0.35 s); tek4 dragged 280 pt over 0.25 s from
    /// 1.9 s, released past half of 393 pt: flies to −1000 and is gone 0.35 s later.
    private func expectedOffset(_ id: String, at t: Double) -> Double?? {
        let easeOut = TimingCurve.easeOut
        let eps = 1e-6
        switch id {
        case "tek3":
            if t >= 1.55 - eps { return .some(nil) }
            if t < 0.3 { return 0 }
            if t < 0.6 - eps { return -120 * (t - 0.3) / 0.3 }
            return -120 + 30 * easeOut.value(at: (t - 0.6) / 0.35)
        case "tek4":
            if t >= 2.5 - eps { return .some(nil) }
            if t < 1.9 { return 0 }
            if t < 2.15 - eps { return -280 * (t - 1.9) / 0.25 }
            return -280 - 720 * easeOut.value(at: (t - 2.15) / 0.35)
        default:
            return .none
        }
    }

    func testSwipeExampleFrameByFrame() throws {
        let out = scratch.appendingPathComponent("frames")
        let example = Self.root.appendingPathComponent("Examples/cart-swipe.json").path
        let r = try run([example, "--out", out.path, "--scale", "1", "--quiet", "--jobs", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let m = try manifest(out)
        // Open-ended: the last animation (tek4's removal) ends at 2.5 s, the checkout press at
        // 3.4 s; the render ends 0.5 s later, at 3.9 s: 235 frames.
        XCTAssertEqual(m["frameCount"] as? Int, 235)
        let frames = try XCTUnwrap(m["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.count, 235)
        for f in frames {
            let index = try XCTUnwrap(f["index"] as? Int)
            let t = Double(index) / 60
            let file = try XCTUnwrap(f["file"] as? String)
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), file)
            let state = try XCTUnwrap(f["state"] as? [String: Any])
            let rows = try XCTUnwrap(state["rows"] as? [[String: Any]])
            let ids = rows.compactMap { $0["id"] as? String }
            for id in ["tek3", "tek4"] {
                let row = rows.first { $0["id"] as? String == id }
                switch expectedOffset(id, at: t) {
                case .some(.some(let expected)):
                    let offset = try XCTUnwrap(row?["offset"] as? Double, "\(id) missing at frame \(index)")
                    XCTAssertEqual(offset, expected, accuracy: 2e-6, "\(id) at frame \(index)")
                case .some(.none):
                    XCTAssertNil(row, "\(id) still shown at frame \(index)")
                case .none: break
                }
            }
            for id in ["tek1", "tek2", "tek5"] {
                XCTAssertEqual(rows.first { $0["id"] as? String == id }?["offset"] as? Double, 0, "\(id) at frame \(index)")
            }
            XCTAssertEqual(ids.first, "tek1")
            // Totals: exact decimals, changing at the deletions and the plus tap.
            let total: String = index < 72 ? "$441.98" : index < 129 ? "$341.98" : index < 168 ? "$291.98" : "$301.98"
            XCTAssertEqual(state["total"] as? String, total, "total at frame \(index)")
            XCTAssertEqual(state["totalAmount"] as? String, String(total.dropFirst()), "amount at frame \(index)")
            let quantity = rows.first { $0["id"] as? String == "tek1" }?["quantity"] as? Int
            XCTAssertEqual(quantity, index < 168 ? 1 : 2, "tek1 quantity at frame \(index)")
        }
        // Rows below a deletion close the gap: after tek3 and tek4 are gone, tek5 sits in the third slot.
        let last = try XCTUnwrap((frames.last?["state"] as? [String: Any])?["rows"] as? [[String: Any]])
        XCTAssertEqual(last.map { $0["id"] as? String }, ["tek1", "tek2", "tek5"])
        XCTAssertEqual(last[2]["y"] as? Double, (last[1]["y"] as? Double).map { $0 + 162 })

        let events = try XCTUnwrap(m["events"] as? [[String: Any]])
        XCTAssertEqual(events.compactMap { $0["kind"] as? String },
                       ["swipe", "release", "open", "tap", "delete", "swipe", "release", "delete", "tap", "quantity", "tap", "checkout"])
        XCTAssertEqual(events.filter { $0["kind"] as? String == "delete" }.compactMap { $0["total"] as? String }, ["$341.98", "$291.98"])

        // Deterministic whatever the number of workers.
        let single = scratch.appendingPathComponent("single")
        XCTAssertEqual(try run([example, "--out", single.path, "--scale", "1", "--quiet", "--jobs", "1"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: single.appendingPathComponent("manifest.json")),
                       try Data(contentsOf: out.appendingPathComponent("manifest.json")))
    }

    func testLocaleAndDarkExamplesRender() throws {
        for (name, total) in [("cart-locale-de.json", "280,00\u{A0}€"), ("cart-dark.json", "$150.99")] {
            let out = scratch.appendingPathComponent(name)
            let r = try run([Self.root.appendingPathComponent("Examples/\(name)").path, "--out", out.path, "--scale", "1", "--quiet"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let frames = try XCTUnwrap(try manifest(out)["frames"] as? [[String: Any]])
            XCTAssertEqual((frames.last?["state"] as? [String: Any])?["total"] as? String, total, name)
        }
    }

    // MARK: Bad cart scenes

    private func cartScene(items: String = #"{ "id": "tek1", "name": "One", "price": "10.00" }, { "id": "tek2", "name": "Two", "price": "90.99", "quantity": 2 }"#,
                           events: String = "") -> String {
        """
        {
          "screen": "cart",
          "cart": { "items": [ \(items) ] },
          "events": [ \(events) ]
        }
        """
    }

    func testBadCartScenes() throws {
        let cases: [(name: String, scene: String, status: Int32, message: String)] = [
            ("unknown-item.json", cartScene(events: #"{ "at": 0.5, "tap": "plus", "item": "tek3" }"#), 65,
             #"unknown-item.json:4:51: events[0].item: no cart item has id "tek3"; did you mean "tek1"?"#),
            ("duplicate.json", cartScene(items: #"{ "id": "a", "name": "A", "price": "1" }, { "id": "a", "name": "B", "price": "2" }"#), 65,
             #"duplicate.json:3:74: cart.items[1].id: duplicate id "a" (first used by cart.items[0])"#),
            ("price.json", cartScene(items: #"{ "id": "a", "name": "A", "price": "9,99" }"#), 65,
             #"price.json:3:59: cart.items[0].price: must be a non-negative decimal such as "90.99", got "9,99""#),
            ("price-bool.json", cartScene(items: #"{ "id": "a", "name": "A", "price": true }"#), 65,
             #"price-bool.json:3:59: cart.items[0].price: expected a decimal string such as "90.99", got a boolean"#),
            ("quantity.json", cartScene(items: #"{ "id": "a", "name": "A", "price": "1", "quantity": 0 }"#), 65,
             #"quantity.json:3:76: cart.items[0].quantity: must be between 1 and 1000000, got 0"#),
            ("deleted.json", cartScene(events: #"{ "at": 0.2, "swipe": { "item": "tek1", "translation": -300 } }, { "at": 0.8, "tap": "minus", "item": "tek1" }"#), 65,
             #"deleted.json:4:117: events[1].item: "tek1" was deleted at 0.45 s (events[0] swiped it away); no event can target it after that"#),
            ("closed.json", cartScene(events: #"{ "at": 0.2, "tap": "delete", "item": "tek2" }"#), 65,
             #"closed.json:4:35: events[0].tap: the trash button of "tek2" is hidden at 0.2 s: the row is not swiped open (a swipe released more than 50 pt to the left opens it)"#),
            ("image.json", cartScene(items: #"{ "id": "a", "name": "A", "price": "1", "image": "missing.png" }"#), 66,
             "image.json:3:73: cart.items[0].image: image file MISSING does not exist"),
        ]
        for c in cases {
            let path = scratch.appendingPathComponent(c.name)
            try Data(c.scene.utf8).write(to: path)
            let out = scratch.appendingPathComponent("out-" + c.name)
            let r = try run([path.path, "--out", out.path, "--quiet"])
            XCTAssertEqual(r.status, c.status, c.name)
            let expected = "cartrender: " + c.message.replacingOccurrences(of: c.name, with: path.path)
                .replacingOccurrences(of: "MISSING", with: scratch.appendingPathComponent("missing.png").path) + "\n"
            XCTAssertEqual(r.stderr, expected, c.name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("manifest.json").path), "\(c.name): no output on error")
        }
    }
}
