import CartRender
import CartRenderCLI
import CartRenderRaster
import XCTest

/// The render command's parser, as a table of arguments → parsed values or exact error texts.
final class ArgumentsTests: XCTestCase {
    func testParsesValues() throws {
        let c = try RenderCommand.parse(["scene.json", "--out=o", "--format", "svg,png", "--fps", "30", "--scale", "2",
                                         "--frames", "3-9", "--color-scheme", "dark", "--reduce-motion", "--jobs", "2", "--quiet"])
        XCTAssertEqual(c.scene.scenePath, "scene.json")
        XCTAssertEqual(c.options.outputDirectory, "o")
        XCTAssertEqual(c.options.formats, [.svg, .png])
        XCTAssertEqual(c.scene.fps, 30)
        XCTAssertEqual(c.scene.scale, 2)
        XCTAssertEqual(c.options.frames, .range(3, 9))
        XCTAssertEqual(c.scene.colorScheme, .dark)
        XCTAssertTrue(c.scene.reduceMotion)
        XCTAssertEqual(c.options.jobs, 2)
        XCTAssertTrue(c.quiet)
        XCTAssertEqual(try RenderCommand.parse(["--at", "0.5"]).options.frames, .at(0.5))
        XCTAssertEqual(try RenderCommand.parse(["--at", "end"]).options.frames, .end)
        XCTAssertEqual(try RenderCommand.parse(["--at", "start"]).options.frames, .at(0))
        XCTAssertEqual(try VerifyCommand.parse(["--baseline", "b", "--at", "end", "--at=0.3"]).options.frames, [.end, .at(0.3)])
        XCTAssertEqual(try AuditCommand.parse(["--at", "end"]).frames, [.end])
        XCTAssertEqual(try RenderCommand.parse([]).options.outputDirectory, "frames")
    }

    /// `--loop` and `--png-compression` reach the APNG encoder as they reach GIF/WebP and PNG frames.
    func testAPNGTakesLoopAndPNGCompression() throws {
        let c = try RenderCommand.parse(["--format", "png,apng", "--loop", "3", "--png-compression", "fast"])
        XCTAssertEqual(c.options.formats, [.png, .apng])
        XCTAssertEqual(c.options.apng.loopCount, 3)
        XCTAssertEqual(c.options.apng.compression, .fast)
        XCTAssertEqual(c.options.pngCompression, .fast)
        XCTAssertEqual(try RenderCommand.parse(["--format", "apng"]).options.apng.loopCount, 0, "forever by default")
        XCTAssertEqual(OutputFormat.apng.animationFileName, "animation.png")
    }

    /// `--crf` reaches both video encoders; `--lossless` makes the WebM lossless; defaults are
    /// libx264's crf 18 and libvpx's crf 30, lossy.
    func testVideoOptionsReachTheirEncoders() throws {
        let c = try RenderCommand.parse(["--format", "png,mp4,webm", "--crf", "23"])
        XCTAssertEqual(c.options.formats, [.png, .mp4, .webm])
        XCTAssertEqual([c.options.mp4.crf, c.options.webm.crf], [23, 23])
        XCTAssertEqual(try RenderCommand.parse(["--format", "mp4,webm"]).options.mp4, H264Options(crf: 18))
        XCTAssertEqual(try RenderCommand.parse(["--format", "mp4,webm"]).options.webm, VP9Options(crf: 30, lossless: false))
        XCTAssertEqual(try RenderCommand.parse(["--format", "webm", "--lossless"]).options.webm.lossless, true)
        XCTAssertEqual(try RenderCommand.parse(["--format", "webm", "--crf", "63"]).options.webm.crf, 63, "VP9's scale goes to 63")
        let both = try RenderCommand.parse(["--format", "mp4,webm", "--crf", "20", "--lossless"])
        XCTAssertEqual([both.options.mp4.crf], [20], "--crf for the MP4 beside a lossless WebM")
        XCTAssertTrue(both.options.webm.lossless)
        XCTAssertEqual([OutputFormat.mp4.animationFileName, OutputFormat.webm.animationFileName], ["animation.mp4", "animation.webm"])
    }

    func testErrorTexts() {
        let table: [([String], String)] = [
            (["--scale", "0.5"], "--scale: expected a number from 1 to 4, got \"0.5\""),
            (["--scale", "nan"], "--scale: expected a number from 1 to 4, got \"nan\""),
            (["--frames", "9-3"], "--frames: expected A-B with 0 ≤ A ≤ B (frame indices), got \"9-3\""),
            (["--at", "-1"], "--at: expected a time in seconds ≥ 0, start or end, got \"-1\""),
            (["--at", "inf"], "--at: expected a time in seconds ≥ 0, start or end, got \"inf\""),
            (["--at", "End"], "--at: expected a time in seconds ≥ 0, start or end, got \"End\""),
            (["--format", "jpg"], "--format: unknown format \"jpg\"; expected png, svg, gif, webp, apng, mp4, webm, animated-svg"),
            (["--jobs", "0"], "--jobs: expected a whole number from 1 to 256, got \"0\""),
            (["--out"], "--out needs a value (PATH)"),
            (["--fps", "--scale", "2"], "--fps needs a value (N)"),
            (["--out", "--quiet"], "--out needs a value (PATH)"),
            (["--quiet=yes"], "--quiet does not take a value"),
            (["a.json", "b.json"], "expected at most one scene file, got 2: a.json b.json"),
            (["--shard", "1/2", "--frames", "0-9"], "--shard splits the whole timeline: it cannot be used with --frames or --at"),
            (["--out", "a", "--out", "b"], "--out is given more than once"),
            (["--loop", "2"], "--loop only applies to GIF, WebP, APNG and animated SVG: add gif, webp, apng or animated-svg to --format"),
            (["--format", "png,apng", "--shard", "1/2"], "--shard cannot make animation.png: render the shards as png, merge them, then render the animation in one run"),
            (["--format", "gif", "--quality", "80"], "--quality only applies to WebP: add webp to --format"),
            (["--dither", "0.5"], "--dither only applies to GIF: add gif to --format"),
            (["--color-scheme", "sepia"], "--color-scheme: expected light or dark, got \"sepia\""),
            (["--format", "mp4", "--crf", "high"], "--crf: expected a whole number from 0 to 51 (mp4) or 63 (webm), got \"high\""),
            (["--format", "webm", "--crf", "64"], "--crf: expected a whole number from 0 to 51 (mp4) or 63 (webm), got \"64\""),
            (["--format", "mp4,webm", "--crf", "52"], "--crf: expected a whole number from 0 to 51 for mp4 (H.264), got \"52\""),
            (["--format", "gif", "--crf", "18"], "--crf only applies to MP4 and WebM: add mp4 or webm to --format"),
            (["--format", "webm", "--lossless", "--crf", "18"], "--crf has no effect on a lossless WebM: drop --crf or --lossless"),
            (["--format", "mp4", "--lossless"], "--lossless only applies to WebM: add webm to --format"),
            (["--lossless=yes", "--format", "webm"], "--lossless does not take a value"),
            (["--format", "webm", "--shard", "1/2"], "--shard cannot make animation.webm: render the shards as png, merge them, then render the animation in one run"),
        ]
        for (args, message) in table {
            XCTAssertThrowsError(try RenderCommand.parse(args), "\(args)") { e in
                XCTAssertEqual((e as? UsageError)?.message, message, "\(args)")
            }
        }
    }

    /// A format listed twice is a mistake, not a wish; a long value is echoed cut at 40
    /// characters, so that the sentence stays one short line.
    func testRepeatedFormatsAndLongValues() {
        let digits = String(repeating: "12345", count: 20)
        let table: [([String], String)] = [
            (["--format", "png,png"], "--format: png is given more than once"),
            (["--format", "svg,png,gif,svg"], "--format: svg is given more than once"),
            (["--fps", digits], "--fps: expected a whole number from 1 to 240, got \"\(digits.prefix(40))…\""),
            (["--scale", "1" + String(repeating: "0", count: 60)], "--scale: expected a number from 1 to 4, got \"1\(String(repeating: "0", count: 39))…\""),
            (["--format", "png," + digits], "--format: unknown format \"\(digits.prefix(40))…\"; expected png, svg, gif, webp, apng, mp4, webm, animated-svg"),
            (["--jobs", String(digits.prefix(40))], "--jobs: expected a whole number from 1 to 256, got \"\(digits.prefix(40))\""),
        ]
        for (args, message) in table {
            XCTAssertThrowsError(try RenderCommand.parse(args), "\(args)") { e in
                XCTAssertEqual((e as? UsageError)?.message, message, "\(args)")
            }
        }
    }
}
