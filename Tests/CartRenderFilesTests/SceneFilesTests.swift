import CartRenderCore
import CartRenderFiles
import Foundation
import XCTest

/// Scene files read from disk (`SceneDecoder.load`, ``SceneFiles``): what cannot be read is one
/// `.unreadable` sentence naming the file, and the folder rule is the decoder's default here.
final class SceneFilesTests: XCTestCase {
    func testMissingSceneFileIsUnreadable() {
        XCTAssertThrowsError(try SceneDecoder.load(path: "/nonexistent/scene.json")) { e in
            XCTAssertEqual((e as? SceneError)?.kind, .unreadable)
            XCTAssertEqual("\(e)", "/nonexistent/scene.json: no such file")
        }
        XCTAssertThrowsError(try SceneDecoder.load(path: NSTemporaryDirectory())) { e in
            XCTAssertEqual((e as? SceneError)?.kind, .unreadable)
        }
    }

    func testLoadResolvesImagesAgainstTheScenesFolderAndRefusesLinksOutOfIt() throws {
        let dir = NSTemporaryDirectory() + "scene-files-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/s", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data([0x89]).write(to: URL(fileURLWithPath: dir + "/outside.png"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/s/a.png", withDestinationPath: dir + "/outside.png")
        try Data(#"{"shop": {"image": "a.png"}}"#.utf8).write(to: URL(fileURLWithPath: dir + "/s/scene.json"))
        // The default resolver is the scene's folder: the link is refused, as a render refuses it.
        XCTAssertThrowsError(try SceneDecoder.load(path: dir + "/s/scene.json")) { e in
            XCTAssertTrue("\(e)".contains("symbolic link"), "\(e)")
        }
        XCTAssertThrowsError(try SceneDecoder.decode(Array(#"{"shop": {"image": "a.png"}}"#.utf8), file: "s.json", baseDirectory: dir + "/s")) { e in
            XCTAssertTrue("\(e)".contains("symbolic link"), "\(e)")
        }
    }
}
