import CartRenderCore
import CCairo
import CPixman
import Foundation

/// `.blur` items: a Gaussian blur of what the items draw, with pixman's separable convolution.
extension FrameRasterizer {
    /// Pixels per point of the image a blurred group becomes in SVG output. Cairo's SVG surface
    /// has no filters, so a `.blur` is drawn as an embedded PNG at this resolution, whatever the
    /// viewer's zoom: 3 px per pt, the @3x of the iPhone presets, is as sharp as the PNG frames
    /// of those devices. (On image surfaces the blur is drawn at the surface's own pixels.)
    static let svgBlurPixelsPerPoint = 3.0

    /// Draws `items` blurred by a Gaussian of standard deviation `radius` (pt, current user
    /// space) at the current transform and clip (`DisplayItem.blur`): the items are drawn into a
    /// cleared image surface covering their bounds grown by 3σ (and no more of the current clip's
    /// extents grown by 3σ), convolved horizontally then vertically with pixman's separable
    /// convolution filter, and composited over what is below with the current clip. A radius of
    /// 0 or less draws the items as they are.
    func drawBlurred(_ items: [DisplayItem], radius: Double, in cr: OpaquePointer) throws {
        guard radius > 0 else {
            for i in items { try draw(i, in: cr) }
            return
        }
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
    func deviceBox(of rect: Rect, in cr: OpaquePointer) -> Rect {
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
}
