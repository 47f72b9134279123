import CartRenderCore
import CartRenderRaster
import Foundation

/// `cartrender [SCENE.json] [--out DIR] …`: the render command, parsed and validated.
public struct RenderCommand: Equatable, Sendable {
    /// The scene and the options that change its frames.
    public var scene = SceneOptions()
    public var outputDirectory = "frames"
    public var formats: [OutputFormat] = [.png]
    public var frames: FrameSelection = .all
    /// nil = the number of cores.
    public var jobs: Int?
    public var quiet = false
    public var pngCompression: PNGEncoder.Compression = .default
    /// Also write `contact-sheet.png`.
    public var contactSheet = false
    /// Also write `index.html`, the viewer of the render.
    public var viewer = false
    /// GIF, WebP, APNG, MP4 and WebM settings.
    public var gif = GIFOptions()
    public var webp = WebPOptions()
    public var apng = APNGOptions()
    public var mp4 = H264Options()
    public var webm = VP9Options()
    /// Shard `k` of `n` (1-based), or nil for the whole render.
    public var shard: Shard?
    /// `--audit`: the accessibility audit into the manifest.
    public var audit: AuditOptions?

    /// `--shard K/N`: render the K-th of N contiguous blocks of frames.
    public struct Shard: Equatable, Sendable { public var index: Int; public var count: Int }

    public init() {}

    static let options = OptionTable<RenderCommand>([
        Option("--out", short: "-o", "DIR", "Output directory (default: frames/).", .nonEmpty("a directory")) { $0.outputDirectory = $1 },
        Option("--format", "FORMAT", "png, svg, gif, webp, apng, mp4 or webm; several with commas (png,mp4). Default: png.", .formats) { $0.formats = $1 },
        Option("--frames", "A-B", "Render frame indices A through B inclusive.", .frameRange) { $0.frames = $1 },
        Option("--at", "SECONDS", "Render one frame showing the state at exactly this time.", .time) { $0.frames = $1 },
        Option("--jobs", "N", "Worker threads (default: the number of cores). Output does not depend on it.", .jobs) { $0.jobs = $1 },
        Option("--png-compression", "fast|default|small", "PNG and APNG speed/size trade-off (default: default).", .oneOf) {
            $0.pngCompression = $1; $0.apng.compression = $1
        },
        Option("--shard", "K/N", "Render only the K-th of N blocks of frames (1 ≤ K ≤ N); join with `cartrender merge`.", .shard) { $0.shard = $1 },
        Option("--loop", "N", "GIF/WebP/APNG: play N times, 0 = forever (default 0).",
               .int(0...65535, expected: "a whole number from 0 (forever) to 65535")) { $0.gif.loopCount = $1; $0.webp.loopCount = $1; $0.apng.loopCount = $1 },
        Option("--quality", "Q", "WebP: lossy at quality 0…100 (default: lossless).", .number(Float(0)...100)) { $0.webp.lossless = false; $0.webp.quality = $1 },
        Option("--crf", "N", "MP4/WebM: quality, lower is better and larger: H.264 0…51 (default 18), VP9 0…63 (default 30).",
               .int(VP9Options.crfRange, expected: "a whole number from 0 to 51 (mp4) or 63 (webm)")) { $0.mp4.crf = $1; $0.webm.crf = $1 },
        Option("--lossless", "WebM: VP9 lossless, every frame exact (planar RGB, 4:4:4).") { $0.webm.lossless = true },
        Option("--gif-quality", "MIN-MAX", "GIF: libimagequant quality range 0…100 (default 70-100).", .gifQuality) { $0.gif.quality = $1 },
        Option("--gif-speed", "N", "GIF: libimagequant speed 1 (best) … 10 (fastest), default 4.", .int(1...10)) { $0.gif.speed = $1 },
        Option("--dither", "D", "GIF: dithering level 0…1 (default 1).", .number(Float(0)...1)) { $0.gif.dithering = $1 },
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
        if !c.formats.contains(.gif), let o = ["--gif-quality", "--gif-speed", "--dither"].first(where: given.contains) {
            throw UsageError("\(o) only applies to GIF: add gif to --format")
        }
        if !c.formats.contains(.webp), given.contains("--quality") {
            throw UsageError("--quality only applies to WebP: add webp to --format")
        }
        if !c.formats.contains(.webm), given.contains("--lossless") {
            throw UsageError("--lossless only applies to WebM: add webm to --format")
        }
        if given.contains("--crf") {
            if !c.formats.contains(.mp4) && (!c.formats.contains(.webm) || c.webm.lossless) {
                throw UsageError(c.formats.contains(.webm) ? "--crf has no effect on a lossless WebM: drop --crf or --lossless"
                                                           : "--crf only applies to MP4 and WebM: add mp4 or webm to --format")
            }
            if c.formats.contains(.mp4), !H264Options.crfRange.contains(c.mp4.crf) {
                throw UsageError("--crf: expected a whole number from 0 to 51 for mp4 (H.264), got \"\(c.mp4.crf)\"")
            }
        }
        if !c.formats.contains(where: [.gif, .webp, .apng].contains), given.contains("--loop") {
            throw UsageError("--loop only applies to GIF, WebP and APNG: add gif, webp or apng to --format")
        }
        if c.shard != nil, let f = c.formats.first(where: { !$0.isPerFrame }) {
            throw UsageError("--shard cannot make \(f.animationFileName): render the shards as png, merge them, then render the animation in one run")
        }
        if c.shard != nil && c.contactSheet { throw UsageError("--shard and --contact-sheet cannot be used together") }
        if c.shard != nil && c.viewer { throw UsageError("--shard and --viewer cannot be used together: merge the shards, then run cartrender view") }
        if c.shard != nil && (given.contains("--frames") || given.contains("--at")) { throw UsageError("--shard splits the whole timeline: it cannot be used with --frames or --at") }
        if c.shard != nil && c.audit != nil { throw UsageError("--shard and --audit cannot be used together: audit the whole render") }
        return c
    }
}

extension OptionValue where Value == [OutputFormat] {
    /// `--format png,gif`: formats by name, separated by commas, each once.
    static var formats: OptionValue {
        OptionValue { name, text in
            var formats: [OutputFormat] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let f = OutputFormat(rawValue: String(part)) else {
                    throw UsageError("\(name): unknown format \(echoedQuoted(String(part))); expected \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                guard !formats.contains(f) else { throw UsageError("\(name): \(f.rawValue) is given more than once") }
                formats.append(f)
            }
            return formats
        }
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

extension OptionValue where Value == ClosedRange<Int> {
    /// `--gif-quality MIN-MAX` with 0 ≤ MIN ≤ MAX ≤ 100.
    static var gifQuality: OptionValue {
        checked("MIN-MAX with 0 ≤ MIN ≤ MAX ≤ 100") { text in
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 2, parts[0] <= parts[1], parts.allSatisfy({ (0...100).contains($0) }) else { return nil }
            return parts[0]...parts[1]
        }
    }
}
