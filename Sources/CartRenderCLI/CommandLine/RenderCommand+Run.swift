import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

extension RenderCommand {
    /// Renders the scene (or `given`'s) with these options: a progress bar unless ``quiet``,
    /// interrupts watched, the named files (`-o FILE.EXT`, `--manifest`) checked first and
    /// replaced together after the last frame, then the notices and the closing line on stderr.
    /// - Parameter given: a renderer set up already (a variant's, an appearance's); nil: the scene's.
    /// - Throws: what ``SceneOptions/makeRenderer()``, ``namedFiles(_:)`` and the render throw.
    func render(renderer given: Renderer? = nil) throws -> ExitCode {
        let interrupts = InterruptWatcher()
        defer { interrupts.stop() }
        let renderer = try given ?? scene.makeRenderer()
        var options = self.options
        let bar = quiet ? nil : ProgressBar(linesUnderCI: true)
        options.progress = bar.map { b in { @Sendable report in b.update(report) } }
        let started = Date()
        options.cancellation = interrupts.cancellation
        // Named files: every name checked before the first frame, replaced together after the last.
        let named = try options.namedFiles == nil ? options.outputFile.map { try namedFiles([$0] + (options.manifestFile.map { [$0] } ?? [])) } : nil
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
        if !quiet {
            for notice in result.notices { Stderr.line(notice) }
            if let audit = result.summary(AuditReport.self) { Stderr.line(audit.summaryLine + " (in manifest.json)", prefix: "") }
        }
        if !quiet {
            let secs = String(format: "%.1f", Date().timeIntervalSince(started))
            Stderr.line(Self.closingLine(result, renderer: renderer, into: options.outputFile == nil ? options.outputDirectory : nil) + " in \(secs) s")
        }
        return .success
    }

    /// The transaction of the files a render names (`paths`: `-o`, `--manifest`, a pair's or a
    /// matrix's files, `--picture-html`), every one checked now, before anything is drawn;
    /// the scene file is an input, never written.
    /// - Throws: `UsageError` (64) for `-o` that names no single animated format, or a
    ///   manifest at the animation's name; what ``NamedFiles/init(_:inputs:)`` throws.
    func namedFiles(_ paths: [String]) throws -> NamedFiles {
        if let file = options.outputFile {
            _ = try NamedOutput(file, manifest: options.manifestFile, formats: options.formats)
        }
        let scene = self.scene.scenePath.flatMap { $0 == SceneOptions.standardInput ? nil : $0 }
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
