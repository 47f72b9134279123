import CartRenderCore
import CCairo

/// `.fill` and `.stroke` items: shapes as Cairo paths, and paints (colors, linear gradients).
extension FrameRasterizer {
    /// Fills `shape` with `paint` (`.fill`), hard-edged when it is a rectangle kept axis-aligned.
    func fill(_ shape: Shape, _ paint: Paint, in cr: OpaquePointer) {
        path(shape, in: cr)
        setPaint(paint, in: cr)
        withHardEdges(for: shape, in: cr) { cairo_fill(cr) }
    }

    /// Strokes `shape` with `paint`, `lineWidth` pt wide (`.stroke`).
    func stroke(_ shape: Shape, _ paint: Paint, lineWidth: Double, in cr: OpaquePointer) {
        path(shape, in: cr)
        setPaint(paint, in: cr)
        cairo_set_line_width(cr, lineWidth)
        cairo_stroke(cr)
    }

    /// Runs `body` (a fill or clip of `shape`'s path) without antialiasing when `shape` is a
    /// `.rect` that the current transform keeps axis-aligned (`Shape.rect`); otherwise as is.
    func withHardEdges(for shape: Shape, in cr: OpaquePointer, _ body: () -> Void) {
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

    func roundedRect(_ r: Rect, radius: Double, in cr: OpaquePointer) {
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
}
