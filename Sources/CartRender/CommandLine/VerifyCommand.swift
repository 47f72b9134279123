import CartRenderCore
import CartRenderRaster
import Foundation

/// `cartrender verify [SCENE.json] --baseline DIR …`: renders a scene and compares every frame
/// with the baseline (SPEC.md §6), parsed and validated.
public struct VerifyCommand: Equatable, Sendable {
    /// nil = the embedded default scene.
    public var baseline = ""
    /// nil = `cartrender-report` beside the baseline directory.
    public var reportDirectory: String?
    public var threshold = 0.1
    public var maxDiffPixels: Int?
    public var maxDiffRatio: Double?
    public var includeAA = false
    /// Ignored regions in points.
    public var masks: [Rect] = []
    /// nil = from `CARTRENDER_RECORD`, then `CI`.
    public var record: RecordMode?
    public var json = false
    /// The union of every `--frames` and `--at`; empty = all frames.
    public var frames: [FrameSelection] = []
    /// The scene and the options that change its frames.
    public var scene = SceneOptions()
    /// nil = the number of cores.
    public var jobs: Int?
    public var quiet = false

    public init() {}

    public static let specs: [OptionSpec] = [
        OptionSpec("--baseline", "DIR", "Directory of baseline frames (frame_0000.png …). Required."),
        OptionSpec("--report", "DIR", "Report directory (default: cartrender-report beside the baseline directory)."),
        OptionSpec("--threshold", "T", "Color distance from 0 (exact) to 1 (black vs white) over which a pixel differs; pixelmatch's scale. Default: 0.1."),
        OptionSpec("--max-diff-pixels", "N", "A frame fails when more than N pixels differ (default: 0)."),
        OptionSpec("--max-diff-ratio", "R", "Instead: a frame fails when more than this share (0…1) of its pixels differ."),
        OptionSpec("--include-aa", nil, "Count anti-aliased pixels as differences (no anti-aliasing detection)."),
        OptionSpec("--mask", "X,Y,W,H", "Ignore this rectangle, in points (repeatable)."),
        OptionSpec("--record", "MODE", "all | missing | failed | never: which baseline frames to write. Default: $CARTRENDER_RECORD, else never when $CI is set, else missing."),
        OptionSpec("--json", nil, "Print one JSON object (the report) on stdout instead of lines."),
        OptionSpec("--frames", "A-B", "Verify frame indices A through B only (repeatable)."),
        OptionSpec("--at", "SECONDS", "Verify the frame at this time only (repeatable)."),
        OptionSpec("--jobs", "N", "Worker threads (default: the number of cores). Results do not depend on it."),
        OptionSpec("--quiet", nil, "No progress bar."),
        OptionSpec("--help", nil, "Show help."),
    ] + SceneOptions.specs

    /// Parses verify arguments (after `verify`).
    /// - Throws: `UsageError` with one sentence naming the option.
    public static func parse(_ arguments: [String]) throws -> VerifyCommand {
        let (positionals, options) = try parseOptions(arguments, specs: specs)
        var c = VerifyCommand()
        guard positionals.count <= 1 else {
            throw UsageError("verify: expected at most one scene file, got \(positionals.count): \(positionals.joined(separator: " "))")
        }
        c.scene.scenePath = positionals.first
        var sawBaseline = false
        for (name, value) in options {
            let v = value ?? ""
            switch name {
            case "--baseline":
                guard !v.isEmpty else { throw UsageError("--baseline needs a directory") }
                c.baseline = v
                sawBaseline = true
            case "--report":
                guard !v.isEmpty else { throw UsageError("--report needs a directory") }
                c.reportDirectory = v
            case "--threshold": c.threshold = try parseThreshold(v)
            case "--max-diff-pixels": c.maxDiffPixels = try parseMaxDiffPixels(v)
            case "--max-diff-ratio": c.maxDiffRatio = try parseMaxDiffRatio(v)
            case "--include-aa": c.includeAA = true
            case "--mask":
                let r = try parseRectangle(v, option: "--mask", unit: "points")
                c.masks.append(Rect(x: r[0], y: r[1], width: r[2], height: r[3]))
            case "--record":
                guard let mode = RecordMode(rawValue: v) else {
                    throw UsageError("--record: expected all, missing, failed or never, got \"\(v)\"")
                }
                c.record = mode
            case "--json": c.json = true
            case "--frames": c.frames.append(try parseFrameRange(v))
            case "--at": c.frames.append(try parseTime(v))
            case "--jobs": c.jobs = try parseJobs(v)
            case "--quiet": c.quiet = true
            default: _ = try c.scene.parse(name, v)
            }
        }
        guard sawBaseline else { throw UsageError("verify needs --baseline DIR (the directory of baseline frames)") }
        if c.maxDiffPixels != nil && c.maxDiffRatio != nil {
            throw UsageError("--max-diff-pixels and --max-diff-ratio cannot be used together")
        }
        return c
    }

    /// The comparison options (no masks: those are in points, see ``masks``).
    public var tolerance: ComparisonOptions {
        ComparisonOptions(threshold: threshold, includeAA: includeAA, maxDiffPixels: maxDiffPixels, maxDiffRatio: maxDiffRatio)
    }

    /// Runs the command: prints one line per frame that did not pass and a summary (or the JSON
    /// report), and returns 0 when every frame passed, 1 otherwise.
    /// - Throws: `UsageError`, `SceneError`, `RasterError`, `OutputError`, ``ImageDecodingError``, ``InputError``.
    public func run(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ExitCode {
        let record = try RecordMode.resolve(record, environment: environment)
        let renderer = try self.scene.makeRenderer()
        for selection in frames {
            switch selection {
            case .range(_, let b) where b >= renderer.frameCount:
                throw UsageError("--frames: the render has frames 0-\(renderer.frameCount - 1), got \(b) as the last")
            case .at(let t) where t > renderer.duration + TimeTolerance.epsilon:
                throw UsageError("--at: the render ends at \(JSONValue.format(renderer.duration, decimals: 6)) s, got \(JSONValue.format(t, decimals: 6))")
            default: break
            }
        }
        var options = VerifyOptions(baseline: baseline)
        options.reportDirectory = reportDirectory
        options.tolerance = tolerance
        options.masks = masks
        options.record = record
        options.frames = frames.isEmpty ? [.all] : frames
        options.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let bar = quiet ? nil : ProgressBar()
        options.progress = bar.map { b in { @Sendable done, total in b.update(done, total) } }
        let result = try Verifier.verify(renderer: renderer, subject: scene.sceneName, options: options)
        bar?.finish()
        printResult(result, json: json)
        return result.passed ? .success : .differences
    }
}

/// Prints a verify or directory-diff result on stdout: the JSON report, or one line per frame
/// that did not pass and the summary line.
func printResult(_ result: SnapshotResult, json: Bool) {
    if json {
        print(result.json.serialized(pretty: true), terminator: "")
        return
    }
    for frame in result.frames { if let line = result.line(for: frame) { print(line) } }
    print(result.summaryLine)
}

// MARK: Option values shared by verify and diff

func parseThreshold(_ v: String) throws -> Double {
    guard let t = Double(v), t.isFinite, (0...1).contains(t) else {
        throw UsageError("--threshold: expected a number from 0 (exact) to 1 (black vs white), got \"\(v)\"")
    }
    return t
}

func parseMaxDiffPixels(_ v: String) throws -> Int {
    guard let n = Int(v), n >= 0 else { throw UsageError("--max-diff-pixels: expected a whole number ≥ 0, got \"\(v)\"") }
    return n
}

func parseMaxDiffRatio(_ v: String) throws -> Double {
    guard let r = Double(v), r.isFinite, (0...1).contains(r) else {
        throw UsageError("--max-diff-ratio: expected a number from 0 to 1 (a share of the frame's pixels), got \"\(v)\"")
    }
    return r
}

/// `X,Y,W,H`: four finite numbers, width and height ≥ 0.
func parseRectangle(_ v: String, option: String, unit: String) throws -> [Double] {
    let parts = v.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 4, parts.allSatisfy({ $0 != nil && $0!.isFinite }), parts[2]! >= 0, parts[3]! >= 0 else {
        throw UsageError("\(option): expected X,Y,W,H in \(unit) (four numbers, W and H ≥ 0), got \"\(v)\"")
    }
    return parts.map { $0! }
}
