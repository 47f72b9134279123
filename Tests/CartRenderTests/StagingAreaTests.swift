@testable import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// ``StagingArea``: files appear together with their ledger, a second commit replaces its own
/// files, and a file cartrender did not write stops the commit with the directory as it was.
final class StagingAreaTests: XCTestCase {
    private func text(_ path: String) -> String? { (try? String(contentsOfFile: path, encoding: .utf8)) }

    func testWriteFilesCommitsThemWithTheirLedger() throws {
        let dir = tempDir()
        try StagingArea.writeFiles([("a.json", Array("1".utf8)), ("index.html", Array("<p>".utf8))], into: OutputDirectory(path: dir))
        XCTAssertEqual(text(dir + "/a.json"), "1")
        XCTAssertEqual(text(dir + "/index.html"), "<p>")
        let ledger = OwnershipLedger(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + OwnershipLedger.fileName))))
        XCTAssertEqual(ledger.entries, ["a.json": Checksum.sha256(Array("1".utf8)), "index.html": Checksum.sha256(Array("<p>".utf8))])
        // Nothing staged is left behind.
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir)), ["a.json", "index.html", OwnershipLedger.fileName])

        try StagingArea.writeFiles([("a.json", Array("2".utf8))], into: OutputDirectory(path: dir))
        XCTAssertEqual(text(dir + "/a.json"), "2", "its own file is replaced")
    }

    func testAFileItDidNotWriteStopsTheCommit() throws {
        let dir = tempDir()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "mine".write(toFile: dir + "/index.html", atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try StagingArea.writeFiles([("a.json", Array("1".utf8)), ("index.html", Array("<p>".utf8))],
                                                        into: OutputDirectory(path: dir))) { error in
            XCTAssertTrue(error is OutputError, "\(error)")
            XCTAssertEqual((error as? OutputError)?.exitCode, .cannotCreate)
        }
        XCTAssertEqual(text(dir + "/index.html"), "mine")
        XCTAssertNil(text(dir + "/a.json"), "nothing of the commit is in place")
    }

    /// The ledger records the pixel digest the stager gives (computed by the worker that drew
    /// the frame), not one the commit computes by decoding the staged file: bytes that are no
    /// PNG still get the digest they were staged with.
    func testTheLedgerRecordsThePixelDigestGivenWhenStaging() throws {
        let dir = tempDir()
        let staging = try StagingArea(in: OutputDirectory(path: dir))
        defer { staging.discard() }
        let digest = String(repeating: "ab", count: 32)
        try staging.write(Array("not a png".utf8), to: "frame_0000.png", pixelDigest: digest)
        try staging.moveIntoPlace(["frame_0000.png"], removing: [])
        let ledger = OwnershipLedger(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + OwnershipLedger.fileName))))
        XCTAssertEqual(ledger.pixels, ["frame_0000.png": digest])
        let known = OwnershipLedger.provenance(of: try XCTUnwrap(DirectoryHandle(path: dir)))["frame_0000.png"]
        XCTAssertEqual(known?.sha256s, [Checksum.sha256(Array("not a png".utf8))], "the byte digests hold no pixel digest")
        XCTAssertEqual(known?.pixels, [digest])
    }
}
