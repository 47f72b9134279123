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
/// sizes. Frames are decoded and compared by ``ImageDiffing/pixelmatch(_:compression:)`` (the one
/// image comparison) and laid out by ``ImageDiffing/panel(_:width:height:gap:)``. A segment longer than ``maxFrames`` keeps every n-th frame, playing at `fps / n`.
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

    /// Draws the motion diff of `result` and stores it in `report`.
    /// - Parameters:
    ///   - expected: the baseline frame named `name`'s PNG bytes, for frames the report holds no
    ///     copy of (nil when there is none).
    ///   - cancellation: checked before each frame is compared.
    /// - Returns: the file in the report; nil when every frame passed.
    /// - Throws: `OutputError`; ``ImageDecodingError`` for an image that cannot be decoded;
    ///   `AnimationEncodingError`; `RenderCancelled` when `cancellation` was cancelled.
    static func store(_ result: SnapshotResult, in report: ReportWriter, cancellation: RenderCancellation? = nil,
                      expected: (String) throws -> [UInt8]?) throws -> MotionDiffFile? {
        guard let (frames, stride) = segment(of: result) else { return nil }
        var encoder: WebPEncoder?
        var canvas: (width: Int, height: Int, factor: Int)?
        // The one image comparison (decoding, sizes, pixelmatch): its diff image whatever the outcome.
        let diffing = ImageDiffing.pixelmatch(result.options)
        for (k, frame) in frames.enumerated() where k % stride == 0 {
            // Each frame is a comparison at full size: a signal stops between them.
            if cancellation?.isCancelled == true { throw RenderCancelled() }
            let expectedPNG = try frame.expectedFile.map(report.readStored) ?? expected(frame.name)
            // A frame that passed has no copy of its own: it matched the baseline's.
            let actualPNG = try frame.actualFile.map(report.readStored) ?? (frame.status == .pass ? expectedPNG : nil)
            let e: RGBAImage?, a: RGBAImage?, diff: RGBAImage?
            if let expectedPNG, let actualPNG {
                let images = try diffing.compare(expected: expectedPNG, actual: actualPNG, keeping: .always).images
                (e, a, diff) = (images?.expected, images?.actual, images?.diff)
            } else {
                (e, a, diff) = (try expectedPNG.map { try diffing.fromData($0, nil) }, try actualPNG.map { try diffing.fromData($0, nil) }, nil)
            }
            if canvas == nil {
                let width = max(e?.width ?? 0, a?.width ?? 0), height = max(e?.height ?? 0, a?.height ?? 0)
                guard width > 0, height > 0 else { continue }
                let factor = ReportThumbnail.factor(width: width, maxWidth: maxPanelWidth)
                canvas = (width / factor, height / factor, factor)
                encoder = try WebPEncoder(width: 3 * (width / factor) + 2 * gap, height: height / factor,
                                          fps: result.fps ?? 1, frameStride: stride, options: WebPOptions(lossless: true, method: 4))
            }
            guard let canvas, let encoder else { continue }
            let panels = [e.map { ReportThumbnail.downscaled($0, by: canvas.factor) },
                          a.map { ReportThumbnail.downscaled($0, by: canvas.factor) },
                          diff.map { ReportThumbnail.downscaledKeepingMarks($0, by: canvas.factor) }]
            try encoder.add(ImageDiffing.panel(panels, width: canvas.width, height: canvas.height, gap: gap))
        }
        guard let encoder else { return nil }
        try encoder.finish()
        let bytes = encoder.encodedBytes
        let name = try report.store(fileName(sha256: Checksum.sha256(bytes))) { bytes }
        return MotionDiffFile(file: name, frames: frames.first!.index!...frames.last!.index!, fps: encoder.frameRate,
                              width: encoder.width, height: encoder.height)
    }
}
