import CartRenderCore
import CCairo
import CPango
import Foundation

/// One glyph of a laid-out run, as the animated SVG draws it: its outline, or for a colour glyph
/// its image, and where it goes.
struct PlacedGlyph: Equatable {
    /// The glyph's outline as SVG path data, in points, with the glyph's origin (on its
    /// baseline) at (0, 0); empty for a colour glyph.
    var path: String
    /// A colour glyph (an emoji) drawn as an image; nil for an outline.
    var image: GlyphImage?
    /// Where the glyph's origin goes (pt), relative to the run's origin (its layout box's top-left).
    var x: Double, y: Double
}

/// A colour glyph drawn by Cairo as the PNG frames draw it, at ``pixelsPerPoint``.
struct GlyphImage: Equatable {
    /// Resolution of ``png``: 4 device pixels per point, as sharp as a frame at `--scale 4`.
    static let pixelsPerPoint = 4.0
    /// The image, a PNG of ``box`` at ``pixelsPerPoint``.
    var png: [UInt8]
    /// Where the image goes (pt) relative to the glyph's origin: the glyph's ink extents,
    /// widened to whole pixels of ``pixelsPerPoint``.
    var box: Rect
}

extension TextEngine {
    /// The glyphs of `run` laid out as ``draw(_:in:asOutlines:)`` draws it (the same layout,
    /// ``measuredLayout(of:)``: the lines the PNG shows), relative to the run's origin: each
    /// line where Pango aligns it, its baseline at ``lineMetrics(_:)``'s place in its line; each
    /// glyph at its shaped position, with its outline from its font (Cairo's `cairo_glyph_path`
    /// on the scaled font Pango chose, fallback fonts included). Empty glyphs and the boxes
    /// Pango draws for characters no font has are left out. A colour glyph (an emoji: a bitmap or
    /// colour layers, `cpango_is_colour_glyph`) comes as an image (``colourGlyph(_:font:)``). Outlines are taken at 4 device
    /// pixels per point (``withOutlineContext(_:)``), as ``draw(_:in:asOutlines:)``'s are.
    /// - Throws: `RasterError(.library)` when Cairo fails to draw a colour glyph.
    func glyphs(of run: TextRun) throws -> [PlacedGlyph] {
        FontEnvironment.layoutLock.lock()
        defer { FontEnvironment.layoutLock.unlock() }
        let made = measuredLayout(of: run)
        let unit = Double(PANGO_SCALE)
        var placed: [PlacedGlyph] = []
        var outlines: [String: String] = [:]
        var images: [String: GlyphImage?] = [:]
        var failure: Error?
        withOutlineContext { cr in
            forEachLine(of: made, font: run.font) { line, left, _, baseline in
                var x = left
                var node = line.pointee.runs
                while let current = node {
                    defer { node = current.pointee.next }
                    guard let item = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self).pointee,
                          let glyphs = item.glyphs?.pointee else { continue }
                    let font = item.item?.pointee.analysis.font
                    let scaled = font.flatMap { pango_cairo_font_get_scaled_font(OpaquePointer($0)) }
                    let rise = Double(item.y_offset) / unit
                    for i in 0..<Int(glyphs.num_glyphs) {
                        let info = glyphs.glyphs[i]
                        defer { x += Double(info.geometry.width) / unit }
                        let id = info.glyph
                        // PANGO_GLYPH_EMPTY and PANGO_GLYPH_UNKNOWN_FLAG (macros Swift does not import).
                        guard let font, let scaled, id != 0x0FFF_FFFF, id & 0x1000_0000 == 0 else { continue }
                        let key = "\(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(scaled))))/\(id)"
                        var path = "", image: GlyphImage?
                        if cpango_is_colour_glyph(font, id) != 0 {
                            // Its outline would be its bitmap traced as pixel squares: an image instead.
                            if images[key] == nil {
                                do { images[key] = .some(try Self.colourGlyph(UInt(id), font: scaled)) } catch { failure = failure ?? error; images[key] = .some(nil) }
                            }
                            image = images[key]!
                        } else if let known = outlines[key] {
                            path = known
                        } else {
                            cairo_set_scaled_font(cr, scaled)
                            cairo_new_path(cr)
                            var g = cairo_glyph_t(index: UInt(id), x: 0, y: 0)
                            cairo_glyph_path(cr, &g, 1)
                            path = Self.svgPathData(cr)
                            outlines[key] = path
                        }
                        guard !path.isEmpty || image != nil else { continue }
                        placed.append(PlacedGlyph(path: path, image: image, x: x + Double(info.geometry.x_offset) / unit,
                                                  y: baseline - rise + Double(info.geometry.y_offset) / unit))
                    }
                }
            }
        }
        if let failure { throw failure }
        return placed
    }

    /// Glyph `glyph` of `font` (a scaled font of the layout, in points) drawn alone by Cairo, as
    /// `pango_cairo_show_layout_line` draws it in a frame, on a transparent image of its ink
    /// extents at ``GlyphImage/pixelsPerPoint``; nil when it has no ink (a space).
    static func colourGlyph(_ glyph: UInt, font: OpaquePointer) throws -> GlyphImage? {
        var g = cairo_glyph_t(index: glyph, x: 0, y: 0)
        var ink = cairo_text_extents_t()
        cairo_scaled_font_glyph_extents(font, &g, 1, &ink)
        guard ink.width > 0, ink.height > 0 else { return nil }
        let k = GlyphImage.pixelsPerPoint
        let x0 = (ink.x_bearing * k).rounded(.down), y0 = (ink.y_bearing * k).rounded(.down)
        let x1 = ((ink.x_bearing + ink.width) * k).rounded(.up), y1 = ((ink.y_bearing + ink.height) * k).rounded(.up)
        let surface = try CairoImageSurface(width: Int(x1 - x0), height: Int(y1 - y0))
        try surface.draw("drawing a colour glyph") { cr in
            cairo_translate(cr, -x0, -y0)
            cairo_scale(cr, k, k)
            cairo_set_scaled_font(cr, font)
            cairo_set_source_rgba(cr, 0, 0, 0, 1)
            cairo_show_glyphs(cr, &g, 1)
        }
        let png = try surface.withPixels { try PNGEncoder.encode($0) }
        return GlyphImage(png: png, box: Rect(x: x0 / k, y: y0 / k, width: (x1 - x0) / k, height: (y1 - y0) / k))
    }

    /// The current path of `cr` as SVG path data in its user space (pt), numbers to 1/100 pt.
    static func svgPathData(_ cr: OpaquePointer) -> String {
        guard let path = cairo_copy_path(cr) else { return "" }
        defer { cairo_path_destroy(path) }
        guard path.pointee.status == CAIRO_STATUS_SUCCESS else { return "" }
        func n(_ v: Double) -> String { JSONValue.format(v, decimals: 2) }
        var d = ""
        var i = 0
        guard let data = path.pointee.data else { return "" }
        while i < Int(path.pointee.num_data) {
            let header = data[i].header
            switch header.type {
            case CAIRO_PATH_MOVE_TO:
                d += "M\(n(data[i + 1].point.x)) \(n(data[i + 1].point.y))"
            case CAIRO_PATH_LINE_TO:
                d += "L\(n(data[i + 1].point.x)) \(n(data[i + 1].point.y))"
            case CAIRO_PATH_CURVE_TO:
                d += "C\(n(data[i + 1].point.x)) \(n(data[i + 1].point.y)) \(n(data[i + 2].point.x)) \(n(data[i + 2].point.y)) \(n(data[i + 3].point.x)) \(n(data[i + 3].point.y))"
            case CAIRO_PATH_CLOSE_PATH:
                d += "Z"
            default:
                break
            }
            i += Int(header.length)
        }
        return d
    }
}
