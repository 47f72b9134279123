import CartRenderRaster
import CartRenderTestSupport
import XCTest

final class GIFEncoderTests: XCTestCase {
    // MARK: Timing, capping and merging on the UI animation (60 frames at 60 fps)

    /// 60 fps is sampled at 50 fps: tick k (at 2k cs) shows source frame ⌊1.2 k⌋, so 50 of the
    /// 60 frames are kept and 10 dropped. The disc flies during frames 0…39 (ticks 0…33, 34
    /// images of 2 cs); tick 34 shows the landed frame 40, and ticks 35…49 show frames identical
    /// to it, which merge into one image of 100 − 68 = 32 cs.
    func testUIAnimationIsCappedAt50FpsMergedAndExactlyOneSecondLong() throws {
        let (bytes, summary) = try UIAnimationFixture.defaultGIF.get()
        XCTAssertEqual(summary, GIFSummary(sourceFrameCount: 60, writtenFrameCount: 35, droppedFrameCount: 10,
                                           mergedFrameCount: 15, durationCentiseconds: 100, byteCount: bytes.count,
                                           frameRateNotice: "GIF plays at most 50 fps: 10 of 60 frames at 60 fps were dropped evenly.",
                                           localPaletteCount: summary.localPaletteCount))
        let gif = try GIFDecoder.decode(bytes)
        XCTAssertEqual(gif.width, 197)
        XCTAssertEqual(gif.height, 426)
        XCTAssertEqual(gif.loopCount, 0, "loops forever by default")
        XCTAssertEqual(gif.frames.map(\.delayCentiseconds), Array(repeating: 2, count: 34) + [32])
        XCTAssertEqual(gif.durationCentiseconds, 100)
        XCTAssertEqual(gif.frames.map(\.startCentiseconds), (0..<35).map { 2 * $0 })
    }

    /// Quality floor 0.99 for the default (global palette with fallback, full dithering) and for
    /// per-frame palettes. Measured with per-frame palettes: 0.9972 minimum at this size, 0.9962
    /// at 3x (1179 × 2556 px); dithering noise is what keeps it below 1. The margin absorbs
    /// libimagequant version drift; a broken palette, offset or disposal costs far more. Frames
    /// shown at the wrong time are caught by the neighbour check.
    func testEveryFrameStandsForItsSourceFrameWithGlobalAndPerFramePalettes() throws {
      for (bytes, name) in [(try UIAnimationFixture.defaultGIF.get().bytes, "global"),
                            (try UIAnimationFixture.perFramePaletteGIF.get().bytes, "per-frame")] {
        let gif = try GIFDecoder.decode(bytes)
        for frame in TestSweep.sample(gif.frames) {
            let source = frame.startCentiseconds / 2 * 6 / 5   // tick k = start / 2 shows frame ⌊1.2 k⌋
            assertStandsFor(frame.image, sources: UIAnimationFixture.frames, index: source, floor: 0.99,
                            "\(name) GIF frame at \(frame.startCentiseconds) cs")
            XCTAssertTrue(stride(from: 3, to: frame.image.pixels.count, by: 4).allSatisfy { frame.image.pixels[$0] == 255 },
                          "\(name): opaque source stays opaque at \(frame.startCentiseconds) cs")
        }
      }
    }

    /// The default writes one global color table: the first (full-size) image has its own, and
    /// so do the images the global palette represents badly (mean squared error above 4 per
    /// channel). This synthetic fixture has soft gradients on the flying disc, so some images fall
    /// back (measured 12 of 34); the default scene has none (AnimationOutputTests). Most images
    /// use the global table. Per-frame palettes give every image its own.
    func testGlobalPaletteLeavesMostLaterImagesWithoutLocalColorTables() throws {
        let (bytes, summary) = try UIAnimationFixture.defaultGIF.get()
        let gif = try GIFDecoder.decode(bytes)
        XCTAssertTrue(gif.frames[0].hasLocalColorTable)
        XCTAssertEqual(gif.frames.filter(\.hasLocalColorTable).count, summary.localPaletteCount)
        XCTAssertLessThanOrEqual(summary.localPaletteCount, gif.frames.count / 2, "most images use the global table")
        let perFrame = try UIAnimationFixture.perFramePaletteGIF.get()
        XCTAssertTrue(try GIFDecoder.decode(perFrame.bytes).frames.allSatisfy(\.hasLocalColorTable))
        XCTAssertEqual(perFrame.summary.localPaletteCount, perFrame.summary.writtenFrameCount)
        XCTAssertLessThan(bytes.count, perFrame.bytes.count, "global: \(bytes.count) B, per-frame: \(perFrame.bytes.count) B")
    }

    /// Gray frames, then a frame whose square is a red gradient (64 reds). With the default
    /// buffer the reds are in the histogram and the gradient image uses the global palette. With
    /// a buffer of 0 bytes the palette is made from the first frame alone (the memory-budget
    /// path): it has no reds, so the gradient image falls back to its own palette and still comes
    /// out (nearly) exact. Either way every frame is shown in order with its exact timing.
    func testFallbackToALocalPaletteForColorsTheGlobalPaletteLacksAndTheMemoryBudget() throws {
        let size = 32
        func gray(_ shift: Int) -> RGBAImage {
            var image = solidImage(width: size, height: size, 128, 128, 128)
            for y in 0..<size { for x in 0..<size where (x + y + shift) % 7 == 0 {
                image = setting(image, x: x, y: y, to: [20, 20, 20, 255])
            } }
            return image
        }
        var red = gray(2)
        for y in 8..<24 { for x in 0..<size {
            red = setting(red, x: x, y: y, to: [UInt8(100 + x * 4 + (y - 8) / 4), 20, 30, 255])
        } }
        let frames = [gray(0), gray(1), gray(2), red]
        for (limit, expectLocal) in [(256 << 20, false), (0, true)] {
            let options = GIFOptions(globalPaletteBufferLimit: limit)
            let (bytes, summary) = try UIAnimationFixture.encodeGIF(options, frames: frames, fps: 10)
            let gif = try GIFDecoder.decode(bytes)
            XCTAssertEqual(gif.frames.map(\.delayCentiseconds), [10, 10, 10, 10], "limit \(limit)")
            XCTAssertEqual(gif.frames.map(\.hasLocalColorTable), [true, false, false, expectLocal], "limit \(limit)")
            XCTAssertEqual(summary.localPaletteCount, expectLocal ? 2 : 1, "limit \(limit)")
            for (index, frame) in gif.frames.enumerated() {
                var worst = 0
                for p in 0..<(size * size * 4) where p % 4 != 3 {
                    worst = max(worst, abs(Int(frame.image.pixels[p]) - Int(frames[index].pixels[p])))
                }
                XCTAssertLessThanOrEqual(worst, 8, "limit \(limit), frame \(index): largest channel error \(worst)")
            }
            XCTAssertEqual(bytes, try UIAnimationFixture.encodeGIF(options, frames: frames, fps: 10).bytes, "deterministic, limit \(limit)")
        }
    }

    /// Quality floor 0.98 for the shared palette: it is quantized from frame 0 alone, so the red
    /// badge that appears on landing is approximated (measured minimum 0.990 at this size,
    /// 0.985 at 3x).
    func testEveryFrameStandsForItsSourceFrameWithASharedPalette() throws {
        let (bytes, summary) = try UIAnimationFixture.sharedPaletteGIF.get()
        XCTAssertEqual(summary.writtenFrameCount, 35)
        let gif = try GIFDecoder.decode(bytes)
        XCTAssertEqual(gif.frames.map(\.delayCentiseconds), Array(repeating: 2, count: 34) + [32])
        for frame in TestSweep.sample(gif.frames) {
            assertStandsFor(frame.image, sources: UIAnimationFixture.frames, index: frame.startCentiseconds / 2 * 6 / 5,
                            floor: 0.98, "shared-palette GIF frame at \(frame.startCentiseconds) cs")
        }
    }

    /// After the first (full-size) image, each image covers exactly the bounding box of the
    /// pixels that differ from the frame shown before it.
    func testEachImageStoresOnlyTheChangedRectangle() throws {
        let gif = try GIFDecoder.decode(UIAnimationFixture.defaultGIF.get().bytes)
        let sources = gif.frames.map { UIAnimationFixture.frames[$0.startCentiseconds / 2 * 6 / 5] }
        XCTAssertEqual(gif.frames[0].storedRect, GIFAnimation.Rect(x: 0, y: 0, width: 197, height: 426))
        for j in 1..<gif.frames.count {
            let before = sources[j - 1], after = sources[j]
            var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
            for y in 0..<after.height {
                for x in 0..<after.width where after[x, y] != before[x, y] {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
            XCTAssertEqual(gif.frames[j].storedRect, GIFAnimation.Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1),
                           "image \(j)")
        }
    }

    /// Unchanged pixels inside a changed rectangle are transparent, so they keep exactly the
    /// color shown before: no dither shimmer on a still background. (Drawing them again with
    /// the new frame's palette and dithering would move them.)
    func testUnchangedPixelsKeepExactlyTheColorShownBefore() throws {
        for (bytes, name) in [(try UIAnimationFixture.defaultGIF.get().bytes, "global"),
                              (try UIAnimationFixture.perFramePaletteGIF.get().bytes, "per-frame"),
                              (try UIAnimationFixture.sharedPaletteGIF.get().bytes, "shared")] {
            let gif = try GIFDecoder.decode(bytes)
            let sources = gif.frames.map { UIAnimationFixture.frames[$0.startCentiseconds / 2 * 6 / 5] }
            for j in 1..<gif.frames.count {
                let (before, after) = (gif.frames[j - 1].image, gif.frames[j].image)
                var moved = 0
                for y in 0..<after.height {
                    for x in 0..<after.width where sources[j][x, y] == sources[j - 1][x, y] && after[x, y] != before[x, y] {
                        moved += 1
                    }
                }
                XCTAssertEqual(moved, 0, "\(name) palette, image \(j): unchanged source pixels changed on screen")
            }
        }
    }

    func testChangedRectanglesMakeTheFileSmallerThanFullFrames() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(20))
        let changed = try UIAnimationFixture.encodeGIF(frames: frames)
        let full = try UIAnimationFixture.encodeGIF(GIFOptions(storesChangedRectanglesOnly: false), frames: frames)
        XCTAssertEqual(changed.summary.writtenFrameCount, full.summary.writtenFrameCount)
        XCTAssertLessThan(changed.bytes.count, full.bytes.count,
                          "changed rectangles: \(changed.bytes.count) B, full frames: \(full.bytes.count) B")
        let fullGIF = try GIFDecoder.decode(full.bytes)
        XCTAssertTrue(fullGIF.frames.allSatisfy { $0.storedRect == GIFAnimation.Rect(x: 0, y: 0, width: 197, height: 426) })
    }

    func testEncodingTwiceGivesIdenticalBytes() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(12))
        for palette in GIFPaletteStrategy.allCases {
            let first = try UIAnimationFixture.encodeGIF(GIFOptions(palette: palette), frames: frames)
            let second = try UIAnimationFixture.encodeGIF(GIFOptions(palette: palette), frames: frames)
            XCTAssertEqual(first.bytes, second.bytes, "\(palette)")
        }
    }

    /// The held images are remapped on `jobs` threads, each with a palette result of its own:
    /// the file is the same for 1, 2 and 4 threads, with every strategy and when the memory
    /// budget makes the palette early (the images after it are remapped one by one).
    func testJobsDoNotChangeBytes() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(24))
        let cases = GIFPaletteStrategy.allCases.map { GIFOptions(palette: $0) } + [GIFOptions(globalPaletteBufferLimit: 1 << 20)]
        for options in cases {
            let one = try UIAnimationFixture.encodeGIF(options, frames: frames, jobs: 1)
            for jobs in [2, 4] {
                let many = try UIAnimationFixture.encodeGIF(options, frames: frames, jobs: jobs)
                XCTAssertEqual(many.bytes, one.bytes, "\(options.palette), limit \(options.globalPaletteBufferLimit), jobs \(jobs)")
                XCTAssertEqual(many.summary, one.summary, "\(options.palette), jobs \(jobs)")
            }
        }
    }

    /// Frames handed with the rows that changed since the frame before (exactly those, or
    /// more) give the file of frames compared in full, with frames dropped by the 50 fps cap
    /// and merged holds in between.
    func testChangedRowsGiveTheBytesOfComparingEveryRow() throws {
        let frames = Array(UIAnimationFixture.frames.prefix(40))
        let rows = UIAnimationFixture.changedRows(frames)
        for options in [GIFOptions(), GIFOptions(palette: .perFrame)] {
            let reference = try UIAnimationFixture.encodeGIF(options, frames: frames)
            for changed in [rows.exact, rows.grown] {
                let handed = try UIAnimationFixture.encodeGIF(options, frames: frames, changedRows: changed)
                XCTAssertEqual(handed.bytes, reference.bytes, "\(options.palette)")
                XCTAssertEqual(handed.summary, reference.summary, "\(options.palette)")
            }
        }
    }

    // MARK: Timing with small synthetic frames

    /// Frames A B B C at 30 fps: boundaries 0, 3, 7, 10 and end 13 cs; B's second copy merges.
    func testIdenticalFrameMergesIntoALongerDelay() throws {
        let a = solidImage(width: 8, height: 8, 255, 0, 0), b = solidImage(width: 8, height: 8, 0, 255, 0)
        let c = solidImage(width: 8, height: 8, 0, 0, 255)
        let (bytes, summary) = try UIAnimationFixture.encodeGIF(frames: [a, b, b, c], fps: 30)
        XCTAssertEqual(summary.writtenFrameCount, 3)
        XCTAssertEqual(summary.mergedFrameCount, 1)
        XCTAssertEqual(summary.droppedFrameCount, 0)
        XCTAssertNil(summary.frameRateNotice)
        let gif = try GIFDecoder.decode(bytes)
        XCTAssertEqual(gif.frames.map(\.delayCentiseconds), [3, 7, 3])
        XCTAssertEqual(gif.frames.map(\.image), [a, b, c])
    }

    /// Seven distinct frames at 30 fps: delays 3, 4, 3, 3, 4, 3, 3 cs add up to round(7 × 100 / 30) = 23.
    func testRoundingIsDistributedSoTheTotalIsExact() throws {
        let frames = (0..<7).map { solidImage(width: 4, height: 4, UInt8($0 * 30), 0, 0) }
        let (bytes, summary) = try UIAnimationFixture.encodeGIF(frames: frames, fps: 30)
        XCTAssertEqual(summary.durationCentiseconds, 23)
        XCTAssertEqual(try GIFDecoder.decode(bytes).frames.map(\.delayCentiseconds), [3, 4, 3, 3, 4, 3, 3])
    }

    /// 62 distinct frames at 60 fps end at 103.33 → 103 cs. Ticks 0…51 keep frames ⌊1.2 k⌋, but
    /// tick 51 (102 cs, frame 61) would last 1 cs, which browsers stretch: it is dropped and the
    /// image before it (frame 60 from 100 cs) lasts 3 cs.
    func testALastFrameShorterThan2CentisecondsIsDroppedAndTheTotalStaysExact() throws {
        let frames = (0..<62).map { solidImage(width: 4, height: 4, UInt8($0 * 4), 128, 0) }
        let (bytes, summary) = try UIAnimationFixture.encodeGIF(frames: frames)
        XCTAssertEqual(summary.writtenFrameCount, 51)
        XCTAssertEqual(summary.droppedFrameCount, 11)
        XCTAssertEqual(summary.durationCentiseconds, 103)
        XCTAssertEqual(summary.frameRateNotice, "GIF plays at most 50 fps: 11 of 62 frames at 60 fps were dropped evenly.")
        let gif = try GIFDecoder.decode(bytes)
        XCTAssertEqual(gif.frames.map(\.delayCentiseconds), Array(repeating: 2, count: 50) + [3])
        XCTAssertEqual(gif.frames.last?.image, frames[60])
        XCTAssertEqual(gif.frames.map(\.image), (0...50).map { frames[$0 * 6 / 5] })
    }

    // MARK: Alpha

    /// Alpha < 128 becomes transparent and anything else opaque; pixels that turn transparent
    /// are cleared (previous image disposed to background) and everything else survives.
    /// Few colors, so libimagequant keeps them exact and the decoded frames must match exactly.
    func testTransparencyRoundTripsExactlyWithEveryStrategy() throws {
        let clear = solidImage(width: 16, height: 12, 0, 0, 0, 0)
        func square(_ image: RGBAImage, x: Int, y: Int, _ color: [UInt8]) -> RGBAImage {
            var result = image
            for dy in 0..<4 { for dx in 0..<4 { result = setting(result, x: x + dx, y: y + dy, to: color) } }
            return result
        }
        let red: [UInt8] = [220, 20, 60, 255], blue: [UInt8] = [30, 60, 200, 255], white: [UInt8] = [255, 255, 255, 255]
        var f0 = square(clear, x: 1, y: 1, red)
        f0 = setting(f0, x: 10, y: 10, to: [0, 200, 0, 100])    // alpha 100: transparent
        f0 = setting(f0, x: 11, y: 10, to: [30, 60, 200, 200])  // alpha 200: opaque blue
        f0 = setting(f0, x: 15, y: 0, to: white)
        let f1 = square(setting(square(f0, x: 1, y: 1, [0, 0, 0, 0]), x: 10, y: 10, to: [0, 200, 0, 100]), x: 6, y: 1, red)
        let f2 = square(f1, x: 1, y: 6, blue)
        let f3 = setting(setting(clear, x: 15, y: 11, to: white), x: 0, y: 0, to: blue)
        let frames = [f0, f1, f2, f3]
        let expected = frames.map { frame in
            RGBAImage(width: 16, height: 12, pixels: Array((0..<(16 * 12)).map { p -> [UInt8] in
                let px = Array(frame.pixels[(p * 4)..<(p * 4 + 4)])
                return px[3] < 128 ? [0, 0, 0, 0] : [px[0], px[1], px[2], 255]
            }.joined()))
        }
        let strategies: [(String, GIFOptions)] = [
            ("changed rectangles, global palette", GIFOptions()),
            ("changed rectangles, per-frame palettes", GIFOptions(palette: .perFrame)),
            ("changed rectangles, global palette made from frame 0 alone", GIFOptions(globalPaletteBufferLimit: 0)),
            ("changed rectangles, shared palette", GIFOptions(palette: .shared)),
            ("full frames", GIFOptions(storesChangedRectanglesOnly: false)),
        ]
        for (name, options) in strategies {
            let (bytes, summary) = try UIAnimationFixture.encodeGIF(options, frames: frames, fps: 10)
            XCTAssertEqual(summary.writtenFrameCount, 4, name)
            let gif = try GIFDecoder.decode(bytes)
            XCTAssertEqual(gif.frames.map(\.delayCentiseconds), [10, 10, 10, 10], name)
            for (index, frame) in gif.frames.enumerated() {
                XCTAssertEqual(frame.image, expected[index], "\(name): frame \(index)")
            }
        }
    }

    // MARK: Loop count, files and errors

    func testLoopCountIsStoredAsNetscapeRepetitions() throws {
        let frames = [solidImage(width: 2, height: 2, 0, 0, 0), solidImage(width: 2, height: 2, 255, 255, 255)]
        for (plays, hasExtension) in [(0, true), (1, false), (5, true)] {
            let (bytes, _) = try UIAnimationFixture.encodeGIF(GIFOptions(loopCount: plays), frames: frames)
            XCTAssertEqual(try GIFDecoder.decode(bytes).loopCount, plays)
            let netscape = Array("NETSCAPE2.0".utf8)
            let found = (0...(bytes.count - netscape.count)).contains { Array(bytes[$0..<($0 + netscape.count)]) == netscape }
            XCTAssertEqual(found, hasExtension, "\(plays) plays")
        }
    }

    func testFileDestinationIsWrittenWholeOnFinish() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/animation.gif"
        let frames = [solidImage(width: 3, height: 3, 10, 20, 30), solidImage(width: 3, height: 3, 40, 50, 60)]
        let encoder = try GIFEncoder(destination: .file(path: path), width: 3, height: 3, fps: 25)
        for frame in frames { try encoder.add(frame) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing at the final path before finish()")
        let summary = try encoder.finish()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["animation.gif"])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, summary.byteCount)
        XCTAssertEqual(encoder.encodedBytes, [])
        XCTAssertEqual(try GIFDecoder.decode(contentsOf: path).frames.map(\.image), frames)
        XCTAssertEqual(try GIFDecoder.decode(contentsOf: path), try GIFDecoder.decode(UIAnimationFixture.encodeGIF(frames: frames, fps: 25).bytes))
    }

    func testErrorsAreOneClearSentence() throws {
        let image = solidImage(width: 4, height: 4, 0, 0, 0)
        func message(_ body: () throws -> Void) -> String {
            do { try body(); return "no error" } catch { return "\(error)" }
        }
        let table: [(String, () throws -> Void, UInt)] = [
            ("GIF canvas of 0×4 px is not allowed: each side must be 1…65535 px.",
             { _ = try GIFEncoder(width: 0, height: 4, fps: 30) }, #line),
            ("Frame rate 0 fps is not allowed: it must be a whole number of frames per second from 1 to 65535.",
             { _ = try GIFEncoder(width: 4, height: 4, fps: 0) }, #line),
            ("Option quality must lie within 0…100, not 50...101.",
             { _ = try GIFEncoder(width: 4, height: 4, fps: 30, options: GIFOptions(quality: 50...101)) }, #line),
            ("Option maxFrameRate must be above 0 and at most 50 fps, not 60.0.",
             { _ = try GIFEncoder(width: 4, height: 4, fps: 30, options: GIFOptions(maxFrameRate: 60)) }, #line),
            ("Frame 1 is 2×2 px but the animation is 4×4 px.", {
                let encoder = try GIFEncoder(width: 4, height: 4, fps: 30)
                try encoder.add(image)
                try encoder.add(solidImage(width: 2, height: 2, 0, 0, 0))
            }, #line),
            ("The animation has no frames.", { try GIFEncoder(width: 4, height: 4, fps: 30).finish() }, #line),
            ("The animation encoder was already finished.", {
                let encoder = try GIFEncoder(width: 4, height: 4, fps: 30)
                try encoder.add(image)
                try encoder.finish()
                try encoder.add(image)
            }, #line),
            ("Cannot write /nonexistent-cartrender-dir/animation.gif: No such file or directory.",
             { _ = try GIFEncoder(destination: .file(path: "/nonexistent-cartrender-dir/animation.gif"), width: 4, height: 4, fps: 30) }, #line),
            ("GIF data cannot be decoded: giflib failed in DGifOpen: Data is not in GIF format (error 103).",
             { _ = try GIFDecoder.decode(Array("not a gif at all".utf8)) }, #line),
            ("GIF data cannot be decoded: giflib failed in DGifSlurp: the data ends too early (truncated) (error 102).",
             { _ = try GIFDecoder.decode(Array(UIAnimationFixture.defaultGIF.get().bytes.prefix(2000))) }, #line),
            ("Cannot read /nonexistent-cartrender-dir/animation.gif: No such file or directory.",
             { _ = try GIFDecoder.decode(contentsOf: "/nonexistent-cartrender-dir/animation.gif") }, #line),
        ]
        for (expected, body, line) in table {
            XCTAssertEqual(message(body), expected, line: line)
        }
    }
}
