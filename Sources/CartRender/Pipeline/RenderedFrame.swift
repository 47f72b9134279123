import CartRenderCore
import CartRenderRaster

/// Bytes of an encoded frame and their digest.
public struct EncodedFrame: Sendable {
    /// The file's bytes.
    public var bytes: [UInt8]
    /// Lowercase hex SHA-256 of `bytes`.
    public var sha256: String
    init(_ bytes: [UInt8]) { self.bytes = bytes; sha256 = Checksum.sha256(bytes) }
}

/// One frame of a render as ``FrameStream`` hands it to the sinks: what the scene shows at
/// ``time``, and what the sinks asked for (``FrameNeeds``).
///
/// Consecutive frames with equal display lists form a run, drawn and encoded once: they share
/// their pixels and encoded bytes (``repeatsPrevious`` tells).
public final class RenderedFrame: @unchecked Sendable {
    /// Frame index: the frame shows `index / fps` s (for `--at`, the index nearest ``time``).
    public let index: Int
    /// Seconds since the start of the timeline that the frame shows.
    public let time: Double
    /// What is drawn, in screen points.
    public let display: DisplayList
    /// What the screen shows at ``time`` (`ShopFrameState`, `CartFrameState`): the manifest's
    /// `state` of the frame (docs/command-line.md, “Outputs”).
    public let state: any FrameState
    /// Whether the frame shows the same display list as the frame before it in the stream (then
    /// it has the same pixels and bytes).
    public let repeatsPrevious: Bool
    /// The rows (px at the render's scale, sorted and disjoint) outside which the frame has
    /// exactly the pixels of the frame before it (index − 1); empty when it repeats it, nil when
    /// not known (the first frame, a frame after a gap, or when no sink takes the pixels or asks
    /// for them, ``FrameNeeds/pixels``, ``FrameNeeds/changedRows``). From
    /// the two display lists (``FrameWorker/changedRows(from:to:)``), not from the pixels.
    public let changedRows: [Range<Int>]?
    /// Files the sinks wrote for this frame in their first stage, in sink order (primary format
    /// first). Set before the frame reaches ``FrameSink/consume(_:)``.
    public internal(set) var files: [Manifest.File] = []
    let content: RunContent
    /// ``state`` as JSON, encoded once for every sink that asks (``stateJSON()``).
    private let encodedState = LockedValue<JSONValue?>(nil)

    init(index: Int, time: Double, display: DisplayList, state: any FrameState, repeatsPrevious: Bool,
         changedRows: [Range<Int>]? = nil, content: RunContent) {
        self.index = index; self.time = time; self.display = display; self.state = state
        self.repeatsPrevious = repeatsPrevious; self.changedRows = changedRows; self.content = content
    }

    /// ``state`` as the manifest's JSON, encoded the first time a sink asks; thread-safe.
    /// - Throws: what encoding the state throws.
    public func stateJSON() throws -> JSONValue {
        try encodedState.withLock { cached in
            if let cached { return cached }
            let value = try JSONValue(encoding: state)
            cached = value
            return value
        }
    }

    /// The PNG file of the frame (8-bit RGBA), when a sink needs ``FrameNeeds/png``.
    public var png: EncodedFrame? { content.png }
    /// The SVG document of the frame, when a sink needs ``FrameNeeds/svg``.
    public var svg: EncodedFrame? { content.svg }

    /// The frame's pixels, straight RGBA, `width × height` px at the render's scale, copied from
    /// the worker's canvas the first time they are asked for; only in ``FrameSink/write(_:)``
    /// (needs ``FrameNeeds/canvas``).
    /// - Throws: `RasterError` (`.library`) outside the first stage or when no sink asked for the canvas.
    public func pixels() throws -> RGBAImage { try content.pixels() }

    /// Calls `body` with the worker's canvas holding the frame (Cairo's premultiplied ARGB32,
    /// `width × height` px at the render's scale), borrowed for the call, without a copy; only in
    /// ``FrameSink/write(_:)`` (needs ``FrameNeeds/canvas``).
    /// - Throws: `RasterError` (`.library`) outside the first stage or when no sink asked for the
    ///   canvas; what `body` throws.
    public func withCanvasRows<R>(_ body: (PixelRows) throws -> R) throws -> R { try content.withCanvasRows(body) }

    /// Brings `image` — the consuming sink's own copy of the frame before (index − 1), or nil
    /// for the first frame it sees — to this frame's pixels, straight RGBA, copying only the
    /// rows in ``changedRows`` (every row when they are not known). In ``FrameSink/consume(_:)``,
    /// with ``FrameNeeds/pixels``, called for every frame in order.
    /// - Throws: `RasterError` (`.library`) when no sink declared ``FrameNeeds/pixels``, or when
    ///   `image` is nil but only some rows changed (frames skipped).
    public func updatePixels(_ image: inout RGBAImage?) throws {
        if changedRows == [] {
            guard image != nil else { throw RasterError(.library, "frame \(index) repeats a frame the sink has not seen") }
            return
        }
        guard let patch = content.changedPixels else {
            throw RasterError(.library, "the frame's pixels were not kept: no sink asked for them")
        }
        try patch.apply(to: &image)
    }
}

/// What the frames of one run share: drawn once, encoded once.
final class RunContent: @unchecked Sendable {
    var png: EncodedFrame?
    var svg: EncodedFrame?
    /// The run's first frame in the rows where it differs from the frame before it (every row
    /// when not known), straight RGBA, for the in-order sinks that take pixels.
    private(set) var changedPixels: RowPatch?
    /// The straight RGBA copy of the canvas, made once for the first-stage sinks that ask.
    private var image: RGBAImage?
    /// The worker whose canvas holds the run while the run is in the first stage
    /// (``inFirstStage(on:_:)``). The canvas's pixels are borrowed from it only for the time of a
    /// copy: no pointer to them is kept.
    private var drawnOn: FrameWorker?

    init() {}

    /// Runs `body`, the first stage of the run's frames, while `worker`'s canvas holds the run:
    /// ``pixels()`` copies it from there meanwhile.
    func inFirstStage<R>(on worker: FrameWorker, _ body: () throws -> R) rethrows -> R {
        drawnOn = worker
        defer { drawnOn = nil; image = nil }
        return try body()
    }

    func pixels() throws -> RGBAImage {
        if let image { return image }
        let copy = try withCanvasRows { RGBAImage($0) }
        image = copy
        return copy
    }

    func withCanvasRows<R>(_ body: (PixelRows) throws -> R) throws -> R {
        guard let drawnOn else { throw RasterError(.library, "the frame's pixels were not kept: no sink asked for them") }
        guard let result = try drawnOn.withCanvasRows(body) else { throw RasterError(.library, "the frame's pixels were not kept: no sink asked for them") }
        return result
    }

    /// Keeps the rows `changedRows` (nil: every row) of `canvas` — the run's pixels, lent for
    /// the call — as ``changedPixels`` for the in-order sinks.
    func keepChangedPixels(of canvas: PixelRows, changedRows: [Range<Int>]?) {
        changedPixels = RowPatch(canvas, rows: changedRows)
    }

    /// Drops what no later stage needs.
    func drop(png dropPNG: Bool, svg dropSVG: Bool) {
        if dropPNG { png = nil }
        if dropSVG { svg = nil }
    }
}
