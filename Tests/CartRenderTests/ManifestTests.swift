import CartRender
import CartRenderCore
import Foundation
import XCTest

final class ManifestTests: XCTestCase {
    /// Flight centers and scales in the manifest match docs/motion-and-look.md, “The fly button”, at every frame; the count
    /// changes exactly at the landing frames.
    func testManifestFollowsTheMotionSpec() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(scale: 1), baseDirectory: "/")
        let r = try Renderer(scene: scene)
        let dir = tempDir()
        var o = RenderOptions(); o.outputDirectory = dir; o.formats = [.svg]; o.jobs = 2
        let result = try r.render(o)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.manifestPath))) as! [String: Any]
        XCTAssertEqual(json["fps"] as? Int, 60)
        XCTAssertEqual((json["size"] as? [String: Int])?["width"], 393)
        let frames = json["frames"] as! [[String: Any]]
        XCTAssertEqual(frames.count, r.frameCount)
        XCTAssertEqual(r.frameCount, Int((r.duration * 60).rounded()) + 1)

        let events = json["events"] as! [[String: Any]]
        let launch = events.first { $0["kind"] as? String == "launch" }!
        let dest = launch["destination"] as! [String: Double]
        let worker = try r.makeWorker()
        _ = worker
        var sourceCenter: (Double, Double)?
        let landings = [0.95, 1.15, 2.05]
        for f in frames {
            let i = f["index"] as! Int
            let t = Double(i) / 60
            XCTAssertEqual(f["time"] as! Double, t, accuracy: 1e-6)
            let state = f["state"] as! [String: Any]
            let expectedCount = landings.filter { t >= $0 - 1e-6 }.count
            XCTAssertEqual(state["count"] as? Int, expectedCount, "frame \(i)")
            for flight in state["flights"] as! [[String: Any]] {
                let id = flight["id"] as! Int
                let launchTime = [0.3, 0.5, 1.4][id - 1]
                let p = TimingCurve.easeIn.value(at: (t - launchTime) / 0.65)
                XCTAssertEqual(flight["progress"] as! Double, p, accuracy: 1e-6)
                XCTAssertEqual(flight["scale"] as! Double, 1 - 0.75 * p, accuracy: 1e-6)
                let o = FlyTimeline.arcOffset(progress: p, destination: Vector(dx: dest["x"]!, dy: dest["y"]!))
                let c = flight["center"] as! [String: Double]
                if sourceCenter == nil { sourceCenter = (c["x"]! - o.dx, c["y"]! - o.dy) }
                XCTAssertEqual(c["x"]!, sourceCenter!.0 + o.dx, accuracy: 0.01, "frame \(i)")
                XCTAssertEqual(c["y"]!, sourceCenter!.1 + o.dy, accuracy: 0.01, "frame \(i)")
            }
        }
        XCTAssertNotNil(sourceCenter)
        // Badge scale follows the keyframes after the first landing (from rest).
        let at = { (t: Double) in (frames[Int((t * 60).rounded())]["state"] as! [String: Any])["badgeScale"] as! Double }
        XCTAssertEqual(at(0.95), 1, accuracy: 1e-6)
        XCTAssertEqual(at(0.95 + 10.0 / 60), KeyframeTimeline.badgeBump.state(at: 10.0 / 60, from: 1).value, accuracy: 1e-6)
        // Software and scene identity.
        XCTAssertEqual((json["scene"] as? String)?.count, 64)
        let software = json["software"] as! [String: Any]
        XCTAssertTrue((software["cairo"] as! String).hasPrefix("1."))
        XCTAssertTrue((software["fonts"] as! [[String: String]]).contains { $0["package"] == "fonts-inter" })
    }

    /// The manifest's frames are written as they are rendered, not held: the file is exactly
    /// what serializing the whole manifest gives, and an empty shard has `"frames": []`.
    func testStreamedManifestIsTheSerializedManifest() throws {
        let r = try Renderer(scene: DefaultScene.scene(overrides: SceneOverrides(fps: 10, scale: 1), baseDirectory: "/"))
        let dir = tempDir()
        var o = RenderOptions(); o.outputDirectory = dir; o.formats = [.png, .svg]; o.jobs = 3
        let result = try r.render(o)
        XCTAssertEqual(result.framesWritten, r.frameCount)
        XCTAssertTrue(result.manifest.frames.isEmpty, "frames are streamed to the file, not kept")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: result.manifestPath)))
        let canonical = JSONValue(try JSONParser.parse(bytes)).serialized(pretty: true)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), canonical)
        let json = try JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
        XCTAssertEqual((json["frames"] as! [[String: Any]]).map { $0["index"] as! Int }, Array(0..<r.frameCount))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }, [".cartrender-files.sha256"], "no staging left")

        // More shards than frames: a shard with none.
        var s = RenderOptions(); s.outputDirectory = tempDir(); s.shard = (1, r.frameCount + 1)
        let shard = try r.render(s)
        XCTAssertEqual(shard.framesWritten, 0)
        XCTAssertTrue(try String(contentsOfFile: shard.manifestPath, encoding: .utf8).contains("\n  \"frames\": [],\n"))
    }

    /// A manifest read back and written again is byte-identical: shop and cart screens, frames
    /// with alternates, outputs, shards.
    func testManifestsRoundTrip() throws {
        let examples = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../Examples").standardized.path
        let shop = try Renderer(scene: DefaultScene.scene(overrides: SceneOverrides(fps: 10, scale: 1), baseDirectory: "/"))
        let cart = try Renderer(scene: SceneDecoder.load(path: examples + "/cart-swipe.json", overrides: SceneOverrides(fps: 10, scale: 1)))
        var runs: [(Renderer, RenderOptions)] = []
        var o = RenderOptions(); o.outputDirectory = tempDir(); o.formats = [.png, .svg, .gif]; o.contactSheet = true
        runs.append((shop, o))
        o = RenderOptions(); o.outputDirectory = tempDir(); o.formats = [.svg]
        runs.append((cart, o))
        o = RenderOptions(); o.outputDirectory = tempDir(); o.shard = (2, 3)
        runs.append((cart, o))
        for (r, o) in runs {
            let path = try r.render(o).manifestPath
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let manifest = try Manifest(json: bytes)
            XCTAssertEqual(manifest.frames.count, o.shard == nil ? r.frameCount : manifest.frames.count)
            XCTAssertEqual(try JSONValue(encoding: manifest.events), try JSONValue(encoding: r.events), "events as written, \(path)")
            XCTAssertEqual(try manifest.serialized(), String(decoding: bytes, as: UTF8.self), path)
        }
        let decoded = try Manifest(json: Array(try Data(contentsOf: URL(fileURLWithPath: runs[0].1.outputDirectory + "/manifest.json"))))
        XCTAssertEqual(decoded.outputs.map(\.name), ["animation.gif", "contact-sheet.png"])
        XCTAssertEqual(decoded.frames[3].files.map(\.name), ["frame_0003.png", "frame_0003.svg"])
        XCTAssertEqual(decoded.software, .current(fonts: shop.fonts.files))
    }

    /// What a manifest must have: a wrong version or a missing member is refused at its path.
    func testManifestReadingNamesTheMember() throws {
        let r = try Renderer(scene: DefaultScene.scene(overrides: SceneOverrides(fps: 4, scale: 1), baseDirectory: "/"))
        var o = RenderOptions(); o.outputDirectory = tempDir(); o.formats = [.svg]
        let text = try String(contentsOfFile: try r.render(o).manifestPath, encoding: .utf8)
        func error(_ text: String) -> DecodingError? {
            do { _ = try Manifest(json: Array(text.utf8)); return nil } catch { return error as? DecodingError }
        }
        let wrongVersion = error(text.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 2,"))
        XCTAssertEqual(wrongVersion?.jsonPath, "version")
        XCTAssertEqual(wrongVersion?.reason, "this cartrender reads manifest version 1, got 2")
        let noTime = error(text.replacingOccurrences(of: "\"time\": 0.25,", with: ""))
        XCTAssertEqual(noTime?.jsonPath, "frames[1].time")
        XCTAssertEqual(noTime?.reason, "is missing")
    }
}
