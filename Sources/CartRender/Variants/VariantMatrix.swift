import CartRenderCore
import Foundation

/// `variants.json`: what a render of a scene's `"variants"` matrix wrote at the top of `--out`
/// (docs/scene-file.md, “Variant matrix”): one entry per variant rendered, in matrix order (or `--variant` order), each
/// with its subdirectory, its values by matrix key, its frame count and its manifest.
enum VariantsFile {
    static let name = "variants.json"

    /// The file as read back: what the top page of the matrix lists.
    struct Listing: Decodable {
        struct Entry: Decodable {
            var name: String
            /// The variant's subdirectory: one plain name (no `/`, not `.` or `..`).
            var directory: String
            /// `{"KEY": "TEXT"}` in matrix key order.
            var values: JSONValue
            var frames: Int
        }
        var variants: [Entry]

        /// The listing of `json` (as ``VariantsFile/json(_:)`` makes it, or as read back).
        /// - Throws: `DecodingError`; ``Problem`` for a directory that is not one plain name.
        init(_ json: JSONValue) throws {
            self = try JSONValueDecoder().decode(Listing.self, from: json)
            for (i, v) in variants.enumerated() where v.directory.isEmpty || v.directory.contains("/") || v.directory == "." || v.directory == ".." {
                throw Problem(description: "variants[\(i)].directory: must be the name of a subdirectory, got \(echoedQuoted(v.directory))")
            }
        }

        struct Problem: Error, CustomStringConvertible { let description: String }
    }

    /// `DIR/variants.json` when `DIR` is the top of a variant matrix render: it has that file
    /// and no `manifest.json`; nil otherwise.
    /// - Throws: ``InputError`` (65) naming the file when it is not such a listing (line and
    ///   column, or JSON path), 66 when it cannot be read.
    static func read(in directory: String) throws -> Listing? {
        let path = (directory as NSString).appendingPathComponent(name)
        var info = stat()
        guard FileSystemPath.stat((directory as NSString).appendingPathComponent("manifest.json"), &info) != 0,
              FileSystemPath.stat(path, &info) == 0 else { return nil }
        do {
            return try Listing(JSONValue(JSONParser.parse(try RegularFile.read(path, limit: Manifest.maxFileBytes))))
        } catch let e as FileReadError {
            throw InputError(e.exitCode == .noInput ? .unreadable : .invalid, path: path, reason: e.reason(notA: "a variants listing"))
        } catch let e as JSONSyntaxError {
            throw InputError(.invalid, path: path, reason: "line \(e.location.line), column \(e.location.column): \(e.message)")
        } catch let e as DecodingError {
            throw InputError(.invalid, path: path, reason: (e.jsonPath.isEmpty ? "" : e.jsonPath + ": ") + e.reason)
        } catch let e as Listing.Problem {
            throw InputError(.invalid, path: path, reason: e.description)
        }
    }

    static func json(_ rendered: [(variant: SceneVariant, frames: Int)]) -> JSONValue {
        .object([("version", 1), ("variants", .array(rendered.map { r in
            .object([
                ("name", .string(r.variant.name)),
                ("directory", .string(r.variant.name)),
                ("values", .object(r.variant.values.map { ($0.key, .string($0.text)) })),
                ("frames", .int(r.frames)),
                ("manifest", .string(r.variant.name + "/manifest.json")),
            ])
        }))])
    }
}

/// `index.html` at the top of a variant matrix render (`render --viewer`, `cartrender view TOP`):
/// a page that links each variant's viewer (`NAME/index.html`) with its values and frame count,
/// made from `variants.json` alone, so both write the same bytes. Self-contained, no script.
enum VariantsIndexPage {
    static func html(for listing: VariantsFile.Listing) -> String {
        let n = listing.variants.count
        let title = "cartrender viewer: \(n) variant\(n == 1 ? "" : "s")"
        var items = ""
        for v in listing.variants {
            let href = (v.directory.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? v.directory) + "/" + ViewerSink.fileName
            var values: [String] = []
            if case .object(let members) = v.values {
                for (key, value) in members {
                    if case .string(let text) = value { values.append("\(key) \(text)") } else { values.append("\(key) \(value.serialized())") }
                }
            }
            items += "<li><a href=\"\(Escaping.html(href))\">\(Escaping.html(v.name))</a> <span>\(Escaping.html(values.joined(separator: " · "))) · \(v.frames) frame\(v.frames == 1 ? "" : "s")</span></li>\n"
        }
        return HTMLReport.page(title: title, style: "body{font:15px system-ui,sans-serif;margin:1.5em;color:#222}li{margin:.4em 0}span{color:#666}",
                               body: "<h1>\(Escaping.html(title))</h1>\n<ul>\n\(items)</ul>\n")
    }
}

extension CLI {
    /// Renders each variant as a complete render into its subdirectory of `--out`, then writes
    /// `variants.json` there (and with `--viewer` the matrix's `index.html`, ``VariantsIndexPage``). Stops at the first variant that does not succeed (interrupted):
    /// the variants before it are complete, `variants.json` is not written.
    /// With a named animation file (`-o docs/fly.gif`) each variant is its own file beside it,
    /// named after the variant (``NamedOutput/path(_:variant:)``: `docs/fly-dark-rtl.gif`), and
    /// no `variants.json` is written.
    static func renderVariants(_ command: RenderCommand, _ variants: [SceneVariant]) throws -> ExitCode {
        // Every variant's canvas is checked before the first is drawn (a `device` variant may be larger).
        for variant in variants {
            let size = Renderer.pixelSize(of: variant.scene)
            try OutputFormat.checkCanvas(command.options.formats, width: size.width, height: size.height, setBy: variant.scene.canvasMember)
        }
        if let file = command.options.outputFile {
            // Every variant's files checked before the first frame, replaced together after the last.
            let paths = variants.flatMap { v in
                [NamedOutput.path(file, variant: v.name)] + (command.options.manifestFile.map { [NamedOutput.path($0, variant: v.name)] } ?? [])
            }
            let named = try namedFiles(for: command, paths)
            do {
                for variant in variants {
                    var one = command
                    one.options.outputFile = NamedOutput.path(file, variant: variant.name)
                    one.options.manifestFile = command.options.manifestFile.map { NamedOutput.path($0, variant: variant.name) }
                    one.options.namedFiles = named
                    let status = try render(one, renderer: try command.scene.makeRenderer(for: variant.scene))
                    guard status == .success else { named.discard(); return status }
                }
                try named.commit(cancellation: nil)
            } catch {
                named.discard()
                throw error
            }
            return .success
        }
        let top = try OutputDirectory(path: command.options.outputDirectory)
        var rendered: [(variant: SceneVariant, frames: Int)] = []
        for variant in variants {
            var one = command
            one.options.outputDirectory = try OutputDirectory.subdirectory(variant.name, of: top.path)
            let renderer = try command.scene.makeRenderer(for: variant.scene)
            let status = try render(one, renderer: renderer)
            guard status == .success else { return status }
            rendered.append((variant, command.options.shard == nil ? renderer.frameCount : 0))
        }
        let listing = VariantsFile.json(rendered)
        var files = [(name: VariantsFile.name, bytes: Array(listing.serialized(pretty: true).utf8))]
        if command.options.viewer { files.append((ViewerSink.fileName, Array(VariantsIndexPage.html(for: try VariantsFile.Listing(listing)).utf8))) }
        try StagingArea.writeFiles(files, into: top)
        return .success
    }
}

extension VerifyCommand {
    /// Verifies each variant against the subdirectory of the baseline named after it, writing
    /// its report into the subdirectory of the report directory of that name; prints each
    /// variant's lines under its name and a line of how many passed (or one JSON object
    /// `{"passed", "variants": [{"name", "passed", "report"}]}`). At the top of the report
    /// directory: one `junit.xml` of every variant (a suite each, named after it) and an
    /// `index.html` listing every variant with its status (``VariantsReportIndex``). One Markdown
    /// summary with a row per variant (``MarkdownSummary/markdown(forVariants:scene:reportDirectory:)``).
    /// Exit 1 when any variant fails.
    func runVariants(_ variants: [SceneVariant], environment: [String: String]) throws -> ExitCode {
        let interrupts = InterruptWatcher()
        defer { interrupts.stop() }
        let reports = options.reportDirectory ?? VerifyOptions.defaultReportDirectory(forBaseline: options.baseline)
        var results: [(name: String, result: SnapshotResult, run: JUnitReport.Run)] = []
        for variant in variants {
            let renderer = try scene.makeRenderer(for: variant.scene)
            let started = (date: Date(), clock: DispatchTime.now())
            let result = try verify(renderer: renderer, baseline: try OutputDirectory.subdirectory(variant.name, of: options.baseline),
                                    reportDirectory: try OutputDirectory.subdirectory(variant.name, of: reports), variant: variant.name,
                                    environment: environment, interrupts: interrupts)
            results.append((variant.name, result, JUnitReport.Run(timestamp: started.date, seconds: FrameResult.seconds(since: started.clock))))
        }
        let passed = results.allSatisfy(\.result.passedWithAudit)
        let top = try OutputDirectory(path: reports)
        let index = VariantsReportIndex.html(for: results.map { ($0.name, $0.result) }, scene: scene.sceneName)
        try StagingArea.writeFiles([(ReportWriter.junitName, Array(JUnitReport.xml(for: results.map { ($0.result, $0.run) }).utf8)),
                                    (ReportWriter.htmlName, Array(index.utf8))], into: top)
        if json {
            let report: JSONValue = .object([("passed", .bool(passed)), ("variants", .array(results.map { r in
                .object([("name", .string(r.name)), ("passed", .bool(r.result.passedWithAudit)), ("report", r.result.json)])
            }))])
            StandardOutput.print(report.serialized(pretty: true), terminator: "")
        } else {
            for r in results {
                StandardOutput.line("variant \(r.name):")
                printResult(r.result, json: false)
            }
            let failed = results.filter { !$0.result.passedWithAudit }.map(\.name)
            StandardOutput.line("\(results.count - failed.count) of \(results.count) variants passed" + (failed.isEmpty ? "" : "; failed: " + failed.joined(separator: ", "))
                                 + "; report: \((reports as NSString).appendingPathComponent(ReportWriter.htmlName))")
        }
        try writeSummary(MarkdownSummary.markdown(forVariants: results.map { ($0.name, $0.result) }, scene: FileSystemPath.display(scene.sceneName),
                                                  reportDirectory: FileSystemPath.display(reports)), environment: environment)
        return passed ? .success : .differences
    }
}

/// `index.html` at the top of a variant matrix's report directory: every variant with its
/// verdict, counts and a link to its own report (`NAME/index.html`). Self-contained, no script.
enum VariantsReportIndex {
    static func html(for results: [(name: String, result: SnapshotResult)], scene: String) -> String {
        let failed = results.filter { !$0.result.passedWithAudit }.count
        let title = "cartrender verify \(failed == 0 ? "passed" : "FAILED"): \(scene), \(results.count) variant\(results.count == 1 ? "" : "s")"
        var rows = ""
        for (name, r) in results {
            let href = (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name) + "/" + ReportWriter.htmlName
            let ok = r.passedWithAudit
            rows += "<tr class=\"\(ok ? "pass" : "fail")\"><td><a href=\"\(Escaping.html(href))\">\(Escaping.html(name))</a></td>"
            rows += "<td><span class=\"status\">\(ok ? "passed" : "FAILED")</span></td><td>\(r.frames.count)</td><td>\(r.failures.count)</td><td>\(r.recordedCount)</td></tr>\n"
        }
        let style = """
        :root{color-scheme:light dark;--pass:#34c759;--fail:#ff3b30;--bg:#f2f2f7;--card:#fff;--ink:#1c1c1e;--mute:#6e6e73}
        @media (prefers-color-scheme:dark){:root{--bg:#000;--card:#1c1c1e;--ink:#f2f2f7;--mute:#98989f}}
        body{font:15px/1.45 system-ui,sans-serif;margin:0;padding:16px;background:var(--bg);color:var(--ink)}h1{font-size:20px}
        table{border-collapse:collapse;background:var(--card);border-radius:10px;width:100%;max-width:720px}td,th{padding:6px 10px;text-align:left}
        th{color:var(--mute);font-weight:500}a{color:inherit}.status{color:#fff;border-radius:6px;padding:1px 6px}
        .pass .status{background:var(--pass)}.fail .status{background:var(--fail)}
        """
        let body = "<h1>\(Escaping.html(title))</h1>\n<table>\n<tr><th>variant</th><th>result</th><th>frames</th><th>failed</th><th>recorded</th></tr>\n\(rows)</table>\n"
        return HTMLReport.page(title: title, style: style, body: body)
    }
}
