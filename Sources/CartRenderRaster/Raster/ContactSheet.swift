import CartRenderCore
import CCairo
import Foundation

extension FrameRasterizer {
    /// Draws a contact sheet: `cells` (thumbnails with a caption each, in order) in a grid of
    /// `columns`, each caption centered under its thumbnail. Units are pixels; thumbnails are
    /// drawn at their own size.
    /// - Throws: `RasterError` when Cairo fails.
    public func contactSheet(_ cells: [(image: RGBAImage, caption: String)], columns: Int, dark: Bool) throws -> RGBAImage {
        guard let first = cells.first else { return RGBAImage(width: 1, height: 1) }
        let gap = 24.0, captionHeight = 28.0
        let cols = max(1, min(columns, cells.count))
        let rows = (cells.count + cols - 1) / cols
        let cw = Double(first.image.width), ch = Double(first.image.height)
        let width = Int(gap + Double(cols) * (cw + gap)), height = Int(gap + Double(rows) * (ch + captionHeight + gap))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw RasterError(.library, "cairo_image_surface_create failed")
        }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { throw RasterError(.library, "cairo_create failed") }
        defer { cairo_destroy(cr) }
        let background = Look.secondaryBackground.resolved(dark ? .dark : .light)
        cairo_set_source_rgb(cr, background.red, background.green, background.blue)
        cairo_paint(cr)
        let font = FontSpec(size: 15, weight: .medium)
        let label = Look.label.resolved(dark ? .dark : .light)
        for (i, cell) in cells.enumerated() {
            let x = gap + Double(i % cols) * (cw + gap), y = gap + Double(i / cols) * (ch + captionHeight + gap)
            let thumb = try Self.cairoSurface(cell.image)
            defer { cairo_surface_destroy(thumb) }
            cairo_save(cr)
            path(.roundedRect(Rect(x: x, y: y, width: cw, height: ch), radius: 12), in: cr)
            cairo_clip(cr)
            cairo_set_source_surface(cr, thumb, x, y)
            cairo_paint(cr)
            cairo_restore(cr)
            path(.roundedRect(Rect(x: x + 0.5, y: y + 0.5, width: cw - 1, height: ch - 1), radius: 12), in: cr)
            cairo_set_source_rgba(cr, 0.5, 0.5, 0.55, 0.35)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            let size = measure(cell.caption, font: font, maxWidth: nil)
            text.draw(TextRun(cell.caption, font: font, color: label, origin: Point(x: x + (cw - size.width) / 2, y: y + ch + (captionHeight - size.height) / 2 + 4)), in: cr)
        }
        cairo_surface_flush(surface)
        try checkStatus(cairo_status(cr), "drawing the contact sheet")
        return RGBAImage(PixelRows(surface: surface))
    }

    /// A Cairo surface holding `image` (straight RGBA → premultiplied ARGB32); the caller destroys it.
    static func cairoSurface(_ image: RGBAImage) throws -> OpaquePointer {
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height)) else {
            throw RasterError(.library, "cairo_image_surface_create failed")
        }
        cairo_surface_flush(s)
        let stride = Int(cairo_image_surface_get_stride(s))
        let dst = UnsafeMutableRawPointer(cairo_image_surface_get_data(s)!)
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<image.height {
                let row = dst.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<image.width {
                    let i = (y * image.width + x) * 4
                    let a = UInt32(src[i + 3])
                    func pm(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                    row[x] = (a << 24) | (pm(src[i]) << 16) | (pm(src[i + 1]) << 8) | pm(src[i + 2])
                }
            }
        }
        cairo_surface_mark_dirty(s)
        return s
    }
}
