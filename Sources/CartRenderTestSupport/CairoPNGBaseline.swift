import CartRender
import CartRenderCore
import CartRenderRaster
import CCairo

extension FrameWorker {
    /// The naive route, kept only as a benchmark baseline: draws `display` at the scene's scale
    /// and writes it with `cairo_surface_write_to_png` (Cairo's own PNG writer with libpng's
    /// default settings) instead of cartrender's striped encoder.
    /// - Throws: `RasterError` when Cairo fails to draw or write.
    public func drawAndWriteWithCairoPNG(_ display: DisplayList, to path: String) throws {
        try withPixels(display) { rows in try CairoPNGBaseline.write(rows, to: path) }
    }
}

/// Writes Cairo ARGB32 rows with `cairo_surface_write_to_png`.
enum CairoPNGBaseline {
    /// - Precondition: `rows` are premultiplied ARGB32 with a stride Cairo accepts for their width.
    /// - Throws: `RasterError(.library)` naming Cairo's reason.
    static func write(_ rows: PixelRows, to path: String) throws {
        precondition(rows.format == .premultipliedARGB32, "cairo_surface_write_to_png writes Cairo ARGB32 rows")
        // Cairo only reads the pixels while writing; the surface borrows them for the call.
        let data = UnsafeMutablePointer(mutating: rows.base.assumingMemoryBound(to: UInt8.self))
        guard let surface = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, Int32(rows.width), Int32(rows.height), Int32(rows.stride)) else {
            throw RasterError(.library, "cairo_image_surface_create_for_data failed")
        }
        defer { cairo_surface_destroy(surface) }
        var status = cairo_surface_status(surface)
        if status == CAIRO_STATUS_SUCCESS { status = cairo_surface_write_to_png(surface, path) }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RasterError(.library, "cairo_surface_write_to_png failed for \(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}
