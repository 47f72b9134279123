import CartRender
@testable import CartRenderCLI
import CartRenderCore
import Foundation
import XCTest

/// The option tables of docs/command-line.md are the commands' (``CommandTables``): the file is
/// what `Scripts/command-tables.sh` writes from today's option tables.
final class CommandTablesTests: XCTestCase {
    private static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/command-line.md").standardized.path

    func testDocsCommandLineHoldsTodaysOptionTables() throws {
        let text = try String(contentsOfFile: Self.document, encoding: .utf8)
        XCTAssertEqual(try CommandTables.updated(text), text, "docs/command-line.md is out of date: run Scripts/command-tables.sh")
    }

    /// Every option of every command with options of its own is a row, under the command's
    /// heading, with its help; `|` and `<` cannot break the table.
    func testEveryOptionIsARowOfItsCommandsTable() {
        let tables = CommandTables.markdown
        for command in CommandReference.all where !command.name.isEmpty {
            let heading = command.name == "render" ? "### `cartrender [render]`" : "### `cartrender \(command.name)`"
            let hasOwn = command.options.contains { $0.name != "--help" }
            XCTAssertEqual(tables.contains(heading + "\n"), hasOwn, heading)
            guard hasOwn, let start = tables.range(of: heading + "\n") else { continue }
            let table = tables[start.upperBound...].components(separatedBy: "\n### ")[0]
            for row in command.options {
                XCTAssertTrue(table.contains("`\(row.name)"), "\(command.name) \(row.name)")
            }
        }
        XCTAssertTrue(tables.contains("| `--record MODE` | all \\| missing \\| failed \\| never: "), tables)
        XCTAssertTrue(tables.contains("write the &lt;picture> element"), tables)
        XCTAssertFalse(tables.contains("### `cartrender schema`"))
    }

    /// Only the lines between the markers change; a document without them is refused.
    func testOnlyTheLinesBetweenTheMarkersChange() throws {
        let text = "# Title\n\n\(CommandTables.begin)\nold table\n\(CommandTables.end)\n\nafter\n"
        let updated = try CommandTables.updated(text)
        XCTAssertTrue(updated.hasPrefix("# Title\n\n\(CommandTables.begin)\n\n### `cartrender [render]`\n"), updated)
        XCTAssertTrue(updated.hasSuffix("\n\(CommandTables.end)\n\nafter\n"), updated)
        XCTAssertFalse(updated.contains("old table"))
        XCTAssertThrowsError(try CommandTables.updated("# Title\n\(CommandTables.end)\n\(CommandTables.begin)\n"))
        XCTAssertThrowsError(try CommandTables.updated("no markers"))
    }
}
