import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

final class DeterminismTests: XCTestCase {
    func scene() throws -> Scene { try DefaultScene.scene(overrides: SceneOverrides(fps: 20, scale: 1), baseDirectory: "/") }

    /// Same scene, different --jobs: byte-identical frames and manifest.
    func testJobsDoNotChangeBytes() throws {
        let r = try Renderer(scene: scene())
        var a = RenderOptions(); a.outputDirectory = tempDir(); a.jobs = 1; a.formats = [.png, .svg]
        var b = a; b.outputDirectory = tempDir(); b.jobs = 3
        _ = try r.render(a)
        _ = try r.render(b)
        let fa = try files(a.outputDirectory), fb = try files(b.outputDirectory)
        XCTAssertEqual(fa.keys.sorted(), fb.keys.sorted())
        XCTAssertEqual(fa.count, 2 * r.frameCount + 2, "the frames, the manifest and the ownership ledger")
        for (name, data) in fa { XCTAssertEqual(data, fb[name], name) }
    }

    /// Text wrapped in a very narrow column (cart rows on a 180 pt screen) is laid out the same
    /// by every worker: with text layout on several threads at once, Pango's font stack measured
    /// it differently from run to run, and rows changed height between workers.
    func testNarrowWrappedTextIsTheSameOnEveryWorker() throws {
        // Examples/cart-swipe.json on a 180 pt screen, without its delete tap (the swipe deletes
        // the row there).
        let examples = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../Examples").standardized.path
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: examples + "/cart-swipe.json"))) as! [String: Any]
        json["device"] = ["width": 180, "height": 1400, "scale": 1]
        json["fps"] = 30
        json["events"] = (json["events"] as! [[String: Any]]).filter { $0["tap"] as? String != "delete" }
        let bytes = [UInt8](try JSONSerialization.data(withJSONObject: json))
        let r = try Renderer(scene: SceneDecoder.decode(bytes, file: "narrow.json", baseDirectory: examples))
        var one = RenderOptions(); one.outputDirectory = tempDir(); one.jobs = 1
        _ = try r.render(one)
        let expected = try files(one.outputDirectory)
        for _ in 0..<4 {
            var many = RenderOptions(); many.outputDirectory = tempDir(); many.jobs = 4
            _ = try r.render(many)
            XCTAssertEqual(try files(many.outputDirectory), expected)
        }
    }

    /// Frames are pure functions of time: rendered in reverse order they are the same, as PNG
    /// and as SVG, with symbols and with PNG, JPEG and SVG product images.
    func testFrameOrderDoesNotMatter() throws {
        let examples = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../Examples").standardized.path
        let images = URL(fileURLWithPath: #filePath).appendingPathComponent("../../CLITests/Corpus").standardized.path
        var scenes = [try scene(), try SceneDecoder.load(path: examples + "/png-image.json", overrides: SceneOverrides(fps: 10, scale: 1))]
        for image in ["images/tiny.jpg", "images/plain.svg"] {
            let text = #"{"duration": 1, "fps": 10, "shop": {"image": "\#(image)"}, "events": [{"at": 0.2, "tap": "add"}]}"#
            scenes.append(try SceneDecoder.decode(Array(text.utf8), file: image, baseDirectory: images))
        }
        for scene in scenes {
            let r = try Renderer(scene: scene)
            let w1 = try r.makeWorker(), w2 = try r.makeWorker()
            let times = (0..<r.frameCount).map(r.time(ofFrame:))
            func frame(_ w: FrameWorker, _ t: Double) throws -> [UInt8] {
                let display = w.frame(at: t).display
                return try PNGEncoder.encode(try w.rasterize(display)) + w.svg(display)
            }
            let forward = try times.map { try frame(w1, $0) }
            let backward = try times.reversed().map { try frame(w2, $0) }
            XCTAssertEqual(forward, Array(backward.reversed()), scene.content.images[0].text)
        }
    }

    /// Cairo numbers some SVG ids from a process-wide counter: a frame's SVG must not depend on
    /// what the process drew before.
    func testSVGBytesDoNotDependOnEarlierFrames() throws {
        let r = try Renderer(scene: scene())
        let w = try r.makeWorker()
        let first = try w.svg(w.frame(at: 0.6).display)
        for t in [0.1, 0.7, 1.2] { _ = try w.svg(w.frame(at: t).display) }
        let fresh = try r.makeWorker()
        XCTAssertEqual(try w.svg(w.frame(at: 0.6).display), first)
        XCTAssertEqual(try fresh.svg(fresh.frame(at: 0.6).display), first)
    }

    /// A rerun replaces the frames of an earlier run (known from its manifest) and leaves other files alone.
    func testRerunReplacesOnlyItsOwnFiles() throws {
        let dir = tempDir()
        var o = RenderOptions(); o.outputDirectory = dir
        _ = try Renderer(scene: scene()).render(o)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/notes.txt", contents: Data("mine".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/frame_9999.png", contents: Data("not from a run".utf8)))
        o.frames = .range(0, 2)
        _ = try Renderer(scene: scene()).render(o)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(names, [".cartrender-files.sha256", "frame_0000.png", "frame_0001.png", "frame_0002.png", "frame_9999.png", "manifest.json", "notes.txt"])
    }
}
