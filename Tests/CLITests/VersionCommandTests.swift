import CartRender
import CartRenderCLI
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// `cartrender --version`: cartrender's version on the first line, then the version of every C
/// library that draws or encodes, as loaded by the binary.
final class VersionCommandTests: XCTestCase {
    func testVersionNamesCartrenderAndItsLibraries() throws {
        let r = try Binary.run(["--version"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.first, "cartrender \(Manifest.version)")
        XCTAssertEqual(lines.last, "", "ends with a newline")
        let expected = ["Cairo \(LibraryVersions.cairo) (drawing)", "Pango \(LibraryVersions.pango) (text)",
                        "librsvg \(LibraryVersions.librsvg) (SVG images and icons)",
                        "libpng \(LibraryVersions.libpng), zlib \(LibraryVersions.zlib) (PNG, APNG)",
                        "giflib \(LibraryVersions.giflib), libimagequant \(LibraryVersions.libimagequant) (GIF)",
                        "libwebp \(LibraryVersions.libwebp) (WebP)"]
        XCTAssertEqual(Array(lines.dropFirst().prefix(expected.count)), expected)
        for line in expected { XCTAssertNil(line.range(of: #" 0\.0\.0 "#, options: .regularExpression), line) }
        // Debian 12's FFmpeg 5.1 is a test dependency (make deps installs it): its version is read.
        let ffmpeg = try XCTUnwrap(lines.dropLast().last)
        XCTAssertTrue(ffmpeg.hasPrefix("FFmpeg 5.1"), ffmpeg)
        XCTAssertTrue(ffmpeg.hasSuffix(" (MP4, WebM; loaded at run time)"), ffmpeg)
        XCTAssertEqual(lines.count, expected.count + 3)
    }
}
