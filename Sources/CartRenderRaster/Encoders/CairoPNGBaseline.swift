import CartRenderCore
import CCairo

extension FrameRasterizer {
    /// The naive route, kept only as a benchmark baseline: draw `list` and write it with
    /// `cairo_surface_write_to_png` (Cairo's own PNG writer with libpng's default settings).
    /// - Throws: `RasterError` when Cairo fails to draw or write.
    public func drawAndWriteWithCairoPNG(_ list: DisplayList, scale: Double, to path: String) throws {
        let w = Int32((list.size.width * scale).rounded()), h = Int32((list.size.height * scale).rounded())
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h) else { throw RasterError(.library, "cairo_image_surface_create failed") }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { throw RasterError(.library, "cairo_create failed") }
        cairo_scale(cr, scale, scale)
        try draw(list, in: cr)
        cairo_destroy(cr)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RasterError(.library, "cairo_surface_write_to_png failed: \(String(cString: cairo_status_to_string(status)))")
        }
    }
}
