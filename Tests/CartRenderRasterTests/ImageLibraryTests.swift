@testable import CartRenderRaster
import CartRenderCore
import Foundation
import XCTest

/// `ImageLibrary`: images loaded once per source, decoded to premultiplied ARGB32, and every
/// bad file one `ImageError` sentence naming it.
final class ImageLibraryTests: XCTestCase {
    private func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "image-library-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    func testAPNGIsDecodedPremultipliedOncePerSource() throws {
        let dir = try temporaryDirectory()
        // 2×1: opaque red, then half-transparent white.
        let png = try PNGEncoder.encode(RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 255, 255, 255, 128]))
        try Data(png).write(to: URL(fileURLWithPath: dir + "/a.png"))
        let source = ImageSource.file(dir + "/a.png")
        let library = try ImageLibrary(sources: [source, source], assets: AssetFolder(directory: dir))
        XCTAssertEqual(library.entries.count, 1)
        guard case .raster(let r) = library.entries[source] else { return XCTFail("not a raster: \(String(describing: library.entries[source]))") }
        XCTAssertEqual([r.width, r.height], [2, 1])
        let words = r.argb.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        XCTAssertEqual(words[0], 0xFFFF_0000, "opaque red")
        XCTAssertEqual(words[1], 0x8080_8080, "white at alpha 128, premultiplied")
    }

    func testBadFilesAreOneSentenceNamingThem() throws {
        let dir = try temporaryDirectory()
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir + "/b.png"))
        let table: [(ImageSource, String, Bool)] = [
            (.file(dir + "/b.png"), "image file \(dir)/b.png is not a PNG or JPEG image", false),
            (.file(dir + "/missing.png"), "image file \(dir)/missing.png does not exist", true),
            (.symbol("no.such.symbol"), "unknown symbol \"no.such.symbol\"", false),
        ]
        for (source, message, unreadable) in table {
            XCTAssertThrowsError(try ImageLibrary(sources: [source], assets: AssetFolder(directory: dir)), source.text) { e in
                XCTAssertEqual((e as? ImageError)?.message, message)
                XCTAssertEqual((e as? ImageError)?.unreadable, unreadable, source.text)
            }
        }
    }

    func testAnImageLargerThanTheSideLimitIsRefusedFromItsHeader() throws {
        // A PNG signature and an IHDR claiming 9000 × 1 px: refused before decoding.
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bytes += [0, 0, 0x23, 0x28, 0, 0, 0, 1, 8, 6, 0, 0, 0]
        XCTAssertThrowsError(try ImageLibrary.decodeRaster(bytes, path: "/x.png", source: .file("/x.png"))) { e in
            XCTAssertEqual((e as? ImageError)?.message, "image file /x.png is 9000×1 px; at most \(ImageLibrary.maxImageSide) px a side")
        }
    }
}
