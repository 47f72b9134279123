import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

/// The `cartrender` command: dispatches to subcommands, maps errors to exit codes (docs/command-line.md),
/// prints errors as one sentence on stderr and help on stdout.
public enum CLI {
    /// The command that runs without its name: `cartrender [SCENE.json | -] [options]` renders.
    static var defaultCommand: any CartRenderCommand.Type { RenderCommand.self }

    /// `cartrender NAME …`: every command, in the order of the help; the main help, `help`,
    /// the completions and the man page are derived from this list. Anything else is a render
    /// (``defaultCommand``).
    static var commands: [any CartRenderCommand.Type] {
        [RenderCommand.self, VerifyCommand.self, ReviewCommand.self, PreviewCommand.self, DiffCommand.self, MergeCommand.self, ViewCommand.self,
         AuditCommand.self, SchemaCommand.self, HelpCommand.self, VersionCommand.self, ShellCompletion.self, ManPage.self]
    }

    /// The names of ``commands``, in their order.
    static var commandNames: [String] { commands.map { $0.configuration.name } }

    /// The command called `name`, if any.
    static func command(named name: String) -> (any CartRenderCommand.Type)? {
        commands.first { $0.configuration.name == name }
    }

    /// Whether `arguments` ask for help (`-h` or `--help` before any `--`).
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "-h" || $0 == "--help" }
    }

    /// Runs the command line (without the program name) and returns its exit status.
    public static func run(_ arguments: [String]) -> ExitCode {
        if let name = arguments.first, let command = command(named: name) {
            let rest = Array(arguments.dropFirst())
            if asksForHelp(rest) { StandardOutput.print(command.help); return .success }
            do {
                if command.configuration.checksAddressSpace { try checkAddressSpace() }
                return try command.run(rest)
            } catch var e as any UsageProblem {
                e.command = name
                return report(e)
            } catch {
                return report(error)
            }
        }
        do {
            if asksForHelp(arguments) { StandardOutput.print(Help.main); return .success }
            if asksForVersion(arguments) { StandardOutput.print(Help.version); return .success }
            try checkNotAMistypedCommand(arguments.first)
            try checkAddressSpace()
            return try defaultCommand.run(arguments)
        } catch {
            return report(error)
        }
    }

    /// Whether `arguments` ask for the version (`--version` before any `--`): render's option.
    static func asksForVersion(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--version")
    }

    /// Stops at once, before any thread starts, when the address-space limit (`ulimit -v`) leaves
    /// no room for one drawing worker: libraries that cannot start their threads would abort or,
    /// in libdispatch's case, retry forever.
    /// - Throws: `OutOfMemoryError` (exit 70).
    static func checkAddressSpace() throws {
        _ = try MemoryBudget.workers(requested: 1, canvasPixels: 0, what: "a run of cartrender")
    }

    /// `cartrender verfy …`: a first argument that is no file and no option but close to a
    /// command name is a mistyped command, not a scene file.
    /// - Throws: `UsageError` suggesting the command.
    static func checkNotAMistypedCommand(_ first: String?) throws {
        guard let first, !first.hasPrefix("-"), !first.contains("/"), !first.contains("."),
              !FileManager.default.fileExists(atPath: first),
              let guess = nearestKey(to: first, in: commandNames) else { return }
        throw UsageError("\(echoed(first)): no such command or scene file; did you mean \(guess)?")
    }

    /// Prints `error` on stderr as `cartrender: SENTENCE` on one line (user input in it has its
    /// control characters escaped), then its hint line if it has one, and returns its exit code.
    /// An error that is not a ``ReportableError`` is an internal error (exit 70).
    public static func report(_ error: Error) -> ExitCode {
        waitWhileEndingOnASignal()
        let reportable = error as? ReportableError
        let sentences = reportable?.sentences ?? ["internal error: \(error)"]
        let hint = reportable?.hint.map { "\n" + singleLine($0) } ?? ""
        Stderr.write(sentences.map { "cartrender: " + singleLine($0) }.joined(separator: "\n") + hint + "\n")
        return reportable?.exitCode ?? .software
    }

    /// Once a second signal has removed the unfinished files, the signal's thread ends the
    /// process (130, 143) with its own sentence: an error that removal caused on another thread
    /// (a frame that can no longer be written) waits for that instead of being reported.
    public static func waitWhileEndingOnASignal() {
        guard StagingArea.wereAbandoned else { return }
        while true { sleep(1) }
    }

    static func render(_ command: RenderCommand, renderer given: Renderer? = nil) throws -> ExitCode {
        let interrupts = InterruptWatcher()
        defer { interrupts.stop() }
        let renderer = try given ?? command.scene.makeRenderer()
        var options = command.options
        let bar = command.quiet ? nil : ProgressBar(linesUnderCI: true)
        options.progress = bar.map { b in { @Sendable report in b.update(report) } }
        let started = Date()
        options.cancellation = interrupts.cancellation
        // Named files: every name checked before the first frame, replaced together after the last.
        let named = try options.namedFiles == nil ? options.outputFile.map { try namedFiles(for: command, [$0] + (options.manifestFile.map { [$0] } ?? [])) } : nil
        options.namedFiles = options.namedFiles ?? named
        let result: RenderResult
        do {
            result = try interrupts.during(.render(outputDirectory: options.outputFile ?? options.outputDirectory), cleanUp: { bar?.finish() }) {
                try renderer.render(options)
            }
            bar?.finish()
            try named?.commit(cancellation: nil)
            // A render whose named files its caller replaces together with others has replaced
            // nothing yet: the caller discards them on this error.
            let shared = named == nil && options.namedFiles != nil
            let target = options.outputFile ?? options.outputDirectory
            try interrupts.checkNotInterrupted(while: shared ? .render(outputDirectory: target) : .renderMovingIntoPlace(outputDirectory: target))
        } catch {
            named?.discard()
            throw error
        }
        if !command.quiet {
            for notice in result.notices { Stderr.line(notice) }
            if let audit = result.summary(AuditReport.self) { Stderr.line(audit.summaryLine + " (in manifest.json)", prefix: "") }
        }
        if !command.quiet {
            let secs = String(format: "%.1f", Date().timeIntervalSince(started))
            Stderr.line(closingLine(result, renderer: renderer, into: options.outputFile == nil ? options.outputDirectory : nil) + " in \(secs) s")
        }
        return .success
    }
}

extension CLI {
    /// The transaction of the files a render names (`paths`: `-o`, `--manifest`, a pair's or a
    /// matrix's files, `--picture-html`), every one checked now, before anything is drawn;
    /// the scene file is an input, never written.
    /// - Throws: `UsageError` (64) for `-o` that names no single animated format, or a
    ///   manifest at the animation's name; what ``NamedFiles/init(_:inputs:)`` throws.
    static func namedFiles(for command: RenderCommand, _ paths: [String]) throws -> NamedFiles {
        if let file = command.options.outputFile {
            _ = try NamedOutput(file, manifest: command.options.manifestFile, formats: command.options.formats)
        }
        let scene = command.scene.scenePath.flatMap { $0 == SceneOptions.standardInput ? nil : $0 }
        return try NamedFiles(paths, inputs: scene.map { [$0] } ?? [])
    }

    /// What a render wrote, for its closing line: exactly the files put in place with their
    /// sizes, frame files of one extension as their range (`wrote docs/fly.gif (197.8 kB) from
    /// 198 frames of 393×852 px`; `wrote 198 PNG frames (frame_0000.png … frame_0197.png,
    /// 25.1 MB), index.html (12.0 kB) and manifest.json (278.4 kB) to frames/ from 198 frames of
    /// 1179×2556 px`).
    /// - Parameter directory: the output directory, or nil for a render to named files.
    static func closingLine(_ result: RenderResult, renderer: Renderer, into directory: String?) -> String {
        let px = renderer.pixelSize
        let n = result.framesWritten
        let drawn = result.framesDrawn < n ? "; \(result.framesDrawn) drawn, the rest repeat an identical frame" : ""
        let from = "from \(n) frame\(n == 1 ? "" : "s") of \(px.width)×\(px.height) px\(drawn)"
        guard let directory else {
            return "wrote \(listed(result.files.map { "\($0.path) (\(byteCount($0.size)))" }, "and")) \(from)"
        }
        var parts: [String] = []
        var rest = result.files
        for ext in OutputFormat.frameExtensions {
            let frames = rest.filter { name(of: $0).hasPrefix("frame_") && name(of: $0).hasSuffix("." + ext) }
            guard let first = frames.first, let last = frames.last else { continue }
            rest.removeAll { frames.contains($0) }
            let range = frames.count == 1 ? name(of: first) : "\(name(of: first)) … \(name(of: last))"
            let title = OutputFormat.named(ext)?.title ?? ext
            parts.append("\(frames.count) \(title) frame\(frames.count == 1 ? "" : "s") (\(range), \(byteCount(frames.reduce(0) { $0 + $1.size })))")
        }
        parts += rest.map { "\(name(of: $0)) (\(byteCount($0.size)))" }
        return "wrote \(listed(parts, "and")) to \(directory) \(from)"
    }

    private static func name(of file: WrittenFile) -> String { (file.path as NSString).lastPathComponent }

    /// A size as people read it: `812 B`, `197.8 kB`, `25.1 MB` (powers of 1000).
    static func byteCount(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(format: "%.1f kB", Double(bytes) / 1000) }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
