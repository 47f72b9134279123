import CartRenderCore
import CartRenderRaster
import Foundation

/// The sink of `verify`: compares each frame's PNG bytes with the baseline's
/// `frame_NNNN.png` (equal bytes pass without decoding), records it when the record mode says
/// so, and writes the expected / actual / diff images of a frame that does not pass into the
/// report; compares the frame's state with its entry in the baseline's `manifest.json`, when
/// there is one (``ManifestComparison/changes(expected:actual:path:)``). All of it on the
/// worker that drew the frame, which then drops its pixels: memory stays bounded by the number
/// of workers, and the report's motion diff keeps the downscaled panels of a bounded number of
/// frames (``MotionDiff/Kept``). Recorded frames are staged by the ``BaselineDirectory``,
/// which moves them into place when the run ends.
final class BaselineSink: FrameSink, @unchecked Sendable {
    private let renderer: Renderer
    private let baseline: BaselineDirectory
    /// Record mode, comparison (tolerance in px, masks included) and failure artifacts.
    private let strategy: SnapshotStrategy
    private var record: RecordMode { strategy.record }
    private let report: ReportWriter?
    /// The motion diff's panels of the frames compared here (nil without a report).
    let motionPanels: MotionDiff.Kept?
    /// State differences are reported but do not fail a frame (`--ignore-state`).
    private let ignoreState: Bool
    /// The states of the baseline manifest's frames, by index: only of indices it lists once
    /// with a state (an index listed twice has no one state to compare with).
    private let expectedStates: [Int: JSONValue]
    private let collected = LockedValue([Int: FrameResult]())
    /// Comparisons made, by the SHA-256 of the expected and of the actual PNG: a pair of frames
    /// met again (a still stretch of the timeline) is neither decoded nor compared again, and
    /// its diff image is the file of the first.
    private let comparisons = LockedValue([String: Compared]())

    /// What a comparison of two PNGs gave, to reuse for the same two PNGs.
    private struct Compared {
        var comparison: FrameComparison
        var diffFile: String?
        var thumbnailFile: String?
    }

    /// - Parameter frames: the run's frames, in its order (for ``MotionDiff/Kept``).
    init(renderer: Renderer, baseline: BaselineDirectory, strategy: SnapshotStrategy, report: ReportWriter?, ignoreState: Bool,
         frames: [PlannedFrame]) {
        self.renderer = renderer
        self.ignoreState = ignoreState
        let listed = Dictionary(grouping: baseline.expected?.frames ?? [], by: \.index)
        expectedStates = listed.compactMapValues { $0.count == 1 && $0[0].state != .null ? $0[0].state : nil }
        self.baseline = baseline
        self.strategy = strategy
        self.report = report
        motionPanels = report == nil ? nil : MotionDiff.Kept(indices: frames.map(\.index))
    }

    /// PNG bytes to compare; the canvas, to copy the pixels of a frame whose bytes differ.
    var needs: FrameNeeds { [.png, .canvas] }

    /// One result per frame seen, in index order.
    var results: [FrameResult] { collected.withLock { r in r.keys.sorted().map { r[$0]! } } }

    /// - Throws: `FileReadError` for a baseline frame that is not a regular file or cannot be
    ///   read; ``ImageDecodingError`` for one that cannot be decoded (unless the record mode
    ///   rewrites it); `OutputError` when a recording or a report image cannot be written, or the
    ///   baseline's manifest is of another render (``BaselineDirectory/record(_:as:png:)``).
    func write(_ rendered: RenderedFrame) throws -> [Manifest.File] {
        let started = DispatchTime.now()
        let name = renderer.fileName(ofFrame: rendered.index, format: .png)
        let expectedPath = (baseline.path as NSString).appendingPathComponent(name)
        let expected = try baseline.read(name)
        guard let png = rendered.png else { throw RasterError(.library, "frame \(rendered.index) has no PNG bytes") }
        let bytes = png.bytes
        var frame = FrameResult(name: name, index: rendered.index, time: rendered.time, status: .pass)
        frame.actualSize = PNGHeader.size(of: bytes)

        var comparison: FrameComparison?
        // Frames whose bytes differ: the pair's hashes, to compare each pair once.
        let expectedSHA = expected.flatMap { bytesEqual($0, bytes) ? nil : Checksum.sha256($0) }
        let pair = expectedSHA.map { $0 + " " + png.sha256 }
        let earlier = pair.flatMap { key in comparisons.withLock { $0[key] } }
        if let earlier {
            comparison = earlier.comparison
            frame.diffFile = earlier.diffFile
            frame.thumbnailFile = earlier.thumbnailFile
        } else if let data = expected {
            do {
                // The frame's pixels are copied out of the canvas only when the bytes differ.
                let image = bytesEqual(data, bytes) ? nil : try rendered.pixels()
                comparison = try strategy.diffing.compare(expected: data, actual: bytes, actualImage: image, keepImages: report != nil,
                                                          expectedPath: expectedPath)
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
        if let state = expectedStates[rendered.index] {
            frame.stateChanges = ManifestComparison.changes(expected: state, actual: try rendered.stateJSON())
            frame.stateCounts = !ignoreState
        }
        if record.records(frame.status) || (record == .failed && frame.status == .pass && !frame.passed) {
            try baseline.record(rendered, as: name, png: png)
            frame.recorded = true
        }
        // Under `missing` a recorded frame is kept only when the whole run passes
        // (``Verifier``): its actual image goes into the report in case it is not.
        // Images are stored by content: frames of the same bytes share one file.
        if let report, frame.isReported || (frame.recorded && frame.status == .missing && record == .missing) {
            if let expected, frame.undecodable == nil { frame.expectedFile = try report.storeFrame(expected, sha256: expectedSHA) }
            frame.actualFile = try report.storeFrame(bytes, sha256: png.sha256)
            if let comparison, earlier == nil { try report.storeArtifacts(of: comparison, using: strategy, to: &frame) }
        }
        // The motion diff's panels, from the images at hand: its frames are not decoded again.
        if let motionPanels, frame.undecodable == nil {
            if let images = comparison?.images, earlier == nil {
                if motionPanels.reserve(rendered.index) {
                    motionPanels.keep(MotionDiff.Panels(expected: images.expected, actual: images.actual, diff: images.diff),
                                      for: rendered.index, pair: pair)
                }
            } else if let pair, earlier != nil, let panels = motionPanels.panels(ofPair: pair), motionPanels.reserve(rendered.index) {
                motionPanels.keep(panels, for: rendered.index, pair: nil)
            } else if frame.status == .missing, frame.actualFile != nil, motionPanels.reserve(rendered.index) {
                motionPanels.keep(MotionDiff.Panels(expected: nil, actual: try rendered.pixels(), diff: nil), for: rendered.index, pair: nil)
            }
        }
        if let pair, let comparison, earlier == nil {
            comparisons.withLock { $0[pair] = Compared(comparison: comparison.withoutImages, diffFile: frame.diffFile, thumbnailFile: frame.thumbnailFile) }
        }
        // Every frame the report shows without images of its own gets a thumbnail inside the
        // report (not a link into the baseline directory, which an uploaded report lacks),
        // named by the frame's content hash, written once however many frames share it.
        if let report, frame.actualFile == nil || !frame.isReported {
            frame.thumbnailFile = try report.store(ReportThumbnail.fileName(sha256: png.sha256)) {
                try ReportThumbnail.png(of: try rendered.pixels())
            }
        }
        frame.seconds = FrameResult.seconds(since: started)
        collected.withLock { $0[rendered.index] = frame }
        return []
    }
}
