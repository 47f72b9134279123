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
            ("{\"a\\nb\": 1}", "s.json:1:2: a\\nb: unknown key \"a\\nb\"; known keys: version, screen, device, colorScheme, reduceMotion, locale, tint, fps, scale, duration, shop, cart, events"),
            ("{\"tint\": \"red\\u0007\"}", "s.json:1:10: tint: unknown color \"red\\u0007\"; did you mean \"red\"?"),
            ("{\"a\": \"\\\n\"}", "s.json:1:9: invalid escape: a backslash before byte 0x0A in a string"),
        ]
        for (input, expected) in cases {
            XCTAssertThrowsError(try SceneDecoder.decode(Array(input.utf8), file: "s.json", baseDirectory: "/")) { e in
                XCTAssertEqual("\(e)", expected, input)
            }
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
