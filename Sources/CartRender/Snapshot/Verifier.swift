import CartRenderCore
import CartRenderRaster
import Foundation

/// How to verify a scene's frames against a baseline directory.
public struct VerifyOptions: Sendable {
    /// Stops the verification between frames and while it waits for a directory's lock (SIGINT,
    /// SIGTERM): nothing is recorded (the baseline is as it was), no report is written, and
    /// `verify` throws `RenderCancelled`.
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
    /// When baseline frames are written. Under `missing`, a run with any failure records
    /// nothing (``SnapshotResult/notRecorded`` names what it left out).
    public var record: RecordMode = .missing
    /// A run that records any frame fails all the same (`--fail-on-record`): the baseline is
    /// updated, and CI still stops for someone to look at it.
    public var failOnRecord = false
    /// The command the outputs suggest to record the baseline again when its manifest's
    /// settings differ from the render's (``SnapshotResult/settingMismatchLine``); nil = a
    /// command made of the scene and baseline paths.
    public var recordAgainCommand: String?
    /// The name of the variant verified, for the outputs (``SnapshotResult/variant``).
    public var variant: String?
    /// Report the frames whose state differs from the baseline's `manifest.json` without
    /// failing them (`--ignore-state`); their pixels still count.
    public var ignoreState = false
    /// Which frames to check; their union, each frame once, in index order; empty (the
    /// default) or `[.all]`: every frame. Baseline frames past the end of the timeline count as
    /// `extra` only when every frame is checked.
    public var frames: [FrameSelection] = []
    /// Worker threads (≥ 1); nil = the number of cores. Fewer when the address-space limit has
    /// room for fewer (``Renderer/affordableWorkers(_:)``). Results do not depend on it.
    public var jobs: Int?
    /// PNG settings of recorded baseline frames. Byte-equal frames skip decoding only when the
    /// baseline was written with the same setting.
    public var pngCompression: PNGEncoder.Compression = .default
    /// Called after each frame with (frames done, frames total); from any thread.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Also audit the frames for accessibility (``AuditSink``, in the same frame loop): the
    /// result's ``SnapshotResult/audit``.
    public var audit: AuditOptions?

    /// The directory the JUnit `file` attributes are relative to (``AnnotationPath``); nil =
    /// this process's `GITHUB_WORKSPACE` when set, else the working directory.
    public var workspace: String?
    /// The scene file's bytes as the run read and decoded them (UTF-8 JSON), where a change of
    /// the scene since the baseline is located (``SnapshotResult/sceneChanges``' line); nil:
    /// no scene file (the default scene, a scene built in code), no line. The file is not read
    /// again: it may have changed since, and a scene from standard input cannot be.
    public var sceneSource: [UInt8]?

    /// Options verifying against the baseline directory `baseline`, with the defaults otherwise.
    public init(baseline: String) { self.baseline = baseline }

    /// `cartrender-report` beside the baseline directory: `snapshots/fly` → `snapshots/cartrender-report`.
    public static func defaultReportDirectory(forBaseline baseline: String) -> String {
        let parent = OutputDirectory.parent(of: baseline)
        return parent.isEmpty ? "cartrender-report" : (parent as NSString).appendingPathComponent("cartrender-report")
    }
}

/// `cartrender verify`: renders a scene and compares every frame with the baseline's
/// `frame_NNNN.png` (docs/snapshot-testing.md), and, when the baseline has a `manifest.json`, each frame's
/// state with that manifest's entry, its events and software with this render's.
///
/// Frames come from the render's own loop (``FrameStream``) into one sink, ``BaselineSink``,
/// so a verified frame has exactly the bytes a render writes. Results and reports are in frame
/// order whatever the thread count.
///
/// The baseline directory is locked for the whole run, shared when the record mode writes
/// nothing and exclusive otherwise (``BaselineDirectory``): a render moving frames into it waits,
/// and so does this run for a render that is moving frames in. Recorded frames are staged and
/// moved into place together at the end, after the report, with the baseline's manifests
/// rewritten to match; a run that fails or is interrupted leaves the baseline as it was.
public enum Verifier {
    /// Verifies a scene.
    ///
    /// - Parameters:
    ///   - renderer: the scene, set up (fonts, images, timeline).
    ///   - subject: how to name the scene in messages and reports (its path).
    ///   - options: baseline, tolerance, masks (pt), record mode, frames, threads.
    /// - Returns: one result per frame; ``SnapshotResult/passed`` tells whether the run passed.
    /// - Throws: ``OutputError`` when the report or a recorded frame cannot be written, or the
    ///   baseline holds a manifest of another render and a frame would be recorded (exit 73);
    ///   `FileReadError` for a baseline frame that is not a regular file or cannot be read (66;
    ///   a FIFO is refused, not waited on); ``ImageDecodingError`` for one that cannot be decoded
    ///   (65), unless the record mode rewrites it; ``InputError`` when the baseline is not a
    ///   directory or cannot be opened; ``DiffError`` for options out of range;
    ///   ``FrameSelectionError`` for frames the render does not have; `RasterError` from rendering;
    ///   `RenderCancelled` when `options.cancellation` was cancelled (nothing changed);
    ///   `OutOfMemoryError` (exit 70) first when the address-space limit has no room for one worker.
    public static func verify(renderer: Renderer, subject: String, options: VerifyOptions) throws -> SnapshotResult {
        let jobs = try renderer.affordableWorkers(options.jobs)
        var strategy = options.strategy
        strategy.tolerance.masks += ComparisonOptions.pixelMasks(points: options.masks, scale: renderer.scale)
        try strategy.tolerance.validate()

        let baselinePath = options.baseline
        if FileSystemPath.isDirectory(baselinePath) == false {
            // An input that cannot be read as what it must be, like a scene path that is a
            // directory or a baseline frame that is a FIFO (docs/bad-input.md: 66).
            throw InputError(.unreadable, path: baselinePath, reason: "the baseline is not a directory")
        }
        let reportPath = options.writeReport ? (options.reportDirectory ?? VerifyOptions.defaultReportDirectory(forBaseline: baselinePath)) : nil
        let report = try reportPath.map { try ReportWriter(path: $0, cancellation: options.cancellation) }
        do {
            let baseline = try BaselineDirectory(path: baselinePath, record: options.record, renderer: renderer, cancellation: options.cancellation)
            do {
                let frames = try plan(options.frames, renderer: renderer, baseline: baseline)
                let (verified, kept) = try verify(renderer: renderer, frames: frames, subject: subject, options: options, jobs: jobs,
                                                  strategy: strategy, baseline: baseline, report: report)
                var result = verified
                if options.cancellation?.isCancelled == true { throw RenderCancelled() }
                // The motion diff reads baseline frames: under the lock, before any release.
                if let report {
                    result.motionDiff = try MotionDiff.store(result, in: report, kept: kept, cancellation: options.cancellation) { try baseline.read($0) }
                }
                if !result.notRecorded.isEmpty { baseline.discard() }
                // Reading is over: a run that records nothing lets renders in before its report.
                // A report inside the baseline directory moves in under the lock this run holds.
                if baseline.exclusiveLock == nil { baseline.release() }
                if let report {
                    try report.finish(result, holding: DirectoryLock.sameFile(report.directory.path, baselinePath) ? baseline.exclusiveLock : nil)
                }
                try baseline.commit(agreeing: Set(result.frames.filter { $0.status == .pass && $0.stateChanges?.isEmpty == true && !$0.recorded }
                    .compactMap(\.index)))
                return result
            } catch {
                baseline.discard()
                throw error
            }
        } catch {
            report?.discard()
            throw error
        }
    }

    /// The frames `selections` name, a frame selected by time (`--at t`, `--at end`) checked at
    /// the time its baseline frame shows, so a baseline made by `render --at t` and one made by a
    /// whole render both compare like with like (nothing is blamed on motion that did not move):
    /// the time the baseline's `manifest.json` records for that frame index; else, for a
    /// baseline frame without a manifest entry, the frame's own time (`index / fps`, what a whole
    /// render writes); else (no baseline frame yet) exactly the time asked for, as `render --at`.
    /// The baseline directory is listed (`frameNames`) only for a frame selected by time that
    /// the manifest does not give a time for, and at most once.
    static func plan(_ selections: [FrameSelection], renderer: Renderer, baseline: BaselineDirectory,
                     frameNames: (String) -> [String] = baselineFrameNames(in:)) throws -> [PlannedFrame] {
        let listed = Dictionary(grouping: baseline.expected?.frames ?? [], by: \.index)
        let recorded = listed.compactMapValues { $0.count == 1 && $0[0].time >= 0 && $0[0].time <= renderer.endTime + TimeTolerance.epsilon ? $0[0].time : nil }
        var present: Set<String>?
        return try renderer.plan(selections) { index, t in
            if let time = recorded[index] { return time }
            guard baseline.existed else { return t }
            let names = present ?? Set(frameNames(baseline.path))
            present = names
            return names.contains(renderer.fileName(ofFrame: index, format: .png)) ? renderer.time(ofFrame: index) : t
        }
    }

    private static func verify(renderer: Renderer, frames: [PlannedFrame], subject: String, options: VerifyOptions, jobs: Int,
                               strategy: SnapshotStrategy, baseline: BaselineDirectory,
                               report: ReportWriter?) throws -> (SnapshotResult, MotionDiff.Kept?) {
        let baselinePath = options.baseline
        let record = strategy.record
        let comparison = BaselineSink(renderer: renderer, baseline: baseline, strategy: strategy, report: report, ignoreState: options.ignoreState,
                                       frames: frames)
        let stream = FrameStream(renderer: renderer, frames: frames, jobs: jobs)
        // Recorded frames must be the bytes a render writes with the same setting.
        stream.pngCompression = options.pngCompression
        stream.cancellation = options.cancellation
        stream.progress = options.progress
        let audit = options.audit.map { AuditSink(renderer: renderer, options: $0) }
        try stream.run([comparison] + (audit.map { [$0] } ?? []))
        var results = comparison.results

        // Baseline frames the render does not make: only meaningful when the whole timeline was checked.
        if (options.frames.isEmpty || options.frames == [.all]) && baseline.existed {
            let names = Set((0..<renderer.frameCount).map { renderer.fileName(ofFrame: $0, format: .png) })
            for name in baselineFrameNames(in: baselinePath) where !names.contains(name) {
                let index = FrameResult.index(ofFileName: name)
                var frame = FrameResult(name: name, index: index, time: index.map { renderer.time(ofFrame: $0) }, status: .extra)
                let data = try baseline.read(name)
                if let data { frame.expectedSize = PNGHeader.size(of: data) }
                if let report, let data { frame.expectedFile = try report.storeFrame(data) }
                if record.records(.extra) {
                    try baseline.remove(name)
                    frame.recorded = true
                }
                results.append(frame)
            }
        }

        // Paths as messages show them (bytes that are not UTF-8 as `\xFF`).
        var result = SnapshotResult(command: .verify, subject: FileSystemPath.display(subject), baseline: FileSystemPath.display(baselinePath),
                                    reportDirectory: report.map { FileSystemPath.display($0.directory.path) },
                                    record: record, options: strategy.tolerance, fps: renderer.scene.fps, frames: results, audit: audit?.report)
        result.failOnRecord = strategy.failOnRecord
        result.recordAgainCommand = options.recordAgainCommand
        result.variant = options.variant
        // `missing` fills in a baseline only from a run that otherwise passes: frames recorded
        // beside failures would be a longer timeline's, and reverting the change would then fail
        // on them as extra frames.
        if record == .missing, result.frames.contains(where: { !$0.passed }) {
            for i in result.frames.indices where result.frames[i].recorded {
                result.frames[i].recorded = false
                result.notRecorded.append(result.frames[i].name)
            }
        }
        result.workspace = options.workspace
        if let expected = baseline.expected {
            result.settingMismatches = SnapshotResult.settingMismatches(baseline: expected, current: renderer.manifest(frames: []))
            if let recordedFrom = expected.canonicalScene {
                // A different fps or scale is a setting that differs, said first: not a scene change too.
                let settings = Set(result.settingMismatches.map(\.setting))
                let reported = Set([("fps", "fps"), ("scale", "device.scale")].filter { settings.contains($0.0) }.map(\.1))
                result.sceneChanges = SceneChanges.compare(baseline: recordedFrom, current: renderer.scene.canonicalJSON,
                                                           source: options.sceneSource, reported: reported)
            }
            // Frames with a baseline PNG whose state had no one entry to compare with.
            result.framesWithoutState = results.filter { $0.status != .missing && $0.status != .extra && $0.stateChanges == nil }.compactMap(\.index)
            result.stateCompared = result.framesWithoutState.isEmpty
            result.movedEvents = try ManifestComparison.movedEvents(expected: expected.events, actual: renderer.events)
            result.firstMovedEventSource = result.movedEvents.lazy.compactMap { moved in
                moved.cause.flatMap { cause in renderer.scene.events.first { $0.index == cause } }
                    .flatMap { e in e.location.map { (index: e.index, location: $0) } }
            }.first
            result.softwareDifferences = ManifestComparison.softwareDifferences(baseline: expected.software,
                                                                                current: .current(fonts: renderer.fonts.files))
            let file = FileSystemPath.display((baselinePath as NSString).appendingPathComponent("manifest.json"))
            if !result.framesWithoutState.isEmpty {
                let n = result.framesWithoutState.count
                result.warnings.append("\(file) has no state for frame\(n == 1 ? "" : "s") \(Self.frameList(result.framesWithoutState)) "
                    + "(not listed, listed more than once, or without \"state\"): comparing \(n == 1 ? "its" : "their") pixels only")
            }
            result.warnings += result.softwareDifferences.map { "\(file): \($0.message)" }
            if let warning = result.sceneChangeWarning { result.warnings.append(warning) }
        } else if let problem = baseline.expectedProblem, results.contains(where: { $0.status != .missing && $0.status != .extra }) {
            // Said only when frames were compared: a new baseline has no manifest to miss.
            result.warnings = [FileSystemPath.display(problem)]
        }
        return (result, comparison.motionPanels)
    }

    /// Sorted frame indices as runs: `3, 5-7, 12`; after ``maxListedRuns`` runs, `… (N frames in all)`.
    static func frameList(_ indices: [Int]) -> String {
        var runs: [(Int, Int)] = []
        for i in indices {
            if let last = runs.last, last.1 + 1 == i { runs[runs.count - 1].1 = i } else { runs.append((i, i)) }
        }
        let shown = runs.prefix(maxListedRuns).map { $0.0 == $0.1 ? "\($0.0)" : "\($0.0)-\($0.1)" }.joined(separator: ", ")
        return runs.count > maxListedRuns ? shown + ", … (\(indices.count) frames in all)" : shown
    }

    /// Most runs of frames ``frameList(_:)`` names.
    static let maxListedRuns = 8

    /// `frame_NNNN.png` files of a directory, sorted by index then name; none when it does not exist.
    static func baselineFrameNames(in directory: String) -> [String] {
        let names = FileSystemPath.contentsOfDirectory(directory) ?? []
        return names.compactMap { n in FrameResult.index(ofFileName: n).map { (n, $0) } }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            .map(\.0)
    }
}
