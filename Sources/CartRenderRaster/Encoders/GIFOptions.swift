/// How GIF frames get their colors (each GIF image has at most 256).
///
/// Measured on a 60-frame, 60 fps UI animation (a product flying into a cart whose red badge
/// appears on landing; 35 GIF images; SSIM = mean over images, `ImageSimilarity.meanSSIM` of CartRenderTestSupport):
///
/// | size            | `.perFrame`           | `.shared`                    |
/// |-----------------|-----------------------|------------------------------|
/// | 393 × 852 px    | 143 248 B, SSIM 0.9970 | 109 491 B (−24 %), 0.9912  |
/// | 1179 × 2556 px  | 736 814 B, SSIM 0.9968 | 672 348 B (−9 %), 0.9883   |
///
/// At equal size per-frame palettes are as good or better than `.shared` from 1x up (1179 × 2556
/// px with dithering 0.5: 666 756 B at SSIM 0.9977), and the shared palette fails on colors that
/// appear after frame 0: the red badge comes out at SSIM 0.76 (3x, badge region) against an
/// exact badge with per-frame palettes.
///
/// `.global` (the default) builds its palette from every frame, so late colors such as the badge
/// are in it, and drops the 768-byte table of each later image. On the default scene
/// (`Benchmarks/gif-benchmark.sh`, 198 frames, 112 images) it is the smallest: see
/// docs/animations.md for the figures against `.perFrame` and ffmpeg.
public enum GIFPaletteStrategy: String, CaseIterable, Equatable, Sendable {
    /// One palette for the whole animation, from a libimagequant histogram of every image's
    /// pixels (`liq_histogram_add_image` as frames arrive; the images are held until `finish()`,
    /// see `GIFOptions.globalPaletteBufferLimit`), written once as the global color table. The
    /// first image keeps a local palette of its own: it is the only full-size one, holds most
    /// colors, and stays on screen wherever nothing changes. A later image falls back to its own
    /// palette when the global one represents it badly (mean squared error above 4 per channel
    /// after remapping, i.e. about 2 levels RMS). If the global palette cannot reach the minimum
    /// quality, every image gets its own palette. The default.
    case global
    /// Each GIF image gets a palette quantized from its own changed rectangle (a local color table
    /// of 2…256 entries). Frames are written as they come (nothing held); costs up to 768 bytes
    /// per image.
    case perFrame
    /// One palette for the whole animation, quantized from the first frame and stored once as the
    /// global color table; later frames are remapped to it. Smaller for small canvases, but
    /// colors that first appear after frame 0 are approximated with the first frame's colors.
    case shared
}

/// Options for `GIFEncoder`. The defaults suit UI animations for documentation pages.
public struct GIFOptions: Equatable, Sendable {
    /// How many times the animation plays: 0 = forever (the default), 1 = once, N = N times.
    /// Stored as the NETSCAPE2.0 loop extension with N − 1 repetitions (none for 1); 1…65536.
    public var loopCount: Int
    /// libimagequant quality range, 0…100 (`liq_set_quality(min, target)`). Quantization aims at
    /// `upperBound` and fails with `AnimationEncodingError.qualityTooLow` below `lowerBound`.
    ///
    /// Default 70…100: a target of 100 keeps flat areas exact. Measured with
    /// `Benchmarks/gif-benchmark.sh` on the default scene (198 frames at 60 fps; "colour SSIM" =
    /// each GIF image against the frame it was made from): 70…100 gives 712 kB at 1179 × 2556 px
    /// and 251 kB at 393 × 852, colour SSIM 0.999997 at both. 70…98 gives 520 kB and 164 kB, but
    /// colour SSIM 0.99992 and 0.99994. Its per-frame palettes no longer hold the exact tint
    /// background, so the pixels repainted where the flying copy has passed differ from the
    /// background by up to 13 levels (1x) and 17 levels (3x). The result is a faint dithered
    /// trace that stays until the area is drawn again. Targets 95 and 97 are worse. The lower
    /// bound only decides when encoding fails.
    public var quality: ClosedRange<Int>
    /// libimagequant speed, 1 (slowest, best palette) … 10 (fastest). Default 4: measured at
    /// 1179 × 2556 px, speed 1 gives the same size and SSIM for about twice the time, speed 8
    /// is 29 % larger at SSIM 0.9933 instead of 0.9968.
    public var speed: Int
    /// Floyd–Steinberg dithering level, 0 (none) … 1 (full, the default). Dithering keeps
    /// gradients free of banding; it costs size and scores lower on SSIM, which counts the noise
    /// but not the banding (measured at 1179 × 2556 px: none 600 905 B, SSIM 0.9992; full
    /// 736 814 B, SSIM 0.9968).
    public var dithering: Float
    /// One palette from all frames with per-image fallback (`.global`, the default), a palette
    /// per image, or the first frame's palette; see `GIFPaletteStrategy` for the measurements.
    public var palette: GIFPaletteStrategy
    /// `.global` only: how many bytes of changed-rectangle pixels (4 bytes a pixel) the encoder
    /// may hold until it makes the palette. Default 256 MiB. When the held frames exceed it, the
    /// palette is made from the frames seen so far and written with them; every later frame is
    /// remapped to it as it comes, or gets its own palette when the global one does not fit it
    /// (typically new colors). 0 makes the palette from the first frame alone.
    public var globalPaletteBufferLimit: Int
    /// Highest frame rate the GIF plays at, in frames per second, 0 < value ≤ 50. Browsers
    /// stretch delays under 2 cs, so GIFs above 50 fps would play slower, not smoother; faster
    /// sources are sampled at this rate (frames dropped evenly).
    public var maxFrameRate: Double
    /// Store only the rectangle that changed since the previous frame, with transparency for its
    /// unchanged pixels (true, the default), or every frame in full (false).
    public var storesChangedRectanglesOnly: Bool

    /// - Parameters: see the properties; every default is the documented one.
    public init(loopCount: Int = 0, quality: ClosedRange<Int> = 70...100, speed: Int = 4,
                dithering: Float = 1.0, palette: GIFPaletteStrategy = .global,
                maxFrameRate: Double = 50, storesChangedRectanglesOnly: Bool = true,
                globalPaletteBufferLimit: Int = 256 << 20) {
        self.loopCount = loopCount
        self.quality = quality
        self.speed = speed
        self.dithering = dithering
        self.palette = palette
        self.maxFrameRate = maxFrameRate
        self.storesChangedRectanglesOnly = storesChangedRectanglesOnly
        self.globalPaletteBufferLimit = globalPaletteBufferLimit
    }

    /// - Throws: `AnimationEncodingError.invalidOption` naming the first option out of range.
    func validate() throws {
        guard (0...65536).contains(loopCount) else {
            throw AnimationEncodingError.invalidOption(name: "loopCount", reason: "must be 0 (forever) or 1…65536 plays, not \(loopCount)")
        }
        guard quality.lowerBound >= 0, quality.upperBound <= 100 else {
            throw AnimationEncodingError.invalidOption(name: "quality", reason: "must lie within 0…100, not \(quality)")
        }
        guard (1...10).contains(speed) else {
            throw AnimationEncodingError.invalidOption(name: "speed", reason: "must be 1…10, not \(speed)")
        }
        guard dithering >= 0, dithering <= 1 else {
            throw AnimationEncodingError.invalidOption(name: "dithering", reason: "must be 0…1, not \(dithering)")
        }
        guard globalPaletteBufferLimit >= 0 else {
            throw AnimationEncodingError.invalidOption(name: "globalPaletteBufferLimit", reason: "must be 0 or more bytes, not \(globalPaletteBufferLimit)")
        }
        guard maxFrameRate.isFinite, maxFrameRate > 0, maxFrameRate <= 50 else {
            throw AnimationEncodingError.invalidOption(name: "maxFrameRate", reason: "must be above 0 and at most 50 fps, not \(maxFrameRate)")
        }
    }
}

/// What `GIFEncoder.finish()` wrote.
public struct GIFSummary: Equatable, Sendable {
    /// Frames passed to `add(_:)`.
    public var sourceFrameCount: Int
    /// Images in the GIF.
    public var writtenFrameCount: Int
    /// Source frames dropped to respect `GIFOptions.maxFrameRate`.
    public var droppedFrameCount: Int
    /// Source frames identical to the frame shown before them, merged into its delay.
    public var mergedFrameCount: Int
    /// Sum of all delays in centiseconds: exactly `round(sourceFrameCount × 100 / fps)`.
    public var durationCentiseconds: Int
    /// Size of the GIF file in bytes.
    public var byteCount: Int
    /// One sentence for the user when frames were dropped (say it once), otherwise `nil`.
    public var frameRateNotice: String?
    /// Images written with their own (local) color table: all of them with `.perFrame`, the
    /// fallbacks with `.global`, none with `.shared`.
    public var localPaletteCount: Int

    /// A summary of these counts, duration (cs) and size (bytes).
    public init(sourceFrameCount: Int, writtenFrameCount: Int, droppedFrameCount: Int, mergedFrameCount: Int,
                durationCentiseconds: Int, byteCount: Int, frameRateNotice: String?, localPaletteCount: Int = 0) {
        self.sourceFrameCount = sourceFrameCount
        self.writtenFrameCount = writtenFrameCount
        self.droppedFrameCount = droppedFrameCount
        self.mergedFrameCount = mergedFrameCount
        self.durationCentiseconds = durationCentiseconds
        self.byteCount = byteCount
        self.frameRateNotice = frameRateNotice
        self.localPaletteCount = localPaletteCount
    }
}
