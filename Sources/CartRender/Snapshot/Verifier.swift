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
        let parent = (baseline as NSString).deletingLastPathComponent
        return parent.isEmpty ? "cartrender-report" : (parent as NSString).appendingPathComponent("cartrender-report")
    }
}

/// `cartrender verify`: renders a scene and compares every frame with the baseline's
/// `frame_NNNN.png` (SPEC.md §6).
///
/// Frames are rendered on `jobs` threads; each thread renders a frame, encodes it as PNG,
/// compares it with the baseline file (equal bytes pass without decoding), records it when the
/// record mode says so and writes the expected / actual / diff images of a frame that does not
/// pass, then drops its pixels: memory stays bounded by the number of threads. Results and
/// reports are in frame order whatever the thread count.
public enum Verifier {
    /// Verifies a scene.
    ///
    /// - Parameters:
    ///   - renderer: the scene, set up (fonts, images, timeline).
    ///   - subject: how to name the scene in messages and reports (its path).
    ///   - options: baseline, tolerance, masks (pt), record mode, frames, threads.
    /// - Returns: one result per frame; ``SnapshotResult/passed`` tells whether the run passed.
    /// - Throws: ``OutputError`` when the report or a recorded frame cannot be written (exit 73);
    ///   ``ImageDecodingError`` for a baseline frame that cannot be read (66) or decoded (65),
    ///   unless the record mode rewrites it; ``InputError`` when the baseline is not a directory; ``DiffError`` for options out of range;
    ///   `RasterError` from rendering.
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
        let report = try reportPath.map { try ReportWriter(path: $0, cancellation: options.cancellation) }
        do {
            let result = try verify(renderer: renderer, subject: subject, options: options, tolerance: tolerance,
                                    baseline: baseline, report: report)
            try report?.finish(result)
            return result
        } catch {
            report?.discard()
            throw error
        }
    }

    private static func verify(renderer: Renderer, subject: String, options: VerifyOptions, tolerance: ComparisonOptions,
                               baseline: LazyOutputDirectory, report: ReportWriter?) throws -> SnapshotResult {
        let baselinePath = options.baseline

        // The frames to check, each once, in index order. A baseline frame shows the state at its
        // index's time, so `--at` selects the nearest frame and checks it at that frame's time.
        var byIndex: [Int: Double] = [:]
        for selection in options.frames {
            for (index, _) in renderer.frames(selection) where byIndex[index] == nil && index < renderer.frameCount {
                byIndex[index] = renderer.time(ofFrame: index)
            }
        }
        let selected = byIndex.keys.sorted().map { ($0, byIndex[$0]!) }
        let record = options.record
        let compression = options.pngCompression

        let stripes = PNGStripeCache()
        var results = try ParallelFrames.map(
            count: selected.count, jobs: options.jobs,
            makeWorker: { try renderer.makeWorker() },
            progress: options.progress.map { p in { p($0, $1) } },
            cancellation: options.cancellation
        ) { worker, slot -> FrameResult in
            let (index, t) = selected[slot]
            let name = renderer.fileName(ofFrame: index, format: .png)
            let expectedPath = (baselinePath as NSString).appendingPathComponent(name)
            let expected = try readIfPresent(expectedPath)
            // The frame's pixels are copied out of the canvas only when the bytes differ.
            let (bytes, image, size) = try worker.withPixels(worker.frame(at: t).display) { rows -> ([UInt8], RGBAImage?, PixelSize) in
                let bytes = try PNGEncoder.encode(rows, compression: compression, reusing: stripes)
                let differs = expected.map { !bytesEqual($0, bytes) } ?? false
                return (bytes, differs ? RGBAImage(rows) : nil, PixelSize(width: rows.width, height: rows.height))
            }
            var frame = FrameResult(name: name, index: index, time: t, status: .pass)
            frame.actualSize = size

            var comparison: FrameComparison?
            if let data = expected {
                do {
                    comparison = try FrameComparison.compare(expected: data, actual: bytes, actualImage: image, options: tolerance,
                                                             keepImages: report != nil, expectedPath: expectedPath)
                } catch let e as ImageDecodingError where record == .all || record == .failed {
                    frame.undecodable = e.message
                    frame.status = .fail
                }
            } else {
                frame.status = .missing
            }
            if let c = comparison {
                frame.status = c.status
                frame.result = c.result
                frame.byteEqual = c.byteEqual
                frame.expectedSize = c.expectedSize
            }
            if record.records(frame.status) {
                try baseline.directory().write(bytes, to: name)
                frame.recorded = true
            }
            if let report, frame.isReported {
                let stem = String(name.dropLast(4))
                if let expected, frame.undecodable == nil {
                    frame.expectedFile = stem + ".expected.png"
                    try report.write(expected, to: frame.expectedFile!)
                }
                frame.actualFile = stem + ".actual.png"
                try report.write(bytes, to: frame.actualFile!)
                if let diff = comparison?.images?.diff {
                    frame.diffFile = stem + ".diff.png"
                    try report.write(try PNGEncoder.encode(diff, compression: .fast), to: frame.diffFile!)
                }
            }
            return frame
        }

        // Baseline frames the render does not make: only meaningful when the whole timeline was checked.
        if options.frames == [.all] {
            let names = Set((0..<renderer.frameCount).map { renderer.fileName(ofFrame: $0, format: .png) })
            for name in baselineFrameNames(in: baselinePath) where !names.contains(name) {
                let index = FrameResult.index(ofFileName: name)
                var frame = FrameResult(name: name, index: index, time: index.map { renderer.time(ofFrame: $0) }, status: .extra)
                let path = (baselinePath as NSString).appendingPathComponent(name)
                let data = try readIfPresent(path)
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

    /// The file's bytes, or nil when there is no such file.
    /// - Throws: ``ImageDecodingError`` (`.unreadable`) when it exists but cannot be read.
    static func readIfPresent(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw ImageDecodingError(kind: .unreadable, message: "the file cannot be read (\(String(cString: strerror(errno))))", path: path)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw ImageDecodingError(kind: .unreadable, message: "not a regular file", path: path)
        }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var offset = 0
        let failure: Int32? = bytes.withUnsafeMutableBytes { buf in
            while offset < buf.count {
                let n = read(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 { if errno == EINTR { continue }; return errno }
                if n == 0 { break }
                offset += n
            }
            return nil
        }
        if let failure {
            throw ImageDecodingError(kind: .unreadable, message: "the file cannot be read (\(String(cString: strerror(failure))))", path: path)
        }
        if offset < bytes.count { bytes.removeLast(bytes.count - offset) }
        return bytes
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
