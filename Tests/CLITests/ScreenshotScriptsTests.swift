import Foundation
import XCTest

/// `Scripts/viewer-screenshot.sh`, `Scripts/report-screenshot.sh` and `Scripts/docs-images.sh` share one preamble, in
/// `Scripts/lib/screenshot.sh` (pick the binary, find Chromium, make the work directory, take the
/// shot): both source it and neither repeats it. (Running them needs Chromium; `make docs-images` runs them
/// through docs-images.sh, and DocsImagesTests checks the pictures they make.)
final class ScreenshotScriptsTests: XCTestCase {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts").path

    func testBothScriptsSourceTheSharedPreamble() throws {
        let shared = try String(contentsOfFile: Self.scripts + "/lib/screenshot.sh", encoding: .utf8)
        for what in ["command -v chromium", "mktemp", "--headless", ".build/release/cartrender"] {
            XCTAssertTrue(shared.contains(what), what)
        }
        for name in ["viewer-screenshot.sh", "report-screenshot.sh", "docs-images.sh"] {
            let script = try String(contentsOfFile: Self.scripts + "/" + name, encoding: .utf8)
            XCTAssertTrue(script.contains(#"source "$(dirname "$0")/lib/screenshot.sh""#), name)
            for what in ["command -v chromium", "mktemp", "--headless", ".build/release/cartrender", "trap "] {
                XCTAssertFalse(script.contains(what), "\(name) repeats \(what)")
            }
        }
        for name in ["viewer-screenshot.sh", "report-screenshot.sh", "docs-images.sh", "lib/screenshot.sh"] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/bash")
            p.arguments = ["-n", Self.scripts + "/" + name]
            try p.run()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, "bash -n \(name)")
        }
    }
}
