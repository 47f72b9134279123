import CartRenderCore
import CartRenderRaster
import Foundation

/// `DIR/contact-sheet.png`: twelve frames of the whole timeline on one image, each captioned
/// with its time. It keeps the display lists of the sampled frames the stream brings and lays
/// out the others (a `--frames` render does not bring them all), then draws the thumbnails.
final class ContactSheetSink: FrameSink, @unchecked Sendable {
    static let fileName = "contact-sheet.png"
    private let renderer: Renderer
    private let staging: StagingArea
    private let samples: [PlannedFrame]
    private let seen = LockedValue([Int: DisplayList]())

    init(renderer: Renderer, staging: StagingArea) {
        self.renderer = renderer
        self.staging = staging
        samples = renderer.contactSheetFrames()
    }

    var needs: FrameNeeds { [] }

    func write(_ frame: RenderedFrame) throws -> [Manifest.File] {
        if samples.contains(where: { $0.index == frame.index && $0.time == frame.time }) {
            seen.withLock { $0[frame.index] = frame.display }
        }
        return []
    }

    /// - Throws: `RasterError`, `OutputError`.
    func finish(earlier: [Manifest.File]) throws -> SinkOutput {
        let known = seen.withLock { $0 }
        let bytes = try PNGEncoder.encode(try renderer.contactSheet(samples, displays: known), compression: .small)
        return SinkOutput(files: [try staging.writeEncoded(bytes, as: Self.fileName)])
    }
}

extension Renderer {
    /// The frames a contact sheet shows: `count` frames (all of them when the render has fewer)
    /// evenly spaced from the first frame to the last, each at its frame's time.
    func contactSheetFrames(count: Int = 12) -> [PlannedFrame] {
        let n = max(1, min(count, frameCount))
        let last = Double(frameCount - 1)
        return (0..<n).map { i in
            let index = n == 1 ? 0 : Int((Double(i) * last / Double(n - 1)).rounded())
            return PlannedFrame(index: index, time: time(ofFrame: index))
        }
    }

    /// A contact sheet of the whole timeline: `count` frames (all of them when the render has
    /// fewer) at evenly spaced times from the first to the last frame (or at `times`, in
    /// seconds), as thumbnails `thumbnailWidth` px wide in a grid of `columns`, each captioned
    /// with its time.
    /// - Throws: `RasterError`.
    public func contactSheet(count: Int = 12, times: [Double]? = nil, columns: Int = 6, thumbnailWidth: Double = 240) throws -> RGBAImage {
        let frames = times.map { $0.map { PlannedFrame(index: -1, time: $0) } } ?? contactSheetFrames(count: count)
        return try contactSheet(frames, displays: [:], columns: columns, thumbnailWidth: thumbnailWidth)
    }

    /// Draws the contact sheet of `frames`, laying out those whose display list is not in `displays` (by index).
    func contactSheet(_ frames: [PlannedFrame], displays: [Int: DisplayList], columns: Int = 6,
                      thumbnailWidth: Double = 240) throws -> RGBAImage {
        let worker = try makeWorker()
        let scale = thumbnailWidth / scene.device.width
        let cells = try frames.map { f in
            let display = displays[f.index] ?? worker.frame(at: f.time).display
            return (image: try worker.rasterize(display, scale: scale), caption: String(format: "%.2f s", f.time))
        }
        return try worker.rasterizer.contactSheet(cells, columns: columns, dark: scene.colorScheme == .dark)
    }
}
