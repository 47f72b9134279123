import CartRenderCore
import CartRenderRaster
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
        var seen = Set<String>()
        let images = result.frames.flatMap { [$0.expectedFile, $0.actualFile, $0.diffFile, $0.panelFile, $0.thumbnailFile].compactMap { $0 } }
            .filter { seen.insert($0).inserted }
        let written = Set(images)
        try staging.moveIntoPlace(images + [Self.jsonName, Self.junitName, Self.htmlName],
                                  removing: earlier.filter { !written.contains($0) }, holding: lock)
    }

    /// Rewrites `report.json`, `junit.xml` and `index.html` of the report at `path` from
    /// `result`, whose images are there already, and removes the images in `removing`, as one
    /// commit (`review` accepting one frame). `junit.xml`'s times are those of this rewrite (0 s).
    /// - Throws: `OutputError` as ``finish(_:holding:)``; the directory is then as it was.
    static func rewriteFiles(of result: SnapshotResult, in path: String, removing: [String]) throws {
        let directory = try OutputDirectory(path: path)
        let staging = try StagingArea(in: directory)
        do {
            try staging.write(Array(result.json.serialized(pretty: true).utf8), to: jsonName)
            try staging.write(Array(JUnitReport.xml(for: result, run: JUnitReport.Run(timestamp: Date(), seconds: 0)).utf8), to: junitName)
            let expected = HTMLReport.relativeDirectory(from: directory.path, to: result.baseline)
            try staging.write(Array(HTMLReport.html(for: result, expectedDirectory: expected).utf8), to: htmlName)
            try staging.moveIntoPlace([jsonName, junitName, htmlName], removing: removing.filter(isReportImage))
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Removes what this run staged, and the report directory when this run created it.
    func discard() {
        staging.discard()
        directory.removeCreatedDirectories()
    }

    /// Whether `name` is a per-frame image this program writes into reports.
    static func isReportImage(_ name: String) -> Bool {
        if ReportThumbnail.isFileName(name) { return true }
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

/// The thumbnails of a report: a frame downscaled by a whole factor (the mean of each block of
/// pixels, straight alpha weighted by alpha) to at most ``maxWidth`` px wide, as a PNG named by
/// the SHA-256 of the frame's PNG bytes (`thumb_0123456789abcdef.png`): the same frame, the same
/// file and bytes.
enum ReportThumbnail {
    static let maxWidth = 200

    static func fileName(sha256: String) -> String { "thumb_" + sha256.prefix(16) + ".png" }

    static func isFileName(_ name: String) -> Bool {
        name.hasPrefix("thumb_") && name.hasSuffix(".png") && name.count == 6 + 16 + 4
            && name.dropFirst(6).dropLast(4).allSatisfy { $0.isHexDigit }
    }

    static func png(of image: RGBAImage) throws -> [UInt8] {
        try PNGEncoder.encode(downscaled(image), compression: .default)
    }

    static func downscaled(_ image: RGBAImage) -> RGBAImage {
        let f = max(1, (image.width + maxWidth - 1) / maxWidth)
        guard f > 1 else { return image }
        let w = image.width / f, h = image.height / f
        var out = [UInt8](repeating: 0, count: w * h * 4)
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<h {
                for x in 0..<w {
                    var r = 0, g = 0, b = 0, a = 0
                    for yy in (y * f)..<(y * f + f) {
                        var i = (yy * image.width + x * f) * 4
                        for _ in 0..<f {
                            let alpha = Int(src[i + 3])
                            r += Int(src[i]) * alpha; g += Int(src[i + 1]) * alpha; b += Int(src[i + 2]) * alpha; a += alpha
                            i += 4
                        }
                    }
                    let o = (y * w + x) * 4
                    if a > 0 {
                        out[o] = UInt8((r + a / 2) / a); out[o + 1] = UInt8((g + a / 2) / a); out[o + 2] = UInt8((b + a / 2) / a)
                        out[o + 3] = UInt8((a + f * f / 2) / (f * f))
                    }
                }
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }
}
