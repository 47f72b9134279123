import CartRenderCore
import CartRenderRaster
import XCTest

/// The confined fonts: Jost for the cart page with its own line height, fonts a scene registers,
/// and emoji at the size of the text around them.
final class FontEnvironmentTests: XCTestCase {
    private func rasterizer(sceneFonts: [String] = []) throws -> FrameRasterizer {
        try FrameRasterizer(fonts: FontEnvironment.shared(sceneFonts: sceneFonts), images: ImageLibrary(sources: []))
    }

    /// Jost's line is 1.445 em (its ascender 1.07 and descender 0.375), Inter's 1.21 em: a 28 pt
    /// line is 40.46 pt in Jost and 33.88 pt in Inter Display.
    func testJostHasItsOwnLineHeight() throws {
        let r = try rasterizer()
        XCTAssertEqual(r.measure("Total", font: FontSpec(size: 28, weight: .heavy, family: .jost), maxWidth: nil).height, 28 * 1.445, accuracy: 0.05)
        XCTAssertEqual(r.measure("Total", font: FontSpec(size: 28, weight: .heavy), maxWidth: nil).height, 28 * 1.21, accuracy: 0.05)
        XCTAssertTrue(try FontEnvironment.shared().files.contains { $0.path.hasSuffix("/Jost[wght].ttf") && $0.package == "fontpkg-jost" },
                      "the manifest lists Jost")
    }

    /// The cart page is set in Jost: its title and texts name the family, and its boxes have
    /// Jost's line heights (the 28 pt title 41 pt, rounded up, not Inter's 34).
    func testTheCartPageIsSetInJost() throws {
        let scene = try SceneDecoder.decode(Array(#"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "A", "price": "1"}]}}"#.utf8),
                                            file: "s.json", baseDirectory: "/")
        guard let cart = scene.content as? CartContent else { return XCTFail("a cart scene") }
        let layout = CartLayout(scene: scene, cart: cart, measurer: try rasterizer())
        XCTAssertEqual(layout.titleFrame.height, 41)
        XCTAssertEqual(layout.totalLineHeight, 41)
        let runs = layout.displayList(for: layout.timeline().state(at: 0)).items.compactMap { item -> TextRun? in
            if case .text(let run) = item { return run } else { return nil }
        }
        XCTAssertFalse(runs.isEmpty)
        for run in runs { XCTAssertEqual(run.font.family, .jost, run.text) }
    }

    /// A font file a scene registers is drawn when its family is named, and listed as the
    /// scene's: "Noto Serif" (Debian `fonts-noto-core`) draws "Total" wider than Jost.
    func testASceneFontIsUsedAndListed() throws {
        let serif = "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf"
        let env = try FontEnvironment.shared(sceneFonts: [serif])
        XCTAssertEqual(env.files.last?.path, serif)
        XCTAssertEqual(env.files.last?.package, "scene")
        XCTAssertFalse(try FontEnvironment.shared().files.contains { $0.path == serif }, "other scenes do not see it")
        let r = try rasterizer(sceneFonts: [serif])
        let jost = r.measure("Total", font: FontSpec(size: 28, weight: .bold, family: .jost), maxWidth: nil)
        let noto = r.measure("Total", font: FontSpec(size: 28, weight: .bold, family: .named("Noto Serif")), maxWidth: nil)
        XCTAssertGreaterThan(noto.width, jost.width + 5)
        XCTAssertEqual(noto.height, 28 * 1.362, accuracy: 0.1, "Noto Serif's own line")
    }

    /// A scene's font file is loaded from the descriptor its folder opened, not by its path: a
    /// file swapped for a link to another font after the check (before fontconfig or cairo
    /// opened it by name, which they do lazily) changes nothing drawn; a link at the name is
    /// refused.
    func testASceneFontIsLoadedFromTheFileThatWasChecked() throws {
        let fm = FileManager.default
        let dir = NSTemporaryDirectory() + "font-swap-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? fm.removeItem(atPath: dir) }
        let serif = "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf", sans = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"
        try fm.copyItem(atPath: serif, toPath: dir + "/f.ttf")
        let folder = AssetFolder(directory: dir)
        let env = try FontEnvironment(sceneFonts: [dir + "/f.ttf"], folder: folder)
        XCTAssertEqual(env.files.last?.path, dir + "/f.ttf", "listed by its path")
        try fm.removeItem(atPath: dir + "/f.ttf")
        try fm.createSymbolicLink(atPath: dir + "/f.ttf", withDestinationPath: sans)
        let spec = FontSpec(size: 28, weight: .bold, family: .named("Noto Serif"))
        let swapped = try FrameRasterizer(fonts: env, images: ImageLibrary(sources: [])).measure("Total", font: spec, maxWidth: nil)
        let checked = try rasterizer(sceneFonts: [serif]).measure("Total", font: spec, maxWidth: nil)
        XCTAssertEqual(swapped.width, checked.width, accuracy: 0.01, "drawn with the file that was checked")
        XCTAssertThrowsError(try FontEnvironment(sceneFonts: [dir + "/f.ttf"], folder: folder)) { error in
            XCTAssertTrue("\(error)".contains("is reached through the symbolic link"), "\(error)")
        }
    }

    /// Emoji (Noto Color Emoji, a 109 px bitmap strike: 2.8 times a 17 pt text's size without
    /// scaling) are scaled to the size of the text around them, and a line with emoji is
    /// exactly as tall as one without, in Inter, Inter Display and Jost.
    func testEmojiTakeTheSizeAndLineOfTheirText() throws {
        let r = try rasterizer()
        for font in [FontSpec(size: 17), FontSpec(size: 22, weight: .bold), FontSpec(size: 18, weight: .semibold, family: .jost),
                     FontSpec(size: 28, weight: .heavy, family: .jost)] {
            let plain = r.measure("Joystick", font: font, maxWidth: nil)
            XCTAssertEqual(r.measure("🕹️ Joystick", font: font, maxWidth: nil).height, plain.height, "\(font)")
            // Noto Color Emoji's advance is 1.245 em (× 0.985); an emoji alone is on a line of its text's font.
            let emoji = r.measure("🎁", font: font, maxWidth: nil)
            XCTAssertEqual(emoji.width, 0.985 * 1.245 * font.size, accuracy: 0.01 * font.size, "\(font)")
            XCTAssertEqual(emoji.height, plain.height, "\(font)")
        }
    }

    /// A cart row named "🕹️ Joystick" has the name box, and so the row, of one named
    /// "Joystick".
    func testARowWithEmojiIsAsTallAsOneWithout() throws {
        let json = #"{"screen": "cart", "cart": {"items": [{"id": "a", "name": "🕹️ Joystick", "details": "Gift 🎁", "price": "1"}, {"id": "b", "name": "Joystick", "details": "Gift", "price": "1"}]}}"#
        let scene = try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")
        guard let cart = scene.content as? CartContent else { return XCTFail("a cart scene") }
        let layout = CartLayout(scene: scene, cart: cart, measurer: try rasterizer())
        XCTAssertEqual(layout.rows[0].nameFrame.height, layout.rows[1].nameFrame.height)
        XCTAssertEqual(layout.rows[0].detailsFrame.height, layout.rows[1].detailsFrame.height)
        XCTAssertEqual(layout.rows[0].height, layout.rows[1].height)
    }
}
