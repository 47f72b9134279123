// A port of pixelmatch 7.1.0 (https://github.com/mapbox/pixelmatch, index.js), by Volodymyr Agafonkin.
// ISC License, Copyright (c) 2025, Mapbox: "Permission to use, copy, modify, and/or distribute this
// software for any purpose with or without fee is hereby granted, provided that the above copyright
// notice and this permission notice appear in all copies." The algorithm (YIQ distance, background
// blend of translucent pixels, anti-aliasing detector, diff-image colors) follows it step by step so
// that counts agree exactly; masks and the anti-aliased pixel count are additions of cartrender.

import CartRenderRaster
import Foundation

/// Pixel-by-pixel image comparison with pixelmatch 7.1's color distance and anti-aliasing detection
/// (docs/snapshot-testing.md, “When a frame fails”).
///
/// A pixel differs when the YIQ distance `0.5053·y² + 0.299·i² + 0.1957·q²` between the two images'
/// colors exceeds `35215 · threshold²`, unless it looks like anti-aliasing in either image (3×3
/// neighbourhood test of V. Vysniauskas, 2009) and `includeAA` is off. Pixels with alpha < 255 are
/// first composited over pixelmatch's background pattern, a function of the pixel's byte offset.
///
/// ```swift
/// let result = try Pixelmatch.compare(expected, actual)          // threshold 0.1
/// if result.differingPixels > maxDiffPixels { … }
/// let (_, image) = try Pixelmatch.diff(expected, actual)         // red / yellow / faded gray
/// ```
public enum Pixelmatch {
    /// Counts the pixels that differ between two images of the same size.
    ///
    /// - Parameters:
    ///   - first: the expected image (its luminance is the diff image's background).
    ///   - second: the actual image.
    ///   - options: threshold and anti-aliasing handling; drawing options are ignored here.
    ///   - mask: rectangles (px) whose pixels are never counted, neither as different nor as
    ///     anti-aliased. They still serve as neighbours for the anti-aliasing test.
    /// - Returns: the counts; `differingPixels` equals pixelmatch 7.1's return value when `mask` is empty.
    /// - Throws: ``DiffError/sizeMismatch(firstWidth:firstHeight:secondWidth:secondHeight:)`` when
    ///   the sizes differ, ``DiffError/invalidOption(_:)`` for a threshold or alpha out of range.
    /// - Complexity: O(width × height); identical images take one pass of 32-bit compares.
    public static func compare(
        _ first: RGBAImage, _ second: RGBAImage,
        options: PixelmatchOptions = PixelmatchOptions(), mask: [PixelRect] = []
    ) throws -> DiffResult {
        try validate(first, second, options)
        return first.pixels.withUnsafeBytes { a in
            second.pixels.withUnsafeBytes { b in
                run(a, b, width: first.width, height: first.height, options: options, mask: mask, output: nil)
            }
        }
    }

    /// Compares two images and draws pixelmatch's diff image.
    ///
    /// The diff image has the inputs' size. Differing pixels are ``PixelmatchOptions/diffColor``
    /// (or ``PixelmatchOptions/diffColorAlt`` where the second image is darker), anti-aliased ones
    /// ``PixelmatchOptions/aaColor``, and every other pixel (masked ones included) is the first
    /// image's luminance faded towards white: `255 + (Y − 255) · alpha · A / 255`, truncated to an
    /// integer as pixelmatch's `Uint8Array` output does, opaque. With
    /// ``PixelmatchOptions/diffMask`` only differing pixels are drawn, over transparent black.
    ///
    /// - Parameters: as ``compare(_:_:options:mask:)``.
    /// - Returns: the counts and the diff image (8-bit straight-alpha RGBA).
    /// - Throws: as ``compare(_:_:options:mask:)``.
    public static func diff(
        _ first: RGBAImage, _ second: RGBAImage,
        options: PixelmatchOptions = PixelmatchOptions(), mask: [PixelRect] = []
    ) throws -> (result: DiffResult, image: RGBAImage) {
        try validate(first, second, options)
        var output = [UInt8](repeating: 0, count: first.pixels.count)
        let result = first.pixels.withUnsafeBytes { a in
            second.pixels.withUnsafeBytes { b in
                output.withUnsafeMutableBytes { out in
                    run(a, b, width: first.width, height: first.height, options: options, mask: mask, output: out)
                }
            }
        }
        return (result, RGBAImage(width: first.width, height: first.height, pixels: output))
    }

    private static func validate(_ first: RGBAImage, _ second: RGBAImage, _ options: PixelmatchOptions) throws {
        guard first.width == second.width, first.height == second.height else {
            throw DiffError.sizeMismatch(firstWidth: first.width, firstHeight: first.height,
                                         secondWidth: second.width, secondHeight: second.height)
        }
        guard options.threshold.isFinite, options.threshold >= 0 else {
            throw DiffError.invalidOption("threshold must be a number ≥ 0 (0 = exact, 1 = black vs white), not \(options.threshold)")
        }
        guard options.alpha.isFinite, (0...1).contains(options.alpha) else {
            throw DiffError.invalidOption("diff image alpha must be between 0 and 1, not \(options.alpha)")
        }
    }

    // MARK: The algorithm (pixelmatch 7.1 `pixelmatch`)

    /// `a`, `b` and `output` hold `width × height × 4` bytes. Bytes are read through raw pointers
    /// and pixels compared as unaligned 32-bit words, like pixelmatch's `Uint32Array` views.
    private static func run(
        _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer,
        width: Int, height: Int, options: PixelmatchOptions, mask: [PixelRect],
        output: UnsafeMutableRawBufferPointer?
    ) -> DiffResult {
        let count = width * height
        guard count > 0, let img1 = a.baseAddress, let img2 = b.baseAddress else {
            return DiffResult(differingPixels: 0, antialiasedPixels: 0, totalPixels: count)
        }
        let out = output?.baseAddress
        let drawBackground = !options.diffMask

        // Fast path: identical images.
        if memcmp(img1, img2, count * 4) == 0 {
            if let out, drawBackground {
                var gray = GrayCache()
                for i in 0..<count { gray.draw(img1, i * 4, options.alpha, out) }
            }
            return DiffResult(differingPixels: 0, antialiasedPixels: 0, totalPixels: count)
        }

        // Maximum acceptable square distance between two colors; 35215 is the YIQ distance of black and white.
        let maxDelta = 35215 * options.threshold * options.threshold
        let diffColor = options.diffColor
        let altColor = options.diffColorAlt ?? options.diffColor
        var differing = 0
        var antialiased = 0
        var gray = GrayCache()
        // The last opaque pair of differing pixels and its delta (two equal words never get here).
        var last1: UInt32 = 0, last2: UInt32 = 0, lastDelta = 0.0

        for y in 0..<height {
            // A row whose bytes are equal in both images has no pixel over the threshold (each
            // one's delta is 0): only its faded background is drawn.
            if memcmp(img1 + y * width * 4, img2 + y * width * 4, width * 4) == 0 {
                if let out, drawBackground {
                    for i in (y * width)..<((y + 1) * width) { gray.draw(img1, i * 4, options.alpha, out) }
                }
                continue
            }
            for x in 0..<width {
                let i = y * width + x
                let pos = i * 4
                let w1 = word(img1, i), w2 = word(img2, i)
                if w1 == w2 {
                    // Delta 0, never over the threshold.
                    if let out, drawBackground { gray.draw(img1, pos, options.alpha, out) }
                    continue
                }

                // Squared YIQ distance, negative when the second image's pixel is darker. Opaque
                // pairs met again (a tint over a whole area) reuse the last one's.
                let delta: Double
                if w1 == last1, w2 == last2 {
                    delta = lastDelta
                } else {
                    delta = colorDelta(img1, img2, pos, pos, yOnly: false)
                    if img1.load(fromByteOffset: pos + 3, as: UInt8.self) == 255, img2.load(fromByteOffset: pos + 3, as: UInt8.self) == 255 {
                        (last1, last2, lastDelta) = (w1, w2, delta)
                    } else {
                        // Translucent pixels blend over a background that depends on the offset.
                        (last1, last2) = (0, 0)
                    }
                }

                if abs(delta) > maxDelta, !mask.contains(where: { $0.contains(x: x, y: y) }) {
                    let isAA = !options.includeAA
                        && (isAntialiased(img1, x, y, width, height, img1, img2)
                            || isAntialiased(img2, x, y, width, height, img2, img1))
                    if isAA {
                        // Anti-aliasing in one of the images: not a difference; yellow, never in a mask.
                        antialiased += 1
                        if let out, drawBackground { drawPixel(out, pos, options.aaColor) }
                    } else {
                        differing += 1
                        if let out { drawPixel(out, pos, delta < 0 ? altColor : diffColor) }
                    }
                } else if let out, drawBackground {
                    // Similar (or masked): the first image's luminance blended with white.
                    gray.draw(img1, pos, options.alpha, out)
                }
            }
        }
        return DiffResult(differingPixels: differing, antialiasedPixels: antialiased, totalPixels: count)
    }

    /// Pixel `index` as one 32-bit word, for equality tests only (byte order does not matter).
    @inline(__always)
    private static func word(_ image: UnsafeRawPointer, _ index: Int) -> UInt32 {
        image.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self)
    }

    /// Whether pixel (`x1`, `y1`) of `image` is likely anti-aliasing (pixelmatch's `antialiased`;
    /// "Anti-aliased Pixel and Intensity Slope Detector", V. Vysniauskas, 2009): among its 8
    /// neighbours at most two share its luma, and the darkest or the brightest neighbour has 3+
    /// identical neighbours of its own in both images (`a32`, `b32`).
    @inline(__always)
    private static func isAntialiased(
        _ image: UnsafeRawPointer, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int,
        _ a32: UnsafeRawPointer, _ b32: UnsafeRawPointer
    ) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        let center = word(image, y1 * width + x1)
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var minDelta = 0.0
        var maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0

        // The 8 adjacent pixels, column by column as in pixelmatch (the order decides ties).
        var x = x0
        while x <= x2 {
            defer { x &+= 1 }
            var y = y0
            while y <= y2 {
                defer { y &+= 1 }
                if x == x1 && y == y1 { continue }
                // Brightness delta between the center pixel and this neighbour (0 for equal bytes).
                let n = y &* width &+ x
                let delta = word(image, n) == center ? 0 : colorDelta(image, image, pos, n &* 4, yOnly: true)
                if delta == 0 {
                    zeroes += 1
                    // More than 2 equal siblings: definitely not anti-aliasing.
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    minX = x
                    minY = y
                } else if delta > maxDelta {
                    maxDelta = delta
                    maxX = x
                    maxY = y
                }
            }
        }

        // Anti-aliasing needs both a darker and a brighter neighbour.
        if minDelta == 0 || maxDelta == 0 { return false }

        // The darkest or the brightest neighbour must have 3+ equal siblings in both images.
        return (hasManySiblings(a32, minX, minY, width, height) && hasManySiblings(b32, minX, minY, width, height))
            || (hasManySiblings(a32, maxX, maxY, width, height) && hasManySiblings(b32, maxX, maxY, width, height))
    }

    /// Whether pixel (`x1`, `y1`) has 3+ adjacent pixels of exactly the same RGBA (image borders
    /// count as one).
    private static func hasManySiblings(_ image: UnsafeRawPointer, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let value = word(image, y1 * width + x1)
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var x = x0
        while x <= x2 {
            var y = y0
            while y <= y2 {
                if !(x == x1 && y == y1) && word(image, y &* width &+ x) == value {
                    zeroes &+= 1
                    if zeroes > 2 { return true }
                }
                y &+= 1
            }
            x &+= 1
        }
        return false
    }

    /// pixelmatch's `colorDelta`: the squared YIQ distance (Y. Kotsarenko and F. Ramos, "Measuring
    /// perceived color difference using YIQ NTSC transmission color space in mobile applications"),
    /// negative when the second pixel is darker; or with `yOnly` the signed luma difference
    /// `Y(first) − Y(second)`. `k` and `m` are byte offsets; translucent pixels are composited over
    /// a background that depends on `k`: red 48 + 159·(k mod 2), green 48 + 159·(⌊k/φ⌋ mod 2),
    /// blue 48 + 159·(⌊k/φ²⌋ mod 2), φ = 1.618033988749895.
    @inline(__always)
    private static func colorDelta(
        _ img1: UnsafeRawPointer, _ img2: UnsafeRawPointer, _ k: Int, _ m: Int, yOnly: Bool
    ) -> Double {
        let r1 = Double(img1.load(fromByteOffset: k, as: UInt8.self))
        let g1 = Double(img1.load(fromByteOffset: k + 1, as: UInt8.self))
        let b1 = Double(img1.load(fromByteOffset: k + 2, as: UInt8.self))
        let a1 = Double(img1.load(fromByteOffset: k + 3, as: UInt8.self))
        let r2 = Double(img2.load(fromByteOffset: m, as: UInt8.self))
        let g2 = Double(img2.load(fromByteOffset: m + 1, as: UInt8.self))
        let b2 = Double(img2.load(fromByteOffset: m + 2, as: UInt8.self))
        let a2 = Double(img2.load(fromByteOffset: m + 3, as: UInt8.self))

        var dr = r1 - r2
        var dg = g1 - g2
        var db = b1 - b2
        let da = a1 - a2

        if dr == 0 && dg == 0 && db == 0 && da == 0 { return 0 }

        if a1 < 255 || a2 < 255 {
            (dr, dg, db) = blended(r1, g1, b1, a1, r2, g2, b2, a2, k)
        }

        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        if yOnly { return y }

        let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q

        // The sign tells whether the second pixel is darker.
        return y > 0 ? -delta : delta
    }

    /// The color differences of two translucent pixels blended with pixelmatch's background
    /// pattern at byte offset `k`; the operation order is pixelmatch's. Not inlined: its divisions
    /// would otherwise be computed ahead of the test for opaque pixels, which never need them.
    @inline(never)
    private static func blended(_ r1: Double, _ g1: Double, _ b1: Double, _ a1: Double,
                                _ r2: Double, _ g2: Double, _ b2: Double, _ a2: Double, _ k: Int) -> (Double, Double, Double) {
        let da = a1 - a2
        let rb = 48 + 159 * Double(k % 2)
        let gb = 48 + 159 * Double(Int(Double(k) / 1.618033988749895) % 2)
        let bb = 48 + 159 * Double(Int(Double(k) / 2.618033988749895) % 2)
        return ((r1 * a1 - r2 * a2 - rb * da) / 255, (g1 * a1 - g2 * a2 - gb * da) / 255, (b1 * a1 - b2 * a2 - bb * da) / 255)
    }

    @inline(__always)
    private static func drawPixel(_ output: UnsafeMutableRawPointer, _ pos: Int, _ color: DiffColor) {
        let rgba = UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | 0xFF00_0000
        output.storeBytes(of: rgba.littleEndian, toByteOffset: pos, as: UInt32.self)
    }

    /// ``grayValue(_:_:_:)`` remembering the last pixel's value and gray: UI frames are
    /// runs of equal pixels, so most pixels skip the arithmetic. The same bytes as without it.
    private struct GrayCache {
        var pixel: UInt32 = 0
        var gray: UInt8 = 0
        var valid = false

        @inline(__always)
        mutating func draw(_ image: UnsafeRawPointer, _ i: Int, _ alpha: Double, _ output: UnsafeMutableRawPointer) {
            let p = image.loadUnaligned(fromByteOffset: i, as: UInt32.self)
            if !valid || p != pixel {
                gray = grayValue(image, i, alpha)
                pixel = p
                valid = true
            }
            drawPixel(output, i, DiffColor(red: gray, green: gray, blue: gray))
        }
    }

    /// The first image's luma at byte offset `i` blended with white by `alpha × A/255`, truncated
    /// like a store into pixelmatch's `Uint8Array` (the diff image draws it opaque).
    @inline(__always)
    private static func grayValue(_ image: UnsafeRawPointer, _ i: Int, _ alpha: Double) -> UInt8 {
        let r = Double(image.load(fromByteOffset: i, as: UInt8.self))
        let g = Double(image.load(fromByteOffset: i + 1, as: UInt8.self))
        let b = Double(image.load(fromByteOffset: i + 2, as: UInt8.self))
        let a = Double(image.load(fromByteOffset: i + 3, as: UInt8.self))
        let value = 255 + (r * 0.29889531 + g * 0.58662247 + b * 0.11448223 - 255) * alpha * a / 255
        return UInt8(min(max(value, 0), 255))  // in 0 … 255.0000026 for alpha in 0 … 1
    }
}
