import CartRenderCore
import CCairo
import Foundation

/// Draws display lists with Cairo: into image surfaces (pixels) or SVG surfaces (vectors).
///
/// A dispatcher over the display list's item kinds, as resvg's `render.rs` dispatches node
/// kinds: `draw(_:in:)` picks the drawing of each kind, each in its own file —
/// shapes and paints (FrameRasterizer+Shapes), groups (FrameRasterizer+Group), images
/// (FrameRasterizer+Image), blurs (FrameRasterizer+Blur), text (``TextEngine``); the canvas
/// kept between frames and its damage (FrameRasterizer+Canvas) and SVG output
/// (FrameRasterizer+SVG) are the two ways a list is drawn.
///
/// One per worker thread (it owns a Pango context and librsvg handles, which are not
/// thread-safe); any number can run in parallel. Drawing is a pure function of the display list
/// and the scale: the same list gives the same pixels whatever was drawn before.
public final class FrameRasterizer: TextMeasuring {
    let text: TextEngine
    let images: ImageLibrary
    /// The SVG documents of image sources as drawn (tint, outline), parsed once (FrameRasterizer+Image).
    struct SVGKey: Hashable { var source: ImageSource; var tint: Color?; var outline: Double }
    var svgDocuments: [SVGKey: SVGDocument] = [:]
    /// Raster images as Cairo surfaces, made once per source (FrameRasterizer+Image).
    var rasterSurfaces: [ImageSource: CairoImageSurface] = [:]
    /// The canvas kept between frames (FrameRasterizer+Canvas).
    var reusableCanvas: CairoImageSurface?
    /// What `reusableCanvas` shows: the display list and scale it was last drawn from.
    var canvasContent: (list: DisplayList, scale: Double)?
    /// Draws into the canvas so far (see ``CanvasDamage/serial``).
    var drawSerial = 0
    /// The rows (px, in the device space of the context drawn into) being redrawn, while a draw
    /// redraws only a band of damage.
    var cull: Range<Int>?
    /// How many groups that scale, rotate or skew enclose what is being drawn.
    var scaledGroups = 0
    /// Whether ``withPixels(of:scale:_:)`` redraws only the damage (default) or every frame in
    /// full (for the tests and the bench, which compare the two). SPI, not API: `CartRender`'s
    /// `FrameWorker` passes it on, and `CartRenderTestSupport` is where tests reach it.
    @_spi(DamageTracking) public var tracksDamage = true

    /// - Throws: `RasterError` when Pango cannot be set up.
    public init(fonts: FontEnvironment, images: ImageLibrary) throws {
        self.text = try TextEngine(fonts: fonts)
        self.images = images
    }

    /// The size (pt) of `string` set in `font`, wrapped at `maxWidth` pt and cut after `maxLines` lines when given (Pango).
    public func measure(_ string: String, font: FontSpec, maxWidth: Double?, maxLines: Int?) -> Size {
        text.measure(string, font: font, maxWidth: maxWidth, maxLines: maxLines)
    }

    /// The distance (pt) from the top of `string`'s one-line layout box to its baseline
    /// (`TextMeasuring`), as Pango lays it out with fallback fonts.
    public func firstBaseline(_ string: String, font: FontSpec) -> Double {
        text.firstBaseline(string, font: font)
    }

    /// Rasterizes `list` at `scale` pixels per point.
    /// - Returns: an image of `round(size × scale)` px, straight alpha.
    /// - Throws: `RasterError` when Cairo or librsvg fail.
    public func rasterize(_ list: DisplayList, scale: Double) throws -> RGBAImage {
        try withPixels(of: list, scale: scale) { RGBAImage($0) }
    }

    /// Draws `list` at `scale` pixels per point into this rasterizer's canvas and calls `body`
    /// with the canvas's pixels — `round(size × scale)` px, Cairo's premultiplied ARGB32 — valid
    /// only during the call. Encoders read them in place: no copy of the frame is made.
    /// - Throws: `RasterError` when Cairo or librsvg fail; what `body` throws.
    public func withPixels<R>(of list: DisplayList, scale: Double, _ body: (PixelRows) throws -> R) throws -> R {
        try withPixels(of: list, scale: scale) { rows, _ in try body(rows) }
    }

    // MARK: - Drawing

    func check(_ status: cairo_status_t, _ what: String) throws {
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RasterError(.library, "Cairo failed while \(what): \(CairoImageSurface.reason(status))")
        }
    }

    func draw(_ list: DisplayList, in cr: OpaquePointer) throws {
        let bg = list.background
        cairo_set_source_rgba(cr, bg.red, bg.green, bg.blue, bg.alpha)
        cairo_rectangle(cr, 0, 0, list.size.width, list.size.height)
        cairo_fill(cr)
        for item in list.items { try draw(item, in: cr) }
        try check(cairo_status(cr), "drawing a frame")
    }

    func draw(_ item: DisplayItem, in cr: OpaquePointer) throws {
        if cull != nil, !reachesDamage(item.bounds(measuring: self), in: cr) { return }
        switch item {
        case .fill(let shape, let paint):
            fill(shape, paint, in: cr)
        case .stroke(let shape, let paint, let lineWidth):
            stroke(shape, paint, lineWidth: lineWidth, in: cr)
        case .text(let run):
            text.draw(run, in: cr, asOutlines: scaledGroups > 0)
        case .image(let image):
            try drawImage(image, in: cr)
        case .group(let t, let opacity, let clip, let items):
            try drawGroup(items, transform: t, opacity: opacity, clip: clip, in: cr)
        case .blur(let radius, let items):
            try drawBlurred(items, radius: radius, in: cr)
        }
    }
}
