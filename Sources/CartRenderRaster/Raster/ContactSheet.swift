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
        let sheet = try CairoImageSurface(width: width, height: height)
        try sheet.draw("drawing the contact sheet") { cr in
            let background = Look.secondaryBackground.resolved(dark ? .dark : .light)
            cairo_set_source_rgb(cr, background.red, background.green, background.blue)
            cairo_paint(cr)
            let font = FontSpec(size: 15, weight: .medium)
            let label = Look.label.resolved(dark ? .dark : .light)
            for (i, cell) in cells.enumerated() {
                let x = gap + Double(i % cols) * (cw + gap), y = gap + Double(i / cols) * (ch + captionHeight + gap)
                let thumb = try CairoImageSurface.copying(cell.image)
                cairo_save(cr)
                path(.roundedRect(Rect(x: x, y: y, width: cw, height: ch), radius: 12), in: cr)
                cairo_clip(cr)
                // The source pattern holds its own reference to the thumbnail's surface.
                cairo_set_source_surface(cr, thumb.pointer, x, y)
                cairo_paint(cr)
                cairo_restore(cr)
                path(.roundedRect(Rect(x: x + 0.5, y: y + 0.5, width: cw - 1, height: ch - 1), radius: 12), in: cr)
                cairo_set_source_rgba(cr, 0.5, 0.5, 0.55, 0.35)
                cairo_set_line_width(cr, 1)
                cairo_stroke(cr)
                let size = measure(cell.caption, font: font, maxWidth: nil)
                text.draw(TextRun(cell.caption, font: font, color: label, origin: Point(x: x + (cw - size.width) / 2, y: y + ch + (captionHeight - size.height) / 2 + 4)), in: cr)
            }
        }
        return sheet.image
    }
}
