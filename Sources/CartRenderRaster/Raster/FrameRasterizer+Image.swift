import CartRenderCore
import CCairo
import Foundation

/// `.image` items: SVG documents through librsvg (symbols tinted and emboldened) and raster
/// images as Cairo surfaces, each fitted or filled into its frame.
extension FrameRasterizer {
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
    func svgDocument(_ source: ImageSource, tint: Color?, outline: Double, data: [UInt8], path: String) throws -> SVGDocument {
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

    func rasterSurface(_ source: ImageSource, _ r: ImageLibrary.Raster) throws -> CairoImageSurface {
        if let s = rasterSurfaces[source] { return s }
        let s = try r.withRows { try CairoImageSurface.copying($0) }
        rasterSurfaces[source] = s
        return s
    }
}
