import CartRenderRaster
import Foundation
import XCTest

/// End-to-end: `render --viewer` and `cartrender view DIR` through the built binary. What the
/// page does in a browser is tested by Tests/Browser/test_viewer.py.
final class ViewerCommandTests: XCTestCase {
    private func contents(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }
    private func json(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    }
    /// The JSON embedded in a viewer page.
    private func embedded(_ page: String) throws -> [String: Any] {
        let open = "<script type=\"application/json\" id=\"viewer-data\">"
        let start = try XCTUnwrap(page.range(of: open)).upperBound
        let end = try XCTUnwrap(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
        return try JSONSerialization.jsonObject(with: Data(page[start..<end].utf8)) as! [String: Any]
    }

    private let small = ["--scale", "1", "--fps", "10"]

    /// The page is written, listed in the manifest with its checksum, holds every frame's state,
    /// does not depend on --jobs, and is the page `view` writes for the same frames.
    func testViewerIsListedInTheManifestAndEqualsTheViewPage() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["--out", dir, "--viewer", "--jobs", "2", "--quiet"] + small)
        XCTAssertEqual(r.status, 0, r.stderr)
        let page = contents(dir + "/index.html")
        let manifest = try json(dir + "/manifest.json")
        XCTAssertEqual(manifest["outputs"] as? [[String: String]], [["file": "index.html", "sha256": Checksum.sha256(page)]])

        let data = try embedded(String(decoding: page, as: UTF8.self))
        let frames = try XCTUnwrap(data["frames"] as? [[String: Any]])
        let listed = try XCTUnwrap(manifest["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.count, 34)
        XCTAssertEqual(frames.map { $0["file"] as? String }, listed.map { $0["file"] as? String })
        XCTAssertEqual(frames.map { $0["state"] as! NSDictionary }, listed.map { $0["state"] as! NSDictionary })
        XCTAssertEqual((data["events"] as? [Any])?.count, (manifest["events"] as? [Any])?.count)
        XCTAssertEqual(data["animations"] as? [String], [])

        let again = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", again, "--viewer", "--jobs", "1", "--quiet"] + small).status, 0)
        XCTAssertEqual(contents(again + "/index.html"), page, "the page does not depend on --jobs")

        let viewed = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", viewed, "--quiet"] + small).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: viewed + "/index.html"))
        let v = try Binary.run(["view", viewed])
        XCTAssertEqual(v.status, 0, v.stderr)
        XCTAssertEqual(v.stderr, "cartrender: wrote \(viewed)/index.html (34 frames)\n")
        XCTAssertEqual(contents(viewed + "/index.html"), page, "view writes the page --viewer writes")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: viewed).filter { !$0.hasPrefix("frame_") }.sorted(),
                       [".cartrender-files.sha256", "index.html", "manifest.json"], "view leaves nothing else behind")
    }

    /// A page from an earlier run is the run's file: a later run without --viewer removes it.
    func testARerunWithoutViewerRemovesThePageOfTheEarlierRun() throws {
        let dir = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", dir, "--viewer", "--quiet", "--frames", "0-2"] + small).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/index.html"))
        XCTAssertEqual(try Binary.run(["--out", dir, "--quiet", "--frames", "0-2"] + small).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/index.html"))
    }

    /// Only an animation: the frames name no file, the page names the animation.
    func testAnAnimationOnlyRenderNamesTheAnimation() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["--out", dir, "--viewer", "--format", "gif", "--quiet", "--frames", "0-4"] + small)
        XCTAssertEqual(r.status, 0, r.stderr)
        let data = try embedded(String(decoding: contents(dir + "/index.html"), as: UTF8.self))
        XCTAssertEqual(data["animations"] as? [String], ["animation.gif"])
        XCTAssertEqual((data["frames"] as? [[String: Any]])?.map { $0["file"] is NSNull }, [true, true, true, true, true])
    }

    /// A string of the scene that reaches the state (the image's accessibility label) cannot end
    /// the page's script element.
    func testScriptEndInAStateStringIsEscaped() throws {
        let dir = Binary.tempDir(self)
        let scene = dir + "/scene.json"
        let label = "</script><script>document.title='x'</script>"
        let text = #"{"version": 1, "screen": "shop", "fps": 10, "duration": 0.2, "shop": {"imageLabel": "\#(label.replacingOccurrences(of: "'", with: "\\u0027"))"}}"#
        try text.write(toFile: scene, atomically: true, encoding: .utf8)
        let r = try Binary.run([scene, "--out", dir + "/out", "--viewer", "--quiet", "--scale", "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let page = String(decoding: contents(dir + "/out/index.html"), as: UTF8.self)
        XCTAssertEqual(page.components(separatedBy: "</script>").count - 1, 2, "only the page's own two script elements end")
        XCTAssertTrue(page.contains(#"\u003c/script>\u003cscript>"#))
        let frames = try XCTUnwrap(try embedded(page)["frames"] as? [[String: Any]])
        let state = try XCTUnwrap(frames.first?["state"] as? [String: Any])
        XCTAssertEqual(((state["accessibility"] as? [String: Any])?["productImage"] as? [String: Any])?["label"] as? String, label)
    }

    /// Bad input: the exit code of docs/command-line.md and one sentence, and nothing written.
    func testViewBadInput() throws {
        let dir = Binary.tempDir(self)
        try "not json".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
        let empty = dir + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let broken = dir + "/broken", wrong = dir + "/wrong"
        for d in [broken, wrong] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        try "{\"version\": 1,\n \"fps\": }".write(toFile: broken + "/manifest.json", atomically: true, encoding: .utf8)
        try #"{"version": 1, "scene": "x", "fps": "sixty"}"#.write(toFile: wrong + "/manifest.json", atomically: true, encoding: .utf8)
        let cases: [(args: [String], status: Int32, stderr: String)] = [
            (["view", dir + "/missing"], 66, "cartrender: \(dir)/missing: no such directory\n"),
            (["view", dir + "/file"], 65, "cartrender: \(dir)/file: is not a directory (view takes the directory of a render)\n"),
            (["view", empty], 66, "cartrender: \(empty)/manifest.json: no such file: \(empty) is not the directory of a finished render\n"),
            (["view", broken], 65, "cartrender: \(broken)/manifest.json: line 2, column 9: unexpected '}'; expected a value\n"),
            (["view", wrong], 65, "cartrender: \(wrong)/manifest.json: fps: expected an integer, got a string\n"),
            (["view"], 64, "cartrender: view: expected one render directory (with manifest.json), got 0 arguments\nRun 'cartrender view --help' for usage.\n"),
            (["view", "a", "b"], 64, "cartrender: view: expected one render directory (with manifest.json), got 2 arguments\nRun 'cartrender view --help' for usage.\n"),
            (["--viewer", "--shard", "1/2", "--out", dir + "/s"], 64, "cartrender: --shard and --viewer cannot be used together: merge the shards, then run cartrender view\nRun 'cartrender --help' for usage.\n"),
        ]
        for c in cases {
            let r = try Binary.run(c.args)
            XCTAssertEqual(r.status, c.status, c.args.joined(separator: " "))
            XCTAssertEqual(r.stderr, c.stderr, c.args.joined(separator: " "))
        }
        for d in [empty, broken, wrong] {
            XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: d).contains("index.html"), d)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/s"))
    }

    /// A manifest whose numbers contradict themselves, or whose frame states are not of a
    /// screen's types, is refused with 65 naming the manifest and the JSON path; a frame file it lists that is not in the directory with 66 naming the file.
    /// No page is written.
    func testViewRefusesAManifestThatContradictsItselfOrItsDirectory() throws {
        let source = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", source, "--quiet", "--frames", "0-4"] + small).status, 0)
        let original = try json(source + "/manifest.json")
        typealias Edit = (inout [String: Any]) -> Void
        func frames(_ change: @escaping (inout [[String: Any]]) -> Void) -> Edit {
            { m in var f = m["frames"] as! [[String: Any]]; change(&f); m["frames"] = f }
        }
        let cases: [(name: String, edit: Edit, status: Int32, reason: String)] = [
            ("fps0", { $0["fps"] = 0 }, 65, "fps: must be at least 1, got 0"),
            ("fpsNegative", { $0["fps"] = -30 }, 65, "fps: must be at least 1, got -30"),
            ("scale0", { $0["scale"] = 0 }, 65, "scale: must be above 0, got 0"),
            ("width", { $0["size"] = ["width": -3, "height": 852] }, 65, "size.width: must be at least 1 px, got -3"),
            ("height", { $0["size"] = ["width": 393, "height": 0] }, 65, "size.height: must be at least 1 px, got 0"),
            ("negativeIndex", frames { $0[0]["index"] = -1 }, 65, "frames[0].index: must be ≥ 0, got -1"),
            ("duplicate", frames { $0[2]["index"] = 1 }, 65, "frames[2].index: must be greater than frames[1].index (1), got 1 (listed twice)"),
            ("decreasing", frames { $0[3]["index"] = 0 }, 65, "frames[3].index: must be greater than frames[2].index (2), got 0"),
            ("noFrames", frames { $0 = [] }, 65, "frames: lists no frame"),
            ("frameCount", { $0["frameCount"] = 3 }, 65, "frameCount: 3, but frames lists 5 frames up to index 4"),
            ("traversal", frames { $0[2]["file"] = "../../../etc/passwd" }, 65,
             "frames[2].file: not the file name of frame 2, got \"../../../etc/passwd\""),
            ("otherFrame", frames { $0[2]["file"] = "frame_0001.png" }, 65, "frames[2].file: not the file name of frame 2, got \"frame_0001.png\""),
            // The viewer draws flights from their numbers: a string there is refused, not drawn.
            ("stringCenter", frames { f in
                var state = f[2]["state"] as! [String: Any]
                state["flights"] = [["id": 1, "progress": 0.5, "center": ["x": "1\"/><img src=x onerror=alert(1)>", "y": 3], "scale": 1]]
                f[2]["state"] = state
            }, 65, "frames[2].state.flights[0].center.x: expected a number, got a string"),
            ("stateNotAnObject", frames { $0[1]["state"] = "<script>" }, 65, "frames[1].state: expected an object, got a string"),
        ]
        for c in cases {
            let dir = Binary.tempDir(self)
            for name in try FileManager.default.contentsOfDirectory(atPath: source) {
                try FileManager.default.copyItem(atPath: source + "/" + name, toPath: dir + "/" + name)
            }
            var m = original
            c.edit(&m)
            try JSONSerialization.data(withJSONObject: m).write(to: URL(fileURLWithPath: dir + "/manifest.json"))
            let r = try Binary.run(["view", dir])
            XCTAssertEqual(r.status, c.status, c.name)
            XCTAssertEqual(r.stderr, "cartrender: \(dir)/manifest.json: \(c.reason)\n", c.name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/index.html"), c.name)
        }

        try FileManager.default.removeItem(atPath: source + "/frame_0003.png")
        try FileManager.default.removeItem(atPath: source + "/frame_0004.png")
        let missing = try Binary.run(["view", source])
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stderr, "cartrender: \(source)/frame_0003.png: no such file (\(source)/manifest.json lists it at frames[3])\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: source + "/index.html"))
    }
}
