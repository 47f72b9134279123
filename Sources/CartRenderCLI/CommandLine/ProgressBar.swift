import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

/// Progress on stderr, one phase at a time (``RenderProgress``): on a terminal, a bar per
/// phase with its count, rate and time left, redrawn in place and left on its line when the
/// phase ends (`drawing           ██████████████ 198/198 frames, 254/s, 0.8 s`); on a
/// non-terminal with `CI` set (and `linesUnderCI`), one line per phase as it ends
/// (`cartrender: drawing: 198 frames in 0.8 s (254 frames/s)`); otherwise nothing.
final class ProgressBar: @unchecked Sendable {
    private enum Mode { case terminal, lines }
    private let lock = NSLock()
    private let mode: Mode?
    /// The phase being shown: its report with the most done, when it started, what was drawn.
    private var current: (report: RenderProgress, started: Date, drawnCells: Int, drawnAt: Date)?

    /// - Parameter linesUnderCI: print a line per phase on a non-terminal when `CI` is set.
    init(linesUnderCI: Bool = false) {
        if isatty(2) == 1 { mode = .terminal }
        else if linesUnderCI, let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty, ci != "false", ci != "0" { mode = .lines }
        else { mode = nil }
    }

    /// Frames done of `total` (verify and audit: their drawing phase).
    func update(_ done: Int, _ total: Int) { update(RenderProgress(.drawing, done: done, total: total, unit: "frames")) }

    /// Reports progress; a report of another phase ends the one shown. Reports from workers
    /// may arrive out of order, so only the highest count of a phase is shown.
    func update(_ report: RenderProgress) {
        guard mode != nil else { return }
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        if let c = current, c.report.label != report.label || c.report.total != report.total { end(now) }
        if current == nil { current = (report, now, -1, .distantPast) }
        guard var c = current, report.done >= c.report.done else { return }
        c.report = report
        current = c
        guard mode == .terminal else { return }
        let width = 24
        let cells = report.total > 0 ? report.done * width / report.total : 0
        guard cells != c.drawnCells || now.timeIntervalSince(c.drawnAt) > 0.25 else { return }
        current?.drawnCells = cells
        current?.drawnAt = now
        Stderr.write("\r" + line(c.report, started: c.started, now: now) + "\u{1B}[K")
    }

    /// Ends the phase shown.
    func finish() {
        lock.lock(); defer { lock.unlock() }
        end(Date())
    }

    private func end(_ now: Date) {
        guard let c = current, let mode else { return }
        current = nil
        let secs = now.timeIntervalSince(c.started)
        switch mode {
        case .terminal:
            Stderr.write("\r" + line(c.report, started: c.started, now: now, ended: true) + "\u{1B}[K\n")
        case .lines:
            let r = c.report
            let what = r.unit.map { " \(r.done) \(r.done == 1 && $0.hasSuffix("s") ? String($0.dropLast()) : $0) in" } ?? ""
            let rate = r.unit != nil && secs >= 0.1 ? String(format: " (%.0f %@/s)", Double(r.done) / secs, r.unit!) : ""
            Stderr.line("\(r.label):\(what) \(Self.seconds(secs))\(rate)")
        }
    }

    /// `drawing           ██████░░░░ 120/198 frames, 240/s, 0.3 s left`; ended: the time taken.
    private func line(_ r: RenderProgress, started: Date, now: Date, ended: Bool = false) -> String {
        let width = 24
        let filled = r.total > 0 ? min(width, r.done * width / r.total) : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let label = r.label.padding(toLength: max(18, r.label.count), withPad: " ", startingAt: 0)
        let secs = now.timeIntervalSince(started)
        var text = "\(label) \(bar)"
        if let unit = r.unit { text += " \(r.done)/\(r.total) \(unit)" }
        let rate = secs > 0 ? Double(r.done) / secs : 0
        if ended { return text + (r.unit != nil && rate > 0 ? String(format: ", %.0f/s", rate) : "") + ", " + Self.seconds(secs) }
        if r.unit != nil && rate > 0 && r.done < r.total {
            text += String(format: ", %.0f/s, ", rate) + Self.seconds(Double(r.total - r.done) / rate) + " left"
        }
        return text
    }

    private static func seconds(_ s: Double) -> String { String(format: s < 10 ? "%.2f s" : "%.1f s", s) }
}
