import CartRenderCore
import CartRenderRaster

/// What a sink needs each frame to carry: what the stream must draw and encode, once per run of
/// identical frames, before the sink sees the frame.
public struct FrameNeeds: OptionSet, Sendable {
    /// One bit per need declared below (`canvas` is bit 0, `pixels` bit 1, …): the set's
    /// `OptionSet` storage.
    public let rawValue: Int
    /// The set whose needs are the bits of `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The frame drawn into the worker's canvas: ``RenderedFrame/pixels()`` works in
    /// ``FrameSink/write(_:)``.
    public static let canvas = FrameNeeds(rawValue: 1 << 0)
    /// The rows a frame changed, straight RGBA, kept for ``FrameSink/consume(_:)`` (animation
    /// encoders, through ``RenderedFrame/updatePixels(_:)``): implies `canvas`.
    public static let pixels = FrameNeeds(rawValue: 1 << 1)
    /// The frame's PNG bytes (``RenderedFrame/png``), from the striped encoder: implies `canvas`.
    public static let png = FrameNeeds(rawValue: 1 << 2)
    /// The frame's SVG document (``RenderedFrame/svg``), from Cairo's SVG surface.
    public static let svg = FrameNeeds(rawValue: 1 << 3)
    /// ``FrameSink/consume(_:)`` does work: the stream runs it in frame order on a thread of the
    /// sink's own, beside the drawing.
    public static let inOrder = FrameNeeds(rawValue: 1 << 4)
    /// The rows each frame changed (``RenderedFrame/changedRows``), for a sink that reads them
    /// from the canvas itself in ``FrameSink/write(_:)`` (``RenderedFrame/withCanvasRows(_:)``:
    /// a video encoder converting them on the worker): implies `canvas`.
    public static let changedRows = FrameNeeds(rawValue: 1 << 5)

    /// Whether the frame must be drawn into a canvas at all.
    var draws: Bool { !isDisjoint(with: [.canvas, .pixels, .png, .changedRows]) }
}

/// What a sink leaves when the stream has ended.
public struct SinkOutput: Sendable {
    /// Files written (into the staging area), in a fixed order.
    public var files: [Manifest.File] = []
    /// Sentences for the user about choices the sink made (frames a GIF dropped above 50 fps).
    public var notices: [String] = []
    /// What the sink reports of its work (an encoder's `GIFSummary`, `WebPSummary`), or nil.
    public var summary: (any Sendable)?
    /// What a sink's finish returns: the files it wrote, notices for stderr and a summary for the command.
    public init(files: [Manifest.File] = [], notices: [String] = [], summary: (any Sendable)? = nil) {
        self.files = files; self.notices = notices; self.summary = summary
    }
}

/// A consumer of a render's frames: frame files, an animation, the manifest, a contact sheet,
/// the comparison with a baseline. ``FrameStream`` feeds every sink the same frames.
///
/// A sink has up to three stages:
/// 1. ``write(_:)`` on the worker that drew the frame, for frames in any order and several at
///    once: per-frame work that needs no order (writing `frame_NNNN.png`, comparing it with a
///    baseline). Files it writes are listed in ``RenderedFrame/files`` for the later stages.
/// 2. ``consume(_:)`` in frame order on a thread of the sink's own (only with
///    ``FrameNeeds/inOrder``): work that needs the sequence (an animation encoder, the manifest).
/// 3. ``finish(earlier:)`` once, after the last frame, in sink order.
///
/// Sinks write into a staging area or a report directory of their own; the caller of the stream
/// commits what they wrote once every sink has finished. A sink that throws stops the stream.
public protocol FrameSink: AnyObject, Sendable {
    /// What the frames must carry for this sink.
    var needs: FrameNeeds { get }
    /// Stage 1: per-frame work on a worker thread. Thread-safe: called concurrently.
    /// - Returns: the files written for this frame.
    func write(_ frame: RenderedFrame) throws -> [Manifest.File]
    /// Stage 2: called for every frame in index order, from one thread (with ``FrameNeeds/inOrder``).
    func consume(_ frame: RenderedFrame) throws
    /// Stage 3: after the last frame was consumed.
    /// - Parameter earlier: the files the sinks before this one left (the manifest lists them).
    func finish(earlier: [Manifest.File]) throws -> SinkOutput
}

extension FrameSink {
    /// Writes nothing in the first stage.
    public func write(_ frame: RenderedFrame) throws -> [Manifest.File] { [] }
    /// Takes nothing in frame order.
    public func consume(_ frame: RenderedFrame) throws {}
    /// Finishes with no files.
    public func finish(earlier: [Manifest.File]) throws -> SinkOutput { SinkOutput() }
}
