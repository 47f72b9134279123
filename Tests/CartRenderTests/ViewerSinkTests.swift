@testable import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// ``ViewerSink`` keeps no frame's entry in memory: entries go to a staging file as frames come,
/// the page is written around them, and it is the page `cartrender view` makes from the manifest.
final class ViewerSinkTests: XCTestCase {
    /// A state that counts how often it is encoded.
    struct CountingState: FrameState {
        static let encodings = LockedValue(0)
        var index: Int
        var text: String
        func encode(to encoder: Encoder) throws {
            Self.encodings.withLock { $0 += 1 }
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(index, forKey: .index)
            try c.encode(text, forKey: .text)
        }
        enum CodingKeys: String, CodingKey { case index, text }
    }

    private func frame(_ i: Int, fps: Int, text: String = "") -> RenderedFrame {
        RenderedFrame(index: i, time: Double(i) / Double(fps), display: DisplayList(size: Size(width: 1, height: 1), background: .white, items: []),
                      state: CountingState(index: i, text: text), repeatsPrevious: false, content: RunContent())
    }

    /// The manifest sink and the viewer sink share one encoding of a frame's state.
    /// The screens' overlays are the viewer's (CartRender), not the core's: only the shop draws
    /// one, its flight arcs from its launch events, and the page embeds it.
    func testTheViewerHoldsTheScreensOverlays() throws {
        XCTAssertEqual(Array(ViewerOverlays.scripts.keys), [ShopContent.name])
        XCTAssertEqual(ViewerOverlays.script, ViewerOverlays.flightArcs, "only the shop draws overlays in the viewer")
        XCTAssertTrue(ViewerOverlays.flightArcs.contains("e.kind!=='launch'"), "the shop's arcs start at its launch events")
        let page = try ViewerPage.html(for: Manifest(sceneHash: "", fps: 1, scale: 1, width: 1, height: 1, duration: 0, frameCount: 0,
                                                     frames: [], events: [], software: .current(fonts: [])))
        XCTAssertTrue(page.contains(ViewerOverlays.flightArcs))
    }

    func testAFramesStateIsEncodedOnce() throws {
        let f = frame(3, fps: 10)
        let before = CountingState.encodings.withLock { $0 }
        let a = try f.stateJSON(), b = try f.stateJSON()
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.serialized(), #"{"index":3,"text":""}"#)
        XCTAssertEqual(CountingState.encodings.withLock { $0 } - before, 1)
    }

    func testEntriesGoToAStagingFileAndThePageIsViewsPage() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 20, scale: 1), baseDirectory: "/")
        let renderer = try Renderer(scene: scene)
        let dir = NSTemporaryDirectory() + "cartrender-viewer-sink-\(UUID().uuidString)"
        let staging = try StagingArea(in: OutputDirectory(path: dir))
        defer { staging.discard(); try? FileManager.default.removeItem(atPath: dir) }
        let sink = ViewerSink(renderer: renderer, staging: staging)
        var frames: [Manifest.Frame] = []
        // 400 entries of about 900 bytes (each `<` is written \u003c).
        for i in 0..<400 {
            let f = frame(i, fps: 20, text: String(repeating: "<x>", count: 100))
            f.files = [Manifest.File(name: renderer.fileName(ofFrame: i, format: .png), sha256: String(repeating: "0", count: 64))]
            try sink.consume(f)
            frames.append(Manifest.Frame(index: i, time: f.time, files: f.files, state: try f.stateJSON()))
        }
        let part = staging.url(".viewer-frames.partial")
        let staged = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: part)[.size] as? Int)
        XCTAssertGreaterThan(staged, 300 << 10, "all but the last block of entries are in the staging file")

        let output = try sink.finish(earlier: [])
        let expected = Array(try ViewerPage.html(for: renderer.manifest(frames: frames)).utf8)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: staging.url(ViewerSink.fileName)))), expected)
        XCTAssertEqual(output.files.map(\.name), [ViewerSink.fileName])
        XCTAssertEqual(output.files.map(\.sha256), [Checksum.sha256(expected)])
        XCTAssertFalse(FileManager.default.fileExists(atPath: part), "the staging file is removed")
    }
}
