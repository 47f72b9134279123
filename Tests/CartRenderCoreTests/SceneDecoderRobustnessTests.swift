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
            ("{\"a\": \"\\\n\"}", "s.json:1:9: invalid escape: a backslash before byte 0x0A in a string"),
        ]
        for (input, expected) in cases {
            XCTAssertThrowsError(try SceneDecoder.decode(Array(input.utf8), file: "s.json", baseDirectory: "/")) { e in
                XCTAssertEqual("\(e)", expected, input)
            }
        }
    }

    /// Numbers a `Double` cannot hold are errors that name their JSON path; numbers that are
    /// zero, or small but representable (subnormal), are read as written.
    static let tiny = "0." + String(repeating: "0", count: 400) + "1"

    func testNumbersOutOfTheRangeOfADoubleNameTheirPath() throws {
        let refused: [(String, String)] = [
            ("{\"fps\": 1e400}", "s.json:1:9: fps: the number 1e400 is out of the range of a double (at most about 1.8e308 in magnitude)"),
            ("{\"events\": [{\"at\": -2.5E+999}]}", "s.json:1:20: events[0].at: the number -2.5E+999 is out of the range of a double (at most about 1.8e308 in magnitude)"),
            ("{\"duration\": 1e-400}", "s.json:1:14: duration: the number 1e-400 is too small to represent as a double (below about 4.9e-324 in magnitude); write 0 for zero"),
            ("{\"shop\": {\"count\": [0, \(Self.tiny)]}}", "s.json:1:24: shop.count[1]: the number \(Self.tiny) is too small to represent as a double (below about 4.9e-324 in magnitude); write 0 for zero"),
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
