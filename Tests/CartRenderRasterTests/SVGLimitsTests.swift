import CartRenderCore
@testable import CartRenderRaster
import Foundation
import XCTest

/// Fixed limits on SVG images (docs/bad-input.md, “Bad input”) and the folder image files are
/// read from (“Image and font files”). Files are made here: PNG headers are hand-written bytes.
final class SVGLimitsTests: XCTestCase {
    /// A PNG signature and `IHDR` chunk claiming `width` × `height` px (no pixel data).
    static func pngHeader(_ width: UInt32, _ height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height)
            + [8, 6, 0, 0, 0] + be(0)
    }

    func tempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "svg-limits-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    func refusal(_ svg: String, in dir: String = "/nonexistent") -> String? {
        do { try SVGLimits.check(Array(svg.utf8), path: dir + "/image.svg"); return nil } catch { return error.why }
    }

    func svg(_ body: String) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64">"# + body + "</svg>"
    }

    func testTurbulenceOctavesAreBoundedBeforeDrawing() throws {
        let bomb = #"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><filter id="f"><feTurbulence baseFrequency=".05" numOctaves="100000000"/></filter><rect width="64" height="64" filter="url(#f)"/></svg>"#
        XCTAssertLessThanOrEqual(bomb.utf8.count, 208)
        let start = Date()
        XCTAssertEqual(refusal(bomb), #"has <feTurbulence numOctaves="100000000"> (line 1); at most 10 octaves"#)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        // Through an entity, as librsvg would read it.
        let entity = "<!DOCTYPE svg [<!ENTITY n \"99\">]>" + svg(#"<filter id="f"><feTurbulence numOctaves="&n;"/></filter>"#)
        XCTAssertEqual(refusal(entity), #"has <feTurbulence numOctaves="99"> (line 1); at most 10 octaves"#)
        XCTAssertNil(refusal(svg(#"<filter id="f"><feTurbulence numOctaves="10"/></filter>"#)))
    }

    func testOtherFilterLimits() {
        XCTAssertEqual(refusal(svg(#"<filter id="f"><feConvolveMatrix order="100" kernelMatrix="1"/></filter>"#)),
                       #"has <feConvolveMatrix order="100"> (line 1); at most 9"#)
        XCTAssertEqual(refusal(svg(#"<filter id="f" width="100000%"><feFlood/></filter>"#)),
                       #"has a filter region width="100000%" (line 1); at most 1000% of the element"#)
        XCTAssertNil(refusal(svg(#"<filter id="f" x="-10%" width="120%" filterUnits="userSpaceOnUse"><feFlood/></filter>"#)))
        let many = String(repeating: "<feFlood/>", count: SVGLimits.maxFilterPrimitives + 1)
        XCTAssertEqual(refusal(svg(#"<filter id="f">"# + many + "</filter>")), "has more than 200 filter primitives")
        XCTAssertEqual(refusal(svg(#"<filter id="f"><feMorphology radius="0.5"/></filter>"#)),
                       "has <feMorphology> (line 1), which cartrender does not draw in scene images: its cost grows with the square of its radius")
        XCTAssertEqual(refusal(svg(#"<filter id="f"><feDiffuseLighting kernelUnitLength="0.0001"><feDistantLight/></feDiffuseLighting></filter>"#)),
                       #"has kernelUnitLength="0.0001" on <feDiffuseLighting> (line 1), which cartrender does not draw in scene images: its cost grows with the square of 1 / kernelUnitLength"#)
        let deep = String(repeating: "<g>", count: 150) + String(repeating: "</g>", count: 150)
        XCTAssertEqual(refusal(svg(deep)), "nests elements more than 100 deep (line 1)")
    }

    func testEmbeddedImagesShareThePixelBudget() {
        func data(_ w: UInt32, _ h: UInt32) -> String { "data:image/png;base64," + Data(Self.pngHeader(w, h)).base64EncodedString() }
        XCTAssertEqual(refusal(svg(#"<image href="\#(data(20000, 20000))" width="64" height="64"/>"#)),
                       "draws an image embedded as a data: URI, which is 20000×20000 px; at most 8192 px a side")
        XCTAssertNil(refusal(svg(#"<image href="\#(data(8000, 8000))"/>"#)))
        XCTAssertEqual(refusal(svg(#"<image href="\#(data(8000, 8000))"/><image xlink:href="\#(data(8000, 8000))"/>"#)),
                       "draws images of more than 67 million px together (an image embedded as a data: URI is 8000×8000 px)")
        // Only PNG, JPEG and SVG reach gdk-pixbuf.
        XCTAssertEqual(refusal(svg(#"<image href="data:image/gif;base64,R0lGODlhAQABAAAAACw="/>"#)),
                       "draws an image embedded as a data: URI, which is not a PNG, JPEG or SVG image")
        // An SVG embedded in an SVG is checked in turn.
        let inner = Data(svg(#"<filter id="f"><feTurbulence numOctaves="50"/></filter>"#).utf8).base64EncodedString()
        XCTAssertEqual(refusal(svg(#"<image href="data:image/svg+xml;base64,\#(inner)"/>"#)),
                       #"embeds a document as a data: URI, which has <feTurbulence numOctaves="50"> (line 1); at most 10 octaves"#)
    }

    /// All the images of one scene share a budget too: three SVGs of 48 million px each pass one
    /// by one, not together.
    func testTheScenesImagesShareOneBudget() throws {
        let dir = try tempDir()
        let png = "data:image/png;base64," + Data(Self.pngHeader(8000, 6000)).base64EncodedString()
        let files = (0..<3).map { dir + "/i\($0).svg" }
        for f in files { try svg(#"<image href="\#(png)" width="64" height="64"/>"#).write(toFile: f, atomically: false, encoding: .utf8) }
        XCTAssertNoThrow(try ImageLibrary(sources: files.prefix(2).map { .file($0) }))
        XCTAssertThrowsError(try ImageLibrary(sources: files.map { .file($0) })) {
            XCTAssertEqual(($0 as? ImageError)?.message,
                           "image file \(files[2]) brings the scene's images to more than 134 million px together; at most 134 million (512 MiB decoded)")
            XCTAssertEqual(($0 as? ImageError)?.source, .file(files[2]))
        }
    }

    func testReferencedFilesAreMeasuredAndLinksRefused() throws {
        let dir = try tempDir()
        try Data(Self.pngHeader(50000, 50000)).write(to: URL(fileURLWithPath: dir + "/big.png"))
        XCTAssertEqual(refusal(svg(#"<image xlink:href="big.png"/>"#), in: dir),
                       "draws the file \(dir)/big.png, which is 50000×50000 px; at most 8192 px a side")
        // A <use> of another SVG file: walked like the SVG itself.
        try svg(#"<filter id="f"><feTurbulence numOctaves="11"/></filter>"#).write(toFile: dir + "/icons.svg", atomically: false, encoding: .utf8)
        XCTAssertEqual(refusal(svg(#"<use href="icons.svg#a"/>"#), in: dir),
                       #"references \#(dir)/icons.svg, which has <feTurbulence numOctaves="11"> (line 1); at most 10 octaves"#)
        // Outside the SVG's folder, or missing: librsvg loads nothing, nothing to check.
        XCTAssertNil(refusal(svg(#"<image href="../big.png"/><image href="missing.png"/>"#), in: dir))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.png", withDestinationPath: dir + "/big.png")
        XCTAssertEqual(refusal(svg(#"<image href="link.png"/>"#), in: dir), "references \(dir)/link.png through a symbolic link")
    }

    func testAssetFolderFollowsNoLinkOutOfTheFolder() throws {
        let top = try tempDir()
        let scenes = top + "/scenes", outside = top + "/outside"
        for d in [scenes + "/img", outside] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        for f in [scenes + "/img/a.png", outside + "/b.png", top + "/c.png"] { try Data([1, 2, 3]).write(to: URL(fileURLWithPath: f)) }
        try FileManager.default.createSymbolicLink(atPath: scenes + "/linked", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: scenes + "/img/b.png", withDestinationPath: outside + "/b.png")
        let folder = AssetFolder(directory: scenes)
        XCTAssertEqual(try folder.read(scenes + "/img/a.png", limit: 10), [1, 2, 3])
        XCTAssertEqual(try folder.read(scenes + "/img/../img/a.png", limit: 10), [1, 2, 3])
        XCTAssertThrowsError(try folder.read(top + "/c.png", limit: 10)) { XCTAssertEqual($0 as? AssetFolder.Problem, .outside) }
        XCTAssertThrowsError(try folder.read(scenes + "/../c.png", limit: 10)) { XCTAssertEqual($0 as? AssetFolder.Problem, .outside) }
        XCTAssertThrowsError(try folder.read(scenes + "/linked/b.png", limit: 10)) {
            XCTAssertEqual($0 as? AssetFolder.Problem, .link(scenes + "/linked"))
        }
        XCTAssertThrowsError(try folder.read(scenes + "/img/b.png", limit: 10)) {
            XCTAssertEqual($0 as? AssetFolder.Problem, .link(scenes + "/img/b.png"))
        }
        // The user's opt-in reads the paths as written.
        let anywhere = AssetFolder(directory: scenes, allowsOutside: true)
        XCTAssertEqual(try anywhere.read(scenes + "/linked/b.png", limit: 10), [1, 2, 3])
        XCTAssertEqual(try anywhere.read(top + "/c.png", limit: 10), [1, 2, 3])
        // The folder itself may be a link: the user chose it.
        try FileManager.default.createSymbolicLink(atPath: top + "/via", withDestinationPath: scenes)
        XCTAssertEqual(try AssetFolder(directory: top + "/via").read(top + "/via/img/a.png", limit: 10), [1, 2, 3])
    }
}
