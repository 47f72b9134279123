import CartRenderCore
import CartRenderRaster
import Foundation

/// `cartrender render [SCENE.json] [--out DIR] …`, or the same without `render`: the render
/// command, parsed and validated. Its options go straight into the ``RenderOptions`` it runs with.
public struct RenderCommand: Sendable {
    /// The scene and the options that change its frames.
    public var scene = SceneOptions()
    /// Where, in which formats, which frames, with how many workers.
    public var options = RenderOptions()
    /// No progress bar and no summary.
    public var quiet = false

    /// A render of the default scene into `frames/` with the default options.
    public init() {}

    static let options = OptionTable<RenderCommand>([
        Option("--out", short: "-o", "DIR", "Output directory (default: frames/).", .nonEmpty("a directory")) { $0.options.outputDirectory = $1 },
        Option("--format", "FORMAT", "\(listed(OutputFormat.all.map(\.name), "or")); several with commas (png,mp4). Default: png.", .formats) { $0.options.formats = $1 },
        Option("--frames", "A-B", "Render frame indices A through B inclusive.", .frameRange) { $0.options.frames = $1 },
        Option("--at", "SECONDS", "Render one frame showing the state at exactly this time.", .time) { $0.options.frames = $1 },
        Option("--jobs", "N", "Worker threads (default: the number of cores). Output does not depend on it.", .jobs) { $0.options.jobs = $1 },
        Option("--shard", "K/N", "Render only the K-th of N blocks of frames (1 ≤ K ≤ N); join with `cartrender merge`.", .shard) { $0.options.shard = $1 },
    ] + OutputFormat.optionRows.map { $0.pullback(\.options.formatSettings) } + [
        Option("--contact-sheet", "Also write contact-sheet.png: 12 frames of the whole timeline on one image.") { $0.options.contactSheet = true },
        Option("--audit", "Also audit accessibility (as cartrender audit, WCAG AA) into manifest.json's \"audit\".") { $0.options.audit = AuditOptions() },
        Option("--viewer", "Also write index.html: a page to scrub, play and step through the frames with their state.") { $0.options.viewer = true },
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
        try OutputFormat.checkOptions(given: names, formats: c.options.formats, settings: c.options.formatSettings)
        let o = c.options
        if o.shard != nil, let file = o.formats.lazy.compactMap(\.animationFileName).first {
            throw UsageError("--shard cannot make \(file): render the shards as png, merge them, then render the animation in one run")
        }
        if o.shard != nil && o.contactSheet { throw UsageError("--shard and --contact-sheet cannot be used together") }
        if o.shard != nil && o.viewer { throw UsageError("--shard and --viewer cannot be used together: merge the shards, then run cartrender view") }
        if o.shard != nil && (given.contains("--frames") || given.contains("--at")) { throw UsageError("--shard splits the whole timeline: it cannot be used with --frames or --at") }
        if o.shard != nil && o.audit != nil { throw UsageError("--shard and --audit cannot be used together: audit the whole render") }
        return c
    }
}

extension OptionValue where Value == (Int, Int) {
    /// `--shard K/N` with 1 ≤ K ≤ N ≤ 10000: (K, N).
    static var shard: OptionValue {
        checked("K/N with 1 ≤ K ≤ N ≤ 10000") { text in
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 10_000, (1...n).contains(k) else { return nil }
            return (k, n)
        }
    }
}
