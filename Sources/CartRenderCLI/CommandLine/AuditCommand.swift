import CartRender
import CartRenderCore
import Foundation

/// `cartrender audit [SCENE.json] [--json] [--level AA|AAA] [--ignore KIND]…`: the accessibility
/// audit of every distinct frame (``AuditSink``), parsed and validated. Prints one line per
/// issue and a summary (or one JSON object); exit 1 when an issue remains, 0 otherwise. A scene
/// with a `"variants"` matrix is audited per variant.
public struct AuditCommand: Equatable, Sendable {
    /// The contrast level and the kinds left out (`--level`, `--ignore`).
    public var audit = AuditOptions()
    /// Print the report as one JSON object (`--json`).
    public var json = false
    /// The scene and the options that change its frames.
    public var scene = SceneOptions()
    /// nil = the number of cores.
    public var jobs: Int?
    /// The frames audited (`--at`, repeatable); empty: every distinct frame (as a render plans
    /// an empty selection).
    public var frames: [FrameSelection] = []
    /// No progress bar (`--quiet`).
    public var quiet = false

    /// An audit of the default scene at AA with every kind.
    public init() {}

    static let options = OptionTable<AuditCommand>([
        Option("--json", "Print one JSON object (the report) on stdout instead of lines.") { $0.json = true },
        Option("--level", "AA|AAA", "WCAG 2.2 contrast level: AA 4.5:1 (large text 3:1, the default) or AAA 7:1 (4.5:1).",
               .checked("AA or AAA") { AuditLevel(rawValue: $0.uppercased()) }) { $0.audit.level = $1 },
        Option("--ignore", "KIND", "Leave out issues of this kind: \(AuditKind.allCases.map(\.rawValue).joined(separator: ", ")) (repeatable).",
               .auditKind, repeatable: true) { $0.audit.ignored.insert($1) },
        Option("--at", "TIME", "Audit only the frame at TIME seconds, start or end (the settled final state) (repeatable).", .time,
               repeatable: true) { $0.frames.append($1) },
        .jobs(\.jobs),
        .quiet(\.quiet),
        .help,
    ]).including(SceneOptions.options, at: \.scene)

    /// Parses audit arguments (after `audit`).
    /// - Throws: `UsageError` with one sentence naming the option.
    public static func parse(_ arguments: [String]) throws -> AuditCommand {
        var c = AuditCommand()
        c.scene.scenePath = try options.parse(arguments, into: &c) { try SceneOptions.checkScenePositionals($0, command: "audit") }.positionals.first
        return c
    }

    /// Audits the scene (each selected variant of its matrix) and prints the report.
    /// - Returns: 0 when no issue remains, 1 otherwise; the interrupt's code when interrupted.
    /// - Throws: `UsageError`, `SceneError`, `RasterError`.
    public func run() throws -> ExitCode {
        let interrupts = InterruptWatcher()
        defer { interrupts.stop() }
        let targets: [(name: String?, renderer: () throws -> Renderer)]
        if let variants = try scene.selectedVariants() {
            targets = variants.map { v in (v.name, { try scene.makeRenderer(for: v.scene) }) }
        } else {
            targets = [(nil, { try scene.makeRenderer() })]
        }
        var reports: [(name: String?, report: AuditReport)] = []
        for target in targets {
            let bar = quiet ? nil : ProgressBar()
            let report = try interrupts.during(.audit, cleanUp: { bar?.finish() }) {
                try target.renderer().audit(audit, frames: frames, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                            cancellation: interrupts.cancellation, progress: bar.map { b in { b.update($0, $1) } })
            }
            bar?.finish()
            reports.append((target.name, report))
        }
        let passed = reports.allSatisfy(\.report.passed)
        if json {
            let value: JSONValue = reports.count == 1 && reports[0].name == nil ? reports[0].report.json
                : .object([("passed", .bool(passed)), ("variants", .array(reports.map { r in
                    .object([("name", .string(r.name ?? "")), ("passed", .bool(r.report.passed)), ("report", r.report.json)])
                }))])
            StandardOutput.print(value.serialized(pretty: true), terminator: "")
        } else {
            for r in reports {
                let prefix = r.name.map { "\($0): " } ?? ""
                for issue in r.report.issues { StandardOutput.line(prefix + issue.line) }
                StandardOutput.line(prefix + r.report.summaryLine)
            }
        }
        return passed ? .success : .differences
    }
}

extension OptionValue where Value == AuditKind {
    /// `--ignore KIND`: one of ``AuditKind``; any other names the kinds.
    static var auditKind: OptionValue {
        OptionValue { name, text in
            guard let kind = AuditKind(rawValue: text) else {
                throw UsageError("\(name): unknown kind \(echoedQuoted(text)); expected \(AuditKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return kind
        }
    }
}

extension AuditCommand: ParsedCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "audit", usage: "[SCENE.json | -] [options]",
            helpUsage: { ["[SCENE.json | -] [--json] [--level AA|AAA] [--ignore KIND]... [options]"] },
            abstract: ["check every distinct frame for accessibility"],
            overview: """
                check every distinct frame of a scene for accessibility: text contrast
                against the pixels behind each glyph (WCAG 2.2), touch targets under 44×44 pt (buttons and
                steppers, Apple HIG), buttons and images without an accessibility label, and text cut to
                fewer lines than it needs or clipped at the scene's Dynamic Type size. Writes no files.
                """,
            discussion: [HelpSection(heading: nil, """
                A scene with a "variants" matrix is audited per variant (--variant NAME selects some).
                """)],
            exitStatus: """
                  0 no issue · 1 issues found · 64 bad command line (an unknown --ignore kind names the
                  kinds) · 65 invalid scene · 66 scene file unreadable
                """,
            examples: [
                "cartrender audit Examples/cart.json",
                "cartrender audit scene.json --json --level AAA --ignore label",
                "cartrender audit scene.json --at end   # the settled final frame only",
                "cartrender --audit --out frames/   # the same report, in frames/manifest.json \"audit\"",
            ])
    }
}
