import CartRenderCore
import CCairo

/// The canvas kept from frame to frame (one per worker) and its damage: only the rows a new
/// display list changes are redrawn, with the items that reach them.
extension FrameRasterizer {
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

    /// This worker's image surface of `width × height` px, kept between frames: creating a
    /// 12 MB surface per frame costs more in page faults than drawing the frame.
    func canvas(width: Int, height: Int) throws -> CairoImageSurface {
        if let c = reusableCanvas, c.width == width, c.height == height { return c }
        reusableCanvas = nil
        canvasContent = nil
        let surface = try CairoImageSurface(width: width, height: height)
        reusableCanvas = surface
        return surface
    }

    /// Whether an item whose bounds are `rect` (pt, in `cr`'s user space) can reach the damage
    /// being redrawn: always when the whole frame is drawn.
    func reachesDamage(_ rect: Rect?, in cr: OpaquePointer) -> Bool {
        guard let cull else { return true }
        guard let rect else { return false }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let device = rect.applying(AffineTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0))
        let margin = Double(Self.damageMargin)
        return device.minY - margin < Double(cull.upperBound) && Double(cull.lowerBound) < device.maxY + margin
    }
}
