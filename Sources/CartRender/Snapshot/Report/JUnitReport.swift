import CartRenderCore
import Foundation

/// `junit.xml`: one `<testcase>` per frame, a `<failure>` for each frame that did not pass, in
/// the JUnit XML dialect that CI systems read (Jenkins' junit-4 schema, GitLab, the GitHub
/// Actions reporters), with the attributes they look for:
///
/// - `time` (s, 3 decimals) on `<testsuites>` and `<testsuite>` — the run, drawing included —
///   and on every `<testcase>` — checking that frame (``FrameResult/seconds``; 0 when not
///   measured); without it some reporters show NaN.
/// - `timestamp` on `<testsuite>`: when the run began, UTC, ISO 8601 without a zone
///   (`2026-12-01T08:32:34`, as Ant and Jenkins write it).
/// - A frame whose state differs from the baseline manifest's fails with its changes in the
///   message (`type="state"` when its pixels match); with `--ignore-state` they go to its
///   `<system-out>`. Events that moved and software that differs from the baseline's go to the
///   suite's `<system-out>`.
/// - `classname` `cartrender.verify.SCENE` (`cartrender.diff.DIR`) and `name`
///   `frame_0042.png (t=0.7 s)`, and `file`: the scene file (verify) or the frame file (diff),
///   which GitLab and the GitHub annotation actions link to, relative to the workspace
///   (``AnnotationPath``: `GITHUB_WORKSPACE`, else the working directory) and normalised; a
///   failing verify case also has `line`, the line of the scene file that explains it
///   (``SnapshotResult/annotationLine``: the first moved event's input, else the first changed
///   scene member), so that an annotation lands on the cause, not on line 1.
///
/// Times are measurements, so this file differs from run to run in `time` and `timestamp`
/// only; `report.json` and `index.html` hold no times and stay byte for byte the same.
package enum JUnitReport {
    /// When the run began and how long it took.
    package struct Run {
        var timestamp: Date
        /// Seconds, monotonic clock.
        var seconds: Double

        /// A run that started at `timestamp` and took `seconds`.
        package init(timestamp: Date, seconds: Double) { self.timestamp = timestamp; self.seconds = seconds }
    }

    package static func xml(for result: SnapshotResult, run: Run) -> String {
        xml(for: [(result, run)])
    }

    /// One file of several runs (the variants of a matrix), a `<testsuite>` each, so that a
    /// reader that merges files sees every case apart: the suite, the class and the test names
    /// carry the variant (`fly-button[dark-ar_SA]`).
    package static func xml(for runs: [(result: SnapshotResult, run: Run)]) -> String {
        let command = runs.first?.result.command.rawValue ?? "verify"
        let n = runs.reduce(0) { $0 + $1.result.frames.count }
        let failures = runs.reduce(0) { $0 + $1.result.failures.count }
        let time = seconds(runs.reduce(0) { $0 + $1.run.seconds })
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<testsuites name=\"cartrender \(command)\" tests=\"\(n)\" failures=\"\(failures)\" errors=\"0\" time=\"\(time)\">\n"
        for (result, run) in runs { s += suite(for: result, run: run) }
        return s + "</testsuites>\n"
    }

    /// One `<testsuite>` element.
    static func suite(for result: SnapshotResult, run: Run) -> String {
        let variant = result.variant.map { "[\($0)]" } ?? ""
        let suite = "cartrender \(result.command.rawValue) \(result.subject)\(variant)"
        let className = "cartrender.\(result.command.rawValue)." + classNameComponent(result.subject) + variant
        let failures = result.failures.count
        let n = result.frames.count
        let time = seconds(run.seconds)
        var s = ""
        s += "  <testsuite name=\"\(Escaping.xml(suite))\" tests=\"\(n)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"\(time)\" timestamp=\"\(timestamp(run.timestamp))\">\n"
        s += "    <properties>\n"
        var properties: [(String, String)] = [
            (result.command == .verify ? "scene" : "actual", result.subject),
            (result.command == .verify ? "baseline" : "expected", result.baseline),
            ("threshold", JSONValue.format(result.options.threshold, decimals: 6)),
            ("allowed", result.allowance),
            ("includeAA", String(result.options.includeAA)),
        ]
        if let record = result.record { properties.append(("record", record.rawValue)) }
        if let v = result.variant { properties.append(("variant", v)) }
        if let dir = result.reportDirectory { properties.append(("report", (dir as NSString).appendingPathComponent(ReportWriter.htmlName))) }
        for (k, v) in properties { s += "      <property name=\"\(Escaping.xml(k))\" value=\"\(Escaping.xml(v))\"/>\n" }
        s += "    </properties>\n"
        // `<default scene>` and `<stdin>` are names, not paths.
        let subject = result.subject.hasPrefix("<") ? result.subject : AnnotationPath.relative(result.subject, to: result.workspace)
        for frame in result.frames {
            var name = frame.name + (result.variant.map { " [\($0)]" } ?? "")
            if let t = frame.time { name += " (t=\(JSONValue.format(t, decimals: 3)) s)" }
            let file = result.command == .verify ? subject : (subject as NSString).appendingPathComponent(frame.name)
            var open = "    <testcase classname=\"\(Escaping.xml(className))\" name=\"\(Escaping.xml(name))\" time=\"\(seconds(frame.seconds ?? 0))\" file=\"\(Escaping.xml(file))\""
            if result.command == .verify, !frame.passed, let line = result.annotationLine { open += " line=\"\(line)\"" }
            let state = frame.stateDiffers && frame.status != .pass ? "state differs from the baseline manifest's: " + SnapshotResult.describe(frame.stateChanges!) : nil
            if frame.passed && !frame.recorded {
                guard frame.stateDiffers else {
                    s += open + "/>\n"
                    continue
                }
                s += open + ">\n      <system-out>\(Escaping.xml("ignored (--ignore-state): " + result.explanation(of: frame)))</system-out>\n    </testcase>\n"
                continue
            }
            s += open + ">\n"
            let explanation = result.explanation(of: frame) + (state.map { "; " + $0 } ?? "")
            var details: [String] = []
            if let dir = result.reportDirectory {
                for (label, file) in [("expected", frame.expectedFile), ("actual", frame.actualFile), ("diff", frame.diffFile)] {
                    if let file { details.append("\(label): \((dir as NSString).appendingPathComponent(file))") }
                }
            }
            if frame.passed {
                s += "      <system-out>\(Escaping.xml("recorded: " + explanation + (details.isEmpty ? "" : "\n" + details.joined(separator: "\n"))))</system-out>\n"
            } else {
                let body = ([explanation] + details).joined(separator: "\n")
                s += "      <failure type=\"\(frame.status == .pass ? "state" : frame.status.rawValue)\" message=\"\(Escaping.xml(explanation))\">\(Escaping.xml(body))</failure>\n"
            }
            s += "    </testcase>\n"
        }
        let notes = [result.settingMismatchLine, result.recordingNote, result.movedEventsLine].compactMap { $0 } + result.warnings
        if !notes.isEmpty { s += "    <system-out>\(Escaping.xml(notes.joined(separator: "\n")))</system-out>\n" }
        s += "  </testsuite>\n"
        return s
    }

    /// Seconds with 3 decimals, as JUnit writes them: `0.042`.
    static func seconds(_ t: Double) -> String { String(format: "%.3f", max(0, t.isFinite ? t : 0)) }

    /// `2026-12-01T08:32:34`: UTC, no zone, as Ant and Jenkins write `timestamp`.
    static func timestamp(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// `Examples/fly-button.json` → `fly-button`, with anything but letters, digits, `-` and `_` as `_`.
    static func classNameComponent(_ path: String) -> String {
        var stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if stem.isEmpty { stem = "scene" }
        return String(stem.unicodeScalars.map { s -> Character in
            (s.isASCII && (CharacterSet.alphanumerics.contains(s) || s == "-" || s == "_")) ? Character(s) : "_"
        })
    }
}
