import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// The scene decoder checks the image and font files a scene names by the folder rule it is
/// given (``AssetFolder``), so a command that only decodes a scene refuses what a render
/// refuses, with the same sentence and the JSON path.
final class SceneFileResolverTests: XCTestCase {
    private func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "resolver-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir + "/s", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    func testAnImageReachedThroughALinkIsRefusedWhenDecoding() throws {
        let dir = try folder()
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: dir + "/outside.png"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/s/a.png", withDestinationPath: dir + "/outside.png")
        let json = Array("{\n  \"shop\": {\"image\": \"a.png\"}\n}\n".utf8)
        // Without a resolver named, the files layer applies the folder rule of its base directory.
        XCTAssertThrowsError(try SceneDecoder.decode(json, file: "s.json", baseDirectory: dir + "/s")) { error in
            XCTAssertTrue("\(error)".contains("is reached through the symbolic link"), "\(error)")
        }
        XCTAssertThrowsError(try SceneDecoder.decode(json, file: "s.json", baseDirectory: dir + "/s", files: AssetFolder(directory: dir + "/s"))) { error in
            XCTAssertEqual("\(error)", "s.json:2:21: shop.image: image file \(dir)/s/a.png is reached through the symbolic link \(dir)/s/a.png, which cartrender does not follow below the scene's folder; allow it with --allow-outside-assets")
            XCTAssertEqual((error as? SceneError)?.exitCode, .dataError)
        }
        XCTAssertNoThrow(try SceneDecoder.decode(json, file: "s.json", baseDirectory: dir + "/s", files: AssetFolder(directory: dir + "/s", allowsOutside: true)))
    }

    func testAMissingImageAndAnOutsideFontAreNamedAsBefore() throws {
        let dir = try folder()
        let json = Array("{\n  \"shop\": {\"image\": \"gone.png\"}\n}\n".utf8)
        XCTAssertThrowsError(try SceneDecoder.decode(json, file: "s.json", baseDirectory: dir + "/s", files: AssetFolder(directory: dir + "/s"))) { error in
            XCTAssertEqual("\(error)", "s.json:2:21: shop.image: image file \(dir)/s/gone.png does not exist")
            XCTAssertEqual((error as? SceneError)?.exitCode, .noInput)
        }
        let fonts = Array("{\"fonts\": [\"/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf\"]}".utf8)
        XCTAssertThrowsError(try SceneDecoder.decode(fonts, file: "s.json", baseDirectory: dir + "/s", files: AssetFolder(directory: dir + "/s"))) { error in
            XCTAssertTrue("\(error)".hasPrefix("s.json:1:12: fonts[0]: font file /usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf is outside \(dir)/s, the folder"), "\(error)")
        }
    }
}
