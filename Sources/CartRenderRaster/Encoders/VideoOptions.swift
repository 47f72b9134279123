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
/// The rest is fixed, chosen on the default scene (flat UI, text) and measured by
/// `cartrender-bench --documentation-formats`: libx264 preset `slow`, tune `animation` (more
/// reference frames and B-frames, lighter deblocking and psycho-visual tuning: for flat areas
/// with sharp edges), `rc-lookahead` 10 (at 1179 × 2556 px the preset's 50 frames of lookahead
/// cost more memory and gave a larger file), one thread.
public struct H264Options: Equatable, Sendable {
    /// Constant rate factor, 0…51: lower is better and larger; 0 is lossless in YUV (the
    /// RGB → YUV 4:2:0 conversion still rounds and halves the chroma). Default 18: text and
    /// edges of the default scene stay sharp (mean SSIM of the decoded frames against the PNG
    /// frames ≥ 0.98 at 1x; see the README's table).
    public var crf: Int

    /// The range of `crf`: libx264's for 8-bit video.
    public static let crfRange = 0...51

    public init(crf: Int = 18) { self.crf = crf }

    func validate() throws {
        guard Self.crfRange.contains(crf) else {
            throw AnimationEncodingError.invalidOption(name: "crf", reason: "must be a whole number from 0 to 51 for H.264, not \(crf)")
        }
    }
}

/// Settings of the VP9 encoder (`--format webm`).
///
/// The rest is fixed: libvpx's `good` deadline at `cpu-used` 2 (1 was 30 % slower for a 2 %
/// smaller file on the default scene), constant quality (no bit-rate target), no lookahead
/// (`lag-in-frames` 0: no hidden alternate reference frames; on the default scene the file was
/// the same), one thread without row multithreading.
public struct VP9Options: Equatable, Sendable {
    /// Constant quality level, 0…63 (libvpx's scale, not libx264's): lower is better and larger.
    /// Default 30 (measured: the mean SSIM of the default scene's decoded frames is within 0.001
    /// of crf 20's for two thirds of the size). Ignored when `lossless`.
    public var crf: Int
    /// VP9 lossless (profile 1): frames are stored as planar RGB (`gbrp`, 4:4:4, no YUV
    /// conversion), so every decoded frame equals the source frame's RGB exactly, at the
    /// source's size (odd sides included).
    public var lossless: Bool

    /// The range of `crf`: libvpx's quantizer scale.
    public static let crfRange = 0...63

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
    public var codedHeight: Int
    /// Size of the file in bytes.
    public var byteCount: Int

    public init(frameCount: Int, codedWidth: Int, codedHeight: Int, byteCount: Int) {
        self.frameCount = frameCount
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
        self.byteCount = byteCount
    }
}
