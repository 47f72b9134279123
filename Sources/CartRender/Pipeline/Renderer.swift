import CartRenderCore
@_spi(DamageTracking) import CartRenderRaster
import Foundation

/// Renders a scene's frames: the pipeline from a validated scene to files.
///
/// Setting up loads the fonts and every image once (so a corrupt image fails before any frame
/// is written) and simulates the timeline to resolve the duration. Frames are then made by
/// workers — each with its own Pango context and librsvg handles — as pure functions of time, so
/// they can be rendered in any order, on any number of threads, with the same bytes.
public final class Renderer: @unchecked Sendable {
    /// The validated scene drawn.
    public let scene: Scene
    /// The fonts the frames are drawn with (a confined fontconfig).
    public let fonts: FontEnvironment
    /// The scene's images and icons, loaded once.
    public let images: ImageLibrary
    /// Manifest `events`, in time order.
    public let events: [TimelineEvent]
    /// Length of the render (s): the scene's `duration`, or 0.5 s after everything settles.
    public let duration: Double
    /// `round(duration × fps) + 1` frames, both ends included (docs/motion-and-look.md,
    /// “Time and frames”).
    public let frameCount: Int
    /// How long after the last animation settles an open-ended render ends (s): docs/motion-and-look.md,
    /// “Time and frames”.
    public static let tail = 0.5

    /// - Parameter assets: the folder the scene's image and font files must lie in; nil: the
    ///   scene's own folder (`Scene.baseDirectory`).
    /// - Throws: `SceneError` (with an empty `file`, for the caller to fill in) for an image or
    ///   font file that cannot be read or decoded or lies outside `assets`, at its field, and
    ///   when the resolved duration has too many frames; `RasterError` for missing fonts or icons.
    public init(scene: Scene, assets: AssetFolder? = nil) throws {
        self.scene = scene
        let folder = assets ?? AssetFolder(directory: scene.baseDirectory)
        for font in scene.fonts {
            // Checked here for the sentence with the scene's JSON path; fontconfig then gets the
            // file opened through the folder (its descriptor), not the path, so nothing put at
            // the name in between is loaded.
            do { _ = try folder.read(font.file, limit: SceneFont.maxBytes) } catch {
                throw SceneError(kind: error.unreadable ? .unreadable : .invalid, file: "", location: font.location, path: font.path,
                                 message: "font file \(font.file) \(error.reason(folder: folder, notA: "a font"))")
            }
        }
        fonts = try FontEnvironment.shared(sceneFonts: scene.fonts.map(\.file), folder: folder)
        do { images = try ImageLibrary(sources: scene.content.images, assets: folder) } catch let e as ImageError {
            let field = scene.imageFields.first { $0.source == e.source }
            throw SceneError(kind: e.unreadable ? .unreadable : .invalid, file: "", location: field?.location,
                             path: field?.path ?? "", message: e.message)
        }
        let model = Screens.model(for: scene, measurer: try FrameRasterizer(fonts: fonts, images: images))
        events = model.events
        if let d = scene.duration {
            duration = d
        } else {
            duration = max(model.settleTime, scene.events.last?.at ?? 0) + Self.tail
        }
        frameCount = Int((duration * Double(scene.fps)).rounded()) + 1
        guard frameCount <= SceneDecoder.maxFrames else {
            throw SceneError(file: "", location: nil, path: "duration",
                             message: "the render would have \(frameCount) frames; at most \(SceneDecoder.maxFrames)")
        }
    }

    /// The latest time a frame may show (s): the duration, or the last frame's time when
    /// `round(duration × fps)` rounds up past it.
    public var endTime: Double { max(duration, time(ofFrame: frameCount - 1)) }

    /// Time (s) shown by frame `index`: `index / fps`.
    public func time(ofFrame index: Int) -> Double { Double(index) / Double(scene.fps) }

    /// Pixels per point.
    public var scale: Double { scene.device.scale }
    /// Canvas size (px).
    /// The drawing workers a run of this renderer uses: `requested` (nil: one per core), or
    /// fewer when the address-space limit (`ulimit -v`) has room for fewer
    /// (``MemoryBudget``).
    /// - Throws: `OutOfMemoryError` (exit 70) when not even one fits.
    public func affordableWorkers(_ requested: Int?) throws -> Int {
        try MemoryBudget.workers(requested: requested ?? ProcessInfo.processInfo.activeProcessorCount,
                                 canvasPixels: pixelSize.width * pixelSize.height,
                                 what: "a render of \(pixelSize.width)×\(pixelSize.height) px frames")
    }

    /// The frame size in pixels: the screen's points × scale, rounded.
    public var pixelSize: (width: Int, height: Int) { Self.pixelSize(of: scene) }

    /// The frame size in pixels of `scene`: its screen's points × scale, rounded.
    public static func pixelSize(of scene: Scene) -> (width: Int, height: Int) {
        (Int((scene.device.width * scene.device.scale).rounded()), Int((scene.device.height * scene.device.scale).rounded()))
    }

    /// A worker: not thread-safe, make one per thread.
    public func makeWorker() throws -> FrameWorker { try FrameWorker(renderer: self) }

    /// The file name of frame `index` in `format`: at least four digits, more when the
    /// timeline needs them (`frame_0042.png`).
    /// - Precondition: `format.isPerFrame`.
    public func fileName(ofFrame index: Int, format: OutputFormat) -> String {
        guard let ext = format.frameExtension else { preconditionFailure("\(format) writes no frame files") }
        return fileName(ofFrame: index, extension: ext)
    }

    /// `frame_NNNN.EXT` of frame `index`, as ``fileName(ofFrame:format:)``.
    func fileName(ofFrame index: Int, extension ext: String) -> String {
        let digits = max(4, String(max(frameCount - 1, index)).count)
        let n = String(index)
        return "frame_" + String(repeating: "0", count: max(0, digits - n.count)) + n + "." + ext
    }
}

/// Makes frames of one renderer on one thread.
public final class FrameWorker {
    /// The renderer this worker draws for.
    public let renderer: Renderer
    let rasterizer: FrameRasterizer
    package let model: any ScreenModel

    init(renderer: Renderer) throws {
        self.renderer = renderer
        rasterizer = try FrameRasterizer(fonts: renderer.fonts, images: renderer.images)
        model = Screens.model(for: renderer.scene, measurer: rasterizer)
    }

    /// The display list and manifest state at `t` seconds.
    public func frame(at t: Double) -> (display: DisplayList, state: any FrameState) { model.frame(at: t) }

    /// The frame at `t` seconds as pixels at the scene's scale.
    public func image(at t: Double) throws -> RGBAImage {
        try rasterizer.rasterize(model.frame(at: t).display, scale: renderer.scale)
    }

    /// Draws a display list at the scene's scale, or at `scale` pixels per point.
    public func rasterize(_ display: DisplayList, scale: Double? = nil) throws -> RGBAImage {
        try rasterizer.rasterize(display, scale: scale ?? renderer.scale)
    }

    /// Draws a display list at the scene's scale into this worker's canvas and calls `body` with
    /// its pixels (premultiplied ARGB32), valid only during the call.
    public func withPixels<R>(_ display: DisplayList, _ body: (PixelRows) throws -> R) throws -> R {
        try rasterizer.withPixels(of: display, scale: renderer.scale, body)
    }

    /// Draws a display list into this worker's canvas, redrawing only its damage against what
    /// the canvas held (``FrameRasterizer/withPixels(of:scale:_:)``), and calls `body` with the
    /// pixels and the rows the draw changed.
    public func withPixels<R>(_ display: DisplayList, _ body: (PixelRows, CanvasDamage) throws -> R) throws -> R {
        try rasterizer.withPixels(of: display, scale: renderer.scale, body)
    }

    /// A copy of this worker's canvas as last drawn (straight RGBA, px at the scene's scale), or
    /// nil before the first draw (``FrameRasterizer/canvasImage()``).
    public func canvasImage() -> RGBAImage? { rasterizer.canvasImage() }

    /// Calls `body` with this worker's canvas as last drawn, borrowed for the call
    /// (``FrameRasterizer/withCanvasRows(_:)``); nil before the first draw.
    public func withCanvasRows<R>(_ body: (PixelRows) throws -> R) rethrows -> R? { try rasterizer.withCanvasRows(body) }

    /// The rows (px at the scene's scale) where `new` drawn in full can differ from `old`
    /// drawn in full (``FrameRasterizer/changedRows(from:to:scale:)``), or nil when not known.
    public func changedRows(from old: DisplayList, to new: DisplayList) -> [Range<Int>]? {
        rasterizer.changedRows(from: old, to: new, scale: renderer.scale)
    }

    /// Whether draws redraw only what changed (default) or the whole frame; the bytes are the
    /// same either way (`cartrender-bench` compares the cost). SPI: the tests and the bench set
    /// it through `CartRenderTestSupport`.
    @_spi(DamageTracking) public var tracksDamage: Bool {
        get { rasterizer.tracksDamage }
        set { rasterizer.tracksDamage = newValue }
    }

    /// The PNG stripes of the last frame encoded from this worker's canvas.
    let pngStripes = PNGCanvasStripes()

    /// Draws a display list as an SVG document.
    public func svg(_ display: DisplayList) throws -> [UInt8] { try rasterizer.svg(display) }
}
