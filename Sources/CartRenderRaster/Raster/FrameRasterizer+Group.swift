import CartRenderCore
import CCairo

/// `.group` items: transform, clip and opacity around the items they hold.
extension FrameRasterizer {
    /// Draws a `.group`: `items` under `transform`, clipped to `clip`, faded to `opacity`
    /// through an intermediate surface no larger than what the items can touch. Text under a
    /// transform that is more than a translation is drawn as outlines (``scaledGroups``).
    func drawGroup(_ items: [DisplayItem], transform t: AffineTransform, opacity: Double, clip: Shape?, in cr: OpaquePointer) throws {
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
    }
}
