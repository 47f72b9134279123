import CartRenderCore
import Foundation

/// `variants.json`: what a render of a scene's `"variants"` matrix wrote at the top of `--out`
/// (SPEC.md §8): one entry per variant rendered, in matrix order (or `--variant` order), each
/// with its subdirectory, its values by matrix key, its frame count and its manifest.
enum VariantsFile {
    static let name = "variants.json"

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

extension CLI {
    /// Renders each variant as a complete render into its subdirectory of `--out`, then writes
    /// `variants.json` there. Stops at the first variant that does not succeed (interrupted):
    /// the variants before it are complete, `variants.json` is not written.
    static func renderVariants(_ command: RenderCommand, _ variants: [SceneVariant]) throws -> ExitCode {
        let top = try OutputDirectory(path: command.outputDirectory)
        var rendered: [(variant: SceneVariant, frames: Int)] = []
        for variant in variants {
            var one = command
            one.outputDirectory = top.url(variant.name)
            let renderer = try command.scene.makeRenderer(for: variant.scene)
            let status = try render(one, renderer: renderer)
            guard status == .success else { return status }
            rendered.append((variant, command.shard == nil ? renderer.frameCount : 0))
        }
        try top.write(Array(VariantsFile.json(rendered).serialized(pretty: true).utf8), to: VariantsFile.name)
        return .success
    }
}

extension VerifyCommand {
    /// Verifies each variant against the subdirectory of the baseline named after it, writing
    /// its report into the subdirectory of the report directory of that name; prints each
    /// variant's lines under its name and a line of how many passed (or one JSON object
    /// `{"passed", "variants": [{"name", "passed", "report"}]}`). Exit 1 when any variant fails.
    func runVariants(_ variants: [SceneVariant], environment: [String: String]) throws -> ExitCode {
        let interrupts = InterruptWatcher()
        defer { interrupts.stop() }
        let reports = reportDirectory ?? VerifyOptions.defaultReportDirectory(forBaseline: baseline)
        var results: [(name: String, result: SnapshotResult)] = []
        for variant in variants {
            let renderer = try scene.makeRenderer(for: variant.scene)
            guard let result = try verify(renderer: renderer, baseline: (baseline as NSString).appendingPathComponent(variant.name),
                                          reportDirectory: (reports as NSString).appendingPathComponent(variant.name),
                                          environment: environment, interrupts: interrupts) else { return interrupts.exitCode }
            results.append((variant.name, result))
        }
        let passed = results.allSatisfy(\.result.passedWithAudit)
        if json {
            let report: JSONValue = .object([("passed", .bool(passed)), ("variants", .array(results.map { r in
                .object([("name", .string(r.name)), ("passed", .bool(r.result.passedWithAudit)), ("report", r.result.json)])
            }))])
            print(report.serialized(pretty: true), terminator: "")
        } else {
            for r in results {
                print("variant \(r.name):")
                printResult(r.result, json: false)
            }
            let failed = results.filter { !$0.result.passedWithAudit }.map(\.name)
            print("\(results.count - failed.count) of \(results.count) variants passed" + (failed.isEmpty ? "" : "; failed: " + failed.joined(separator: ", ")))
        }
        return passed ? .success : .differences
    }
}
