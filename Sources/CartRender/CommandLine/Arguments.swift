import CartRenderCore
import CartRenderRaster
import Foundation

/// `cartrender [SCENE.json] [--out DIR] …`: the render command, parsed and validated.
public struct RenderCommand: Sendable {
    /// The scene and the options that change its frames.
    public var scene = SceneOptions()
    public var outputDirectory = "frames"
    public var formats: [OutputFormat] = [.png]
    public var frames: FrameSelection = .all
    /// nil = the number of cores.
    public var jobs: Int?
    public var quiet = false
    /// Also write `contact-sheet.png`.
    public var contactSheet = false
    /// Also write `index.html`, the viewer of the render.
    public var viewer = false
    /// The settings of the formats (`--loop`, `--gif-quality`, `--crf`…).
    public var formatSettings = FormatSettings()
    /// Shard `k` of `n` (1-based), or nil for the whole render.
    public var shard: Shard?
    /// `--audit`: the accessibility audit into the manifest.
    public var audit: AuditOptions?

    /// `--shard K/N`: render the K-th of N contiguous blocks of frames.
    public struct Shard: Equatable, Sendable { public var index: Int; public var count: Int }

    public init() {}

    static let options = OptionTable<RenderCommand>([
        Option("--out", short: "-o", "DIR", "Output directory (default: frames/).", .nonEmpty("a directory")) { $0.outputDirectory = $1 },
        Option("--format", "FORMAT", "\(listed(OutputFormat.all.map(\.name), "or")); several with commas (png,mp4). Default: png.", .formats) { $0.formats = $1 },
        Option("--frames", "A-B", "Render frame indices A through B inclusive.", .frameRange) { $0.frames = $1 },
        Option("--at", "SECONDS", "Render one frame showing the state at exactly this time.", .time) { $0.frames = $1 },
        Option("--jobs", "N", "Worker threads (default: the number of cores). Output does not depend on it.", .jobs) { $0.jobs = $1 },
        Option("--shard", "K/N", "Render only the K-th of N blocks of frames (1 ≤ K ≤ N); join with `cartrender merge`.", .shard) { $0.shard = $1 },
    ] + OutputFormat.optionRows.map { $0.pullback(\.formatSettings) } + [
        Option("--contact-sheet", "Also write contact-sheet.png: 12 frames of the whole timeline on one image.") { $0.contactSheet = true },
        Option("--audit", "Also audit accessibility (as cartrender audit, WCAG AA) into manifest.json's \"audit\".") { $0.audit = AuditOptions() },
        Option("--viewer", "Also write index.html: a page to scrub, play and step through the frames with their state.") { $0.viewer = true },
        Option("--quiet", "No progress bar and no summary.") { $0.quiet = true },
        .help,
        Option("--version", "Show the version.") { _ in },
    ]).including(SceneOptions.options, at: \.scene)

    /// Parses render arguments (without the program name).
    /// - Throws: `UsageError` with one sentence naming the option.
    public static func parse(_ arguments: [String]) throws -> RenderCommand {
        var c = RenderCommand()
        let (positionals, names) = try options.parse(arguments, into: &c) { try SceneOptions.checkScenePositionals($0, command: nil) }
        c.scene.scenePath = positionals.first
        let given = Set(names)
        if given.contains("--frames") && given.contains("--at") { throw UsageError("--frames and --at cannot be used together") }
        // Options that would have no effect are errors, not silently ignored.
        try OutputFormat.checkOptions(given: names, formats: c.formats, settings: c.formatSettings)
        if c.shard != nil, let f = c.formats.first(where: { !$0.isPerFrame }), let file = f.animationFileName {
            throw UsageError("--shard cannot make \(file): render the shards as png, merge them, then render the animation in one run")
        }
        if c.shard != nil && c.contactSheet { throw UsageError("--shard and --contact-sheet cannot be used together") }
        if c.shard != nil && c.viewer { throw UsageError("--shard and --viewer cannot be used together: merge the shards, then run cartrender view") }
        if c.shard != nil && (given.contains("--frames") || given.contains("--at")) { throw UsageError("--shard splits the whole timeline: it cannot be used with --frames or --at") }
        if c.shard != nil && c.audit != nil { throw UsageError("--shard and --audit cannot be used together: audit the whole render") }
        return c
    }
}

extension OptionValue where Value == RenderCommand.Shard {
    /// `--shard K/N` with 1 ≤ K ≤ N ≤ 10000.
    static var shard: OptionValue {
        checked("K/N with 1 ≤ K ≤ N ≤ 10000") { text in
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 10_000, (1...n).contains(k) else { return nil }
            return RenderCommand.Shard(index: k, count: n)
        }
    }
}
