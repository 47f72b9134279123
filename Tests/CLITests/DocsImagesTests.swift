import CartRender
import CartRenderCLI
import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// The pictures of README.md and docs/ are what `Scripts/docs-images.sh` (`make docs-images`)
/// makes from today's code: the test runs it with the built binary into a temporary directory
/// and compares each picture with the committed one through the product's own comparison
/// (`ImageDiffing.pixelmatch`: threshold 0.1, anti-aliased pixels ignored, no differing pixel
/// allowed), so a changed drawing (a bag where the demo draws a backpack, a moved badge) fails
/// and only encoding differences pass. Needs Debian's chromium, as the browser tests do.
final class DocsImagesTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The PNG pictures in docs/ that README.md and docs/*.md show, as paths from the
    /// repository's root.
    static func referencedPictures() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var pictures = Set<String>()
        for page in ["README.md"] + docs {
            let text = try String(contentsOfFile: root + "/" + page, encoding: .utf8)
            let base = (page as NSString).deletingLastPathComponent
            let regex = try NSRegularExpression(pattern: #"!\[[^\]]*\]\(([^)\s]+\.png)\)"#)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let target = String(text[Range(match.range(at: 1), in: text)!])
                var parts: [Substring] = []
                for part in ((base.isEmpty ? "" : base + "/") + target).split(separator: "/") where part != "." {
                    if part == "..", !parts.isEmpty { parts.removeLast() } else { parts.append(part) }
                }
                let path = parts.joined(separator: "/")
                // Golden frames the pages show are the golden tests' (GoldenCatalogTests).
                if path.hasPrefix("docs/") { pictures.insert(path) }
            }
        }
        return pictures.sorted()
    }

    /// Remakes every picture in headless Chromium (minutes on two cores): under
    /// `CARTRENDER_FULL_SWEEPS=1` only, which `.ci/run` sets; `make docs-images` is the same
    /// command run by hand.
    func testCommittedPicturesAreWhatTheCommandMakes() throws {
        try XCTSkipUnless(TestSweep.isFull, "remakes every picture of README.md and docs/ (minutes): CARTRENDER_FULL_SWEEPS=1 (.ci/run) runs it")
        let out = Binary.tempDir(self)
        let r = try Binary.run([Self.root + "/Scripts/docs-images.sh", out], environment: ["BIN": Binary.url.path], timeout: 600,
                               executable: "/bin/bash")
        XCTAssertEqual(r.status, 0, r.stderr)
        let made = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.sorted()
        // docs/preview.png is a picture of a live server (`cartrender preview`), made by
        // Scripts/preview-screenshot.sh, not by docs-images.sh.
        let referenced = try Self.referencedPictures().filter { $0 != "docs/preview.png" }
        XCTAssertEqual(referenced, made.map { "docs/" + $0 }, "every picture the pages show is made by the command, and only those")

        let diffing = ImageDiffing.pixelmatch(ComparisonOptions())
        for name in made {
            let committed = Array(try Data(contentsOf: URL(fileURLWithPath: Self.root + "/docs/" + name)))
            let fresh = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)))
            let c = try diffing.compare(expected: committed, actual: fresh, expectedPath: "docs/" + name, actualPath: name)
            XCTAssertEqual(c.status, .pass, "docs/\(name) is not what `make docs-images` makes now (\(c.result.map { "\($0.differingPixels) px differ" } ?? "\(c.expectedSize) vs \(c.actualSize)")): run make docs-images and look at it")
        }

        // The tolerance is for encoding only: the strip with its last panel showing the first
        // panel's frame (the same size, the same screen, other content) fails.
        let strip = try diffing.fromData(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/strip.png"))), nil)
        var changed = strip
        let panel = 393, row = strip.width * 4
        for y in 0..<strip.height {
            let from = y * row + 1 * 4, to = y * row + (1 + 4 * panel) * 4
            changed.pixels.replaceSubrange(to..<(to + 393 * 4), with: strip.pixels[from..<(from + 393 * 4)])
        }
        let swapped = try diffing.compare(strip, changed)
        XCTAssertEqual(swapped.status, .fail)
        XCTAssertGreaterThan(swapped.result?.differingPixels ?? 0, 1000)
    }
}
