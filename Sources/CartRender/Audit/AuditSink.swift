import CartRenderCore
import CartRenderRaster

/// What to audit: the contrast level and the kinds left out (`--level`, `--ignore`).
public struct AuditOptions: Equatable, Sendable {
    /// The WCAG contrast level (`--level`); default AA.
    public var level: AuditLevel = .aa
    /// Kinds left out of the report (`--ignore`).
    public var ignored: Set<AuditKind> = []
    /// Options auditing at `level`, leaving out `ignored`.
    public init(level: AuditLevel = .aa, ignored: Set<AuditKind> = []) { self.level = level; self.ignored = ignored }
}

/// The accessibility audit as a sink of the render's one frame loop (``FrameStream``): it
/// checks each distinct frame once and gathers the issues into an ``AuditReport`` (its
/// ``SinkOutput/summary``; ``report`` after the stream).
///
/// A frame that repeats the one before it in the stream (same display list, the stream's runs)
/// takes that frame's findings; a frame whose display list equals any frame checked before
/// takes its findings too. Checks run in the first stage on the drawing workers' threads, each
/// with a ``FrameAuditor`` of its own (drawing only the regions under text, so the sink needs
/// no canvas: `cartrender audit` draws no whole frame). Findings are a pure function of the
/// frame, so the report does not depend on `--jobs` or on which worker checked what.
final class AuditSink: FrameSink, @unchecked Sendable {
    private let renderer: Renderer
    private let options: AuditOptions
    private let auditors = LockedValue([FrameAuditor]())
    private struct Collected {
        /// Findings of the frames that were checked (or matched an earlier display list).
        var findings: [Int: [AuditFinding]] = [:]
        /// Frames that repeat the frame before them in the stream.
        var repeats: Set<Int> = []
        /// Display lists checked, each once, with their findings.
        var checked: [(display: DisplayList, findings: [AuditFinding])] = []
    }
    private let collected = LockedValue(Collected())
    /// The report, after the stream has finished.
    private(set) var report: AuditReport?

    init(renderer: Renderer, options: AuditOptions) {
        self.renderer = renderer
        self.options = options
    }

    var needs: FrameNeeds { [] }

    func write(_ frame: RenderedFrame) throws -> [Manifest.File] {
        if frame.repeatsPrevious {
            collected.withLock { _ = $0.repeats.insert(frame.index) }
            return []
        }
        let known = collected.withLock { c in c.checked.first { $0.display == frame.display }?.findings }
        let findings: [AuditFinding]
        if let known {
            findings = known
        } else {
            let auditor = try auditors.withLock { $0.popLast() } ?? FrameAuditor(worker: renderer.makeWorker())
            defer { auditors.withLock { $0.append(auditor) } }
            findings = try auditor.audit(frame.display, state: frame.state, level: options.level)
        }
        collected.withLock { c in
            c.findings[frame.index] = findings
            if known == nil, !c.checked.contains(where: { $0.display == frame.display }) { c.checked.append((frame.display, findings)) }
        }
        return []
    }

    func finish(earlier: [Manifest.File]) throws -> SinkOutput {
        let c = collected.withLock { $0 }
        var perFrame: [(index: Int, findings: [AuditFinding])] = []
        for index in (Array(c.findings.keys) + Array(c.repeats)).sorted() {
            // A repeated frame is in the same run as the frame before it, which came first.
            let findings = c.findings[index] ?? perFrame.last?.findings ?? []
            perFrame.append((index, findings))
        }
        let report = AuditReport(findings: perFrame, distinctFrames: c.checked.count, level: options.level, ignored: options.ignored)
        self.report = report
        return SinkOutput(summary: report)
    }
}
