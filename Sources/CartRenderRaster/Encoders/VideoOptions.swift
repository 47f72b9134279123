/// The codec (and with it the container) of a video, with the codec's settings.
public enum VideoCodec: Equatable, Sendable {
    /// H.264 by libx264 in an MP4 file.
    case h264(H264Options)
    /// VP9 by libvpx in a WebM file.
    case vp9(VP9Options)

    /// The container's name for sentences: `MP4`, `WebM`.
    public var containerName: String {
        switch self {
        case .h264: return "MP4"
        case .vp9: return "WebM"
        }
    }

    /// Whether chroma is stored at half resolution both ways (4:2:0: every case but lossless VP9),
    /// which needs even sides.
    var subsamplesChroma: Bool {
        switch self {
        case .h264: return true
        case let .vp9(options): return !options.lossless
        }
    }

    /// - Throws: `AnimationEncodingError.invalidOption` naming the option out of range.
    func validate() throws {
        switch self {
        case let .h264(options): try options.validate()
        case let .vp9(options): try options.validate()
        }
    }
}

/// Settings of the H.264 encoder (`--format mp4`).
///
/// The rest is fixed, chosen on the default scene (flat UI, text), measured with the same
/// Debian libx264 at crf 18: preset `veryfast` with tune `animation` (lighter deblocking and
/// psycho-visual tuning, for flat areas with sharp edges), and from ``fastSearchPixels`` a
/// frame `subme=1`, `rc-lookahead=5`: at 3x (1179 × 2556 px) 220 kB in about 3.0 s of CPU,
/// against 216 kB in 3.4 s with veryfast's own `subme` 2 and `rc-lookahead` 10 and 166 kB in
/// 6.8 s for preset `slow`, every frame's SSIM above 0.999 (docs/performance.md, "Video
/// speed"); two frame threads; libx264's SIMD functions without AVX-512
/// (docs/documentation-outputs.md, "Deterministic").
public struct H264Options: Equatable, Sendable {
    /// Constant rate factor, 0…51: lower is better and larger; 0 is lossless in YUV (the
    /// RGB → YUV 4:2:0 conversion still rounds and halves the chroma). Default 18: text and
    /// edges of the default scene stay sharp (docs/documentation-outputs.md's table has its size and SSIM).
    public var crf: Int

    /// The range of `crf`: libx264's for 8-bit video.
    public static let crfRange = 0...51

    /// Frames of at least this many pixels (1 000 000: 2x and 3x iPhone screens) are encoded
    /// with the faster motion search and shorter lookahead (`subme=1`, `rc-lookahead=5`);
    /// smaller ones (1x, 393 × 852 px) keep the preset's, which keeps the demo's mean SSIM at
    /// 0.9993 where the faster settings give 0.9988, and costs them a few tenths of a second.
    public static let fastSearchPixels = 1_000_000

    /// H.264 at constant rate factor `crf` (0…51, lower is better; default 18).
    public init(crf: Int = 18) { self.crf = crf }

    func validate() throws {
        guard Self.crfRange.contains(crf) else {
            throw AnimationEncodingError.invalidOption(name: "crf", reason: "must be a whole number from 0 to 51 for H.264, not \(crf)")
        }
    }
}

/// Settings of the VP9 encoder (`--format webm`).
///
/// The rest is fixed, measured with the same Debian libvpx on the default scene at 3x: the
/// `realtime` deadline at `cpu-used` 5 (307 kB with two tile columns, 312 kB without, in 2.8 s
/// of CPU; `good` at `cpu-used` 2 gave 217 kB in 14 s, at 4 236 kB in 11 s; `realtime` at 8
/// 396 kB in 2.3 s), every frame's SSIM above 0.999; constant quality (no bit-rate target), no lookahead (`lag-in-frames` 0), two
/// tile columns encoded on two threads (from 640 px wide; the same bytes as one thread), no row
/// multithreading.
public struct VP9Options: Equatable, Sendable {
    /// Constant quality level, 0…63 (libvpx's scale, not libx264's): lower is better and larger.
    /// Default 30: the default scene's decoded frames keep a mean SSIM above 0.999 at 1x and 3x
    /// and text stays sharp (figures: docs/documentation-outputs.md, from
    /// `Benchmarks/documentation-formats.sh` and `Benchmarks/video-speed.sh`). Ignored when `lossless`.
    public var crf: Int
    /// VP9 lossless (profile 1): frames are stored as planar RGB (`gbrp`, 4:4:4, no YUV
    /// conversion), so every decoded frame equals the source frame's RGB exactly, at the
    /// source's size (odd sides included).
    public var lossless: Bool

    /// The range of `crf`: libvpx's quantizer scale.
    public static let crfRange = 0...63

    /// VP9 at constant quality `crf` (0…63, lower is better; default 30), or lossless.
    public init(crf: Int = 30, lossless: Bool = false) {
        self.crf = crf
        self.lossless = lossless
    }

    func validate() throws {
        guard Self.crfRange.contains(crf) else {
            throw AnimationEncodingError.invalidOption(name: "crf", reason: "must be a whole number from 0 to 63 for VP9, not \(crf)")
        }
    }
}

/// What `VideoEncoder.finish()` wrote.
public struct VideoSummary: Equatable, Sendable {
    /// Frames in the video: every frame passed to `add(_:)`, identical ones included.
    public var frameCount: Int
    /// The video's size in px: the frames' size, each odd side one pixel larger for 4:2:0.
    public var codedWidth: Int
    /// The coded height (px): the frames' height, one larger when odd.
    public var codedHeight: Int
    /// Size of the file in bytes.
    public var byteCount: Int

    /// A summary of these counts, sizes (px) and file size (bytes).
    public init(frameCount: Int, codedWidth: Int, codedHeight: Int, byteCount: Int) {
        self.frameCount = frameCount
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
        self.byteCount = byteCount
    }
}
