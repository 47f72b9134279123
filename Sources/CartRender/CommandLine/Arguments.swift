import CartRenderCore
import CartRenderRaster
import Foundation

/// One option of a command: its spelling, whether it takes a value, and its help text.
public struct OptionSpec: Sendable {
    public var name: String
    /// Placeholder of the value in help (`DIR`), or nil for a flag.
    public var value: String?
    public var help: String
    public init(_ name: String, _ value: String?, _ help: String) { self.name = name; self.value = value; self.help = help }
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
        guard let spec = specs.first(where: { $0.name == name }) else {
            let hint = nearestKey(to: name, in: specs.map(\.name)).map { "; did you mean \($0)?" } ?? ""
            throw UsageError("unknown option \(name)\(hint)")
        }
        if spec.value != nil {
            if let v = inline { options.append((name, v)); continue }
            guard i < arguments.count else { throw UsageError("\(name) needs a value (\(spec.value!))") }
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
    public var scenePath: String?
    public var outputDirectory = "frames"
    public var formats: [OutputFormat] = [.png]
    public var fps: Int?
    public var scale: Double?
    public var frames: FrameSelection = .all
    public var colorScheme: ColorScheme?
    public var reduceMotion = false
    /// nil = the number of cores.
    public var jobs: Int?
    public var quiet = false
    public var pngCompression: PNGEncoder.Compression = .default

    public init() {}

    public static let specs: [OptionSpec] = [
        OptionSpec("--out", "DIR", "Output directory (default: frames/)."),
        OptionSpec("--format", "FORMAT", "png or svg; several with commas (png,svg). Default: png."),
        OptionSpec("--fps", "N", "Frames per second, 1…240 (overrides the scene)."),
        OptionSpec("--scale", "S", "Pixels per point, 1…4 (overrides the device's)."),
        OptionSpec("--frames", "A-B", "Render frame indices A through B inclusive."),
        OptionSpec("--at", "SECONDS", "Render one frame showing the state at exactly this time."),
        OptionSpec("--color-scheme", "light|dark", "Appearance (overrides the scene)."),
        OptionSpec("--reduce-motion", nil, "Render with Reduce Motion on."),
        OptionSpec("--jobs", "N", "Worker threads (default: the number of cores). Output does not depend on it."),
        OptionSpec("--png-compression", "fast|default|small", "PNG speed/size trade-off (default: default)."),
        OptionSpec("--quiet", nil, "No progress bar and no summary."),
        OptionSpec("--help", nil, "Show help."),
        OptionSpec("--version", nil, "Show the version."),
    ]

    /// Parses render arguments (without the program name).
    /// - Throws: `UsageError` with one sentence naming the option.
    public static func parse(_ arguments: [String]) throws -> RenderCommand {
        let (positionals, options) = try parseOptions(arguments, specs: specs)
        var c = RenderCommand()
        guard positionals.count <= 1 else {
            throw UsageError("expected at most one scene file, got \(positionals.count): \(positionals.joined(separator: " "))")
        }
        c.scenePath = positionals.first
        if c.scenePath?.isEmpty == true { throw UsageError("the scene file name is empty") }
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
            case "--fps":
                guard let n = Int(v), (1...240).contains(n) else { throw UsageError("--fps: expected a whole number from 1 to 240, got \"\(v)\"") }
                c.fps = n
            case "--scale":
                guard let s = Double(v), s.isFinite, (1...4).contains(s) else { throw UsageError("--scale: expected a number from 1 to 4, got \"\(v)\"") }
                c.scale = s
            case "--frames":
                let parts = v.split(separator: "-", omittingEmptySubsequences: false)
                guard parts.count <= 2, let a = Int(parts[0]), a >= 0, let b = parts.count == 2 ? Int(parts[1]) : a, b >= a else {
                    throw UsageError("--frames: expected A-B with 0 ≤ A ≤ B (frame indices), got \"\(v)\"")
                }
                c.frames = .range(a, b)
                sawFrames = true
            case "--at":
                guard let t = Double(v), t.isFinite, t >= 0 else { throw UsageError("--at: expected a time in seconds ≥ 0, got \"\(v)\"") }
                c.frames = .at(t)
                sawAt = true
            case "--color-scheme":
                guard let s = ColorScheme(rawValue: v) else { throw UsageError("--color-scheme: expected light or dark, got \"\(v)\"") }
                c.colorScheme = s
            case "--reduce-motion": c.reduceMotion = true
            case "--jobs":
                guard let n = Int(v), (1...256).contains(n) else { throw UsageError("--jobs: expected a whole number from 1 to 256, got \"\(v)\"") }
                c.jobs = n
            case "--png-compression":
                guard let p = PNGEncoder.Compression(rawValue: v) else { throw UsageError("--png-compression: expected fast, default or small, got \"\(v)\"") }
                c.pngCompression = p
            case "--quiet": c.quiet = true
            default: break
            }
        }
        if sawFrames && sawAt { throw UsageError("--frames and --at cannot be used together") }
        return c
    }

    /// The scene overrides these options carry.
    public var overrides: SceneOverrides {
        SceneOverrides(fps: fps, scale: scale, colorScheme: colorScheme, reduceMotion: reduceMotion ? true : nil)
    }
}
