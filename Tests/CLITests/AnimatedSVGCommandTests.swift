import CartRender
import CartRenderRaster
import Foundation
import XCTest

/// End-to-end: `-o NAME.svg`, the animated SVG, through the built binary. How it looks paused at
/// frame times is tested in a browser (Tests/Browser/test_animated_svg.py).
final class AnimatedSVGCommandTests: XCTestCase {
    private func svg(_ args: [String], name: String = "fly.svg") throws -> (text: String, bytes: [UInt8], stderr: String) {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(args + ["-o", dir + "/" + name])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [name], "only the named file")
        let bytes = Array(FileManager.default.contents(atPath: dir + "/" + name) ?? Data())
        return (String(decoding: bytes, as: UTF8.self), bytes, r.stderr)
    }

    func testItHoldsNoScriptForeignObjectEventAttributeOrExternalReference() throws {
        for scene in [[], ["Examples/cart-swipe.json"]] {
            let text = try svg(scene + ["--scale", "1", "--fps", "20"]).text
            XCTAssertTrue(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""), String(text.prefix(200)))
            XCTAssertFalse(text.lowercased().contains("<script"), "a script")
            XCTAssertFalse(text.lowercased().contains("foreignobject"), "a foreignObject")
            XCTAssertNil(text.range(of: #"\son[a-z]+\s*="#, options: [.regularExpression, .caseInsensitive]), "an event attribute")
            // Every reference is to an id of the document or a data: URL.
            let refs = try NSRegularExpression(pattern: #"(?:href="|url\()([^")]*)"#)
            let ns = text as NSString
            for m in refs.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let target = ns.substring(with: m.range(at: 1))
                XCTAssertTrue(target.hasPrefix("#") || target.hasPrefix("data:"), "a reference outside the document: \(target)")
                if target.hasPrefix("#") { XCTAssertTrue(text.contains("id=\"\(target.dropFirst())\""), "a reference to no id: \(target)") }
            }
            XCTAssertFalse(text.contains("@import"), "a style sheet import")
            XCTAssertEqual(text.components(separatedBy: "<title>").count, 2, "one title")
            XCTAssertTrue(text.contains("@media (prefers-reduced-motion:reduce)"))
        }
    }

    func testTitleGlyphsAndIntrinsicSize() throws {
        let (text, _, stderr) = try svg(["--scale", "2", "--fps", "20", "--loop", "3"])
        XCTAssertTrue(stderr.contains("wrote "), stderr)
        XCTAssertTrue(text.contains("<title>Animation, 3.3 s: Cart, Trail backpack, Add to Cart</title>"), String(text.prefix(400)))
        XCTAssertTrue(text.contains("width=\"786\" height=\"1704\" viewBox=\"0 0 393 852\""), "the intrinsic size is the scale's")
        XCTAssertTrue(text.contains("animation-iteration-count:3;"), "--loop 3")
        XCTAssertFalse(text.contains("<text"), "text is glyph outlines")
        // Each glyph outline is defined once.
        let paths = try NSRegularExpression(pattern: #"<path id="g[0-9]+" d="([^"]*)""#)
        let ns = text as NSString
        let outlines = paths.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
        XCTAssertGreaterThan(outlines.count, 20)
        XCTAssertEqual(Set(outlines).count, outlines.count, "a glyph outline defined twice")
        // The product image is embedded once.
        XCTAssertLessThanOrEqual(text.components(separatedBy: "data:image/png").count - 1, 1)
    }

    /// Colour glyphs (the cart page's 🛒, 🕹️ and 🎁) are images, each embedded once and placed by
    /// `<use>` (not their bitmaps traced as pixel squares, nor left out).
    func testEachEmojiIsOneImageEmbeddedOnce() throws {
        let text = try svg(["Examples/cart-emoji.json", "--scale", "1", "--fps", "20"]).text
        let ns = text as NSString
        let images = try NSRegularExpression(pattern: #"<image id="(e[0-9]+)" [^>]*href="(data:image/png;base64,[^"]+)""#)
            .matches(in: text, range: NSRange(location: 0, length: ns.length))
            .map { (id: ns.substring(with: $0.range(at: 1)), url: ns.substring(with: $0.range(at: 2))) }
        XCTAssertEqual(images.count, 3, "one image for each of the three emoji")
        XCTAssertEqual(Set(images.map(\.url)).count, images.count, "an emoji embedded twice")
        for image in images {
            XCTAssertEqual(text.components(separatedBy: "href=\"#\(image.id)\"").count - 1, 1, "\(image.id) is not used once")
        }
        XCTAssertEqual(text.components(separatedBy: "data:image/png").count - 1, images.count, "an image outside the emoji's")
        XCTAssertLessThan(text.utf8.count, 100_000, "the emoji traced as pixel squares")
    }

    /// Each distinct clip path is one `<clipPath>`: the cart page's product images, which Cairo
    /// clips to the same rounded rectangle at each drawing operation, share one (the same
    /// 0.9 kB path was defined 32 times, a quarter of the document), and every clip reference
    /// names a clip of the document.
    func testEachDistinctClipPathIsDefinedOnce() throws {
        let text = try svg(["Examples/cart-swipe.json", "--scale", "1", "--fps", "20"]).text
        let ns = text as NSString
        let clips = try NSRegularExpression(pattern: #"<clipPath id="([^"]+)"([^>]*)>(.*?)</clipPath>"#, options: .dotMatchesLineSeparators)
            .matches(in: text, range: NSRange(location: 0, length: ns.length))
            .map { (id: ns.substring(with: $0.range(at: 1)), content: ns.substring(with: $0.range(at: 2)) + ns.substring(with: $0.range(at: 3)).trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertGreaterThan(clips.count, 5)
        var seen: [String: String] = [:]
        for clip in clips {
            if let earlier = seen[clip.content] { XCTFail("\(clip.id) has the content of \(earlier): \(clip.content.prefix(120))") }
            seen[clip.content] = clip.id
        }
        let ids = Set(clips.map(\.id))
        let refs = try NSRegularExpression(pattern: #"clip-path="url\(#([^)]+)\)""#).matches(in: text, range: NSRange(location: 0, length: ns.length))
        XCTAssertGreaterThan(refs.count, clips.count, "the images' clips are not shared")
        for ref in refs { XCTAssertTrue(ids.contains(ns.substring(with: ref.range(at: 1))), "a reference to no clip: \(ns.substring(with: ref.range))") }
        XCTAssertLessThan(text.utf8.count, 95_000, "the cart page's SVG is 117 kB with each image's clips its own")
    }

    /// The badge widening from 998 to 1,000 and more (Examples/thousands.json): its capsule and
    /// the capsule's clip are elements whose width is animated by CSS keyframes, not a new
    /// element for each width.
    func testAResizedShapeAndItsClipAnimateTheirGeometry() throws {
        let text = try svg(["Examples/thousands.json", "--scale", "1", "--fps", "20"]).text
        let ns = text as NSString
        let badges = try NSRegularExpression(pattern: ##"<rect width="[0-9.]+" height="18" rx="9"[^>]*fill="#FF3B30"/>"##)
            .numberOfMatches(in: text, range: NSRange(location: 0, length: ns.length))
        // Two (the first, at 998, is matched apart from the bumping badge): 85 when each width
        // was an element of its own.
        XCTAssertLessThanOrEqual(badges, 2, "a capsule for every width of the badge")
        let clips = try NSRegularExpression(pattern: #"<clipPath id="c[0-9]+"><rect width="[0-9.]+" height="18" rx="9""#)
            .numberOfMatches(in: text, range: NSRange(location: 0, length: ns.length))
        XCTAssertLessThanOrEqual(clips, 2, "a capsule clip for every width")
        XCTAssertNotNil(text.range(of: #"@keyframes k[0-9]+\{[^}]*\{width:[0-9.]+px"#, options: .regularExpression), "no width keyframes")
    }

    /// For the demo at 1x, clearly smaller than the GIF (docs/documentation-outputs.md, “Which format”).
    func testSmallerThanTheGIF() throws {
        let svg = try self.svg(["--scale", "1"]).bytes.count
        let gif = try self.svg(["--scale", "1"], name: "fly.gif").bytes.count
        XCTAssertLessThan(svg * 3, gif * 2, "animated SVG \(svg) bytes, GIF \(gif) bytes")
    }

    func testAtWritesOneStaticFrame() throws {
        let text = try svg(["--scale", "1", "--at", "1.2"]).text
        XCTAssertFalse(text.contains("@keyframes"), "one frame has nothing to animate")
        XCTAssertFalse(text.contains("<style"))
    }

    func testTheSameBytesOnEveryRunAndAtEveryJobs() throws {
        let a = try svg(["--scale", "1", "--fps", "30", "--jobs", "1"]).bytes
        let b = try svg(["--scale", "1", "--fps", "30", "--jobs", "4"]).bytes
        let c = try svg(["--scale", "1", "--fps", "30", "--jobs", "4"]).bytes
        XCTAssertEqual(Checksum.sha256(a), Checksum.sha256(b))
        XCTAssertEqual(Checksum.sha256(b), Checksum.sha256(c))
    }

    func testFormatNamesAndPerFrameSVGStay() throws {
        // `--format svg` with a name ending in .svg is the animated SVG; into a directory, frames.
        let named = try svg(["--scale", "1", "--fps", "10", "--format", "svg"]).text
        XCTAssertTrue(named.contains("@keyframes"))
        let explicit = try svg(["--scale", "1", "--fps", "10", "--format", "animated-svg"]).text
        XCTAssertEqual(named, explicit)
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["--scale", "1", "--fps", "10", "--frames", "0-1", "--format", "svg", "--out", dir + "/"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/frame_0000.svg"))
        let both = try Binary.run(["--scale", "1", "--fps", "10", "--format", "animated-svg,gif", "--out", dir + "/"])
        XCTAssertEqual(both.status, 0, both.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/animation.svg"))
    }

    func testLightAndDarkWithThePictureElement() throws {
        let dir = Binary.tempDir(self)
        let r = try Binary.run(["--scale", "1", "--fps", "10", "--color-scheme", "light,dark", "-o", dir + "/fly.svg"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["fly-dark.svg", "fly-light.svg"])
        XCTAssertTrue(r.stdout.contains("<source media=\"(prefers-color-scheme: dark)\" srcset=\"\(dir)/fly-dark.svg\">"), r.stdout)
    }
}
