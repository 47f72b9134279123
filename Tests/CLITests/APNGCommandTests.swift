import CartRender
import CartRenderCLI
import CartRenderRaster
import Foundation
import XCTest

/// End-to-end: `--format apng` through the built binary.
final class APNGCommandTests: XCTestCase {
    func testAPNGIsWrittenAndListedInTheManifest() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["--out", dir, "--format", "apng", "--scale", "1", "--fps", "10", "--loop", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), [".cartrender-files.sha256", "animation.png", "manifest.json"])
        XCTAssertTrue(r.stderr.contains("wrote animation.png ("), r.stderr)
        XCTAssertTrue(r.stderr.contains(") and manifest.json (") && r.stderr.contains(" from 34 frames of 393×852 px;"), r.stderr)
        let apng = Array(FileManager.default.contents(atPath: dir + "/animation.png")!)
        XCTAssertEqual(Array(apng.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // acTL right after IHDR, gAMA, sRGB and cHRM (8 + 25 + 16 + 13 + 44 bytes): num_frames, num_plays.
        XCTAssertEqual(String(decoding: apng[110..<114], as: UTF8.self), "acTL")
        XCTAssertEqual(apng[118..<122].reduce(0) { $0 << 8 | Int($1) }, 2, "--loop 2 plays twice")
        let m = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))) as! [String: Any]
        XCTAssertEqual(m["outputs"] as! [[String: String]], [["file": "animation.png", "sha256": Checksum.sha256(apng)]])
        XCTAssertEqual((m["frames"] as! [Any]).count, 34)
    }
}
