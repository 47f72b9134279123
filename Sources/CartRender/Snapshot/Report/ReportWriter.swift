import CartRenderCore
import Foundation

/// Writes a report directory: the per-frame images while the run goes, then `report.json`,
/// `junit.xml` and `index.html`.
///
/// Everything goes to a staging directory inside the report directory first (`StagingArea`) and
/// is moved into place together by `finish`, the report files last; frame images an earlier
/// report listed and this one did not rewrite are removed then. A run that fails or is
/// interrupted calls `discard`: the report directory stays as it was, never a mix of two runs.
final class ReportWriter {
    static let jsonName = "report.json"
    static let junitName = "junit.xml"
    static let htmlName = "index.html"

    let directory: OutputDirectory
    private let staging: StagingArea
    private let earlier: [String]
    /// When the run began (the writer is made before the first frame), for `junit.xml`'s
    /// `timestamp`, and on the monotonic clock, for its `time`.
    private let startDate = Date()
    private let start = DispatchTime.now()

    /// Creates the report directory when needed and a staging directory inside it.
    /// - Parameter cancellation: stops `finish` while it waits for the directory lock.
    /// - Throws: `OutputError` when either cannot be created.
    init(path: String, cancellation: RenderCancellation? = nil) throws {
        directory = try OutputDirectory(path: path)
        earlier = Self.filesOfEarlierReport(directory)
        do { staging = try StagingArea(in: directory, cancellation: cancellation) } catch {
            directory.removeCreatedDirectories()
            throw error
        }
    }

    /// Stages a frame image. Thread-safe (each name is written by one thread).
    /// - Throws: `OutputError`.
    func write(_ bytes: [UInt8], to name: String) throws { try staging.write(bytes, to: name) }

    /// Stages the failure artifacts of `comparison` (``ImageDiffing/artifacts``: the diff image
    /// and the expected | diff | actual panel) as `STEM.diff.png` and `STEM.panel.png`, and names
    /// them in `frame`. Thread-safe as ``write(_:to:)``.
    /// - Throws: what the artifacts closure throws; `OutputError`.
    func writeArtifacts(of comparison: FrameComparison, using diffing: ImageDiffing, stem: String, to frame: inout FrameResult) throws {
        for artifact in try diffing.artifacts(comparison) { try write(artifact, stem: stem, to: &frame) }
    }

    /// Stages one failure artifact as `STEM.KIND.png` and names it in `frame`.
    /// - Throws: `OutputError`.
    func write(_ artifact: ImageDiffing.Artifact, stem: String, to frame: inout FrameResult) throws {
        let name = stem + artifact.suffix
        try write(artifact.bytes, to: name)
        switch artifact.kind {
        case .diff: frame.diffFile = name
        case .panel: frame.panelFile = name
        }
    }

    /// Stages the report files and moves everything into place.
    /// - Parameter lock: the exclusive lock on the report directory when the caller holds it
    ///   already (`verify` with its report inside the baseline directory); nil to take it.
    /// - Throws: `OutputError`; `RenderCancelled` when cancelled while waiting for the lock.
    func finish(_ result: SnapshotResult, holding lock: DirectoryLock? = nil) throws {
        try staging.write(Array(result.json.serialized(pretty: true).utf8), to: Self.jsonName)
        let run = JUnitReport.Run(timestamp: startDate, seconds: FrameResult.seconds(since: start))
        try staging.write(Array(JUnitReport.xml(for: result, run: run).utf8), to: Self.junitName)
        let expected = HTMLReport.relativeDirectory(from: directory.path, to: result.baseline)
        try staging.write(Array(HTMLReport.html(for: result, expectedDirectory: expected).utf8), to: Self.htmlName)
        let images = result.frames.flatMap { [$0.expectedFile, $0.actualFile, $0.diffFile, $0.panelFile].compactMap { $0 } }
        let written = Set(images)
        try staging.moveIntoPlace(images + [Self.jsonName, Self.junitName, Self.htmlName],
                                  removing: earlier.filter { !written.contains($0) }, holding: lock)
    }

    /// Removes what this run staged, and the report directory when this run created it.
    func discard() {
        staging.discard()
        directory.removeCreatedDirectories()
    }

    /// Whether `name` is a per-frame image this program writes into reports.
    static func isReportImage(_ name: String) -> Bool {
        guard name.hasPrefix("frame_"), !name.contains("/") else { return false }
        return [".expected.png", ".actual.png", ".diff.png", ".panel.png"].contains { suffix in
            name.hasSuffix(suffix) && FrameResult.index(ofFileName: String(name.dropLast(suffix.count)) + ".png") != nil
        }
    }

    /// Largest earlier `report.json` read to find the images it lists (bytes).
    static let maxEarlierReportBytes = 256 << 20

    /// The frame images listed by a `report.json` already in `directory` (an earlier run's); none
    /// when there is no such regular file (a FIFO is not waited on) or it cannot be parsed.
    static func filesOfEarlierReport(_ directory: OutputDirectory) -> [String] {
        guard let data = try? RegularFile.read(directory.url(jsonName), limit: maxEarlierReportBytes) else { return [] }
        return filesListed(inReport: data) ?? []
    }

    /// The frame images a report's JSON lists (its frames' `files`), when it reads as a report
    /// of cartrender (`"version": 1`, `"command": "verify"` or `"diff"`); nil otherwise.
    static func filesListed(inReport data: [UInt8]) -> [String]? {
        guard let root = try? JSONParser.parse(data), case .object(let top) = root.value,
              top.contains(where: { m in if m.key == "version", case .number(1, _) = m.value.value { return true }; return false }),
              top.contains(where: { m in if m.key == "command", case .string(let c) = m.value.value { return c == "verify" || c == "diff" }; return false })
        else { return nil }
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
