import CartRenderCore
import Foundation
import XCTest

/// Inputs that crashed or misbehaved under the fuzzer (`Scripts/fuzz-scene.sh`), kept in
/// `Tests/CLITests/Corpus/fuzz/`, and the guarantees the fuzzer checks: decoding returns a
/// scene or throws a one-line `SceneError`, and a valid scene's canonical form decodes to itself.
final class SceneDecoderRobustnessTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CLITests/Corpus").standardized.path

    func inputs() throws -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        for dir in [Self.corpus, Self.corpus + "/fuzz"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() where name != "cases.json" {
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: dir + "/" + name, isDirectory: &isDir), !isDir.boolValue,
                      dir.hasSuffix("fuzz") || name.hasSuffix(".json") else { continue }
                out.append((name, Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))))
            }
        }
        return out
    }

    func testEveryCorpusInputDecodesOrFailsOnOneLine() throws {
        let all = try inputs()
        XCTAssertGreaterThan(all.count, 40)
        XCTAssertTrue(all.contains { $0.0 == "invalid-escape-before-newline" })
        for (name, bytes) in all {
            do {
                let scene = try SceneDecoder.decode(bytes, file: name, baseDirectory: Self.corpus)
                let canonical = scene.canonicalJSON.serialized()
                let again = try SceneDecoder.decode(Array(canonical.utf8), file: "canonical", baseDirectory: Self.corpus)
                XCTAssertEqual(again.canonicalJSON.serialized(), canonical, name)
            } catch let e as SceneError {
                XCTAssertFalse(e.description.contains("\n"), "\(name): \(e.description)")
                XCTAssertFalse(e.message.isEmpty, name)
            }
        }
    }

    func testMessagesQuotingUserInputStayOnOneLine() {
        let cases: [(String, String)] = [
            ("{\"a\\nb\": 1}", "s.json:1:2: a\\nb: unknown key \"a\\nb\"; known keys: version, screen, device, colorScheme, reduceMotion, systemChrome, locale, layoutDirection, dynamicTypeSize, tint, fps, scale, duration, fonts, shop, cart, events, variants"),
            ("{\"tint\": \"red\\u0007\"}", "s.json:1:10: tint: unknown color \"red\\u0007\"; did you mean \"red\"?"),
            ("{\"a\": \"\\\n\"}", "s.json:1:9: a: invalid escape: a backslash before byte 0x0A in a string"),
        ]
        for (input, expected) in cases {
            XCTAssertThrowsError(try SceneDecoder.decode(Array(input.utf8), file: "s.json", baseDirectory: "/")) { e in
                XCTAssertEqual("\(e)", expected, input)
            }
        }
    }

    /// Every value a scene error quotes is cut to ``echoedLength`` characters and `…`: each value
    /// of the example scenes and of a variants matrix, replaced in turn by a 5 000-character
    /// string (plain, and as `symbol:NAME`), a 5 000-digit number and a number with 5 000 zeros
    /// after the point (`0.000…001`, once echoed whole), decodes or fails with a message of at
    /// most 400 characters (the longest lists of known names included) that names a line, a
    /// column and a JSON path.
    func testEveryEchoedValueIsCut() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Examples").standardized.path
        var scenes = try FileManager.default.contentsOfDirectory(atPath: examples).filter { $0.hasSuffix(".json") }.sorted()
            .map { try String(contentsOfFile: examples + "/" + $0, encoding: .utf8) }
        scenes.append(#"{"variants": {"colorScheme": ["dark"], "locale": ["en_US", "de_DE"], "dynamicTypeSize": ["large"], "device": ["iphone-16", {"width": 390, "height": 844}], "reduceMotion": [true]}}"#)
        let long = String(repeating: "x", count: 5000)
        let replacements = [long, "symbol:" + long].map { JSONValueText.string($0) }
            + [String(repeating: "9", count: 5000), "0." + String(repeating: "0", count: 5000) + "1"].map { JSONValueText.number($0) }
        var checked = 0
        for scene in scenes {
            for (path, mutated) in try JSONValueText.leafReplacements(of: scene, with: replacements) {
                checked += 1
                do {
                    for decode in [{ _ = try SceneDecoder.decode(Array(mutated.utf8), file: "s.json", baseDirectory: examples) },
                                   { _ = try SceneDecoder.decodeVariants(Array(mutated.utf8), file: "s.json", baseDirectory: examples) }] {
                        try decode()
                    }
                } catch {
                    // One problem, or several (a variant's value and the scene's own) at once.
                    let errors = (error as? SceneErrors)?.errors ?? [error as? SceneError].compactMap { $0 }
                    XCTAssertFalse(errors.isEmpty, "\(path): \(error)")
                    for e in errors {
                        XCTAssertLessThanOrEqual(e.description.count, 400, "\(path): \(e.description.prefix(300))")
                        XCTAssertNotNil(e.location, "\(path): \(e.description.prefix(300))")
                        XCTAssertFalse(e.path.isEmpty, "\(path): \(e.description.prefix(300))")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 400)
    }

    /// Numbers a `Double` cannot hold are errors that name their JSON path; numbers that are
    /// zero, or small but representable (subnormal), are read as written.
    static let tiny = "0." + String(repeating: "0", count: 400) + "1"

    func testNumbersOutOfTheRangeOfADoubleNameTheirPath() throws {
        let refused: [(String, String)] = [
            ("{\"fps\": 1e400}", "s.json:1:9: fps: the number 1e400 is out of the range of a double (at most about 1.8e308 in magnitude)"),
            ("{\"events\": [{\"at\": -2.5E+999}]}", "s.json:1:20: events[0].at: the number -2.5E+999 is out of the range of a double (at most about 1.8e308 in magnitude)"),
            ("{\"duration\": 1e-400}", "s.json:1:14: duration: the number 1e-400 is too small to represent as a double (below about 4.9e-324 in magnitude); write 0 for zero"),
            ("{\"shop\": {\"count\": [0, \(Self.tiny)]}}", "s.json:1:24: shop.count[1]: the number \(echoed(Self.tiny)) is too small to represent as a double (below about 4.9e-324 in magnitude); write 0 for zero"),
        ]
        for (input, expected) in refused {
            XCTAssertThrowsError(try SceneDecoder.decode(Array(input.utf8), file: "s.json", baseDirectory: "/")) { e in
                XCTAssertEqual("\(e)", expected, input)
            }
        }
        for (text, value) in [("0e-400", 0.0), ("-0.0e999", 0.0), ("1e-320", Double("1e-320")!), ("1.7976931348623157e308", Double.greatestFiniteMagnitude)] {
            let node = try JSONParser.parse(Array("[\(text)]".utf8))
            guard case .array(let items) = node.value, case .number(let v, _) = items[0].value else { return XCTFail(text) }
            XCTAssertEqual(v, value, text)
        }
    }

    /// A scene on one line is parsed in linear time: 200 000 values took minutes when every
    /// value's column was counted from the start of its line.
    func testOneLongLineParsesInLinearTime() throws {
        let text = "{\"x\": [" + Array(repeating: "1", count: 200_000).joined(separator: ",") + "]}"
        let started = Date()
        XCTAssertThrowsError(try SceneDecoder.decode(Array(text.utf8), file: "s.json", baseDirectory: "/"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }
}

/// A JSON value written as text in place of another, for tests that change one value of a scene.
enum JSONValueText {
    case string(String)
    /// A number as written (any length).
    case number(String)

    var text: String {
        switch self {
        case .string(let s): return "\"" + s + "\""
        case .number(let n): return n
        }
    }

    /// For each string, number and boolean of `document` (JSON text) and each of `replacements`:
    /// the value's JSON path and the document with that value replaced.
    static func leafReplacements(of document: String, with replacements: [JSONValueText]) throws -> [(path: String, text: String)] {
        let root = try JSONParser.parse(Array(document.utf8))
        var leaves: [String] = []
        func collect(_ node: JSONNode, _ path: String) {
            switch node.value {
            case .object(let members): for m in members { collect(m.value, path.isEmpty ? m.key : path + "." + m.key) }
            case .array(let items): for (i, item) in items.enumerated() { collect(item, "\(path)[\(i)]") }
            case .null: break
            default: leaves.append(path)
            }
        }
        collect(root, "")
        return leaves.flatMap { leaf in replacements.map { (leaf, write(root, "", replacing: leaf, with: $0.text)) } }
    }

    /// `node` as JSON text, with the value at JSON path `target` written as `replacement`.
    private static func write(_ node: JSONNode, _ path: String, replacing target: String, with replacement: String) -> String {
        if path == target { return replacement }
        func quoted(_ s: String) -> String { JSONValue.string(s).serialized() }
        switch node.value {
        case .object(let members):
            return "{" + members.map { quoted($0.key) + ": " + write($0.value, path.isEmpty ? $0.key : path + "." + $0.key, replacing: target, with: replacement) }
                .joined(separator: ", ") + "}"
        case .array(let items):
            return "[" + items.enumerated().map { write($0.element, "\(path)[\($0.offset)]", replacing: target, with: replacement) }.joined(separator: ", ") + "]"
        case .string(let s): return quoted(s)
        case .number(_, let text): return text
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }
}
