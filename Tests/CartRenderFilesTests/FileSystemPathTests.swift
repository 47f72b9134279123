import CartRenderCore
import CartRenderFiles
import XCTest

/// Paths keep their bytes through `String` (`FileSystemPath`).
final class FileSystemPathTests: XCTestCase {
    /// Bytes → string → bytes is the identity, for UTF-8, for bytes that are not UTF-8, and for
    /// valid UTF-8 of the scalars that stand for bytes.
    func testEveryByteSequenceRoundTrips() {
        let cases: [[UInt8]] = [
            Array("frames/plain".utf8),
            Array("café ☕ 😀".utf8),
            [0x62, 0x61, 0x64, 0xFF, 0xFE, 0x6E],          // bad\xFF\xFEn
            [0xC3],                                         // cut-off sequence at the end
            [0xC0, 0xAF],                                   // overlong "/"
            [0xED, 0xA0, 0x80],                             // a UTF-16 surrogate
            [0xF4, 0x90, 0x80, 0x80],                       // past U+10FFFF
            [0xF4, 0x8F, 0xBF, 0xBF, 0x2F, 0xF4, 0x8F, 0xBE, 0x80], // U+10FFFF / U+10FF80 as UTF-8
            [0xE2, 0x82, 0x41],                             // a sequence broken by ASCII
        ]
        for bytes in cases {
            let s = FileSystemPath.string(fromBytes: bytes)
            XCTAssertEqual(FileSystemPath.bytes(s), bytes, "\(bytes)")
            FileSystemPath.withCString(s) { p in XCTAssertEqual(Array(UnsafeBufferPointer(start: p, count: strlen(p))).map { UInt8(bitPattern: $0) }, bytes) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...12, using: &generator)).map { _ in UInt8.random(in: 1...255, using: &generator) }
            XCTAssertEqual(FileSystemPath.bytes(FileSystemPath.string(fromBytes: bytes)), bytes, "\(bytes)")
        }
    }

    /// Valid UTF-8 names are the strings Swift makes of them; only other bytes are escaped.
    func testUTF8NamesAreUnchanged() {
        for name in ["frames", "café ☕ 😀", "日本語/フレーム"] {
            XCTAssertEqual(FileSystemPath.string(fromBytes: Array(name.utf8)), name)
        }
    }

    func testMessagesShowBytesThatAreNotUTF8Escaped() {
        let s = FileSystemPath.string(fromBytes: [0x62, 0x61, 0x64, 0xFF, 0xFE, 0x6E, 0x61, 0x6D, 0x65])
        XCTAssertEqual(FileSystemPath.display(s), #"bad\xFF\xFEname"#)
        XCTAssertEqual(FileSystemPath.display("out: café"), "out: café")
    }
}
