import CartRenderCore
import CCairo
import CPixman
import CRsvg
import Foundation

/// Draws display lists with Cairo: into image surfaces (pixels) or SVG surfaces (vectors).
///
/// One per worker thread (it owns a Pango context and librsvg handles, which are not
/// thread-safe); any number can run in parallel. Drawing is a pure function of the display list
/// and the scale: the same list gives the same pixels whatever was drawn before.
public final class FrameRasterizer: TextMeasuring {
    let text: TextEngine
    let images: ImageLibrary
    private struct SVGKey: Hashable { var source: ImageSource; var tint: Color?; var outline: Double }
    private var svgDocuments: [SVGKey: SVGDocument] = [:]
    private var rasterSurfaces: [ImageSource: CairoImageSurface] = [:]
    private var reusableCanvas: CairoImageSurface?
    /// What `reusableCanvas` shows: the display list and scale it was last drawn from.
    private var canvasContent: (list: DisplayList, scale: Double)?
    /// Draws into the canvas so far (see ``CanvasDamage/serial``).
    private var drawSerial = 0
    /// The rows (px, in the device space of the context drawn into) being redrawn, while a draw
    /// redraws only a band of damage.
    private var cull: Range<Int>?
    /// How many groups that scale, rotate or skew enclose what is being drawn.
    private var scaledGroups = 0

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

    /// Draws `list` like ``withPixels(of:scale:_:)``, and tells `body` which rows of the canvas
    /// the draw changed since the canvas's previous draw (``CanvasDamage``).
    ///
    /// The canvas is kept from frame to frame, with the display list it holds. When the new list
    /// has the same size, background and scale, only its damage against that list
    /// (``DisplayListDiff``) is redrawn: the rows the damaged rectangles span, rounded out to
    /// whole pixels and grown by ``damageMargin`` px for antialiasing (``DamageBands``), are
    /// cleared and drawn with every item that reaches them; items that reach none are skipped.
    /// The pixels are exactly those of a full redraw (`DamageTrackingTests` draws every frame
    /// both ways).
    /// - Throws: `RasterError` when Cairo or librsvg fail; what `body` throws.
    public func withPixels<R>(of list: DisplayList, scale: Double, _ body: (PixelRows, CanvasDamage) throws -> R) throws -> R {
        let w = Int((list.size.width * scale).rounded()), h = Int((list.size.height * scale).rounded())
        let surface = try canvas(width: w, height: h)
        var bands: [Range<Int>]?
        if tracksDamage, let held = canvasContent, held.scale == scale {
            bands = changedRows(from: held.list, to: list, scale: scale).flatMap { damaged in
                guard !damaged.isEmpty else { return damaged }
                let held = DamageBands.holding(damaged, whole: DamageBands.resampledRows(of: list, scale: scale, margin: Self.damageMargin, height: h, measuring: self))
                return DamageBands.isPartial(held, height: h) ? held : nil
            }
        }
        // Until the draw succeeds, the canvas holds nothing known.
        canvasContent = nil
        func drawList(_ cr: OpaquePointer, offset: (x: Int, y: Int)) throws {
            cairo_translate(cr, Double(-offset.x), Double(-offset.y))
            cairo_scale(cr, scale, scale)
            // The canvas is reused from frame to frame: replace every pixel, whatever the background's alpha.
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_rgba(cr, 0, 0, 0, 0)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            try draw(list, in: cr)
        }
        if let bands {
            // Each band of rows is drawn through a subsurface of the canvas (its drawing stays
            // inside), with the items that reach it.
            for band in bands {
                // In the subsurface's device space, the band starts at row 0.
                cull = 0..<band.count
                defer { cull = nil }
                try surface.draw("drawing a frame", rectangle: (0, band.lowerBound, w, band.count)) { cr in
                    try drawList(cr, offset: (0, band.lowerBound))
                }
            }
        } else {
            try surface.draw("drawing a frame") { cr in try drawList(cr, offset: (0, 0)) }
        }
        canvasContent = (list, scale)
        drawSerial += 1
        let damage = CanvasDamage(serial: drawSerial, rows: bands ?? [0..<h], whole: bands == nil)
        return try surface.withPixels { try body($0, damage) }
    }

    /// A copy of the canvas as the last successful draw left it (``withPixels(of:scale:_:)``),
    /// straight RGBA, `round(size × scale)` px; nil before the first draw or after one that failed.
    /// The pixels are borrowed from the canvas only for the time of the copy.
    public func canvasImage() -> RGBAImage? { withCanvasRows { RGBAImage($0) } }

    /// Calls `body` with the canvas as the last successful draw left it (premultiplied ARGB32,
    /// `round(size × scale)` px), borrowed for the call; nil before the first draw or after one
    /// that failed.
    public func withCanvasRows<R>(_ body: (PixelRows) throws -> R) rethrows -> R? {
        guard canvasContent != nil, let reusableCanvas else { return nil }
        return try reusableCanvas.withPixels(body)
    }

    /// The rows (px, sorted and disjoint) where drawing `new` in full can give other pixels than
    /// drawing `old` in full at `scale` px/pt: the rows their differences span
    /// (``DisplayListDiff``), rounded out and grown by ``damageMargin`` (``DamageBands``); empty
    /// when the lists draw the same pixels, nil when they cannot be compared (another size or
    /// background) or differ nearly everywhere.
    public func changedRows(from old: DisplayList, to new: DisplayList, scale: Double) -> [Range<Int>]? {
        let h = Int((new.size.height * scale).rounded())
        guard let rects = DisplayListDiff.damage(from: old, to: new, measuring: self) else { return nil }
        return DamageBands.covering(rects, scale: scale, margin: Self.damageMargin, height: h)
    }

    /// Pixels added around each damaged rectangle (px): antialiasing reaches at most one pixel
    /// beyond a shape's geometry; two leave room for rounding.
    public static let damageMargin = 2

    /// Whether ``withPixels(of:scale:_:)`` redraws only the damage (default) or every frame in
    /// full (for the tests and the bench, which compare the two). SPI, not API: `CartRender`'s
    /// `FrameWorker` passes it on, and `CartRenderTestSupport` is where tests reach it.
    @_spi(DamageTracking) public var tracksDamage = true

    /// This worker's image surface of `width × height` px, kept between frames: creating a
    /// 12 MB surface per frame costs more in page faults than drawing the frame.
    private func canvas(width: Int, height: Int) throws -> CairoImageSurface {
        if let c = reusableCanvas, c.width == width, c.height == height { return c }
        reusableCanvas = nil
        canvasContent = nil
        let surface = try CairoImageSurface(width: width, height: height)
        reusableCanvas = surface
        return surface
    }

    /// Whether an item whose bounds are `rect` (pt, in `cr`'s user space) can reach the damage
    /// being redrawn: always when the whole frame is drawn.
    private func reachesDamage(_ rect: Rect?, in cr: OpaquePointer) -> Bool {
        guard let cull else { return true }
        guard let rect else { return false }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let device = rect.applying(AffineTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0))
        let margin = Double(Self.damageMargin)
        return device.minY - margin < Double(cull.upperBound) && Double(cull.lowerBound) < device.maxY + margin
    }

    /// Draws `list` as an SVG document whose user unit is the point (`width`/`height` in px = pt).
    /// Element ids are renumbered in document order, so the bytes do not depend on what the
    /// process drew before (Cairo numbers some ids from a process-wide counter).
    public func svg(_ list: DisplayList) throws -> [UInt8] {
        let surface = try CairoSVGSurface(width: list.size.width, height: list.size.height)
        guard let cr = cairo_create(surface.pointer) else { throw RasterError(.library, "cairo_create failed") }
        defer { cairo_destroy(cr) }
        try draw(list, in: cr)
        try check(surface.finish(), "writing an SVG frame")
        return SVGIdentifiers.canonicalize(surface.bytes)
    }

    // MARK: - Drawing

    private func check(_ status: cairo_status_t, _ what: String) throws {
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
            path(shape, in: cr)
            setPaint(paint, in: cr)
            withHardEdges(for: shape, in: cr) { cairo_fill(cr) }
        case .stroke(let shape, let paint, let lineWidth):
            path(shape, in: cr)
            setPaint(paint, in: cr)
            cairo_set_line_width(cr, lineWidth)
            cairo_stroke(cr)
        case .text(let run):
            text.draw(run, in: cr, asOutlines: scaledGroups > 0)
        case .image(let image):
            try drawImage(image, in: cr)
        case .group(let t, let opacity, let clip, let items):
            guard opacity > 0 else { return }
            cairo_save(cr)
            defer { cairo_restore(cr) }
            if !t.isIdentity {
                var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
                cairo_transform(cr, &m)
            }
            // Text under a transform that is more than a translation is drawn as outlines.
            let scales = t.a != 1 || t.b != 0 || t.c != 0 || t.d != 1
            if scales { scaledGroups += 1 }
            defer { if scales { scaledGroups -= 1 } }
            if let clip {
                path(clip, in: cr)
                withHardEdges(for: clip, in: cr) { cairo_clip(cr) }
            }
            if opacity < 1 {
                // Keep the intermediate surface small: clip to what the group can touch.
                if let b = items.bounds(measuring: self) {
                    cairo_rectangle(cr, b.x - 2, b.y - 2, b.width + 4, b.height + 4)
                    cairo_clip(cr)
                }
                cairo_push_group(cr)
                for i in items { try draw(i, in: cr) }
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, opacity)
            } else {
                for i in items { try draw(i, in: cr) }
            }
        case .blur(let radius, let items):
            guard radius > 0 else {
                for i in items { try draw(i, in: cr) }
                return
            }
            try drawBlurred(items, radius: radius, in: cr)
        }
    }

    /// Pixels per point of the image a blurred group becomes in SVG output. Cairo's SVG surface
    /// has no filters, so a `.blur` is drawn as an embedded PNG at this resolution, whatever the
    /// viewer's zoom: 3 px per pt, the @3x of the iPhone presets, is as sharp as the PNG frames
    /// of those devices. (On image surfaces the blur is drawn at the surface's own pixels.)
    static let svgBlurPixelsPerPoint = 3.0

    /// Draws `items` blurred by a Gaussian of standard deviation `radius` (pt, current user
    /// space) at the current transform and clip (`DisplayItem.blur`): the items are drawn into a
    /// cleared image surface covering their bounds grown by 3σ (and no more of the current clip's
    /// extents grown by 3σ), convolved horizontally then vertically with pixman's separable
    /// convolution filter, and composited over what is below with the current clip.
    private func drawBlurred(_ items: [DisplayItem], radius: Double, in cr: OpaquePointer) throws {
        guard let sharp = items.bounds(measuring: self) else { return }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        // Device units per user unit, and offscreen pixels per device unit.
        let userScale = abs(m.xx * m.yy - m.xy * m.yx).squareRoot()
        let pixelsPerDevice = cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE ? 1 : Self.svgBlurPixelsPerPoint
        let sigma = radius * userScale * pixelsPerDevice  // px of the offscreen image
        guard sigma.isFinite, sigma > 0 else { return }
        var clip = (x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0)
        cairo_clip_extents(cr, &clip.x0, &clip.y0, &clip.x1, &clip.y1)
        let reach = 3 * radius
        let inked = deviceBox(of: sharp.insetBy(-reach), in: cr)
        let visible = deviceBox(of: Rect(x: clip.x0, y: clip.y0, width: clip.x1 - clip.x0, height: clip.y1 - clip.y0).insetBy(-reach), in: cr)
        let x0 = (max(inked.minX, visible.minX) * pixelsPerDevice).rounded(.down), y0 = (max(inked.minY, visible.minY) * pixelsPerDevice).rounded(.down)
        let x1 = (min(inked.maxX, visible.maxX) * pixelsPerDevice).rounded(.up), y1 = (min(inked.maxY, visible.maxY) * pixelsPerDevice).rounded(.up)
        guard x1 > x0, y1 > y0, x1 - x0 < Double(Int32.max), y1 - y0 < Double(Int32.max) else { return }
        let layer = try CairoImageSurface(width: Int(x1 - x0), height: Int(y1 - y0))
        try layer.draw("drawing a blurred group") { lc in
            // A new image surface is transparent already; clear it anyway, so that no byte of the
            // result depends on how the surface's memory was obtained.
            cairo_set_operator(lc, CAIRO_OPERATOR_CLEAR)
            cairo_paint(lc)
            cairo_set_operator(lc, CAIRO_OPERATOR_OVER)
            cairo_translate(lc, -x0, -y0)
            cairo_scale(lc, pixelsPerDevice, pixelsPerDevice)
            cairo_transform(lc, &m)
            for i in items { try draw(i, in: lc) }
        }
        try gaussianBlur(layer, sigma: sigma)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_identity_matrix(cr)
        cairo_translate(cr, x0 / pixelsPerDevice, y0 / pixelsPerDevice)
        cairo_scale(cr, 1 / pixelsPerDevice, 1 / pixelsPerDevice)
        cairo_set_source_surface(cr, layer.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        try check(cairo_status(cr), "compositing a blurred group")
    }

    /// The bounding box in device space of `rect` (user space of `cr`).
    private func deviceBox(of rect: Rect, in cr: OpaquePointer) -> Rect {
        var xs: [Double] = [], ys: [Double] = []
        for (x, y) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)] {
            var dx = x, dy = y
            cairo_user_to_device(cr, &dx, &dy)
            xs.append(dx); ys.append(dy)
        }
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// Blurs `surface` (premultiplied ARGB32) in place by a Gaussian of standard deviation
    /// `sigma` px: two passes of pixman's `PIXMAN_FILTER_SEPARABLE_CONVOLUTION`, a 1 × n then an
    /// n × 1 kernel (`gaussianKernel`), pixels outside the surface transparent. The weights sum
    /// to exactly 1, so the total coverage is kept up to rounding and what reaches the edge.
    /// - Throws: `RasterError(.library)` when pixman cannot wrap the pixels or take the filter.
    func gaussianBlur(_ surface: CairoImageSurface, sigma: Double) throws {
        let kernel = Self.gaussianKernel(sigma: sigma)
        let scratch = try CairoImageSurface(width: surface.width, height: surface.height)
        cairo_surface_flush(surface.pointer)
        cairo_surface_flush(scratch.pointer)
        func wrap(_ s: CairoImageSurface) throws -> OpaquePointer {
            guard let data = cairo_image_surface_get_data(s.pointer),
                  let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(s.width), Int32(s.height), UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
                                                       cairo_image_surface_get_stride(s.pointer)) else {
                throw RasterError(.library, "pixman cannot wrap a \(s.width)×\(s.height) px image for a blur")
            }
            return image
        }
        let image = try wrap(surface)
        defer { pixman_image_unref(image) }
        let other = try wrap(scratch)
        defer { pixman_image_unref(other) }
        // Filter parameters (16.16 fixed point): width, height, x and y phase bits (0: one table
        // each), then the x table and the y table.
        let one = pixman_fixed_t(1 << 16), n = pixman_fixed_t(kernel.count) << 16
        let passes: [(source: OpaquePointer, destination: OpaquePointer, parameters: [pixman_fixed_t])] = [
            (image, other, [n, one, 0, 0] + kernel + [one]),
            (other, image, [one, n, 0, 0, one] + kernel),
        ]
        for pass in passes {
            let accepted = pass.parameters.withUnsafeBufferPointer {
                pixman_image_set_filter(pass.source, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, $0.baseAddress, Int32($0.count))
            }
            guard accepted != 0 else { throw RasterError(.library, "pixman refused a \(kernel.count)-tap Gaussian filter (σ = \(sigma) px)") }
            pixman_image_set_repeat(pass.source, PIXMAN_REPEAT_NONE)
            pixman_image_composite32(PIXMAN_OP_SRC, pass.source, nil, pass.destination, 0, 0, 0, 0, 0, 0, Int32(surface.width), Int32(surface.height))
            pixman_image_set_filter(pass.source, PIXMAN_FILTER_NEAREST, nil, 0)
        }
        cairo_surface_mark_dirty(surface.pointer)
        try surface.checkAfterDrawing("blurring a group")
    }

    /// The taps of a Gaussian of standard deviation `sigma` px at whole-pixel offsets
    /// −⌈3σ⌉ … ⌈3σ⌉, in 16.16 fixed point, summing to exactly 1 (the rounding remainder goes to
    /// the center tap). Beyond 3σ lies 0.27 % of the weight.
    static func gaussianKernel(sigma: Double) -> [pixman_fixed_t] {
        let reach = max(0, Int((3 * sigma).rounded(.up)))
        let weights = (-reach...reach).map { i in exp(-Double(i * i) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        var taps = weights.map { pixman_fixed_t(($0 / total * 65536).rounded()) }
        taps[reach] += 65536 - taps.reduce(0, +)
        return taps
    }

    /// Runs `body` (a fill or clip of `shape`'s path) without antialiasing when `shape` is a
    /// `.rect` that the current transform keeps axis-aligned (`Shape.rect`); otherwise as is.
    private func withHardEdges(for shape: Shape, in cr: OpaquePointer, _ body: () -> Void) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard case .rect = shape, m.xy == 0, m.yx == 0 else { return body() }
        let previous = cairo_get_antialias(cr)
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
        body()
        cairo_set_antialias(cr, previous)
    }

    func path(_ shape: Shape, in cr: OpaquePointer) {
        cairo_new_path(cr)
        switch shape {
        case .rect(let r):
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        case .roundedRect(let r, let radius):
            roundedRect(r, radius: min(radius, r.width / 2, r.height / 2), in: cr)
        case .continuousRoundedRect(let r, let radius):
            for element in ContinuousCorners.path(r, radius: radius) {
                switch element {
                case .move(let p): cairo_move_to(cr, p.x, p.y)
                case .line(let p): cairo_line_to(cr, p.x, p.y)
                case .curve(let c1, let c2, let p): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                case .close: cairo_close_path(cr)
                }
            }
        case .capsule(let r):
            roundedRect(r, radius: min(r.width, r.height) / 2, in: cr)
        case .ellipse(let r):
            cairo_save(cr)
            cairo_translate(cr, r.midX, r.midY)
            cairo_scale(cr, r.width / 2, r.height / 2)
            cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
            cairo_restore(cr)
            cairo_close_path(cr)
        }
    }

    private func roundedRect(_ r: Rect, radius: Double, in cr: OpaquePointer) {
        guard radius > 0 else { cairo_rectangle(cr, r.x, r.y, r.width, r.height); return }
        let (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.maxY)
        cairo_new_sub_path(cr)
        cairo_arc(cr, x1 - radius, y0 + radius, radius, -.pi / 2, 0)
        cairo_arc(cr, x1 - radius, y1 - radius, radius, 0, .pi / 2)
        cairo_arc(cr, x0 + radius, y1 - radius, radius, .pi / 2, .pi)
        cairo_arc(cr, x0 + radius, y0 + radius, radius, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }

    func setPaint(_ paint: Paint, in cr: OpaquePointer) {
        switch paint {
        case .color(let c):
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
        case .linearGradient(let start, let end, let colors):
            let p = cairo_pattern_create_linear(start.x, start.y, end.x, end.y)
            for (i, c) in colors.enumerated() {
                let offset = colors.count > 1 ? Double(i) / Double(colors.count - 1) : 0
                cairo_pattern_add_color_stop_rgba(p, offset, c.red, c.green, c.blue, c.alpha)
            }
            cairo_set_source(cr, p)
            cairo_pattern_destroy(p)
        }
    }

    func drawImage(_ image: ImageDraw, in cr: OpaquePointer) throws {
        guard let entry = images.entries[image.source] else {
            throw RasterError(.library, "image \(image.source.text) was not loaded before drawing")
        }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let frame = image.frame
        if image.mirrored {
            // x ↦ 2·midX − x: the frame maps onto itself, its content onto its mirror image.
            cairo_translate(cr, 2 * frame.midX, 0)
            cairo_scale(cr, -1, 1)
        }
        if image.cornerRadius > 0 || image.contentMode == .fill {
            path(.continuousRoundedRect(frame, radius: image.cornerRadius), in: cr)
            cairo_clip(cr)
        }
        switch entry {
        case .svg(let data, let path):
            // Symbols take the foreground color: their `currentColor` becomes the tint. (Drawing
            // them as a mask of the tint would look the same in pixels, but Cairo's SVG surface
            // writes masks under transforms that other renderers misplace.)
            // A symbol heavier than regular is emboldened: its outline stroked in its color.
            // Drawn opaque and then faded as a whole when the tint is translucent, so that the
            // stroke and the fill do not add up where they overlap.
            let isSymbol: Bool = { if case .symbol = image.source { return true } else { return false } }()
            let outline = isSymbol ? Look.symbolOutlineWidth(image.weight) : 0
            let fade = outline > 0 && image.tint.alpha > 0 && image.tint.alpha < 1
            let tint: Color? = isSymbol ? (fade ? image.tint.opacity(1 / image.tint.alpha) : image.tint) : nil
            do {
                let doc = try svgDocument(image.source, tint: tint, outline: outline, data: data, path: path)
                let target = image.contentMode == .fit ? frame.aspectFit(doc.size) : frame.aspectFill(doc.size)
                // The root <svg> clips to its viewport anyway; clipping first keeps librsvg's
                // intermediate layers the size of the image instead of the whole frame.
                cairo_rectangle(cr, target.x, target.y, target.width, target.height)
                cairo_clip(cr)
                if fade { cairo_push_group(cr) }
                try doc.render(in: cr, viewport: target)
                if fade {
                    cairo_pop_group_to_source(cr)
                    cairo_paint_with_alpha(cr, image.tint.alpha)
                }
            } catch let f as SVGDocument.Failure {
                throw f.rasterError
            }
        case .raster(let r):
            let surface = try rasterSurface(image.source, r)
            let size = Size(width: Double(r.width), height: Double(r.height))
            let target = image.contentMode == .fit ? frame.aspectFit(size) : frame.aspectFill(size)
            cairo_translate(cr, target.x, target.y)
            cairo_scale(cr, target.width / size.width, target.height / size.height)
            cairo_set_source_surface(cr, surface.pointer, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_rectangle(cr, 0, 0, size.width, size.height)
            cairo_fill(cr)
        }
    }

    /// The document of `source`, its `currentColor` fill replaced by `tint` (symbols), and with
    /// `outline` > 0 a stroke of that width (in the SVG's user units) of the same color, round
    /// joins, on everything it fills.
    private func svgDocument(_ source: ImageSource, tint: Color?, outline: Double, data: [UInt8], path: String) throws -> SVGDocument {
        let key = SVGKey(source: source, tint: tint, outline: outline)
        if let d = svgDocuments[key] { return d }
        var bytes = data
        if let t = tint {
            func c(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
            let rgb = "rgb(\(c(t.red)),\(c(t.green)),\(c(t.blue)))", alpha = JSONValue.format(t.alpha, decimals: 4)
            var fill = "fill=\"\(rgb)\" fill-opacity=\"\(alpha)\""
            if outline > 0 {
                fill += " stroke=\"\(rgb)\" stroke-opacity=\"\(alpha)\" stroke-width=\"\(JSONValue.format(outline, decimals: 4))\" stroke-linejoin=\"round\""
            }
            bytes = Array(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "fill=\"currentColor\"", with: fill).utf8)
        }
        let d = try SVGDocument(data: bytes, path: path)
        svgDocuments[key] = d
        return d
    }

    private func rasterSurface(_ source: ImageSource, _ r: ImageLibrary.Raster) throws -> CairoImageSurface {
        if let s = rasterSurfaces[source] { return s }
        let s = try r.withRows { try CairoImageSurface.copying($0) }
        rasterSurfaces[source] = s
        return s
    }
}

/// Renumbers the element ids of a Cairo SVG document in order of appearance, per id prefix
/// (`glyph0`, `glyph1`, `surface0`, …), and rewrites every `#id` reference to match.
enum SVGIdentifiers {
    static func canonicalize(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let idPattern = try! NSRegularExpression(pattern: #"id="([A-Za-z_]+)([0-9][0-9-]*)""#)
        var mapping: [String: String] = [:]
        var counters: [String: Int] = [:]
        let ns = text as NSString
        for m in idPattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let prefix = ns.substring(with: m.range(at: 1))
            let old = prefix + ns.substring(with: m.range(at: 2))
            guard mapping[old] == nil else { continue }
            let n = counters[prefix, default: 0]
            counters[prefix] = n + 1
            mapping[old] = "\(prefix)\(n)"
        }
        guard !mapping.isEmpty else { return bytes }
        let refPattern = try! NSRegularExpression(pattern: #"(id="|#)([A-Za-z_]+[0-9][0-9-]*)"#)
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var last = 0
        for m in refPattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let name = ns.substring(with: m.range(at: 2))
            guard let new = mapping[name] else { continue }
            out += ns.substring(with: NSRange(location: last, length: m.range(at: 2).location - last))
            out += new
            last = m.range(at: 2).location + m.range(at: 2).length
        }
        out += ns.substring(from: last)
        return Array(out.utf8)
    }
}

/// A Cairo SVG surface that writes into memory (`cairo_svg_surface_create_for_stream`, the
/// document unit px, so 1 user unit = 1 pt): destroyed when the value goes away, on every path.
final class CairoSVGSurface {
    let pointer: OpaquePointer
    /// Where Cairo's stream callback appends; held here, so it lives as long as the surface.
    private final class Sink { var bytes: [UInt8] = [] }
    private let sink = Sink()
    /// What the surface wrote so far; the whole document after ``finish()``.
    var bytes: [UInt8] { sink.bytes }

    /// - Parameters: width, height: the document's size (pt).
    /// - Throws: `RasterError` when Cairo cannot create the surface.
    init(width: Double, height: Double) throws {
        let write: cairo_write_func_t = { closure, data, length in
            let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        guard let made = cairo_svg_surface_create_for_stream(write, Unmanaged.passUnretained(sink).toOpaque(), width, height) else {
            throw RasterError(.library, "cairo_svg_surface_create_for_stream failed")
        }
        pointer = made
        cairo_svg_surface_set_document_unit(made, CAIRO_SVG_UNIT_PX)
    }

    /// Finishes the document (Cairo writes its end) and returns the surface's status.
    func finish() -> cairo_status_t {
        cairo_surface_finish(pointer)
        return cairo_surface_status(pointer)
    }

    deinit { cairo_surface_destroy(pointer) }
}
