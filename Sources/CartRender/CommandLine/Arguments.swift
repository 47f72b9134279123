import CartRenderCore
import CartRenderRaster
import Foundation

/// One option of a command: its spelling, whether it takes a value, and its help text.
public struct OptionSpec: Sendable {
    public var name: String
    /// Placeholder of the value in help (`DIR`), or nil for a flag.
    public var value: String?
    public var help: String
    /// A one-letter spelling (`-o`), parsed as `name`.
    public var short: String?
    public init(_ name: String, _ value: String?, _ help: String, short: String? = nil) {
        self.name = name; self.value = value; self.help = help; self.short = short
    }
}

/// Splits `arguments` into positionals and options by a table of specs. Accepts `--opt value`
/// and `--opt=value`; `--` ends options.
/// - Throws: `UsageError` for unknown options (with the nearest known one) and missing values.
public func parseOptions(_ arguments: [String], specs: [OptionSpec]) throws -> (positionals: [String], options: [(name: String, value: String?)]) {
    var positionals: [String] = []
    var options: [(String, String?)] = []
    var i = 0
    var onlyPositionals = false
    while i < arguments.count {
        let arg = arguments[i]
        i += 1
        if onlyPositionals || !arg.hasPrefix("-") || arg == "-" { positionals.append(arg); continue }
        if arg == "--" { onlyPositionals = true; continue }
        var name = arg
        var inline: String?
        if let eq = arg.firstIndex(of: "=") { name = String(arg[..<eq]); inline = String(arg[arg.index(after: eq)...]) }
        guard let spec = specs.first(where: { $0.name == name || ($0.short != nil && $0.short == name) }) else {
            let hint = nearestKey(to: name, in: specs.map(\.name)).map { "; did you mean \($0)?" } ?? ""
            throw UsageError("unknown option \(name)\(hint)")
        }
        name = spec.name
        if spec.value != nil {
            if let v = inline { options.append((name, v)); continue }
            // `--fps --scale 2`: the value is missing, not "--scale".
            guard i < arguments.count, !specs.contains(where: { arguments[i] == $0.name || arguments[i] == $0.short || arguments[i].hasPrefix($0.name + "=") }) else {
                throw UsageError("\(name) needs a value (\(spec.value!))")
            }
            options.append((name, arguments[i]))
            i += 1
        } else {
            if inline != nil { throw UsageError("\(name) does not take a value") }
            options.append((name, nil))
        }
    }
    return (positionals, options)
}

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

    /// `--shard K/N`: render the K-th of N contiguous blocks of frames.
    public struct Shard: Equatable, Sendable { public var index: Int; public var count: Int }

    public init() {}

    public static let specs: [OptionSpec] = [
        OptionSpec("--out", "DIR", "Output directory (default: frames/).", short: "-o"),
        OptionSpec("--format", "FORMAT", "png, svg, gif, webp, apng, mp4 or webm; several with commas (png,mp4). Default: png."),
        OptionSpec("--frames", "A-B", "Render frame indices A through B inclusive."),
        OptionSpec("--at", "SECONDS", "Render one frame showing the state at exactly this time."),
        OptionSpec("--jobs", "N", "Worker threads (default: the number of cores). Output does not depend on it."),
        OptionSpec("--png-compression", "fast|default|small", "PNG and APNG speed/size trade-off (default: default)."),
        OptionSpec("--shard", "K/N", "Render only the K-th of N blocks of frames (1 ≤ K ≤ N); join with `cartrender merge`."),
        OptionSpec("--loop", "N", "GIF/WebP/APNG: play N times, 0 = forever (default 0)."),
        OptionSpec("--quality", "Q", "WebP: lossy at quality 0…100 (default: lossless)."),
        OptionSpec("--crf", "N", "MP4/WebM: quality, lower is better and larger: H.264 0…51 (default 18), VP9 0…63 (default 30)."),
        OptionSpec("--lossless", nil, "WebM: VP9 lossless, every frame exact (planar RGB, 4:4:4)."),
        OptionSpec("--gif-quality", "MIN-MAX", "GIF: libimagequant quality range 0…100 (default 70-100)."),
        OptionSpec("--gif-speed", "N", "GIF: libimagequant speed 1 (best) … 10 (fastest), default 4."),
        OptionSpec("--dither", "D", "GIF: dithering level 0…1 (default 1)."),
        OptionSpec("--contact-sheet", nil, "Also write contact-sheet.png: 12 frames of the whole timeline on one image."),
        OptionSpec("--viewer", nil, "Also write index.html: a page to scrub, play and step through the frames with their state."),
        OptionSpec("--quiet", nil, "No progress bar and no summary."),
        OptionSpec("--help", nil, "Show help.", short: "-h"),
        OptionSpec("--version", nil, "Show the version."),
    ] + SceneOptions.specs

    /// Parses render arguments (without the program name).
    /// - Throws: `UsageError` with one sentence naming the option.
    public static func parse(_ arguments: [String]) throws -> RenderCommand {
        let (positionals, options) = try parseOptions(arguments, specs: specs)
        var c = RenderCommand()
        guard positionals.count <= 1 else {
            throw UsageError("expected at most one scene file, got \(positionals.count): \(positionals.joined(separator: " "))")
        }
        c.scene.scenePath = positionals.first
        if c.scene.scenePath?.isEmpty == true { throw UsageError("the scene file name is empty") }
        var sawFrames = false, sawAt = false
        for (name, value) in options {
            let v = value ?? ""
            switch name {
            case "--out":
                guard !v.isEmpty else { throw UsageError("--out needs a directory") }
                c.outputDirectory = v
            case "--format":
                var formats: [OutputFormat] = []
                for part in v.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let f = OutputFormat(rawValue: String(part)) else {
                        throw UsageError("--format: unknown format \"\(part)\"; expected \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    if !formats.contains(f) { formats.append(f) }
                }
                c.formats = formats
            case "--frames":
                c.frames = try parseFrameRange(v)
                sawFrames = true
            case "--at":
                c.frames = try parseTime(v)
                sawAt = true
            case "--jobs": c.jobs = try parseJobs(v)
            case "--png-compression":
                guard let p = PNGEncoder.Compression(rawValue: v) else { throw UsageError("--png-compression: expected fast, default or small, got \"\(v)\"") }
                c.pngCompression = p
                c.apng.compression = p
            case "--shard":
                let parts = v.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 10_000, (1...n).contains(k) else {
                    throw UsageError("--shard: expected K/N with 1 ≤ K ≤ N ≤ 10000, got \"\(v)\"")
                }
                c.shard = Shard(index: k, count: n)
            case "--contact-sheet": c.contactSheet = true
            case "--viewer": c.viewer = true
            case "--loop":
                guard let n = Int(v), (0...65535).contains(n) else { throw UsageError("--loop: expected a whole number from 0 (forever) to 65535, got \"\(v)\"") }
                c.gif.loopCount = n
                c.webp.loopCount = n
                c.apng.loopCount = n
            case "--quality":
                guard let q = Float(v), q.isFinite, (0...100).contains(q) else { throw UsageError("--quality: expected a number from 0 to 100, got \"\(v)\"") }
                c.webp.lossless = false
                c.webp.quality = q
            case "--crf":
                guard let n = Int(v), VP9Options.crfRange.contains(n) else {
                    throw UsageError("--crf: expected a whole number from 0 to 51 (mp4) or 63 (webm), got \"\(v)\"")
                }
                c.mp4.crf = n
                c.webm.crf = n
            case "--lossless": c.webm.lossless = true
            case "--gif-quality":
                let parts = v.split(separator: "-").compactMap { Int($0) }
                guard parts.count == 2, parts[0] <= parts[1], parts.allSatisfy({ (0...100).contains($0) }) else {
                    throw UsageError("--gif-quality: expected MIN-MAX with 0 ≤ MIN ≤ MAX ≤ 100, got \"\(v)\"")
                }
                c.gif.quality = parts[0]...parts[1]
            case "--gif-speed":
                guard let n = Int(v), (1...10).contains(n) else { throw UsageError("--gif-speed: expected a whole number from 1 to 10, got \"\(v)\"") }
                c.gif.speed = n
            case "--dither":
                guard let d = Float(v), d.isFinite, (0...1).contains(d) else { throw UsageError("--dither: expected a number from 0 to 1, got \"\(v)\"") }
                c.gif.dithering = d
            case "--quiet": c.quiet = true
            default: _ = try c.scene.parse(name, v)
            }
        }
        if sawFrames && sawAt { throw UsageError("--frames and --at cannot be used together") }
        // Options that would have no effect are errors, not silently ignored.
        let given = Set(options.map(\.name))
        if let twice = options.map(\.name).first(where: { name in name != "--variant" && options.filter { $0.name == name }.count > 1 }) {
            throw UsageError("\(twice) is given more than once")
        }
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
        if c.shard != nil && (sawFrames || sawAt) { throw UsageError("--shard splits the whole timeline: it cannot be used with --frames or --at") }
        return c
    }

}
