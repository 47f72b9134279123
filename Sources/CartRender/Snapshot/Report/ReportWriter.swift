import CartRenderCore
import Foundation

/// Writes a report directory: the per-frame images were written during the run; this adds
/// `report.json`, `junit.xml` and `index.html` (in that order, each atomically) and removes the
/// frame images an earlier report in the same directory listed and this one did not rewrite.
enum ReportWriter {
    static let jsonName = "report.json"
    static let junitName = "junit.xml"
    static let htmlName = "index.html"

    /// - Parameters:
    ///   - frameCount: frames in the render's timeline, for the HTML timeline's scale (nil: the
    ///     number of results).
    ///   - removing: names from ``filesOfEarlierReport(_:)``.
    /// - Throws: `OutputError`.
    static func write(_ result: SnapshotResult, to directory: OutputDirectory, frameCount: Int?, removing earlier: [String]) throws {
        try directory.write(Array(result.json.serialized(pretty: true).utf8), to: jsonName)
        try directory.write(Array(JUnitReport.xml(for: result).utf8), to: junitName)
        try directory.write(Array(HTMLReport.html(for: result).utf8), to: htmlName)
        let written = Set(result.frames.flatMap { [$0.expectedFile, $0.actualFile, $0.diffFile].compactMap { $0 } })
        for name in earlier where !written.contains(name) { directory.remove(name) }
    }

    /// Whether `name` is a per-frame image this program writes into reports.
    static func isReportImage(_ name: String) -> Bool {
        guard name.hasPrefix("frame_"), !name.contains("/") else { return false }
        return [".expected.png", ".actual.png", ".diff.png"].contains { suffix in
            name.hasSuffix(suffix) && FrameResult.index(ofFileName: String(name.dropLast(suffix.count)) + ".png") != nil
        }
    }

    /// The frame images listed by a `report.json` already in `directory` (an earlier run's).
    static func filesOfEarlierReport(_ directory: OutputDirectory) -> [String] {
        guard let data = FileManager.default.contents(atPath: directory.url(jsonName)),
              let root = try? JSONParser.parse(Array(data)) else { return [] }
        var names: [String] = []
        func collect(_ node: JSONNode) {
            switch node.value {
            case .object(let members):
                for m in members {
                    if m.key == "files", case .object(let files) = m.value.value {
                        for f in files { if case .string(let s) = f.value.value { names.append(s) } }
                    } else {
                        collect(m.value)
                    }
                }
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        collect(root)
        return names.filter(isReportImage)
    }
}
