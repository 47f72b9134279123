@testable import CartRender
import Foundation
import XCTest

/// ``CommitJournal``: the text of a commit's steps, and journals that are not acted on.
final class CommitJournalTests: XCTestCase {
    private let sha = String(repeating: "ab", count: 32)

    func testStepsRoundTrip() {
        let journal = CommitJournal(steps: [.setAside("frame_0001.png", sha256: sha), .moveIn("frame_0001.png", sha256: sha),
                                            .rename("manifest.json", to: ".superseded-manifest.json", sha256: sha)])
        XCTAssertEqual(String(decoding: journal.serialized(), as: UTF8.self),
                       "cartrender-journal 1\naside\t\(sha)\tframe_0001.png\nmovein\t\(sha)\tframe_0001.png\n"
                       + "rename\t\(sha)\tmanifest.json\t.superseded-manifest.json\n")
        XCTAssertEqual(CommitJournal(parsing: journal.serialized()), journal)
        XCTAssertEqual(CommitJournal(parsing: Array("cartrender-journal 1\n".utf8))?.steps, [])
    }

    /// A damaged or foreign journal is not one: recovery then acts on nothing.
    func testDamagedJournalsAreRefused() {
        let table: [String] = [
            "",
            "cartrender-journal 2\n",
            "cartrender-journal 1",                                       // cut before its line end
            "cartrender-journal 1\nmovein\t\(sha)\tframe_0001.png",       // a step cut short
            "cartrender-journal 1\nmovein\t\(sha.dropLast())\tframe_0001.png\n",
            "cartrender-journal 1\nmovein\t\(sha)\t../frame_0001.png\n",
            "cartrender-journal 1\nmove\t\(sha)\tframe_0001.png\n",
            "cartrender-journal 1\naside\t\(sha)\ta\tb\n",
            "cartrender-journal 1\nrename\t\(sha)\ta\n",
        ]
        for text in table { XCTAssertNil(CommitJournal(parsing: Array(text.utf8)), text.debugDescription) }
    }
}
