import CartRenderCore
import Foundation

/// `junit.xml`: one `<testcase>` per frame, a `<failure>` for each frame that did not pass, in
/// the JUnit XML dialect that CI systems (GitHub Actions reporters, GitLab, Jenkins) read.
/// No timings, so the same run gives the same bytes.
enum JUnitReport {
    static func xml(for result: SnapshotResult) -> String {
        let suite = "cartrender \(result.command.rawValue) \(result.subject)"
        let className = "cartrender.\(result.command.rawValue)." + classNameComponent(result.subject)
        let failures = result.failures.count
        let n = result.frames.count
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<testsuites name=\"cartrender \(result.command.rawValue)\" tests=\"\(n)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
        s += "  <testsuite name=\"\(escape(suite))\" tests=\"\(n)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
        s += "    <properties>\n"
        var properties: [(String, String)] = [
            (result.command == .verify ? "scene" : "actual", result.subject),
            (result.command == .verify ? "baseline" : "expected", result.baseline),
            ("threshold", JSONValue.format(result.options.threshold, decimals: 6)),
            ("allowed", result.allowance),
            ("includeAA", String(result.options.includeAA)),
        ]
        if let record = result.record { properties.append(("record", record.rawValue)) }
        if let dir = result.reportDirectory { properties.append(("report", (dir as NSString).appendingPathComponent(ReportWriter.htmlName))) }
        for (k, v) in properties { s += "      <property name=\"\(escape(k))\" value=\"\(escape(v))\"/>\n" }
        s += "    </properties>\n"
        for frame in result.frames {
            var name = frame.name
            if let t = frame.time { name += " (t=\(JSONValue.format(t, decimals: 3)) s)" }
            let open = "    <testcase classname=\"\(escape(className))\" name=\"\(escape(name))\""
            if frame.passed && !frame.recorded {
                s += open + "/>\n"
                continue
            }
            s += open + ">\n"
            let explanation = result.explanation(of: frame)
            var details: [String] = []
            if let dir = result.reportDirectory {
                for (label, file) in [("expected", frame.expectedFile), ("actual", frame.actualFile), ("diff", frame.diffFile), ("panel", frame.panelFile)] {
                    if let file { details.append("\(label): \((dir as NSString).appendingPathComponent(file))") }
                }
            }
            if frame.passed {
                s += "      <system-out>\(escape("recorded: " + explanation + (details.isEmpty ? "" : "\n" + details.joined(separator: "\n"))))</system-out>\n"
            } else {
                let body = ([explanation] + details).joined(separator: "\n")
                s += "      <failure type=\"\(frame.status.rawValue)\" message=\"\(escape(explanation))\">\(escape(body))</failure>\n"
            }
            s += "    </testcase>\n"
        }
        s += "  </testsuite>\n</testsuites>\n"
        return s
    }

    /// `Examples/fly-button.json` → `fly-button`, with anything but letters, digits, `-` and `_` as `_`.
    static func classNameComponent(_ path: String) -> String {
        var stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if stem.isEmpty { stem = "scene" }
        return String(stem.unicodeScalars.map { s -> Character in
            (s.isASCII && (CharacterSet.alphanumerics.contains(s) || s == "-" || s == "_")) ? Character(s) : "_"
        })
    }

    /// Escapes text for XML attributes and content; drops characters XML 1.0 cannot hold.
    static func escape(_ text: String) -> String {
        var out = ""
        for u in text.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            case _ where u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
