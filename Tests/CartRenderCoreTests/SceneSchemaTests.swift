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
        let conditions = schema["allOf"] as? [[String: Any]] ?? []
        let cart = conditions.first { (($0["if"] as? [String: Any])?["properties"] as? [String: Any])?["screen"] as? [String: Any] != nil
            && ((($0["if"] as? [String: Any])?["properties"] as? [String: Any])?["screen"] as? [String: Any])?["const"] as? String == "cart" }
        XCTAssertEqual((cart?["then"] as? [String: Any])?["required"] as? [String], ["cart"])
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

    /// Every member of every object the schema describes has a description, and a default when
    /// it may be left out, except where there is no single value to give.
    func testEveryPropertyHasADescriptionAndOptionalOnesADefault() {
        let noDefault: Set = [
            "scene.$schema",             // nothing to assume
            "scene.scale",               // the device's scale
            "scene.layoutDirection",     // the locale's script
            "scene.shop.imageLabel",     // the product's name
            "scene.variants",            // no matrix: one render
            "scene.variants.colorScheme", "scene.variants.locale", "scene.variants.dynamicTypeSize",
            "scene.variants.device", "scene.variants.reduceMotion",   // a key left out is not varied
            "scene.cart",                // required on the cart screen, refused on the others
            "scene.cart.totalLabel", "scene.cart.checkoutTitle",   // the seed's English (CartLabels)
            "scene.events[].tap", "scene.events[].swipe", "scene.events[].item",   // an event is a tap or a swipe
        ]
        var checked: [String] = []
        func walk(_ n: Any, _ path: String) {
            guard let n = n as? [String: Any] else { return }
            for key in ["oneOf", "anyOf"] { for alternative in n[key] as? [Any] ?? [] { walk(alternative, path) } }
            if let items = n["items"] { walk(items, path + "[]") }
            guard let props = n["properties"] as? [String: Any] else { return }
            let required = Set(n["required"] as? [String] ?? [])
            for (k, v) in props.sorted(by: { $0.key < $1.key }) {
                let p = path + "." + k
                checked.append(p)
                let vd = v as? [String: Any] ?? [:]
                XCTAssertFalse((vd["description"] as? String ?? "").isEmpty, "\(p) has a description")
                if !required.contains(k) && !noDefault.contains(p) { XCTAssertNotNil(vd["default"], "\(p) has a default") }
                walk(v, p)
            }
        }
        walk(schema, "scene")
        XCTAssertTrue(checked.contains("scene.device.safeArea.top"), "oneOf alternatives are walked")
        XCTAssertTrue(checked.contains("scene.cart.items[].quantity"))
        XCTAssertTrue(checked.contains("scene.events[].swipe.duration"))
        XCTAssertTrue(noDefault.isSubset(of: checked))
        XCTAssertEqual(schema["$id"] as? String, SceneSchema.id)
    }

    func testNULInTextIsAnError() {
        XCTAssertThrowsError(try SceneDecoder.decode(Array(#"{"shop": {"title": "a\u0000b"}}"#.utf8), file: "s.json", baseDirectory: "/")) { e in
            XCTAssertEqual("\(e)", #"s.json:1:20: shop.title: contains a NUL character (\u0000), which text cannot hold"#)
        }
    }

    // MARK: - Schema and decoder agree (a real JSON Schema validator)

    /// The package root (Tests/CartRenderCoreTests/ → ../..).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    /// The Python that has PyPI's `jsonschema`: `$CARTRENDER_JSONSCHEMA_PYTHON`, else the virtual
    /// environment `make jsonschema` (part of `make test`) installs into `.build/jsonschema/`.
    static var validatorPython: String {
        ProcessInfo.processInfo.environment["CARTRENDER_JSONSCHEMA_PYTHON"] ?? root + "/.build/jsonschema/bin/python3"
    }

    /// What `Scripts/validate-scenes.py` says of each file: valid or the first error.
    private func validate(_ files: [String], schema: String) throws -> [String: (valid: Bool, error: String?)] {
        let python = Self.validatorPython
        guard FileManager.default.isExecutableFile(atPath: python) else {
            XCTFail("no JSON Schema validator at \(python): run `make jsonschema` (make test does), or set CARTRENDER_JSONSCHEMA_PYTHON to a python3 that has the jsonschema package")
            return [:]
        }
        let schemaFile = NSTemporaryDirectory() + "cartrender-schema-\(UUID().uuidString).json"
        try schema.write(toFile: schemaFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: schemaFile) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [Self.root + "/Scripts/validate-scenes.py", schemaFile] + files
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, errors)
        var verdicts: [String: (Bool, String?)] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            verdicts[o["file"] as! String] = (o["valid"] as! Bool, o["error"] as? String)
        }
        XCTAssertEqual(verdicts.count, files.count, "one verdict per file")
        return verdicts
    }

    /// Every scene of the bad-input corpus (`Tests/CLITests/Corpus/`, the fuzzer's finds
    /// included), every example, the schema's own `examples` and the ``probes``: the decoder and
    /// the schema, checked by PyPI's `jsonschema` (draft 2020-12), accept and refuse the same
    /// files, except those in ``beyondTheSchema``, which only the decoder can refuse. A listed
    /// file that the schema refuses too, or that the decoder accepts, fails the test as well, so
    /// the list stays exact.
    func testSchemaAndDecoderAgreeOnEveryCorpusSceneAndExample() throws {
        let fm = FileManager.default
        let corpus = Self.root + "/Tests/CLITests/Corpus"
        var files: [String] = []
        for name in try fm.contentsOfDirectory(atPath: corpus).sorted() where name.hasSuffix(".json") && name != "cases.json" {
            files.append(corpus + "/" + name)
        }
        for name in try fm.contentsOfDirectory(atPath: corpus + "/fuzz").sorted() { files.append(corpus + "/fuzz/" + name) }
        for name in try fm.contentsOfDirectory(atPath: Self.root + "/Examples").sorted() where name.hasSuffix(".json") {
            files.append(Self.root + "/Examples/" + name)
        }
        let scratch = NSTemporaryDirectory() + "cartrender-schema-\(UUID().uuidString)"
        try fm.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: scratch) }
        var examples: [JSONValue] = []
        if case .object(let top) = SceneSchema.json, case .array(let list)? = top.first(where: { $0.0 == "examples" })?.1 { examples = list }
        XCTAssertEqual(examples.count, 2, "the schema's examples: the default scene and a cart scene")
        for (i, example) in examples.enumerated() {
            files.append(scratch + "/schema-example-\(i).json")
            try example.serialized(pretty: true).write(toFile: files.last!, atomically: true, encoding: .utf8)
        }
        var expected: [String: Bool] = [:]
        for probe in Self.probes {
            files.append(scratch + "/" + probe.name + ".json")
            try probe.json.replacingOccurrences(of: "{corpus}", with: corpus).write(toFile: files.last!, atomically: true, encoding: .utf8)
            expected[probe.name + ".json"] = probe.decoderAccepts
        }
        XCTAssertEqual(Set(files.map { ($0 as NSString).lastPathComponent }).count, files.count, "file names are unique")

        let verdicts = try validate(files, schema: SceneSchema.json.serialized(pretty: true))
        var refusedByDecoder = 0, refusedBySchema = 0, listed = 0
        var disagreements: [String] = []
        for file in files {
            let name = (file as NSString).lastPathComponent
            var decoderError: String?
            do { _ = try SceneDecoder.load(path: file) } catch { decoderError = "\(error)" }
            if let accepts = expected[name] {
                XCTAssertEqual(decoderError == nil, accepts, "probe \(name): \(decoderError ?? "accepted")")
            }
            guard let schema = verdicts[file] else { continue }
            if decoderError != nil { refusedByDecoder += 1 }
            if !schema.valid { refusedBySchema += 1 }
            let reason = Self.beyondTheSchema[name]
            if reason != nil { listed += 1 }
            switch (decoderError, schema.valid, reason) {
            case (nil, true, nil), (.some, false, nil), (.some, true, .some): break
            case (nil, false, _):
                disagreements.append("\(name): the decoder accepts it, the schema refuses it: \(schema.error ?? "")")
            case (.some(let e), true, nil):
                disagreements.append("\(name): the decoder refuses it (\(e)), the schema accepts it")
            case (.some, false, .some):
                disagreements.append("\(name) is listed as beyond the schema, but the schema refuses it too (\(schema.error ?? "")): remove it from the list")
            case (nil, true, .some):
                disagreements.append("\(name) is listed as beyond the schema, but the decoder accepts it: remove it from the list")
            }
        }
        XCTAssertEqual(disagreements, [], "\n" + disagreements.joined(separator: "\n"))
        XCTAssertEqual(listed, Self.beyondTheSchema.count, "every listed file was checked")
        XCTAssertGreaterThan(refusedByDecoder, 90)
        XCTAssertEqual(refusedBySchema, refusedByDecoder - listed)
    }

    /// Scenes the corpus does not have, for the rules the schema states: (file name, whether the
    /// decoder accepts it, the scene; `{corpus}` is the corpus directory).
    static let probes: [(name: String, decoderAccepts: Bool, json: String)] = [
        ("probe-schema-key", true, #"{"$schema": "./scene.schema.json", "fps": 30}"#),
        ("probe-schema-key-number", false, #"{"$schema": 1}"#),
        ("probe-version-float", true, #"{"version": 1.0, "fps": 60.0}"#),
        ("probe-duration-null", true, #"{"duration": null}"#),
        ("probe-count-int-max", true, #"{"shop": {"count": 9223372036854775807}}"#),
        ("probe-count-past-int-max", false, #"{"shop": {"count": 9223372036854775808}}"#),
        ("probe-tint-hex", true, ##"{"tint": "#a0B1c2"}"##),
        ("probe-tint-hex-sign", false, ##"{"tint": "#+12345"}"##),
        ("probe-tint-hex-short", false, ##"{"tint": "#12345"}"##),
        ("probe-locale-dash", true, #"{"locale": "de-DE"}"#),
        ("probe-locale-unknown", false, #"{"locale": "xx_XX"}"#),
        ("probe-locale-alias", true, #"{"locale": "zh_TW"}"#),
        ("probe-cart-labels", true, #"{"screen": "cart", "locale": "zh_CN", "cart": {"totalLabel": "合计", "checkoutTitle": "去结算", "items": []}}"#),
        ("probe-cart-label-number", false, #"{"screen": "cart", "cart": {"totalLabel": 1, "items": []}}"#),
        ("probe-cart-label-on-shop", false, #"{"shop": {"totalLabel": "Total"}}"#),
        ("probe-device-custom", true, #"{"device": {"width": 400, "height": 800, "safeArea": {"top": 20}}}"#),
        ("probe-device-scale-5", false, #"{"device": {"width": 400, "height": 800, "scale": 5}}"#),
        ("probe-cart-frame-rect", true, #"{"shop": {"cartFrame": {"x": 300, "y": 60, "width": 44, "height": 44}}}"#),
        ("probe-cart-frame-far", false, #"{"shop": {"cartFrame": {"x": 200000, "y": 60, "width": 44, "height": 44}}}"#),
        ("probe-cart-frame-word", false, #"{"shop": {"cartFrame": "icon"}}"#),
        ("probe-title-nul", false, #"{"shop": {"title": "a\u0000b"}}"#),
        ("probe-image-file", true, #"{"shop": {"image": "{corpus}/images/tiny.png"}}"#),
        ("probe-image-symbol-path", false, #"{"shop": {"image": "symbol:photo.png"}}"#),
        ("probe-image-empty", false, #"{"shop": {"image": ""}}"#),
        ("probe-fonts-registered", true, #"{"fonts": ["/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf"], "shop": {"font": "Noto Serif"}}"#),
        ("probe-shop-font-unregistered", false, #"{"shop": {"font": "Noto Serif"}}"#),
        ("probe-shop-font-system", true, #"{"shop": {"font": "system"}, "screen": "shop"}"#),
        ("probe-cart-font-jost", true, #"{"screen": "cart", "cart": {"font": "Jost", "items": []}}"#),
        ("probe-fonts-woff", false, #"{"fonts": ["fonts/Brand.woff2"]}"#),
        ("probe-fonts-object", false, #"{"fonts": {"Brand": "fonts/Brand.ttf"}}"#),
        ("probe-font-empty", false, #"{"shop": {"font": ""}}"#),
        ("probe-shop-tap-with-item", false, #"{"events": [{"at": 0, "tap": "add", "item": "a"}]}"#),
        ("probe-shop-swipe", false, #"{"events": [{"at": 0, "swipe": {"item": "a", "translation": -100}}]}"#),
        ("probe-tap-and-swipe", false, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1"}]}, "events": [{"at": 0, "tap": "plus", "item": "a", "swipe": {"item": "a", "translation": -100}}]}"#),
        ("probe-shop-section-on-cart", false, #"{"screen": "cart", "shop": {}, "cart": {"items": []}}"#),
        ("probe-cart-price-number", true, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": 90.99}]}}"#),
        ("probe-cart-price-negative", false, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": -5}]}}"#),
        ("probe-cart-price-13-digits", false, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": 1000000000000}]}}"#),
        ("probe-cart-price-exponent", false, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": 1e2}]}}"#),
        ("probe-cart-price-string-exponent", false, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1e2"}]}}"#),
        ("probe-cart-id-blank", false, "{\"screen\": \"cart\", \"cart\": {\"items\": [{\"id\": \" \\t\", \"name\": \"A\", \"price\": \"1\"}]}}"),
        ("probe-cart-duplicate-ids", false, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1"}, {"id": "a", "name": "B", "price": "2"}]}}"#),
        ("probe-cart-currency-lowercase", false, #"{"screen": "cart", "cart": {"currencyCode": "usd", "items": []}}"#),
        ("probe-cart-currency-unknown", false, #"{"screen": "cart", "cart": {"currencyCode": "ABC", "items": []}}"#),
        ("probe-cart-plus-without-item", false, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1"}]}, "events": [{"at": 0, "tap": "plus"}]}"#),
        ("probe-cart-checkout-with-item", false, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1"}]}, "events": [{"at": 0, "tap": "checkout", "item": "a"}]}"#),
        ("probe-cart-swipe-with-item", false, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1"}]}, "events": [{"at": 0, "item": "a", "swipe": {"item": "a", "translation": -100}}]}"#),
        ("probe-cart-tap-add", false, #"{"screen": "cart", "cart": {"items": []}, "events": [{"at": 0, "tap": "add"}]}"#),
        ("probe-cart-events", true, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1"}]}, "events": [{"at": 0, "swipe": {"item": "a", "translation": -100}}, {"at": 1, "tap": "delete", "item": "a"}, {"at": 2, "tap": "checkout"}]}"#),
        ("probe-cart-event-on-deleted-item", false, #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1"}]}, "events": [{"at": 0, "swipe": {"item": "a", "translation": -300}}, {"at": 1, "tap": "plus", "item": "a"}]}"#),
    ]

    /// Scenes that only the decoder can refuse, and why JSON Schema cannot say it: it checks
    /// each value against fixed rules, so it cannot relate two values (`at` ≤ `duration`, a
    /// product of two numbers, an id named elsewhere), run the cart's simulation, look at files
    /// or the platform's locale and currency tables, or see a number's digits.
    static let beyondTheSchema: [String: String] = [
        "canvas-too-large.json": "the canvas is device width or height × scale: a product of two values",
        "safe-area-too-large.json": "a safe-area inset is at most a third of the device height: a bound from another value",
        "event-after-end.json": "an event's at is at most the duration: a bound from another value",
        "too-many-frames.json": "the frame count is duration × fps",
        "too-many-frames-open-ended.json": "the frame count is (last event's at + 0.5 s) × fps",
        "unknown-cart-item.json": "an event's item must be the id of a cart item: a reference to other values",
        "long-item-id.json": "an event's item must be the id of a cart item: a reference to other values",
        "image-missing.json": "whether the image file exists is a question for the file system",
        "image-outside-parent.json": "its image is made by the case's setup, beside the corpus: a question for the file system",
        "image-outside-link.json": "its image is a link the case's setup makes: a question for the file system",
        "image-outside-link-dir.json": "its image is below a link the case's setup makes: a question for the file system",
        "image-directory.json": "whether the image file exists (its case makes it a directory) is a question for the file system",
        "image-fifo.json": "whether the image file exists (its case makes it a FIFO) is a question for the file system",
        "image-unreadable.json": "whether the image file exists (its case makes it unreadable) is a question for the file system",
        "image-huge-file.json": "whether the image file exists (its case makes it 65 MiB) is a question for the file system",
        "svg-huge.json": "whether the image file exists (its case makes it 9 MiB) is a question for the file system",
        "fonts-missing.json": "whether the font file exists is a question for the file system",
        "fonts-not-a-font.json": "whether a file is a font, and its family, are in the file's bytes",
        "cart-font-unknown.json": "the families a screen may name include those of the scene's font files, read from the files",
        "probe-shop-font-unregistered.json": "the families a screen may name include those of the scene's font files, read from the files",
        "probe-locale-unknown.json": "the locales that exist are Foundation's (ICU's) table, which varies with the platform",
        "probe-cart-currency-unknown.json": "the ISO 4217 codes that exist are Foundation's table, which varies with the platform",
        "probe-cart-duplicate-ids.json": "uniqueItems compares whole items; JSON Schema cannot ask one member to be unique",
        "probe-cart-price-exponent.json": "a price given as a JSON number is read by its digits (1e2 has an exponent); a schema sees only the number",
        "probe-cart-event-on-deleted-item.json": "an event on a deleted item is found by simulating the cart's events in time order",
    ]
}
