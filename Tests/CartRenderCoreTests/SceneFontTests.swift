import CartRenderCore
import Foundation
import XCTest

/// Fonts a scene registers (`"fonts"`) and the family each screen is set in (`"font"`).
final class SceneFontTests: XCTestCase {
    static let noto = "/usr/share/fonts/truetype/noto/"

    private func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The family a file declares, from its `name` table: TrueType, OpenType (CFF) and a
    /// collection's first font; nil for what is not a font.
    func testFamilyNames() throws {
        XCTAssertEqual(SceneFont.family(ofFontData: try read(Self.noto + "NotoSerif-Bold.ttf")), "Noto Serif")
        XCTAssertEqual(SceneFont.family(ofFontData: try read("/usr/share/fonts/opentype/inter/Inter-Regular.otf")), "Inter")
        XCTAssertEqual(SceneFont.family(ofFontData: try read("/usr/share/fonts/opentype/inter/InterDisplay-Bold.otf")), "Inter Display")
        XCTAssertEqual(SceneFont.family(ofFontData: try read("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")), "Noto Sans CJK JP")
        let serif = try read(Self.noto + "NotoSerif-Bold.ttf")
        for bad in [Array("not a font".utf8), [], Array(serif.prefix(40)), [0, 1, 0, 0] + [UInt8](repeating: 0xFF, count: 64)] {
            XCTAssertNil(SceneFont.family(ofFontData: bad), "\(bad.prefix(8))")
        }
    }

    private func decode(_ json: String, base: String = NSTemporaryDirectory()) throws -> Scene {
        try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: base)
    }

    private func error(_ json: String, base: String = NSTemporaryDirectory()) -> SceneError? {
        do { _ = try decode(json, base: base); return nil } catch let e as SceneError { return e } catch { return nil }
    }

    /// A registered file's family can be named by a screen; the defaults are Jost on the cart
    /// and the system font on the shop; the scene's identity holds its fonts only when it has
    /// some.
    func testFamiliesAScreenMayName() throws {
        let serif = Self.noto + "NotoSerif-Bold.ttf"
        let scene = try decode(#"{"fonts": ["\#(serif)"], "screen": "cart", "cart": {"font": "Noto Serif", "items": []}}"#)
        XCTAssertEqual(scene.fonts.map(\.family), ["Noto Serif"])
        XCTAssertEqual(scene.fonts.map(\.path), ["fonts[0]"])
        guard let cart = scene.content as? CartContent else { return XCTFail("a cart") }
        XCTAssertEqual(cart.font, .named("Noto Serif"))
        guard let plain = (try decode(#"{"screen": "cart", "cart": {"items": []}}"#)).content as? CartContent else { return XCTFail("a cart") }
        XCTAssertEqual(plain.font, .jost)
        guard let shop = (try decode("{}")).content as? ShopContent else { return XCTFail("a shop") }
        XCTAssertEqual(shop.font, .system)
        guard let jostShop = (try decode(#"{"shop": {"font": "Jost"}}"#)).content as? ShopContent else { return XCTFail("a shop") }
        XCTAssertEqual(jostShop.font, .jost)
        XCTAssertNil(try decode("{}").canonicalJSON.serialized().range(of: "font"), "no fonts, no font: the identity of older scenes")
        XCTAssertNotNil(scene.canonicalJSON.serialized().range(of: #""fonts":["\#(serif)"]"#))
    }

    /// Bad fonts name their member: missing files are unreadable (exit 66), files that are not
    /// fonts and unknown families invalid (65).
    func testBadFontsNameTheirMember() throws {
        let dir = NSTemporaryDirectory() + "cartrender-fonts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/fonts", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("text".utf8).write(to: URL(fileURLWithPath: dir + "/fonts/Text.ttf"))
        try FileManager.default.createDirectory(atPath: dir + "/fonts/Folder.otf", withIntermediateDirectories: true)
        let cases: [(String, SceneError.Kind, String, String)] = [
            (#"{"fonts": ["fonts/Brand-Bold.ttf"]}"#, .unreadable, "fonts[0]", "font file \(dir)/fonts/Brand-Bold.ttf does not exist"),
            (#"{"fonts": ["\#(Self.noto)NotoSerif-Bold.ttf", "fonts/Text.ttf"]}"#, .invalid, "fonts[1]",
             "font file \(dir)/fonts/Text.ttf is not a TrueType or OpenType font with a family name"),
            (#"{"fonts": ["fonts/Folder.otf"]}"#, .unreadable, "fonts[0]", "font file \(dir)/fonts/Folder.otf is a directory, not a font"),
            (#"{"fonts": ["fonts/Brand.woff"]}"#, .invalid, "fonts[0]", "must be a TrueType or OpenType font file (.ttf or .otf), got \"fonts/Brand.woff\""),
            (#"{"fonts": "fonts/Brand.ttf"}"#, .invalid, "fonts", "expected an array of font files, got a string"),
            (#"{"screen": "cart", "cart": {"font": "Helvetica", "items": []}}"#, .invalid, "cart.font",
             "unknown font family \"Helvetica\" (known: system, Jost; a scene adds families with \"fonts\")"),
            (#"{"shop": {"font": "jost"}}"#, .invalid, "shop.font",
             "unknown font family \"jost\"; did you mean \"Jost\"? (known: system, Jost; a scene adds families with \"fonts\")"),
        ]
        for (json, kind, path, message) in cases {
            let e = try XCTUnwrap(error(json, base: dir), json)
            XCTAssertEqual(e.kind, kind, json)
            XCTAssertEqual(e.path, path, json)
            XCTAssertEqual(e.message, message, json)
        }
    }
}
