import CartRenderCore
import CartRenderRaster

/// An output format of a render (docs/command-line.md, “Outputs”).
public enum OutputFormat: String, Sendable, CaseIterable {
    /// `DIR/frame_NNNN.png`, 8-bit RGBA.
    case png
    /// `DIR/frame_NNNN.svg`, Cairo's SVG surface.
    case svg
    /// `DIR/animation.gif`: libimagequant palettes, giflib.
    case gif
    /// `DIR/animation.webp`: libwebp sub-frames compressed in parallel and assembled with libwebpmux, lossless by default.
    case webp
    /// `DIR/animation.png`: an animated PNG, lossless, each frame the rectangle that changed.
    case apng
    /// `DIR/animation.mp4`: H.264 (libx264), yuv420p BT.709, every frame at the render's fps.
    case mp4
    /// `DIR/animation.webm`: VP9 (libvpx), yuv420p BT.709 or lossless planar RGB.
    case webm

    /// Whether the format is one file per frame (PNG, SVG) rather than one animation.
    public var isPerFrame: Bool { self == .png || self == .svg }
    /// The animation's file name: `animation.gif`, `animation.webp`, `animation.png` (APNG),
    /// `animation.mp4`, `animation.webm`.
    public var animationFileName: String { "animation." + (self == .apng ? "png" : rawValue) }
}

/// Which frames of the timeline to render.
public enum FrameSelection: Equatable, Sendable {
    /// Every frame, 0 through `round(duration × fps)`.
    case all
    /// Frame indices `first` through `last`, inclusive.
    case range(Int, Int)
    /// One frame showing the state at exactly this time (s).
    case at(Double)
}

/// How to render a scene: where, in which formats, which frames, how many workers.
public struct RenderOptions: Sendable {
    /// Output directory (created when missing).
    public var outputDirectory: String = "frames"
    public var formats: [OutputFormat] = [.png]
    public var frames: FrameSelection = .all
    /// Worker threads (≥ 1). Output bytes do not depend on it.
    public var jobs: Int = 1
    public var pngCompression: PNGEncoder.Compression = .default
    /// Whether workers redraw only what changed between frames (default) or every frame in
    /// full; the bytes are the same (``FrameStream/tracksDamage``). Not a command-line option,
    /// and SPI rather than API: `cartrender-bench` and the tests compare the two through
    /// `CartRenderTestSupport`.
    @_spi(DamageTracking) public var tracksDamage = true
    /// Render only shard `k` of `n` (1-based): a contiguous block of the selected frames. The
    /// shard's manifest is `shard-K-of-N.json`; `cartrender merge` joins shards.
    public var shard: (Int, Int)?
    /// GIF settings (`--loop`, `--gif-quality`, `--gif-speed`, `--dither`).
    public var gif = GIFOptions()
    /// WebP settings (`--loop`, `--quality` for lossy).
    public var webp = WebPOptions()
    /// APNG settings (`--loop`, `--png-compression`).
    public var apng = APNGOptions()
    /// MP4 settings (`--crf`).
    public var mp4 = H264Options()
    /// WebM settings (`--crf`, `--lossless`).
    public var webm = VP9Options()
    /// Also write `contact-sheet.png`: the whole timeline on one image.
    public var contactSheet = false
    /// Also write `index.html`: the viewer of the frames, their state and events (``ViewerPage``).
    public var viewer = false
    /// Audit the frames (``AuditSink``) and put the report in the manifest's `audit`.
    public var audit: AuditOptions?
    /// Called after each frame is written with (frames done, frames total); from any thread.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Stops the render between frames when cancelled (SIGINT, SIGTERM); nil = never.
    public var cancellation: RenderCancellation?
    #if CARTRENDER_TEST_HOOKS
    /// Further sinks fed the same frames, after the outputs and before the manifest; what they
    /// write is theirs to manage (tests use one to fail a render at a chosen frame). Debug builds
    /// only (`CARTRENDER_TEST_HOOKS`).
    var additionalSinks: [any FrameSink] = []
    #else
    /// None in a release build: only the tests add sinks, in debug builds.
    var additionalSinks: [any FrameSink] { [] }
    #endif

    public init() {}
}
