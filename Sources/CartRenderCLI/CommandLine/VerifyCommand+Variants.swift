import CartRender
import CartRenderCore
import Foundation

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
