import CartRenderCore
import CartRenderRaster
import Foundation

/// How to verify a scene's frames against a baseline directory.
public struct VerifyOptions: Sendable {
    /// Stops the verification between frames (SIGINT, SIGTERM): frames already recorded stay
    /// (each is written atomically), no report is written, and `verify` throws `RenderCancelled`.
    public var cancellation: RenderCancellation?
    /// The baseline directory holding `frame_NNNN.png` files (created when a record mode writes).
    public var baseline: String
    /// Where the report goes; nil = ``defaultReportDirectory(forBaseline:)``.
    public var reportDirectory: String?
    /// Whether to write a report at all (the CLI always does).
    public var writeReport = true
    /// Threshold, anti-aliasing and limits. Its `masks` are in **pixels**; ``masks`` are added to them.
    public var tolerance = ComparisonOptions()
    /// Regions to ignore, in **points** of the scene (multiplied by the scene's scale, rounded outwards).
    public var masks: [Rect] = []
    /// When baseline frames are written.
    public var record: RecordMode = .missing
    /// Which frames to check; their union, each frame once, in index order. Frames past the end
    /// of the timeline count as `extra` only when this is `[.all]`.
    public var frames: [FrameSelection] = [.all]
    /// Worker threads (≥ 1); results do not depend on it.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// PNG settings of recorded baseline frames. Byte-equal frames skip decoding only when the
    /// baseline was written with the same setting.
    public var pngCompression: PNGEncoder.Compression = .default
    /// Called after each frame with (frames done, frames total); from any thread.
    public var progress: (@Sendable (Int, Int) -> Void)?

    public init(baseline: String) { self.baseline = baseline }

    /// `cartrender-report` beside the baseline directory: `snapshots/fly` → `snapshots/cartrender-report`.
    public static func defaultReportDirectory(forBaseline baseline: String) -> String {
        let parent = OutputDirectory.parent(of: baseline)
        return parent.isEmpty ? "cartrender-report" : (parent as NSString).appendingPathComponent("cartrender-report")
    }
}

/// `cartrender verify`: renders a scene and compares every frame with the baseline's
/// `frame_NNNN.png` (SPEC.md §6).
///
/// Frames come from the render's own loop (``FrameStream``) into one sink, ``BaselineSink``,
/// so a verified frame has exactly the bytes a render writes. Results and reports are in frame
/// order whatever the thread count.
public enum Verifier {
    /// Verifies a scene.
    ///
    /// - Parameters:
    ///   - renderer: the scene, set up (fonts, images, timeline).
    ///   - subject: how to name the scene in messages and reports (its path).
    ///   - options: baseline, tolerance, masks (pt), record mode, frames, threads.
    /// - Returns: one result per frame; ``SnapshotResult/passed`` tells whether the run passed.
    /// - Throws: ``OutputError`` when the report or a recorded frame cannot be written (exit 73);
    ///   `FileReadError` for a baseline frame that is not a regular file or cannot be read (66;
    ///   a FIFO is refused, not waited on); ``ImageDecodingError`` for one that cannot be decoded
    ///   (65), unless the record mode rewrites it; ``InputError`` when the baseline is not a directory; ``DiffError`` for options out of range;
    ///   ``FrameSelectionError`` for frames the render does not have; `RasterError` from rendering.
    public static func verify(renderer: Renderer, subject: String, options: VerifyOptions) throws -> SnapshotResult {
        var tolerance = options.tolerance
        tolerance.masks += ComparisonOptions.pixelMasks(points: options.masks, scale: renderer.scale)
        try tolerance.validate()

        let baselinePath = options.baseline
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: baselinePath, isDirectory: &isDir), !isDir.boolValue {
            throw InputError(.invalid, path: baselinePath, reason: "the baseline is not a directory")
        }
        let baseline = LazyOutputDirectory(path: baselinePath)
        let reportPath = options.writeReport ? (options.reportDirectory ?? VerifyOptions.defaultReportDirectory(forBaseline: baselinePath)) : nil
        // A baseline frame shows the state at its index's time, so `--at` selects the nearest
        // frame and checks it at that frame's time.
        let frames = try renderer.plan(options.frames, exactTimes: false)
        let report = try reportPath.map { try ReportWriter(path: $0, cancellation: options.cancellation) }
        do {
            let result = try verify(renderer: renderer, frames: frames, subject: subject, options: options, tolerance: tolerance,
                                    baseline: baseline, report: report)
            try report?.finish(result)
            return result
        } catch {
            report?.discard()
            throw error
        }
    }

    private static func verify(renderer: Renderer, frames: [PlannedFrame], subject: String, options: VerifyOptions,
                               tolerance: ComparisonOptions, baseline: LazyOutputDirectory, report: ReportWriter?) throws -> SnapshotResult {
        let baselinePath = options.baseline
        let record = options.record
        let comparison = BaselineSink(renderer: renderer, baseline: baseline, tolerance: tolerance, record: record, report: report)
        let stream = FrameStream(renderer: renderer, frames: frames, jobs: options.jobs)
        // Recorded frames must be the bytes a render writes with the same setting.
        stream.pngCompression = options.pngCompression
        stream.cancellation = options.cancellation
        stream.progress = options.progress
        try stream.run([comparison])
        var results = comparison.results

        // Baseline frames the render does not make: only meaningful when the whole timeline was checked.
        if options.frames == [.all] {
            let names = Set((0..<renderer.frameCount).map { renderer.fileName(ofFrame: $0, format: .png) })
            for name in baselineFrameNames(in: baselinePath) where !names.contains(name) {
                let index = FrameResult.index(ofFileName: name)
                var frame = FrameResult(name: name, index: index, time: index.map { renderer.time(ofFrame: $0) }, status: .extra)
                let path = (baselinePath as NSString).appendingPathComponent(name)
                let data = try RegularFile.readIfPresent(path, limit: PNGDecoder.maxFileBytes)
                if let data { frame.expectedSize = PNGHeader.size(of: data) }
                if let report, let data {
                    frame.expectedFile = String(name.dropLast(4)) + ".expected.png"
                    try report.write(data, to: frame.expectedFile!)
                }
                if record.records(.extra) {
                    try baseline.directory().remove(name)
                    frame.recorded = true
                }
                results.append(frame)
            }
        }

        return SnapshotResult(command: .verify, subject: subject, baseline: baselinePath, reportDirectory: report?.directory.path,
                              record: record, options: tolerance, fps: renderer.scene.fps, frames: results)
    }

    /// `frame_NNNN.png` files of a directory, sorted by index then name; none when it does not exist.
    static func baselineFrameNames(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { n in FrameResult.index(ofFileName: n).map { (n, $0) } }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            .map(\.0)
    }
}

/// The baseline directory, created on the first write only: a run that records nothing never
/// creates or needs to write it.
final class LazyOutputDirectory: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var made: OutputDirectory?

    init(path: String) { self.path = path }

    /// - Throws: `OutputError` when the directory cannot be created or written.
    func directory() throws -> OutputDirectory {
        lock.lock(); defer { lock.unlock() }
        if let made { return made }
        let d = try OutputDirectory(path: path)
        made = d
        return d
    }
}
