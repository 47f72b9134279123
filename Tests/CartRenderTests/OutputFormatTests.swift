@testable import CartRender
import CartRenderCore
import CartRenderRaster
import XCTest

/// The registry of output formats: what the command line, the viewer and the manifest derive
/// from it, and the rules a format added to it must keep.
final class OutputFormatTests: XCTestCase {
    func testNamesFilesAndOrder() {
        XCTAssertEqual(OutputFormat.all.map(\.name), ["png", "svg", "gif", "webp", "apng", "mp4", "webm", "animated-svg"])
        XCTAssertEqual(OutputFormat.frameExtensions, ["png", "svg"])
        XCTAssertEqual(OutputFormat.all.compactMap(\.animationFileName),
                       ["animation.gif", "animation.webp", "animation.png", "animation.mp4", "animation.webm", "animation.svg"])
        XCTAssertEqual(OutputFormat.named("apng"), .apng)
        XCTAssertNil(OutputFormat.named("jpg"))
        // A new format must not reuse a name, a file name, or a viewer preference among formats of its kind.
        XCTAssertEqual(Set(OutputFormat.all.map(\.name)).count, OutputFormat.all.count)
        XCTAssertEqual(Set(OutputFormat.all.map(\.output)).count, OutputFormat.all.count)
        for perFrame in [true, false] {
            let preferences = OutputFormat.all.filter { $0.isPerFrame == perFrame }.compactMap(\.viewer?.preference)
            XCTAssertEqual(Set(preferences).count, preferences.count)
        }
    }

    /// The viewer's choices come from the formats' ``ViewerUse``.
    func testViewerChoices() {
        XCTAssertEqual(ViewerPage.frameExtensions, ["png", "svg"])
        XCTAssertEqual(ViewerPage.animationPreference, ["animation.webm", "animation.mp4", "animation.png", "animation.webp", "animation.gif", "animation.svg"])
        XCTAssertEqual(ViewerPage.videoPattern, #"/\.(webm|mp4)$/"#)
        XCTAssertTrue(ViewerPage.script.contains(#"if(/\.(webm|mp4)$/.test(animation)){"#))
    }

    /// One row per spelling, its help led by the formats that take it; formats sharing an
    /// option declare it once (the same placeholder and help).
    func testOptionRows() {
        let rows = OutputFormat.optionRows
        XCTAssertEqual(rows.map(\.name), ["--png-compression", "--loop", "--gif-quality", "--gif-speed", "--dither", "--quality", "--crf", "--lossless"])
        XCTAssertEqual(rows.first { $0.name == "--loop" }?.help, "GIF/WebP/APNG/animated SVG: play N times, 0 = forever (default 0).")
        XCTAssertEqual(rows.first { $0.name == "--dither" }?.help, "GIF: dithering level 0…1 (default 1).")
        for row in rows {
            let declared = OutputFormat.all.flatMap(\.options).map(\.row).filter { $0.name == row.name }
            XCTAssertEqual(Set(declared.map(\.help)).count, 1, row.name)
            XCTAssertEqual(Set(declared.map { $0.placeholder ?? "" }).count, 1, row.name)
        }
        var settings = FormatSettings()
        for row in rows where row.name == "--loop" { try? row.apply(&settings, "3") }
        XCTAssertEqual([settings.gif.loopCount, settings.webp.loopCount, settings.apng.loopCount, settings.animatedSVG.loopCount], [3, 3, 3, 3])
        XCTAssertEqual(settings.mp4, H264Options(), "formats never set read their defaults")
    }

    /// A sink per format, of the kind its output says.
    func testSinks() throws {
        let renderer = try Renderer(scene: try DefaultScene.scene(overrides: SceneOverrides(fps: 10, scale: 1), baseDirectory: "/"))
        let dir = NSTemporaryDirectory() + "/output-format-tests-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = try OutputDirectory(path: dir)
        let staging = try StagingArea(in: out, cancellation: nil)
        defer { staging.discard() }
        let context = FormatContext(renderer: renderer, settings: FormatSettings(), jobs: 1, staging: staging)
        for format in OutputFormat.all {
            let sink = try format.makeSink(context)
            if format.isPerFrame {
                XCTAssertTrue(sink is FrameFilesSink, format.name)
            } else if format == .animatedSVG {
                // Made from the display lists: nothing is drawn for it.
                XCTAssertEqual(sink.needs, [.inOrder], format.name)
            } else {
                // Video converts each frame's changed rows on the drawing worker (from the canvas);
                // the image animations take them as straight RGBA on their own thread.
                let expected: FrameNeeds = ["mp4", "webm"].contains(format.name) ? [.canvas, .changedRows, .inOrder] : [.pixels, .inOrder]
                XCTAssertEqual(sink.needs, expected, format.name)
            }
        }
    }
}
