import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

/// `cartrender diff A B …`: compares two PNG files, or the `frame_NNNN.png` files of two
/// directories, as `verify` does (docs/snapshot-testing.md). A is the expected side, B the actual one.
public struct DiffCommand: Equatable, Sendable {
    /// A: the expected PNG file or directory.
    public var expected = ""
    /// B: the actual PNG file or directory.
    public var actual = ""
    /// Two files: the diff image's path. Two directories: a directory for `frame_NNNN.diff.png`
    /// of each failing frame.
    public var out: String?
    /// Two directories only: a report directory like `verify`'s.
    public var reportDirectory: String?
    /// Threshold, pixel limits, anti-aliasing and masks (in **pixels**: there is no scene, hence no scale).
    public var tolerance = ComparisonOptions()
    /// Print the result as one JSON object (`--json`).
    public var json = false
    /// Print nothing on stdout: the exit status tells.
    public var quiet = false
    /// Threads comparing the frames of two directories (≥ 1); nil = the number of cores.
    public var jobs: Int?

    /// A comparison with the default tolerance; set ``expected`` and ``actual``.
    public init() {}

    static let options = OptionTable<DiffCommand>([
        .out("PATH", "Write the diff image (two files) or frame_NNNN.diff.png of failing frames (two directories) there.",
               .nonEmpty("a path")) { $0.out = $1 },
        Option("--report", "DIR", "Two directories: write a report (index.html, report.json, junit.xml) there.", .nonEmpty("a directory")) { $0.reportDirectory = $1 },
        Option("--mask", "X,Y,W,H", "Ignore this rectangle, in pixels (repeatable).", .pixelRect, repeatable: true) { $0.tolerance.masks.append($1) },
        Option("--json", "Print one JSON object on stdout instead of lines.") { $0.json = true },
        .jobs(\.jobs, help: "Worker threads for directories (default: the number of cores)."),
        .quiet(\.quiet, help: "Print nothing on stdout: the exit status says whether A and B match (errors still go to stderr)."),
        .help,
    ]).including(ComparisonOptions.options, at: \.tolerance)

    /// Parses diff arguments (after `diff`).
    /// - Throws: `UsageError`.
    public static func parse(_ arguments: [String]) throws -> DiffCommand {
        var c = DiffCommand()
        let (positionals, _) = try options.parse(arguments, into: &c) { positionals in
            guard positionals.count == 2 else {
                throw UsageError("diff: expected two PNG files or two directories (A = expected, B = actual), got \(positionals.count) argument\(positionals.count == 1 ? "" : "s")")
            }
        }
        c.expected = positionals[0]
        c.actual = positionals[1]
        try c.tolerance.checkExclusiveLimits()
        if c.quiet && c.json { throw UsageError("--quiet and --json cannot be used together") }
        return c
    }

    /// Runs the comparison; 0 when A and B match within the tolerance, 1 otherwise.
    /// - Throws: `UsageError`, ``InputError``, `FileReadError` (a file that is not a regular file
    ///   or cannot be read), ``ImageDecodingError``, `OutputError`.
    public func run() throws -> ExitCode {
        let interrupts = InterruptWatcher()
        defer { interrupts.stop() }
        var kinds: [Bool] = []
        for path in [expected, actual] {
            guard let isDirectory = FileSystemPath.isDirectory(path) else { throw InputError(.unreadable, path: path, reason: "no such file or directory") }
            kinds.append(isDirectory)
        }
        guard kinds[0] == kinds[1] else {
            throw UsageError("diff: A and B must both be PNG files or both be directories; \(kinds[0] ? expected : actual) is a directory")
        }
        if kinds[0] {
            let result = try interrupts.during(.diffDirectories(out: out)) {
                try DirectoryDiff.compare(expected: expected, actual: actual, options: tolerance,
                                          jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                          reportDirectory: reportDirectory, diffDirectory: out, cancellation: interrupts.cancellation)
            }
            if !quiet { printResult(result, json: json) }
            return result.passed ? .success : .differences
        }
        guard reportDirectory == nil else { throw UsageError("--report is for two directories; for two files use --out DIFF.png") }
        return try compareFiles(interrupts)
    }

    private func compareFiles(_ interrupts: InterruptWatcher) throws -> ExitCode {
        let options = tolerance
        try options.validate()
        // The diff image never replaces what it compares.
        if let out, [expected, actual].contains(where: { DirectoryLock.sameFile(out, $0) }) {
            throw OutputError(path: out, reason: "is one of the images being compared; diff never writes over A or B: choose another --out")
        }
        let e = try RegularFile.read(expected, limit: PNGDecoder.maxFileBytes)
        let a = try RegularFile.read(actual, limit: PNGDecoder.maxFileBytes)
        // With --out the diff image is asked for, so even equal files are decoded and it is always drawn.
        let comparison = try ImageDiffing.pixelmatch(options).compare(expected: e, actual: a, keeping: out != nil ? .always : .none,
                                                                      expectedPath: expected, actualPath: actual)
        let diffImage = comparison.images?.diff
        try interrupts.checkNotInterrupted(while: .diffFiles)
        if let out, let diffImage { try OutputFile.write(try PNGEncoder.encodeIndexed(diffImage), to: out) }
        let passed = comparison.status == .pass
        if json {
            var m: [(String, JSONValue)] = []
            if let r = comparison.result {
                m += [("differingPixels", .int(r.differingPixels)), ("antialiasedPixels", .int(r.antialiasedPixels)),
                      ("totalPixels", .int(r.totalPixels)), ("identical", .bool(r.identical))]
            } else {
                m += [("differingPixels", .null), ("antialiasedPixels", .null), ("totalPixels", .null), ("identical", false)]
            }
            m += [("status", .string(comparison.status.rawValue)), ("passed", .bool(passed)), ("byteEqual", .bool(comparison.byteEqual))]
            for (key, size) in [("expectedSize", comparison.expectedSize), ("actualSize", comparison.actualSize)] {
                m.append((key, .object([("width", .int(size.width)), ("height", .int(size.height))])))
            }
            m.append(("diff", diffImage != nil ? .string(FileSystemPath.display(out!)) : .null))
            StandardOutput.print(JSONValue.object(m).serialized(pretty: true), terminator: "")
        } else if !quiet {
            var frame = FrameResult(name: (actual as NSString).lastPathComponent, index: nil, time: nil, status: comparison.status)
            frame.result = comparison.result
            frame.expectedSize = comparison.expectedSize
            frame.actualSize = comparison.actualSize
            let result = SnapshotResult(command: .diff, subject: FileSystemPath.display(actual), baseline: FileSystemPath.display(expected), reportDirectory: nil,
                                        record: nil, options: options, fps: nil, frames: [frame])
            if !passed { StandardOutput.line(FileSystemPath.display("\(comparison.status == .sizeMismatch ? "SIZE" : "FAIL")     \(expected) vs \(actual): \(result.explanation(of: frame))" + (diffImage != nil ? " → \(out!)" : ""))) }
            var summary = "cartrender diff: " + (passed ? "passed" : "FAILED")
            if let r = comparison.result {
                summary += ", \(r.differingPixels) of \(r.totalPixels) px differ"
                if r.antialiasedPixels > 0 { summary += " (\(r.antialiasedPixels) anti-aliased px ignored)" }
                if comparison.byteEqual { summary += " (byte-identical files)" }
            } else {
                summary += ", sizes differ"
            }
            if let out, diffImage != nil { summary += "; diff image: \(FileSystemPath.display(out))" }
            StandardOutput.line(summary)
        }
        return passed ? .success : .differences
    }
}

extension DiffCommand: ParsedCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "diff", usage: "A B [options]",
            helpUsage: { ["A.png B.png [--out DIFF.png] [options]", "DIR_A DIR_B [--out DIFF_DIR] [--report DIR] [options]"] },
            abstract: ["compare two PNG files or two frame directories"],
            overview: """
                compare two PNG files, or the frame_NNNN.png files of two directories,
                as verify does. A is the expected side, B the actual one.
                """,
            discussion: [HelpSection(heading: nil, """
                The diff image shows differing pixels red, anti-aliased ones yellow and the rest of A
                faded to gray. For directories, frames only in B are missing and frames only in A extra.
                """)],
            exitStatus: """
                  0 no difference beyond the tolerance · 1 differences · 64 bad command line ·
                  65 corrupt PNG · 66 file or directory missing · 73 output not writable
                """)
    }
}
