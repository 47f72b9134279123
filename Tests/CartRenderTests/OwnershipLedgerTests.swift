@testable import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// ``OwnershipLedger``: its `sha256sum` text, the lines it refuses, and which files it proves
/// cartrender's.
final class OwnershipLedgerTests: XCTestCase {
    private let a = String(repeating: "a", count: 64), b = String(repeating: "0", count: 63) + "f"

    /// `SHA  NAME` lines sorted by name, read back to the same entries.
    func testSerializedIsSha256sumTextSortedByName() {
        let ledger = OwnershipLedger(entries: ["frame_0002.png": b, "frame_0001.png": a])
        XCTAssertEqual(String(decoding: ledger.serialized(), as: UTF8.self), "\(a)  frame_0001.png\n\(b)  frame_0002.png\n")
        XCTAssertEqual(OwnershipLedger(parsing: ledger.serialized()), ledger)
    }

    /// Lines that are not 64 lowercase hex digits, two spaces and a plain name prove nothing.
    func testLinesThatProveNothingAreSkipped() {
        let table: [(line: String, kept: Bool)] = [
            ("\(a)  frame_0001.png", true),
            ("\(a.uppercased())  frame_0001.png", false),
            ("\(a.dropLast())  frame_0001.png", false),
            ("\(a) frame_0001.png", false),
            ("\(a)  ../escape.png", false),
            ("\(a)  sub/frame.png", false),
            ("\(a)  ..", false),
            ("\(String(repeating: "g", count: 64))  frame_0001.png", false),
        ]
        for row in table {
            let ledger = OwnershipLedger(parsing: Array((row.line + "\n").utf8))
            XCTAssertEqual(ledger.entries.count, row.kept ? 1 : 0, row.line)
        }
    }

    func testPlainNames() {
        let table: [(name: String, plain: Bool)] = [
            ("frame_0001.png", true), (".cartrender-files.sha256", true), ("", false), (".", false), ("..", false),
            ("a/b", false), ("line\nbreak", false), ("tab\there", false),
        ]
        for row in table { XCTAssertEqual(OwnershipLedger.isPlainName(row.name), row.plain, row.name) }
    }

    /// A file is proven cartrender's by the ledger in its directory only while its bytes match:
    /// an edited file, or one the ledger does not list, is nobody's.
    func testProvenanceComesFromTheLedgerInTheDirectory() throws {
        let dir = tempDir()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let bytes: [UInt8] = Array("frame".utf8)
        let ledger = OwnershipLedger(entries: ["frame_0001.png": Checksum.sha256(bytes)])
        try Data(ledger.serialized()).write(to: URL(fileURLWithPath: dir + "/" + OwnershipLedger.fileName))
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/frame_0001.png"))
        let handle = try XCTUnwrap(DirectoryHandle(path: dir))
        XCTAssertEqual(OwnershipLedger.provenance(of: handle)["frame_0001.png"]?.sha256s, [Checksum.sha256(bytes)])
        XCTAssertNil(OwnershipLedger.provenance(of: handle)["index.html"])
    }
}
