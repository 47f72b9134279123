import CartRender
import XCTest

/// The render command's parser, as a table of arguments → parsed values or exact error texts.
final class ArgumentsTests: XCTestCase {
    func testParsesValues() throws {
        let c = try RenderCommand.parse(["scene.json", "--out=o", "--format", "svg,png", "--fps", "30", "--scale", "2",
                                         "--frames", "3-9", "--color-scheme", "dark", "--reduce-motion", "--jobs", "2", "--quiet"])
        XCTAssertEqual(c.scene.scenePath, "scene.json")
        XCTAssertEqual(c.outputDirectory, "o")
        XCTAssertEqual(c.formats, [.svg, .png])
        XCTAssertEqual(c.scene.fps, 30)
        XCTAssertEqual(c.scene.scale, 2)
        XCTAssertEqual(c.frames, .range(3, 9))
        XCTAssertEqual(c.scene.colorScheme, .dark)
        XCTAssertTrue(c.scene.reduceMotion)
        XCTAssertEqual(c.jobs, 2)
        XCTAssertTrue(c.quiet)
        XCTAssertEqual(try RenderCommand.parse(["--at", "0.5"]).frames, .at(0.5))
        XCTAssertEqual(try RenderCommand.parse([]).outputDirectory, "frames")
    }

    /// `--loop` and `--png-compression` reach the APNG encoder as they reach GIF/WebP and PNG frames.
    func testAPNGTakesLoopAndPNGCompression() throws {
        let c = try RenderCommand.parse(["--format", "png,apng", "--loop", "3", "--png-compression", "fast"])
        XCTAssertEqual(c.formats, [.png, .apng])
        XCTAssertEqual(c.apng.loopCount, 3)
        XCTAssertEqual(c.apng.compression, .fast)
        XCTAssertEqual(c.pngCompression, .fast)
        XCTAssertEqual(try RenderCommand.parse(["--format", "apng"]).apng.loopCount, 0, "forever by default")
        XCTAssertEqual(OutputFormat.apng.animationFileName, "animation.png")
    }

    func testErrorTexts() {
        let table: [([String], String)] = [
            (["--scale", "0.5"], "--scale: expected a number from 1 to 4, got \"0.5\""),
            (["--scale", "nan"], "--scale: expected a number from 1 to 4, got \"nan\""),
            (["--frames", "9-3"], "--frames: expected A-B with 0 ≤ A ≤ B (frame indices), got \"9-3\""),
            (["--at", "-1"], "--at: expected a time in seconds ≥ 0, got \"-1\""),
            (["--at", "inf"], "--at: expected a time in seconds ≥ 0, got \"inf\""),
            (["--format", "jpg"], "--format: unknown format \"jpg\"; expected png, svg, gif, webp, apng"),
            (["--jobs", "0"], "--jobs: expected a whole number from 1 to 256, got \"0\""),
            (["--out"], "--out needs a value (DIR)"),
            (["--fps", "--scale", "2"], "--fps needs a value (N)"),
            (["--out", "--quiet"], "--out needs a value (DIR)"),
            (["--quiet=yes"], "--quiet does not take a value"),
            (["a.json", "b.json"], "expected at most one scene file, got 2: a.json b.json"),
            (["--shard", "1/2", "--frames", "0-9"], "--shard splits the whole timeline: it cannot be used with --frames or --at"),
            (["--out", "a", "--out", "b"], "--out is given more than once"),
            (["--loop", "2"], "--loop only applies to GIF, WebP and APNG: add gif, webp or apng to --format"),
            (["--format", "png,apng", "--shard", "1/2"], "--shard cannot make animation.png: render the shards as png, merge them, then render the animation in one run"),
            (["--format", "gif", "--quality", "80"], "--quality only applies to WebP: add webp to --format"),
            (["--dither", "0.5"], "--dither only applies to GIF: add gif to --format"),
            (["--color-scheme", "sepia"], "--color-scheme: expected light or dark, got \"sepia\""),
        ]
        for (args, message) in table {
            XCTAssertThrowsError(try RenderCommand.parse(args), "\(args)") { e in
                XCTAssertEqual((e as? UsageError)?.message, message, "\(args)")
            }
        }
    }
}
