import CartRender
import CartRenderRaster
import XCTest

final class PixelmatchTests: XCTestCase {
    private func image(_ pixels: TestPixels) -> RGBAImage {
        RGBAImage(width: pixels.width, height: pixels.height, pixels: pixels.bytes)
    }

    /// pixelmatch's YIQ distance for two opaque colors (docs/snapshot-testing.md), to build cases on either side
    /// of a threshold.
    private func yiqDelta(_ c1: (Double, Double, Double), _ c2: (Double, Double, Double)) -> Double {
        let (dr, dg, db) = (c1.0 - c2.0, c1.1 - c2.1, c1.2 - c2.2)
        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    }

    /// A flat 9×9 image and a copy with pixel (4, 4) changed. A lone pixel in a flat field is never
    /// anti-aliasing: its neighbours are all equal, so none is darker while another is brighter.
    private func flatPair(base: (UInt8, UInt8, UInt8), center: (UInt8, UInt8, UInt8)) -> (RGBAImage, RGBAImage) {
        let first = TestPixels(width: 9, height: 9, fill: (base.0, base.1, base.2, 255))
        var second = first
        second[4, 4] = (center.0, center.1, center.2, 255)
        return (image(first), image(second))
    }

    // MARK: Counting

    func testIdenticalImagesHaveNoDifferences() throws {
        let noise = image(TestImages.noise(width: 50, height: 40, seed: 42, translucent: true))
        let result = try Pixelmatch.compare(noise, noise, options: PixelmatchOptions(threshold: 0))
        XCTAssertEqual(result, DiffResult(differingPixels: 0, antialiasedPixels: 0, totalPixels: 2000))
        XCTAssertTrue(result.identical)
    }

    func testOneChangedPixelCountsOnce() throws {
        let (first, second) = flatPair(base: (240, 240, 240), center: (10, 10, 10))
        let result = try Pixelmatch.compare(first, second)
        XCTAssertEqual(result, DiffResult(differingPixels: 1, antialiasedPixels: 0, totalPixels: 81))
        XCTAssertFalse(result.identical)
    }

    func testGrayStepsJustUnderAndJustOverTheDefaultThreshold() throws {
        // maxDelta = 35215 × 0.1² = 352.15. A gray step of d has i = q = 0 (to 1e-8) and
        // y ≈ d, so delta ≈ 0.5053 d²: 341.6 for d = 26, 368.3 for d = 27.
        let maxDelta = 35215 * 0.1 * 0.1
        XCTAssertLessThan(yiqDelta((128, 128, 128), (154, 154, 154)), maxDelta)
        XCTAssertGreaterThan(yiqDelta((128, 128, 128), (155, 155, 155)), maxDelta)

        let (base, under) = flatPair(base: (128, 128, 128), center: (154, 154, 154))
        XCTAssertEqual(try Pixelmatch.compare(base, under).differingPixels, 0)
        let (_, over) = flatPair(base: (128, 128, 128), center: (155, 155, 155))
        XCTAssertEqual(try Pixelmatch.compare(base, over).differingPixels, 1)
    }

    func testThresholdBracketsAColorChange() throws {
        // Red to orange: the threshold at which the pixel stops counting is sqrt(delta / 35215).
        let (first, second) = flatPair(base: (200, 30, 30), center: (220, 90, 30))
        let boundary = (yiqDelta((200, 30, 30), (220, 90, 30)) / 35215).squareRoot()
        XCTAssertEqual(try Pixelmatch.compare(first, second, options: PixelmatchOptions(threshold: boundary * 0.999)).differingPixels, 1)
        XCTAssertEqual(try Pixelmatch.compare(first, second, options: PixelmatchOptions(threshold: boundary * 1.001)).differingPixels, 0)
    }

    func testOnePixelShiftOfAnAntialiasedEdgeIsAntialiasing() throws {
        // A navy/white edge at x = 20.5 px moved to 21.5 px: columns 20 and 21 change in every row.
        let navy: (UInt8, UInt8, UInt8) = (20, 40, 120), white: (UInt8, UInt8, UInt8) = (255, 255, 255)
        let first = image(TestImages.verticalEdge(width: 40, height: 20, edgeX: 20.5, color: navy, background: white))
        let second = image(TestImages.verticalEdge(width: 40, height: 20, edgeX: 21.5, color: navy, background: white))

        let excused = try Pixelmatch.compare(first, second)
        XCTAssertEqual(excused, DiffResult(differingPixels: 0, antialiasedPixels: 40, totalPixels: 800))
        XCTAssertTrue(excused.identical)

        let counted = try Pixelmatch.compare(first, second, options: PixelmatchOptions(includeAA: true))
        XCTAssertEqual(counted, DiffResult(differingPixels: 40, antialiasedPixels: 0, totalPixels: 800))
    }

    func testSemiTransparentPixelsAreBlendedOverPixelmatchsBackgroundPattern() throws {
        // pixelmatch 7 composites translucent pixels over a pattern that depends on the byte offset k
        // (red 48 + 159·(k mod 2), green 48 + 159·(⌊k/φ⌋ mod 2), blue 48 + 159·(⌊k/φ²⌋ mod 2)),
        // not over white. For pixels 0…3 (k = 0, 4, 8, 12) that is:
        let backgrounds: [(UInt8, UInt8, UInt8, UInt8)] = [(48, 48, 48, 255), (48, 48, 207, 255), (48, 48, 207, 255), (48, 207, 48, 255)]
        var transparent = TestPixels(width: 4, height: 1, fill: (255, 255, 255, 0))
        transparent[0, 0] = (10, 200, 30, 0)  // a transparent pixel's color does not matter
        var pattern = TestPixels(width: 4, height: 1)
        for x in 0 ..< 4 { pattern[x, 0] = backgrounds[x] }
        let exact = PixelmatchOptions(threshold: 0, includeAA: true)

        // Fully transparent equals the background under it ...
        XCTAssertEqual(try Pixelmatch.compare(image(transparent), image(pattern), options: exact).differingPixels, 0)
        // ... and not white, which pixelmatch 6 blended with.
        let white = TestPixels(width: 4, height: 1)
        XCTAssertEqual(try Pixelmatch.compare(image(transparent), image(white), options: exact).differingPixels, 4)

        // Half-transparent white over (48, 48, 48) is (151.5, 151.5, 151.5): within 0.1 of (152, 152, 152).
        var half = TestPixels(width: 4, height: 1)
        half[0, 0] = (255, 255, 255, 127)
        var gray = TestPixels(width: 4, height: 1)
        gray[0, 0] = (151, 151, 151, 255)
        XCTAssertEqual(try Pixelmatch.compare(image(half), image(gray), options: PixelmatchOptions(threshold: 0.01, includeAA: true)).differingPixels, 0)
        gray[0, 0] = (200, 200, 200, 255)
        XCTAssertEqual(try Pixelmatch.compare(image(half), image(gray), options: PixelmatchOptions(threshold: 0.01, includeAA: true)).differingPixels, 1)
    }

    func testMaskedRectanglesAreNeverCounted() throws {
        var first = TestPixels(width: 20, height: 10)
        first[2, 2] = (0, 0, 0, 255)
        first[15, 7] = (0, 0, 0, 255)
        let second = TestPixels(width: 20, height: 10)
        XCTAssertEqual(try Pixelmatch.compare(image(first), image(second)).differingPixels, 2)

        let left = [PixelRect(x: 0, y: 0, width: 10, height: 10)]
        XCTAssertEqual(try Pixelmatch.compare(image(first), image(second), mask: left).differingPixels, 1)
        let both = left + [PixelRect(x: 15, y: 7, width: 1, height: 1)]
        XCTAssertEqual(try Pixelmatch.compare(image(first), image(second), mask: both),
                       DiffResult(differingPixels: 0, antialiasedPixels: 0, totalPixels: 200))
        // Rectangles reaching outside the image, or empty, are harmless.
        let odd = [PixelRect(x: -5, y: -5, width: 8, height: 8), PixelRect(x: 15, y: 7, width: 0, height: 3)]
        XCTAssertEqual(try Pixelmatch.compare(image(first), image(second), mask: odd).differingPixels, 1)
    }

    func testMaskedAntialiasedPixelsAreNotCountedEither() throws {
        let navy: (UInt8, UInt8, UInt8) = (20, 40, 120), white: (UInt8, UInt8, UInt8) = (255, 255, 255)
        let first = image(TestImages.verticalEdge(width: 40, height: 20, edgeX: 20.5, color: navy, background: white))
        let second = image(TestImages.verticalEdge(width: 40, height: 20, edgeX: 21.5, color: navy, background: white))
        let result = try Pixelmatch.compare(first, second, mask: [PixelRect(x: 0, y: 0, width: 40, height: 5)])
        XCTAssertEqual(result, DiffResult(differingPixels: 0, antialiasedPixels: 30, totalPixels: 800))
    }

    // MARK: Errors

    func testSizeMismatchThrows() {
        let small = RGBAImage(width: 3, height: 2), large = RGBAImage(width: 3, height: 4)
        XCTAssertThrowsError(try Pixelmatch.compare(small, large)) { error in
            XCTAssertEqual(error as? DiffError, .sizeMismatch(firstWidth: 3, firstHeight: 2, secondWidth: 3, secondHeight: 4))
            XCTAssertEqual("\(error)", "images differ in size: 3×2 px vs 3×4 px")
        }
        XCTAssertThrowsError(try Pixelmatch.diff(small, large))
    }

    func testOptionsOutOfRangeThrow() {
        let blank = RGBAImage(width: 1, height: 1)
        XCTAssertThrowsError(try Pixelmatch.compare(blank, blank, options: PixelmatchOptions(threshold: -0.1))) { error in
            XCTAssertEqual("\(error)", "threshold must be a number ≥ 0 (0 = exact, 1 = black vs white), not -0.1")
        }
        XCTAssertThrowsError(try Pixelmatch.compare(blank, blank, options: PixelmatchOptions(threshold: .nan)))
        XCTAssertThrowsError(try Pixelmatch.diff(blank, blank, options: PixelmatchOptions(alpha: 1.5))) { error in
            XCTAssertEqual("\(error)", "diff image alpha must be between 0 and 1, not 1.5")
        }
    }

    func testEmptyImagesCompareEqual() throws {
        let empty = RGBAImage(width: 0, height: 0)
        XCTAssertEqual(try Pixelmatch.compare(empty, empty), DiffResult(differingPixels: 0, antialiasedPixels: 0, totalPixels: 0))
    }

    // MARK: Diff image

    func testDiffImageColorsDifferencesAntialiasingAndFadedBackground() throws {
        // Row 0: an anti-aliased edge that moves (yellow); pixel (2, 12): black on white (red).
        let navy: (UInt8, UInt8, UInt8) = (20, 40, 120), white: (UInt8, UInt8, UInt8) = (255, 255, 255)
        var first = TestImages.verticalEdge(width: 40, height: 20, edgeX: 20.5, color: navy, background: white)
        let second = TestImages.verticalEdge(width: 40, height: 20, edgeX: 21.5, color: navy, background: white)
        first[2, 12] = (0, 0, 0, 255)

        let (result, diff) = try Pixelmatch.diff(image(first), image(second))
        XCTAssertEqual(result, DiffResult(differingPixels: 1, antialiasedPixels: 40, totalPixels: 800))
        XCTAssertEqual(diff.width, 40)
        XCTAssertEqual(diff.height, 20)
        XCTAssertTrue(diff[2, 12] == (255, 0, 0, 255), "differing pixel is red")
        XCTAssertTrue(diff[20, 5] == (255, 255, 0, 255), "anti-aliased pixel is yellow")
        // Elsewhere the first image's luma faded towards white with alpha 0.1, truncated:
        // navy: 255 + (20·0.29889531 + 40·0.58662247 + 120·0.11448223 − 255) · 0.1 = 233.82…
        XCTAssertTrue(diff[0, 0] == (233, 233, 233, 255))
        XCTAssertTrue(diff[39, 0] == (255, 255, 255, 255))

        // The second image darker at the red pixel? No: black → white is lighter, so diffColorAlt is
        // unused there; swapped, it is used.
        let alt = PixelmatchOptions(diffColorAlt: DiffColor(red: 0, green: 0, blue: 255))
        XCTAssertTrue(try Pixelmatch.diff(image(first), image(second), options: alt).image[2, 12] == (255, 0, 0, 255))
        XCTAssertTrue(try Pixelmatch.diff(image(second), image(first), options: alt).image[2, 12] == (0, 0, 255, 255))
    }

    func testDiffMaskDrawsOnlyDifferencesOverTransparency() throws {
        let (first, second) = flatPair(base: (240, 240, 240), center: (10, 10, 10))
        let (result, diff) = try Pixelmatch.diff(first, second, options: PixelmatchOptions(diffMask: true))
        XCTAssertEqual(result.differingPixels, 1)
        XCTAssertTrue(diff[4, 4] == (255, 0, 0, 255))
        for y in 0 ..< 9 {
            for x in 0 ..< 9 where (x, y) != (4, 4) {
                XCTAssertTrue(diff[x, y] == (0, 0, 0, 0), "pixel \(x), \(y) is transparent black")
            }
        }
    }

    func testIdenticalImagesGetTheFadedImageOnly() throws {
        let noise = image(TestImages.noise(width: 8, height: 8, seed: 9, translucent: true))
        let (result, diff) = try Pixelmatch.diff(noise, noise)
        XCTAssertTrue(result.identical)
        for y in 0 ..< 8 {
            for x in 0 ..< 8 {
                let p = noise[x, y]
                let luma = Double(p.r) * 0.29889531 + Double(p.g) * 0.58662247 + Double(p.b) * 0.11448223
                let v = UInt8(255 + (luma - 255) * 0.1 * Double(p.a) / 255)
                XCTAssertTrue(diff[x, y] == (v, v, v, 255), "pixel \(x), \(y)")
            }
        }
    }

    func testMaskedPixelsAreDrawnAsBackground() throws {
        let (first, second) = flatPair(base: (240, 240, 240), center: (10, 10, 10))
        let (result, diff) = try Pixelmatch.diff(first, second, mask: [PixelRect(x: 4, y: 4, width: 1, height: 1)])
        XCTAssertTrue(result.identical)
        XCTAssertTrue(diff[4, 4] == diff[0, 0])
    }

    // MARK: Cross-check with pixelmatch 7.1

    /// Expected values were produced by pixelmatch 7.1.0's `index.js` (node 20) on the very same
    /// bytes (`CrossCheckPairs`, generated deterministically from seeded LCGs and integer
    /// arithmetic), with an output `Uint8Array`: its return value, the number of yellow (aaColor)
    /// pixels in its output, and the FNV-1a 64 hash of its whole output buffer. `nil` where the
    /// output cannot show anti-aliased pixels (diffMask).
    func testCountsAndDiffImagesAgreeWithPixelmatch71() throws {
        let expected: [(String, PixelmatchOptions, Int, Int?, UInt64)] = [
            ("noise-vs-noise", PixelmatchOptions(threshold: 0), 3072, 0, 0xc7ccee31be643b25),
            ("noise-vs-noise", PixelmatchOptions(threshold: 0.05), 3051, 0, 0x5f886a8242e96de1),
            ("noise-vs-noise", PixelmatchOptions(threshold: 0.1), 2972, 0, 0xea4930f4b58d089c),
            ("noise-vs-noise", PixelmatchOptions(threshold: 0.1, includeAA: true), 2972, 0, 0xea4930f4b58d089c),
            ("noise-vs-noise", PixelmatchOptions(threshold: 0.5), 558, 0, 0x8d42dd405b5a9240),
            ("noise-perturbed", PixelmatchOptions(threshold: 0), 605, 0, 0x52e72b00028a418c),
            ("noise-perturbed", PixelmatchOptions(threshold: 0.05), 278, 0, 0xb39117bbf751da65),
            ("noise-perturbed", PixelmatchOptions(threshold: 0.1), 0, 0, 0xcd02d78babc6aa54),
            ("noise-perturbed", PixelmatchOptions(threshold: 0.1, includeAA: true), 0, 0, 0xcd02d78babc6aa54),
            ("noise-perturbed", PixelmatchOptions(threshold: 0.5), 0, 0, 0xcd02d78babc6aa54),
            ("translucent-perturbed", PixelmatchOptions(threshold: 0), 1018, 0, 0x85e5955c4e285fd1),
            ("translucent-perturbed", PixelmatchOptions(threshold: 0.05), 459, 0, 0xa3a8431c8561003d),
            ("translucent-perturbed", PixelmatchOptions(threshold: 0.1), 68, 0, 0x3cd197a031b0b515),
            ("translucent-perturbed", PixelmatchOptions(threshold: 0.1, includeAA: true), 68, 0, 0x3cd197a031b0b515),
            ("translucent-perturbed", PixelmatchOptions(threshold: 0.5), 0, 0, 0xd288f1de733d1a8c),
            ("translucent-perturbed", PixelmatchOptions(threshold: 0.1, diffColorAlt: DiffColor(red: 0, green: 255, blue: 0)), 68, 0, 0xb98f2b3270c14a0d),
            ("translucent-perturbed", PixelmatchOptions(threshold: 0.1, diffMask: true), 68, nil, 0xe08e6ca72a96447d),
            ("translucent-perturbed", PixelmatchOptions(threshold: 0.1, alpha: 0.5), 68, 0, 0xb914e2c822a28140),
            ("circle-subpixel-shift", PixelmatchOptions(threshold: 0), 0, 191, 0x39cdf3550a6fa70a),
            ("circle-subpixel-shift", PixelmatchOptions(threshold: 0.05), 0, 144, 0xab29f9b42cf1a17e),
            ("circle-subpixel-shift", PixelmatchOptions(threshold: 0.1), 0, 118, 0x3453ea5e9f892abb),
            ("circle-subpixel-shift", PixelmatchOptions(threshold: 0.1, includeAA: true), 118, 0, 0xda6378bb11c8a32f),
            ("circle-subpixel-shift", PixelmatchOptions(threshold: 0.5), 0, 0, 0x61fc85c9090a9845),
            ("circle-1px-shift", PixelmatchOptions(threshold: 0), 4, 216, 0x52fb81c6d1172295),
            ("circle-1px-shift", PixelmatchOptions(threshold: 0.05), 4, 180, 0x3949d4854255c125),
            ("circle-1px-shift", PixelmatchOptions(threshold: 0.1), 4, 144, 0xca4b74b5c917d0b5),
            ("circle-1px-shift", PixelmatchOptions(threshold: 0.1, includeAA: true), 148, 0, 0x3b32c1bed80de1c5),
            ("circle-1px-shift", PixelmatchOptions(threshold: 0.5), 4, 40, 0xeb6a63d6445e2555),
            ("circle-1px-shift", PixelmatchOptions(threshold: 0.1, diffColorAlt: DiffColor(red: 0, green: 255, blue: 0)), 4, 144, 0x041491948d5a24a5),
            ("circle-1px-shift", PixelmatchOptions(threshold: 0.1, diffMask: true), 4, nil, 0xfcc058bc5ad7951d),
            ("circle-1px-shift", PixelmatchOptions(threshold: 0.1, alpha: 0.5), 4, 144, 0x680e8308877f58ed),
            ("edge-1px-shift", PixelmatchOptions(threshold: 0), 0, 40, 0x10931a10c20a4f45),
            ("edge-1px-shift", PixelmatchOptions(threshold: 0.05), 0, 40, 0x10931a10c20a4f45),
            ("edge-1px-shift", PixelmatchOptions(threshold: 0.1), 0, 40, 0x10931a10c20a4f45),
            ("edge-1px-shift", PixelmatchOptions(threshold: 0.1, includeAA: true), 40, 0, 0xc360681e02628475),
            ("edge-1px-shift", PixelmatchOptions(threshold: 0.5), 0, 0, 0xf98406c8ad89f475),
            ("rectangles-1px-shift", PixelmatchOptions(threshold: 0), 131, 0, 0xa9069f47a881fae8),
            ("rectangles-1px-shift", PixelmatchOptions(threshold: 0.05), 131, 0, 0xa9069f47a881fae8),
            ("rectangles-1px-shift", PixelmatchOptions(threshold: 0.1), 131, 0, 0xa9069f47a881fae8),
            ("rectangles-1px-shift", PixelmatchOptions(threshold: 0.1, includeAA: true), 131, 0, 0xa9069f47a881fae8),
            ("rectangles-1px-shift", PixelmatchOptions(threshold: 0.5), 84, 0, 0x514f5a8fa69d35b6),
            ("gray-noise-ties", PixelmatchOptions(threshold: 0), 5, 0, 0x2582e8722b545744),
            ("gray-noise-ties", PixelmatchOptions(threshold: 0.05), 5, 0, 0x2582e8722b545744),
            ("gray-noise-ties", PixelmatchOptions(threshold: 0.1), 5, 0, 0x2582e8722b545744),
            ("gray-noise-ties", PixelmatchOptions(threshold: 0.1, includeAA: true), 5, 0, 0x2582e8722b545744),
            ("gray-noise-ties", PixelmatchOptions(threshold: 0.5), 1, 0, 0xeb56d7a95db6f0e4),
            ("alpha-ramps", PixelmatchOptions(threshold: 0), 492, 12, 0x03f2a54c7ff7b46d),
            ("alpha-ramps", PixelmatchOptions(threshold: 0.05), 362, 6, 0xe7568cfc4059da3d),
            ("alpha-ramps", PixelmatchOptions(threshold: 0.1), 218, 6, 0xad8c9e3f61385fd5),
            ("alpha-ramps", PixelmatchOptions(threshold: 0.1, includeAA: true), 224, 0, 0x7f40476a6eb584a5),
            ("alpha-ramps", PixelmatchOptions(threshold: 0.5), 0, 0, 0xbca5138c5c09b9a5),
            ("alpha-ramps", PixelmatchOptions(threshold: 0.1, diffColorAlt: DiffColor(red: 0, green: 255, blue: 0)), 218, 6, 0xad8c9e3f61385fd5),
            ("alpha-ramps", PixelmatchOptions(threshold: 0.1, diffMask: true), 218, nil, 0x0d855359b2b20ef1),
            ("alpha-ramps", PixelmatchOptions(threshold: 0.1, alpha: 0.5), 218, 6, 0xe24472f0834ebf0d),
        ]
        let pairs = Dictionary(uniqueKeysWithValues: CrossCheckPairs.all.map { ($0.name, $0) })
        XCTAssertEqual(Set(expected.map(\.0)), Set(pairs.keys))
        for (name, options, differing, antialiased, hash) in expected {
            let pair = try XCTUnwrap(pairs[name])
            let (first, second) = (image(pair.first), image(pair.second))
            let (result, diff) = try Pixelmatch.diff(first, second, options: options)
            let label = "\(name) \(options)"
            XCTAssertEqual(result.differingPixels, differing, label)
            if let antialiased { XCTAssertEqual(result.antialiasedPixels, antialiased, label) }
            XCTAssertEqual(TestImages.fnv1a(diff.pixels), hash, label)
            XCTAssertEqual(try Pixelmatch.compare(first, second, options: options), result, "compare agrees with diff: \(label)")
        }
    }
}
