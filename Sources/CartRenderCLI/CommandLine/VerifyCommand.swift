import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

/// `cartrender verify [SCENE.json] --baseline DIR …`: renders a scene and compares every frame
/// with the baseline (docs/snapshot-testing.md), parsed and validated.
public struct VerifyCommand: Sendable {
    /// The scene and the options that change its frames.
    public var scene = SceneOptions()
    /// Baseline, report directory, tolerance, masks (pt), frames, workers and audit: the
    /// command's options go straight into the ``VerifyOptions`` it runs with.
    public var options = VerifyOptions(baseline: "")
    /// `--record`; nil = from `CARTRENDER_RECORD`, then `CI` (``RecordMode/resolve(_:environment:)``).
    public var record: RecordMode?
    /// Print the report as one JSON object.
    public var json = false
    /// No progress bar.
    public var quiet = false
    /// Also write the Markdown summary (``MarkdownSummary``) to this file.
    public var summaryMarkdown: String?

    /// The arguments it was parsed from, for the command that records the baseline again.
    public var arguments: [String] = []

    /// A verify of the default scene; set the baseline (`--baseline`).
    public init() {}

    /// `cartrender verify ARGS --record all`: this run's arguments with any `--record` replaced
    /// and without `--frames` or `--at` (the whole baseline is recorded again).
    var recordAgainCommand: String {
        var args: [String] = []
        var skip = false
        for a in arguments {
            if skip { skip = false; continue }
            if ["--record", "--frames", "--at"].contains(a) { skip = true; continue }
            if ["--record=", "--frames=", "--at="].contains(where: a.hasPrefix) { continue }
            args.append(a)
        }
        return (["cartrender", "verify"] + args + ["--record", "all"]).map(ShellQuoting.word).joined(separator: " ")
    }

    /// The environment variable GitHub Actions sets to the file a step appends its Markdown
    /// job summary to.
    public static let stepSummaryVariable = "GITHUB_STEP_SUMMARY"

    static let options: OptionTable<VerifyCommand> = OptionTable([
        Option("--baseline", "DIR", "Directory of baseline frames (frame_0000.png …). Required.", .nonEmpty("a directory")) { $0.options.baseline = $1 },
        Option("--report", "DIR", "Report directory (default: cartrender-report beside the baseline directory).", .nonEmpty("a directory")) { $0.options.reportDirectory = $1 },
        Option("--mask", "X,Y,W,H", "Ignore this rectangle, in points (repeatable).", .pointRect, repeatable: true) { $0.options.masks.append($1) },
        Option("--record", "MODE", "all | missing | failed | never: which baseline frames to write. Default: $CARTRENDER_RECORD, else never when $CI is set, else missing.",
               .oneOf) { $0.record = $1 },
        Option("--fail-on-record", "Fail the run when it records any baseline frame (the baseline is still updated), e.g. with --record failed in CI.") {
            $0.options.failOnRecord = true
        },
        Option("--json", "Print one JSON object (the report) on stdout instead of lines.") { $0.json = true },
        Option("--ignore-state", "Report frames whose state differs from the baseline's manifest.json without failing them.") { $0.options.ignoreState = true },
        Option("--frames", "A-B", "Verify frame indices A through B only (repeatable).", .frameRange, repeatable: true) { $0.options.frames.append($1) },
        Option("--at", "TIME", "Verify only the frame nearest TIME seconds, start or end, at the time its baseline frame shows (repeatable).", .time, repeatable: true) { $0.options.frames.append($1) },
        .jobs(\.options.jobs),
        .quiet(\.quiet),
        Option("--audit", "Also audit accessibility (as cartrender audit, WCAG AA): issues fail the run; the report's \"audit\".") { $0.options.audit = AuditOptions() },
        Option("--summary-markdown", "FILE", "Also write a Markdown summary (as appended to $GITHUB_STEP_SUMMARY under GitHub Actions) to FILE.",
               .nonEmpty("a file name")) { $0.summaryMarkdown = $1 },
        .help,
    ]).including(ComparisonOptions.options, at: \.options.tolerance).including(SceneOptions.options, at: \.scene)

    /// Parses verify arguments (after `verify`).
    /// - Throws: `UsageError` with one sentence naming the option.
    public static func parse(_ arguments: [String]) throws -> VerifyCommand {
        var c = VerifyCommand()
        c.arguments = arguments
        let (positionals, given) = try options.parse(arguments, into: &c) { try SceneOptions.checkScenePositionals($0, command: "verify") }
        c.scene.scenePath = positionals.first
        guard given.contains("--baseline") else { throw UsageError("verify needs --baseline DIR (the directory of baseline frames)") }
        try c.options.tolerance.checkExclusiveLimits()
        return c
    }

    /// Runs the command: prints one line per frame that did not pass and a summary (or the JSON
    /// report), and returns 0 when every frame passed, 1 otherwise. When the baseline directory
    /// does not exist and nothing is recorded (`CI` set), one line says so instead of a line per
    /// frame. With `GITHUB_STEP_SUMMARY` in `environment`, appends the Markdown summary to that
    /// file; with ``summaryMarkdown``, writes it there.
    /// - Throws: `UsageError`, `SceneError`, `RasterError`, `OutputError`, `FileReadError`, ``ImageDecodingError``, ``InputError``.
    public func run(environment: [String: String]) throws -> ExitCode {
        // The scene file is read once: the scene, its variants and where a change of it since
        // the baseline is (its line) all come from these bytes.
        var command = self
        command.options.sceneSource = try scene.readSource()
        return try command.run(source: command.options.sceneSource, environment: environment)
    }

    /// ``run(environment:)`` with the scene file's bytes read.
    private func run(source: [UInt8]?, environment: [String: String]) throws -> ExitCode {
        if let variants = try scene.selectedVariants(source: source) { return try runVariants(variants, environment: environment) }
        let interrupts = InterruptWatcher()
        defer { interrupts.stop() }
        let hadBaseline = FileSystemPath.isDirectory(options.baseline) != nil
        let result = try verify(renderer: try self.scene.makeRenderer(source: source), baseline: options.baseline, reportDirectory: options.reportDirectory,
                                environment: environment, interrupts: interrupts)
        let baselineMissing = !hadBaseline && result.recordedCount == 0 && !result.frames.isEmpty
        if baselineMissing && !json {
            StandardOutput.line(Self.missingBaselineLine(result))
            printAudit(of: result)
        } else {
            printResult(result, json: json)
        }
        try writeSummary(MarkdownSummary.markdown(for: result, baselineMissing: baselineMissing), environment: environment)
        return result.passedWithAudit ? .success : .differences
    }

    /// Appends `markdown` to `$GITHUB_STEP_SUMMARY` when set, and writes it to `--summary-markdown`.
    func writeSummary(_ markdown: String, environment: [String: String]) throws {
        if let path = environment[Self.stepSummaryVariable], !path.isEmpty { try MarkdownSummary.append(markdown, to: path) }
        if let path = summaryMarkdown { try OutputFile.write(Array(markdown.utf8), to: path) }
    }

    /// Verifies one scene (or variant) against `baseline`; throws ``RenderCancelled`` (its
    /// sentence naming the baseline) when interrupted. `writeReport: false` writes no report (`review` recording accepted frames).
    func verify(renderer: Renderer, baseline: String, reportDirectory: String?, writeReport: Bool = true, variant: String? = nil,
                environment: [String: String], interrupts: InterruptWatcher) throws -> SnapshotResult {
        var options = self.options
        options.variant = variant
        options.workspace = AnnotationPath.workspace(environment)
        options.baseline = baseline
        options.reportDirectory = reportDirectory
        options.writeReport = writeReport
        options.record = try RecordMode.resolve(record, environment: environment)
        let bar = quiet ? nil : ProgressBar()
        options.progress = bar.map { b in { @Sendable done, total in b.update(done, total) } }
        options.cancellation = interrupts.cancellation
        if !arguments.isEmpty { options.recordAgainCommand = recordAgainCommand }
        let result = try interrupts.during(.verify(baseline: baseline), cleanUp: { bar?.finish() }) {
            try Verifier.verify(renderer: renderer, subject: scene.sceneName, options: options)
        }
        bar?.finish()
        for warning in result.warnings { Stderr.line(warning) }
        return result
    }

    /// The one line for a run whose baseline directory does not exist and records nothing:
    /// `cartrender verify: FAILED, there is no baseline directory DIR (N frames missing); …`.
    static func missingBaselineLine(_ result: SnapshotResult) -> String {
        let n = result.frames.count
        var s = "cartrender verify: FAILED, there is no baseline directory \(result.baseline) (\(n) frame\(n == 1 ? "" : "s") missing); "
        s += "record it with --record missing (or \(RecordMode.environmentVariable)=missing) and commit it"
        if let index = result.reportIndex { s += "; report: \(index)" }
        return s
    }
}

/// Prints a verify or directory-diff result on stdout: the JSON report, or how the scene
/// changed since the baseline was recorded (one line, in a failing run), the first state
/// divergence and the events that moved (a line each, when any), a line for each of the first
/// ``maxFrameLines`` frames that did not pass (then "… and N more": every frame is in the
/// report and junit.xml) and the summary line.
func printResult(_ result: SnapshotResult, json: Bool) {
    if json {
        StandardOutput.print(result.json.serialized(pretty: true), terminator: "")
        return
    }
    if let line = result.settingMismatchLine {
        // Named first; frame-by-frame lines against other settings would bury it.
        StandardOutput.line(line)
        if !result.failures.isEmpty { StandardOutput.line(result.mismatchedFramesLine) }
    } else {
        // The cause once, before any frame: a scene-wide change fails every frame alike.
        if let scene = result.sceneChanges, !result.passed { StandardOutput.line(scene.summary) }
        for line in [result.stateDivergenceLine, result.movedEventsLine] { if let line { StandardOutput.line(line) } }
        let lines = result.frames.compactMap { result.line(for: $0) }
        for line in lines.prefix(maxFrameLines) { StandardOutput.line(line) }
        if lines.count > maxFrameLines {
            StandardOutput.line("… and \(lines.count - maxFrameLines) more (every frame is in the report and junit.xml)")
        }
    }
    StandardOutput.line(result.summaryLine)
    if let note = result.recordingNote { StandardOutput.line(note) }
    printAudit(of: result)
}

/// Frame lines ``printResult(_:json:)`` prints before "… and N more".
let maxFrameLines = 5

/// The audit's lines after verify's, when the run had one.
func printAudit(of result: SnapshotResult) {
    guard let audit = result.audit else { return }
    for issue in audit.issues { StandardOutput.line(issue.line) }
    StandardOutput.line(audit.summaryLine)
}


extension VerifyCommand: ParsedCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "verify", usage: "[SCENE.json | -] --baseline DIR [options]",
            abstract: ["render and compare every frame with a baseline"],
            overview: """
                render a scene and compare every frame with a baseline directory of
                frame_NNNN.png files (pixelmatch 7.1 color distance and anti-aliasing detection).
                """,
            arguments: """
                Without SCENE, the built-in demo; with -, the scene on standard input (its relative
                image paths resolve against the working directory).
                """,
            discussion: [
                HelpSection(heading: nil, """
                    A frame fails when more pixels differ than allowed; a size mismatch, a missing baseline
                    frame and a baseline frame the render does not make (extra) are failures of their own.
                    Equal PNG bytes pass without decoding. Recorded frames count as passing.
                    """),
                HelpSection(heading: "RECORD MODES (--record, or CARTRENDER_RECORD)", """
                      all       rewrite every frame; remove extra baseline frames
                      missing   write only absent baseline frames, and only when every other frame
                                passes (default, unless CI is set)
                      failed    write absent frames, rewrite failing ones; remove extra frames
                      never     write nothing; a missing frame fails (default when CI is set)
                      --fail-on-record makes a run that records anything fail (exit 1).
                    """),
                HelpSection(heading: "REPORT", """
                      DIR/index.html (for each failing frame: side by side, slider, blend, toggle and diff views;
                      every frame reachable from a timeline and thumbnails),
                      DIR/report.json (as --json), DIR/junit.xml (one test case per frame), and
                      the expected, actual and diff images of each frame that did not pass, named by their
                      content (img_HASH.png, diff_HASH.png: identical images are one file; diffs are palette PNGs);
                      for a failing run, motion_HASH.webp: the failing segment as one animation, expected,
                      actual and differences side by side (report.json's "motionDiff").
                    """),
                HelpSection(heading: "CI", """
                      With CI set and no baseline directory, verify says so in one line and fails. Under
                      GitHub Actions (GITHUB_STEP_SUMMARY set) it appends a Markdown summary to the job's
                      summary; --summary-markdown FILE writes the same summary to FILE.
                    """),
            ],
            exitStatus: """
                  0 every frame passed · 1 a frame failed · 64 bad command line · 65 invalid scene or
                  baseline PNG · 66 scene or baseline file unreadable · 73 report or baseline not writable
                """,
            examples: [
                "cartrender verify Examples/fly-button.json --baseline snapshots/fly-button",
                "CI=1 cartrender verify scene.json --baseline snapshots/scene --report out/report --json",
                "cartrender verify scene.json --baseline b --mask 0,0,393,59 --max-diff-ratio 0.001",
                "cartrender verify scene.json --baseline snapshots/settled --at end",
            ])
    }

    /// Runs the command with this process's environment (``run(environment:)``).
    func run() throws -> ExitCode { try run(environment: ProcessInfo.processInfo.environment) }
}
