import CartRenderCore
import CartRenderRaster
import Foundation

/// The motion diff a failing `verify` wrote into its report (``MotionDiff``): `report.json`'s
/// `"motionDiff"`.
public struct MotionDiffFile: Equatable, Sendable {
    /// The animated WebP's name in the report directory (`motion_0123456789abcdef.webp`).
    public var file: String
    /// The first and last frame index the animation shows (the lead-in included).
    public var frames: ClosedRange<Int>
    /// Its frames per second: the scene's, divided by the stride of a long segment.
    public var fps: Double
    /// Its size in px: three panels and two gaps wide.
    public var width: Int
    /// Its height in px.
    public var height: Int

    /// `{"file", "frames": [first, last], "fps", "width", "height"}`.
    var json: JSONValue {
        .object([("file", .string(file)), ("frames", .array([.int(frames.lowerBound), .int(frames.upperBound)])),
                 ("fps", .number(fps, decimals: 6)), ("width", .int(width)), ("height", .int(height))])
    }
}

/// The motion diff of a failing `verify`: one animated WebP of the failing segment, for a
/// reviewer (and a pull-request comment) to watch instead of stepping through frames.
///
/// The segment runs from ``leadIn`` before the first failing frame to the last failing frame
/// (frames of the run only, in index order; extra baseline frames are left out). Each frame of
/// the animation is three panels side by side, ``gap`` px apart on white, playing in sync at the
/// scene's frame rate: the expected frame (the baseline's), the actual frame, and pixelmatch's
/// diff image of the two (differences in color over the expected frame's faded luminance, as
/// the report's diff images). Each panel is the frame downscaled by the whole factor that makes
/// it at most ``maxPanelWidth`` px wide (the mean of each block; the diff panel keeps a block's
/// most saturated pixel, so a one-pixel difference stays visible). A side that has no frame (a
/// missing baseline frame) is a plain gray panel, and so is the diff of frames of different
/// sizes. The panels of a frame that did not pass are made by the worker that compared it (``Kept``),
/// from the images its comparison decoded; a passing frame of the segment (the lead-in) is
/// decoded once here, from the baseline, and a frame whose panels were not kept is decoded and
/// compared here by ``ImageDiffing/pixelmatch(_:compression:)`` (the one image comparison), to
/// the same panels. They are laid out by ``ImageDiffing/panel(_:width:height:gap:)``. A segment
/// longer than ``maxFrames`` keeps every n-th frame, playing at `fps / n`.
///
/// Lossless WebP, each frame storing only the rectangle that changed: about 50 kB to 1 MB for a
/// second of a phone screen at 2×. Named by its content (`motion_0123456789abcdef.webp`), as the
/// report's other images, and listed in `report.json` as `"motionDiff"`.
enum MotionDiff {
    /// Widest panel (px): three panels and two gaps make the animation at most 1216 px wide.
    static let maxPanelWidth = 400
    /// Pixels between panels.
    static let gap = 8
    /// The lead-in before the first failing frame (s), at least one frame.
    static let leadIn = 0.3
    /// Most frames of the animation.
    static let maxFrames = 240

    /// `motion_` + the first 16 hex digits of the WebP's SHA-256 + `.webp`.
    static func fileName(sha256: String) -> String { "motion_" + sha256.prefix(16) + ".webp" }

    static func isFileName(_ name: String) -> Bool {
        name.hasPrefix("motion_") && name.hasSuffix(".webp") && name.count == 7 + 16 + 5
            && name.dropFirst(7).dropLast(5).allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// The frames of the segment, in index order, and the stride that keeps at most
    /// ``maxFrames`` of them; nil when every frame passed, or every failing frame is missing
    /// from the baseline.
    static func segment(of result: SnapshotResult) -> (frames: [FrameResult], stride: Int)? {
        let ordered = result.frames.filter { $0.index != nil && $0.status != .extra }
        guard let first = ordered.firstIndex(where: { !$0.passed }), let last = ordered.lastIndex(where: { !$0.passed }),
              // Without a baseline frame anywhere there is no motion to compare.
              ordered.contains(where: { !$0.passed && $0.status != .missing }) else { return nil }
        let fps = Double(result.fps ?? 1)
        let lead = max(1, Int((leadIn * fps).rounded(.up)))
        let firstIndex = ordered[first].index! - lead
        let frames = Array(ordered[...last].drop { $0.index! < firstIndex })
        return (frames, max(1, (frames.count + maxFrames - 1) / maxFrames))
    }

    /// The three panels of one frame of the animation (expected, actual, diff; nil = a gray
    /// panel), each downscaled by ``factor``, and the size of the larger of its two frames (px),
    /// which sets the animation's size when it is the segment's first frame.
    struct Panels: Sendable {
        /// Width and height (px) of the wider and of the taller of the two frames.
        var width: Int, height: Int
        /// ``ReportThumbnail/factor(width:maxWidth:)`` of `width` at ``MotionDiff/maxPanelWidth``.
        var factor: Int
        /// Expected, actual and diff panel.
        var images: [RGBAImage?]

        /// The panels of two decoded frames and their diff image, each downscaled by `factor`
        /// (nil: the factor of their own size).
        init(expected e: RGBAImage?, actual a: RGBAImage?, diff: RGBAImage?, factor: Int? = nil) {
            width = max(e?.width ?? 0, a?.width ?? 0)
            height = max(e?.height ?? 0, a?.height ?? 0)
            let f = factor ?? ReportThumbnail.factor(width: width, maxWidth: maxPanelWidth)
            self.factor = f
            images = [e.map { ReportThumbnail.downscaled($0, by: f) }, a.map { ReportThumbnail.downscaled($0, by: f) },
                      diff.map { ReportThumbnail.downscaledKeepingMarks($0, by: f) }]
        }
    }

    /// The panels the workers of a `verify` made while they compared the frames (``BaselineSink``),
    /// so that ``store(_:in:kept:cancellation:expected:)`` only lays them out: a failing frame is
    /// decoded and compared once in a run. Thread-safe.
    ///
    /// Memory is bounded: panels are kept for at most 2 × ``MotionDiff/maxFrames`` frames (480),
    /// each three panels of at most ``MotionDiff/maxPanelWidth`` px wide, RGBA: about 4 MB a frame
    /// for a phone screen at 3x (393×852 px panels), so at most about 1.9 GB, and 0.8 GB for a run
    /// of at most ``MotionDiff/maxFrames`` frames. Frames at every n-th position of the run (n the
    /// stride a segment of the whole run takes) are always kept; up to ``MotionDiff/maxFrames`` others
    /// while room is left. A frame of the segment without kept panels is decoded and compared by
    /// ``store(_:in:kept:cancellation:expected:)`` (the same panels, only slower).
    final class Kept: @unchecked Sendable {
        /// Position of each planned frame index in the run.
        private let positions: [Int: Int]
        /// The stride of a segment made of the whole run.
        private let stride: Int
        private struct State {
            var panels: [Int: Panels] = [:]
            /// By the SHA-256 of the expected and of the actual PNG: frames of one pair share them.
            var byPair: [String: Panels] = [:]
            var others = 0
        }
        private let state = LockedValue(State())

        /// A store for a run of the frames `indices` (in the run's order).
        init(indices: [Int]) {
            positions = Dictionary(indices.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            stride = max(1, (indices.count + maxFrames - 1) / maxFrames)
        }

        /// Whether frame `index` gets its panels kept (reserving room for them when it is not at
        /// a kept position): false once the others' room is used up.
        func reserve(_ index: Int) -> Bool {
            if let p = positions[index], p % stride == 0 { return true }
            return state.withLock { s in
                guard s.others < maxFrames else { return false }
                s.others += 1
                return true
            }
        }

        /// Keeps `panels` for frame `index` (reserved first) and, when given, for the pair `pair`.
        func keep(_ panels: Panels, for index: Int, pair: String?) {
            state.withLock { s in
                s.panels[index] = panels
                if let pair { s.byPair[pair] = panels }
            }
        }

        /// The panels kept for the pair `pair` of PNGs, if any.
        func panels(ofPair pair: String) -> Panels? { state.withLock { $0.byPair[pair] } }

        /// The panels kept for frame `index`, if any.
        func panels(of index: Int) -> Panels? { state.withLock { $0.panels[index] } }
    }

    /// Draws the motion diff of `result` and stores it in `report`.
    /// - Parameters:
    ///   - kept: the panels the run's workers made (``Kept``); a frame without them is decoded
    ///     and compared here.
    ///   - expected: the baseline frame named `name`'s PNG bytes, for frames the report holds no
    ///     copy of (nil when there is none).
    ///   - cancellation: checked before each frame.
    /// - Returns: the file in the report; nil when every frame passed.
    /// - Throws: `OutputError`; ``ImageDecodingError`` for an image that cannot be decoded;
    ///   `AnimationEncodingError`; `RenderCancelled` when `cancellation` was cancelled.
    static func store(_ result: SnapshotResult, in report: ReportWriter, kept: Kept? = nil, cancellation: RenderCancellation? = nil,
                      expected: (String) throws -> [UInt8]?) throws -> MotionDiffFile? {
        guard let (frames, stride) = segment(of: result) else { return nil }
        var encoder: WebPEncoder?
        var canvas: (width: Int, height: Int, factor: Int)?
        // The one image comparison (decoding, sizes, pixelmatch): its diff image whatever the outcome.
        let diffing = ImageDiffing.pixelmatch(result.options)
        // A frame's panels from the report's copies (or the baseline's) of its PNGs.
        func decoded(_ frame: FrameResult, factor: Int?) throws -> Panels {
            let expectedPNG = try frame.expectedFile.map(report.readStored) ?? expected(frame.name)
            if frame.actualFile == nil, frame.status == .pass, let expectedPNG {
                // A frame that passed has no copy of its own: it matched the baseline's, decoded once.
                let e = try diffing.fromData(expectedPNG, nil)
                return Panels(expected: e, actual: e, diff: try diffing.diff(e, e, .always).images?.diff, factor: factor)
            }
            let actualPNG = try frame.actualFile.map(report.readStored)
            if let expectedPNG, let actualPNG {
                let images = try diffing.compare(expected: expectedPNG, actual: actualPNG, keeping: .always).images
                return Panels(expected: images?.expected, actual: images?.actual, diff: images?.diff, factor: factor)
            }
            return Panels(expected: try expectedPNG.map { try diffing.fromData($0, nil) }, actual: try actualPNG.map { try diffing.fromData($0, nil) },
                          diff: nil, factor: factor)
        }
        for (k, frame) in frames.enumerated() where k % stride == 0 {
            // A frame not kept is a comparison at full size: a signal stops between frames.
            if cancellation?.isCancelled == true { throw RenderCancelled() }
            var panels = try frame.index.flatMap { kept?.panels(of: $0) } ?? decoded(frame, factor: canvas?.factor)
            if canvas == nil {
                guard panels.width > 0, panels.height > 0 else { continue }
                canvas = (panels.width / panels.factor, panels.height / panels.factor, panels.factor)
                encoder = try WebPEncoder(width: 3 * (panels.width / panels.factor) + 2 * gap, height: panels.height / panels.factor,
                                          fps: result.fps ?? 1, frameStride: stride, options: WebPOptions(lossless: true, method: 4))
            }
            guard let canvas, let encoder else { continue }
            // Kept panels of another factor (a frame of another size than the first): drawn again.
            if panels.factor != canvas.factor { panels = try decoded(frame, factor: canvas.factor) }
            try encoder.add(ImageDiffing.panel(panels.images, width: canvas.width, height: canvas.height, gap: gap))
        }
        guard let encoder else { return nil }
        try encoder.finish()
        let bytes = encoder.encodedBytes
        let name = try report.store(fileName(sha256: Checksum.sha256(bytes))) { bytes }
        return MotionDiffFile(file: name, frames: frames.first!.index!...frames.last!.index!, fps: encoder.frameRate,
                              width: encoder.width, height: encoder.height)
    }
}
