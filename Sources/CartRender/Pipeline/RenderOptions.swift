import CartRenderCore
import CartRenderRaster

/// Which frames of the timeline to render.
public enum FrameSelection: Equatable, Sendable {
    /// Every frame, 0 through `round(duration × fps)`.
    case all
    /// Frame indices `first` through `last`, inclusive.
    case range(Int, Int)
    /// One frame showing the state at exactly this time (s); `--at start` is `.at(0)`.
    case at(Double)
    /// `--at end`: one frame showing the settled final state, at the end of the timeline as the
    /// scene decoder resolves it (``Renderer/duration``: the scene's `duration`, or
    /// ``Renderer/tail`` after the motion settles), named after the last frame index.
    case end
}

/// How to render a scene: where, in which formats, which frames, how many workers.
///
/// The settings of each format are in ``formatSettings`` and read as properties of the options
/// themselves: `options.gif.loopCount`, `options.webm.lossless` (each format's file declares
/// its own, ``FormatSettings``).
@dynamicMemberLookup
public struct RenderOptions: Sendable {
    /// Output directory (created when missing). Ignored when ``outputFile`` is set.
    public var outputDirectory: String = "frames"
    /// The one file to write instead of a directory (`-o docs/fly.gif`): the animation of the
    /// single animated format in ``formats``, written atomically over an earlier regular file
    /// at that name, together with ``manifestFile`` (``NamedFiles``); nothing else is written
    /// beside it. Its directory is created when missing.
    public var outputFile: String?
    /// Where the manifest of a render to ``outputFile`` goes (`--manifest PATH`); nil: no
    /// manifest is written.
    public var manifestFile: String?
    /// The formats written (`--format`), the first the primary; default PNG.
    public var formats: [OutputFormat] = [.png]
    /// Which frames (`--frames`, `--at`); default all.
    public var frames: FrameSelection = .all
    /// Worker threads (≥ 1); nil = the number of cores. Fewer when the address-space limit has
    /// room for fewer (``Renderer/affordableWorkers(_:)``). Output bytes do not depend on it.
    public var jobs: Int?
    /// Whether workers redraw only what changed between frames (default) or every frame in
    /// full; the bytes are the same (``FrameStream/tracksDamage``). Not a command-line option,
    /// and SPI rather than API: `cartrender-bench` and the tests compare the two through
    /// `CartRenderTestSupport`.
    @_spi(DamageTracking) public var tracksDamage = true
    /// Render only shard `k` of `n` (1-based): a contiguous block of the selected frames. The
    /// shard's manifest is `shard-K-of-N.json`; `cartrender merge` joins shards.
    public var shard: (Int, Int)?
    /// The settings of every format (only those in ``formats`` are used).
    public var formatSettings = FormatSettings()
    /// Also write `contact-sheet.png`: the whole timeline on one image.
    public var contactSheet = false
    /// Also write `index.html`: the viewer of the frames, their state and events (``ViewerPage``).
    public var viewer = false
    /// Audit the frames (``AuditSink``) and put the report in the manifest's `audit`.
    public var audit: AuditOptions?
    /// Called as the render goes through its phases (``RenderProgress``): after each frame is
    /// drawn, as each format's file is finished, when the files are moved into place; from any
    /// thread.
    public var progress: (@Sendable (RenderProgress) -> Void)?
    /// Stops the render between frames when cancelled (SIGINT, SIGTERM); nil = never.
    public var cancellation: RenderCancellation?
    /// The transaction the named files of a render to ``outputFile`` go into when several
    /// renders replace their files together (`--color-scheme light,dark`, variants): the render
    /// stages them there and its caller commits; nil: the render commits its own.
    package var namedFiles: NamedFiles?
    #if CARTRENDER_TEST_HOOKS
    /// Further sinks fed the same frames, after the outputs and before the manifest; what they
    /// write is theirs to manage (tests use one to fail a render at a chosen frame). Debug builds
    /// only (`CARTRENDER_TEST_HOOKS`).
    var additionalSinks: [any FrameSink] = []
    #else
    /// None in a release build: only the tests add sinks, in debug builds.
    var additionalSinks: [any FrameSink] { [] }
    #endif

    /// The defaults: PNG frames into `frames/`, as many workers as the memory budget allows up to one per core.
    public init() {}

    /// A format's settings by the property its file declares on ``FormatSettings``: `options.gif`.
    public subscript<Value>(dynamicMember setting: WritableKeyPath<FormatSettings, Value>) -> Value {
        get { formatSettings[keyPath: setting] }
        set { formatSettings[keyPath: setting] = newValue }
    }
}
