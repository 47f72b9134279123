import CartRender
import CartRenderCore
import Foundation
import XCTest

final class ShardingTests: XCTestCase {
    func testShardsCoverTheFramesInContiguousBlocks() {
        let frames = (0..<10).map { (index: $0, time: Double($0)) }
        let blocks = (1...4).map { Renderer.shard(frames, $0, of: 4).map(\.index) }
        XCTAssertEqual(blocks, [[0, 1], [2, 3, 4], [5, 6], [7, 8, 9]])
        XCTAssertEqual(Renderer.shard(frames, 1, of: 1).count, 10)
        XCTAssertEqual(Renderer.shard(Array(frames.prefix(2)), 3, of: 4).count, 0, "more shards than frames: some are empty")
    }

    /// Shards 1/4…4/4, merged, are byte-identical to a single run — in one directory or in four.
    func testMergedShardsEqualASingleRun() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 15, scale: 1), baseDirectory: "/")
        let r = try Renderer(scene: scene)
        var single = RenderOptions(); single.outputDirectory = tempDir()
        _ = try r.render(single)

        let shared = tempDir()
        var separate: [String] = []
        for k in 1...4 {
            var o = RenderOptions(); o.outputDirectory = shared; o.shard = (k, 4)
            _ = try r.render(o)
            let own = tempDir()
            o.outputDirectory = own
            _ = try r.render(o)
            separate.append(own)
        }
        try ShardMerge.merge([shared], into: shared)
        XCTAssertEqual(try files(shared), try files(single.outputDirectory))
        let merged = tempDir()
        try ShardMerge.merge(separate, into: merged)
        XCTAssertEqual(try files(merged), try files(single.outputDirectory))
    }

    /// Shards rendered, or merged, into a directory that held a longer complete render leave none
    /// of its frames behind: the merged directory equals a single run there.
    func testMergeRemovesTheFramesOfALongerEarlierRender() throws {
        let short = try Renderer(scene: DefaultScene.scene(overrides: SceneOverrides(fps: 15, scale: 1), baseDirectory: "/"))
        let long = try Renderer(scene: DefaultScene.scene(overrides: SceneOverrides(fps: 30, scale: 1), baseDirectory: "/"))
        var single = RenderOptions(); single.outputDirectory = tempDir()
        _ = try short.render(single)

        let inPlace = tempDir(), mergedInto = tempDir(), separate = tempDir()
        for dir in [inPlace, mergedInto] {
            var o = RenderOptions(); o.outputDirectory = dir
            _ = try long.render(o)
        }
        for k in 1...3 {
            var o = RenderOptions(); o.outputDirectory = inPlace; o.shard = (k, 3)
            _ = try short.render(o)
            o.outputDirectory = separate
            _ = try short.render(o)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: inPlace + "/manifest.json"), "shards leave no complete manifest")
        try ShardMerge.merge([inPlace], into: inPlace)
        try ShardMerge.merge([separate], into: mergedInto)
        XCTAssertEqual(try files(inPlace), try files(single.outputDirectory))
        XCTAssertEqual(try files(mergedInto), try files(single.outputDirectory))
    }

    /// A full render into a directory holding shards of another render leaves none of them.
    func testAFullRenderReplacesShardsLeftInItsDirectory() throws {
        let short = try Renderer(scene: DefaultScene.scene(overrides: SceneOverrides(fps: 15, scale: 1), baseDirectory: "/"))
        let long = try Renderer(scene: DefaultScene.scene(overrides: SceneOverrides(fps: 30, scale: 1), baseDirectory: "/"))
        var single = RenderOptions(); single.outputDirectory = tempDir()
        _ = try short.render(single)
        let dir = tempDir()
        for k in 1...2 {
            var o = RenderOptions(); o.outputDirectory = dir; o.shard = (k, 3)
            _ = try long.render(o)
        }
        var o = RenderOptions(); o.outputDirectory = dir
        _ = try short.render(o)
        XCTAssertEqual(try files(dir), try files(single.outputDirectory))
    }

    func testMergeReportsMissingShards() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 10, scale: 1), baseDirectory: "/")
        let dir = tempDir()
        for k in [1, 3] {
            var o = RenderOptions(); o.outputDirectory = dir; o.shard = (k, 3)
            _ = try Renderer(scene: scene).render(o)
        }
        XCTAssertThrowsError(try ShardMerge.merge([dir], into: dir)) { e in
            XCTAssertEqual("\(e)", "shard 2 of 3 is missing; found shards 1, 3 in \(dir)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/manifest.json"))
    }

    /// Hold frames are drawn once and their bytes reused.
    func testIdenticalFramesAreDrawnOnce() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(scale: 1), baseDirectory: "/")
        let r = try Renderer(scene: scene)
        var o = RenderOptions(); o.outputDirectory = tempDir(); o.frames = .range(0, 20)
        let result = try r.render(o)
        // Frames 0…18 (t < 0.3 s) show the same screen; the tap at 0.3 s changes frame 18 on.
        XCTAssertEqual(result.framesDrawn, 4, "frames 0-17 drawn once, then 18, 19 and 20")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.manifestPath))) as! [String: Any]
        let shas = (written["frames"] as! [[String: Any]]).map { $0["sha256"] as! String }
        XCTAssertEqual(result.framesWritten, 21)
        XCTAssertEqual(Set(shas[0...17]).count, 1)
        XCTAssertNotEqual(shas[17], shas[18])
    }

    /// A hold longer than a run may be is split into runs of at most 256 frames, each drawn
    /// once, with the same bytes in every frame.
    func testLongHoldsAreSplitIntoBoundedRuns() throws {
        // No events: every frame shows the same screen.
        let scene = try SceneDecoder.decode(Array(#"{"fps": 240, "scale": 1, "duration": 2}"#.utf8), file: "hold.json", baseDirectory: "/")
        let r = try Renderer(scene: scene)
        var o = RenderOptions(); o.outputDirectory = tempDir(); o.frames = .range(0, 299)
        let result = try r.render(o)
        XCTAssertEqual(result.framesWritten, 300)
        XCTAssertEqual(result.framesDrawn, 2, "256 + 44 frames")
        let names = (0...299).map { r.fileName(ofFrame: $0, format: .png) }
        XCTAssertEqual(Set(try names.map { try Data(contentsOf: URL(fileURLWithPath: o.outputDirectory + "/" + $0)) }).count, 1)
    }

    /// A frame file that does not match its shard manifest's SHA-256 (a partial download, a
    /// file from another run) stops the merge.
    func testMergeChecksEveryFrameAgainstItsManifest() throws {
        let r = try Renderer(scene: DefaultScene.scene(overrides: SceneOverrides(fps: 10, scale: 1), baseDirectory: "/"))
        let shards = tempDir()
        for k in 1...2 {
            var o = RenderOptions(); o.outputDirectory = shards; o.shard = (k, 2)
            _ = try r.render(o)
        }
        let frame = shards + "/" + r.fileName(ofFrame: r.frameCount - 1, format: .png)
        let data = try Data(contentsOf: URL(fileURLWithPath: frame))
        try data.prefix(100).write(to: URL(fileURLWithPath: frame))
        let out = tempDir()
        XCTAssertThrowsError(try ShardMerge.merge([shards], into: out)) { e in
            XCTAssertEqual("\(e)", "\(frame) does not match its SHA-256 in shard-2-of-2.json (damaged, or written by another run)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    /// A merge that fails leaves the output directory exactly as it was.
    func testFailedMergeLeavesTheOutputAsItWas() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 10, scale: 1), baseDirectory: "/")
        let r = try Renderer(scene: scene)
        let out = tempDir()
        var o = RenderOptions(); o.outputDirectory = out
        _ = try r.render(o)
        let before = try files(out)
        let shards = tempDir()
        for k in 1...2 {
            var s = RenderOptions(); s.outputDirectory = shards; s.shard = (k, 2)
            _ = try r.render(s)
        }
        try FileManager.default.removeItem(atPath: shards + "/frame_0020.png")
        XCTAssertThrowsError(try ShardMerge.merge([shards], into: out)) { e in
            XCTAssertEqual("\(e)", "\(shards)/frame_0020.png is listed in shard-2-of-2.json but missing")
        }
        XCTAssertEqual(try files(out), before)
    }

    /// The shards together hold every frame of the render: a shard manifest that drops its last
    /// frame, lists a frame past the end, or claims outputs is refused.
    func testMergeNeedsEveryFrameOfTheRenderAndNoOtherOutputs() throws {
        let r = try Renderer(scene: DefaultScene.scene(overrides: SceneOverrides(fps: 4, scale: 1), baseDirectory: "/"))
        let shards = tempDir()
        for k in 1...2 {
            var o = RenderOptions(); o.outputDirectory = shards; o.formats = [.svg]; o.shard = (k, 2)
            _ = try r.render(o)
        }
        let path = shards + "/shard-2-of-2.json"
        let original = try Manifest(json: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let last = r.frameCount - 1
        var dropped = original; dropped.frames.removeLast()
        var past = original; past.frames[past.frames.count - 1].index = r.frameCount
        var outputs = original; outputs.outputs = [Manifest.File(name: "animation.gif", sha256: String(repeating: "0", count: 64))]
        let cases: [(Manifest, String)] = [
            (dropped, "frames are missing: \(last)"),
            (past, "\(path): frames[\(past.frames.count - 1)].index: the render has frames 0 to \(last), got \(r.frameCount)"),
            (outputs, "\(path): outputs[0].file: a shard writes no animation or contact sheet, got \"animation.gif\""),
        ]
        for (manifest, message) in cases {
            try manifest.serialized().write(toFile: path, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try ShardMerge.merge([shards], into: tempDir())) { XCTAssertEqual("\($0)", message) }
        }
    }
}
