import CartRenderCore
import CartRenderRaster

/// An output format of a render (SPEC.md §5).
public enum OutputFormat: String, Sendable, CaseIterable {
    /// `DIR/frame_NNNN.png`, 8-bit RGBA.
    case png
    /// `DIR/frame_NNNN.svg`, Cairo's SVG surface.
    case svg
}

/// Which frames of the timeline to render.
public enum FrameSelection: Equatable, Sendable {
    /// Every frame, 0 through `round(duration × fps)`.
    case all
    /// Frame indices `first` through `last`, inclusive.
    case range(Int, Int)
    /// One frame showing the state at exactly this time (s).
    case at(Double)
}

/// How to render a scene: where, in which formats, which frames, how many workers.
public struct RenderOptions: Sendable {
    /// Output directory (created when missing).
    public var outputDirectory: String = "frames"
    public var formats: [OutputFormat] = [.png]
    public var frames: FrameSelection = .all
    /// Worker threads (≥ 1). Output bytes do not depend on it.
    public var jobs: Int = 1
    public var pngCompression: PNGEncoder.Compression = .default
    /// Called after each frame is written with (frames done, frames total); from any thread.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Stops the render between frames when cancelled (SIGINT, SIGTERM); nil = never.
    public var cancellation: RenderCancellation?

    public init() {}
}
