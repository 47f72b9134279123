import Foundation
import XCTest

/// Text from a scene or the command line never starts a line of cartrender's output, moves a
/// terminal's cursor or reorders what follows it: line breaks, ESC, bidirectional controls and
/// the other controls in echoed values are written visibly (`\n`, `\u001b`, `\u202e`) in every
/// message and result line, and a value a message quotes is cut at 40 characters. A CI runner
/// reading the output (GitHub parses `::error …` at the start of any line) sees no command the
/// scene wrote.
final class MessageInjectionTests: XCTestCase {
    /// What a forged scene or file name carries: a line that GitHub would take as a command, a
    /// terminal colour, and a right-to-left override.
    private let injected = "x\n::error file=a::forged\r\n::set-output name=result::pass\u{1B}[31m\u{202E}gpj.exe\u{2066}\u{061C}\u{200F}"

    /// No line of `text` starts with `::`, and no raw control or format character is in it
    /// (line breaks apart).
    private func assertNoInjection(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for l in text.split(separator: "\n", omittingEmptySubsequences: false) {
            XCTAssertFalse(l.hasPrefix("::"), "\(what): a line starts a workflow command: \(l)", file: file, line: line)
        }
        for u in text.unicodeScalars where u != "\n" {
            let format = u.value >= 0xA0 && u.properties.generalCategory == .format && u.value != 0x200D && u.value != 0x200C
            XCTAssertFalse(u.value < 0x20 || (0x7F...0x9F).contains(u.value) || format,
                           "\(what): raw U+\(String(u.value, radix: 16)) in \(text.debugDescription)", file: file, line: line)
        }
    }

    /// `cartrender short.json <100 kB argument>` echoes 40 characters of the argument, not all of it.
    func testAnUnexpectedArgumentIsCutAt40Characters() throws {
        let long = String(repeating: "y", count: 100_000)
        let r = try Binary.run(["short.json", long])
        XCTAssertEqual(r.status, 64)
        XCTAssertEqual(r.stderr, "cartrender: expected at most one scene file, got 2: short.json \(String(repeating: "y", count: 40))…\n"
                       + "Run 'cartrender --help' for usage.\n")
    }

    /// Usage errors that quote a value escape bidirectional controls and line breaks as they
    /// escape ESC.
    func testUsageErrorsEscapeBidiControlsAndLineBreaks() throws {
        let r = try Binary.run(["--fps", "1\u{202E}0\n::error::x"])
        XCTAssertEqual(r.status, 64)
        XCTAssertEqual(r.stderr, "cartrender: --fps: expected a whole number from 1 to 240, got \"1\\u202e0\\n::error::x\"\n"
                       + "Run 'cartrender --help' for usage.\n")
        let two = try Binary.run(["a\u{2067}b.json", "c\u{1B}d.json"])
        XCTAssertEqual(two.status, 64)
        XCTAssertEqual(two.stderr, "cartrender: expected at most one scene file, got 2: a\\u2067b.json c\\u001bd.json\nRun 'cartrender --help' for usage.\n")
        assertNoInjection(r.stderr + two.stderr, "usage errors")
    }

    /// The closing line names the --out directory with its controls escaped; the `<picture>`
    /// element printed on standard output writes a scene's `imageLabel` with character
    /// references, so a label cannot start a line of the output either.
    func testTheClosingLineAndThePictureElementEscapeSceneText() throws {
        let dir = Binary.tempDir(self)
        let scene = dir + "/scene.json"
        let label = try JSONSerialization.data(withJSONObject: [injected], options: [])
        let labelJSON = String(decoding: label, as: UTF8.self).dropFirst().dropLast()
        try #"{"shop": {"imageLabel": \#(labelJSON)}, "events": [{"at": 0.1, "tap": "add"}]}"#.write(toFile: scene, atomically: true, encoding: .utf8)
        let out = dir + "/out\n::error::forged"
        let render = try Binary.run([scene, "--out", out, "--scale", "1", "--fps", "10", "--frames", "0-1"])
        XCTAssertEqual(render.status, 0, render.stderr)
        assertNoInjection(render.stderr, "closing line")
        XCTAssertTrue(render.stderr.contains("to \(dir)/out\\n::error::forged from 2 frames"), render.stderr)

        let picture = try Binary.run([scene, "--color-scheme", "light,dark", "-o", dir + "/fly.gif", "--scale", "1", "--fps", "10", "--frames", "0-1"])
        XCTAssertEqual(picture.status, 0, picture.stderr)
        assertNoInjection(picture.stdout, "<picture> element")
        assertNoInjection(picture.stderr, "stderr of the picture render")
        XCTAssertTrue(picture.stdout.contains("x&#10;::error file=a::forged&#13;&#10;::set-output name=result::pass\u{FFFD}[31m&#x202e;gpj.exe&#x2066;&#x61c;&#x200f;"),
                      picture.stdout)
    }

    /// Verify's "record it again with: cartrender verify …" suggestion writes a scene name with
    /// line breaks or bidirectional controls in bash's `$'…'` quotes: one line that reads back
    /// as the same name.
    func testTheRecordAgainCommandQuotesAForgedSceneName() throws {
        let dir = Binary.tempDir(self)
        let name = "a\n::error::forged\u{202E}.json"
        try #"{"events": [{"at": 0.1, "tap": "add"}]}"#.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
        let small = ["--scale", "1", "--frames", "0-1", "--quiet"]
        let record = try Binary.run(["verify", name, "--baseline", "b", "--record", "all", "--fps", "10"] + small, in: dir)
        XCTAssertEqual(record.status, 0, record.stderr)
        let r = try Binary.run(["verify", name, "--baseline", "b", "--fps", "20"] + small, in: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        assertNoInjection(r.stdout, "verify's stdout")
        assertNoInjection(r.stderr, "verify's stderr")
        XCTAssertTrue(r.stdout.contains("record it again with: cartrender verify $'a\\n::error::forged\\u202e.json' --baseline b --fps 20 --scale 1 --quiet --record all"),
                      r.stdout)
        // The suggestion is a command bash runs as it reads.
        let echo = Process()
        echo.executableURL = URL(fileURLWithPath: "/bin/bash")
        echo.arguments = ["-c", "printf %s $'a\\n::error::forged\\u202e.json'"]
        let pipe = Pipe()
        echo.standardOutput = pipe
        try echo.run()
        echo.waitUntilExit()
        XCTAssertEqual(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), name)
    }
}
