@testable import CartRender
import CartRenderCore
import XCTest

/// The escapers of messages (`singleLine`, `echoed`), shell words and HTML leave no control or
/// format character raw: none can start a line, move a terminal's cursor or reorder text.
final class EscapingTests: XCTestCase {
    /// Every character the messages must show visibly: C0, DEL, C1, the separators, the bidi
    /// controls and other format characters.
    static let controls: [Unicode.Scalar] = [
        "\u{0}", "\u{7}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9B}", "\u{9F}", "\u{2028}", "\u{2029}",
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        "\u{200E}", "\u{200F}", "\u{061C}", "\u{FEFF}", "\u{AD}", "\u{2060}", "\u{E0001}",
    ]

    func testSingleLineEscapesEveryControlAndFormatCharacterVisibly() {
        XCTAssertEqual(singleLine("a\nb\rc\td\u{1B}[31me\u{202E}f\u{E0001}"), "a\\nb\\rc\\td\\u001b[31me\\u202ef\\u{e0001}")
        for u in Self.controls {
            let text = singleLine("x" + String(u) + "y")
            XCTAssertFalse(text.unicodeScalars.contains(u), "U+\(String(u.value, radix: 16)) stays raw")
            XCTAssertTrue(text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }, text)
        }
        // Joiners stay: emoji and many scripts need them inside words.
        XCTAssertEqual(singleLine("👩\u{200D}💻 می\u{200C}خواهم"), "👩\u{200D}💻 می\u{200C}خواهم")
        XCTAssertEqual(echoed(String(repeating: "\u{202E}", count: 50)), String(repeating: "\\u202e", count: 40) + "…")
    }

    func testHTMLAndShellWordsHoldNoRawControl() {
        for u in Self.controls + ["\n", "\r", "\t"] {
            let html = Escaping.html("x" + String(u) + "y")
            XCTAssertFalse(html.unicodeScalars.contains(u), "html: U+\(String(u.value, radix: 16)) stays raw")
            let word = ShellQuoting.word("x" + String(u) + "y")
            XCTAssertTrue(word.hasPrefix("$'") && word.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 }, word)
        }
        XCTAssertEqual(Escaping.html("a\nb\u{202E}c\u{1B}"), "a&#10;b&#x202e;c\u{FFFD}")
        XCTAssertEqual(ShellQuoting.word("it's\n\u{202E}\u{1B}.json"), "$'it\\'s\\n\\u202e\\x1b.json'")
        XCTAssertEqual(ShellQuoting.word("a b.json"), "'a b.json'")
    }
}
