import CartRenderCore
import CCairo
import CPango
import Foundation

/// One glyph of a laid-out run, as the animated SVG draws it: its outline and where it goes.
struct PlacedGlyph: Equatable {
    /// The glyph's outline as SVG path data, in points, with the glyph's origin (on its
    /// baseline) at (0, 0).
    var path: String
    /// Where the glyph's origin goes (pt), relative to the run's origin (its layout box's top-left).
    var x: Double, y: Double
}

extension TextEngine {
    /// The glyphs of `run` laid out as ``draw(_:in:asOutlines:)`` draws it (the same layout,
    /// ``measuredLayout(of:)``: the lines the PNG shows), relative to the run's origin: each
    /// line where Pango aligns it, its baseline at ``lineMetrics(_:)``'s place in its line; each
    /// glyph at its shaped position, with its outline from its font (Cairo's `cairo_glyph_path`
    /// on the scaled font Pango chose, fallback fonts included). Empty glyphs and the boxes
    /// Pango draws for characters no font has are left out; colour glyphs (emoji) have no
    /// outline and come out empty. Outlines are taken at 4 device pixels per point
    /// (``withOutlineContext(_:)``), as ``draw(_:in:asOutlines:)``'s are.
    func glyphs(of run: TextRun) -> [PlacedGlyph] {
        FontEnvironment.layoutLock.lock()
        defer { FontEnvironment.layoutLock.unlock() }
        let made = measuredLayout(of: run)
        let unit = Double(PANGO_SCALE)
        var placed: [PlacedGlyph] = []
        var outlines: [String: String] = [:]
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
                        guard let scaled, id != 0x0FFF_FFFF, id & 0x1000_0000 == 0 else { continue }
                        let key = "\(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(scaled))))/\(id)"
                        let path: String
                        if let known = outlines[key] {
                            path = known
                        } else {
                            cairo_set_scaled_font(cr, scaled)
                            cairo_new_path(cr)
                            var g = cairo_glyph_t(index: UInt(id), x: 0, y: 0)
                            cairo_glyph_path(cr, &g, 1)
                            path = Self.svgPathData(cr)
                            outlines[key] = path
                        }
                        guard !path.isEmpty else { continue }
                        placed.append(PlacedGlyph(path: path, x: x + Double(info.geometry.x_offset) / unit,
                                                  y: baseline - rise + Double(info.geometry.y_offset) / unit))
                    }
                }
            }
        }
        return placed
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
