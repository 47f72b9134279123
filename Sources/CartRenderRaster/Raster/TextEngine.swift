import CartRenderCore
import CCairo
import CPango

/// Text layout and drawing with Pango over the confined fonts. One per worker: Pango font maps
/// and contexts are not shared between threads.
///
/// Layout is resolution-independent: hinting is off and glyph positions are not rounded, so a
/// text measures the same in points at every scale and in every output format.
final class TextEngine: TextMeasuring {
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer  // PangoContext *
    private let fontOptions: OpaquePointer  // cairo_font_options_t *
    private var cache: [Key: Size] = [:]
    /// Glyph outlines of runs drawn under a scaling transform (see `draw(_:in:asOutlines:)`), in
    /// points relative to the run's origin; at most `outlineCacheLimit` of them.
    private var outlines: [OutlineKey: UnsafeMutablePointer<cairo_path_t>] = [:]
    private static let outlineCacheLimit = 512
    /// The 1 × 1 px surface that outlines are laid out on (its pixels are never drawn).
    private let scratch: CairoImageSurface

    private struct OutlineKey: Hashable {
        var text: String
        var font: FontSpec
        var maxWidth: Double?
        var maxLines: Int?
        var alignment: TextRun.Alignment
    }

    private struct Key: Hashable {
        var text: String
        var font: FontSpec
        var maxWidth: Double?
        var maxLines: Int?
    }

    init(fonts: FontEnvironment) throws {
        scratch = try CairoImageSurface(width: 1, height: 1, format: .a8)
        guard let fm = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else {
            throw RasterError(.library, "Pango could not create a FreeType font map")
        }
        fontMap = fm
        pango_fc_font_map_set_config(OpaquePointer(fm), fonts.config)
        guard let ctx = pango_font_map_create_context(fm) else {
            g_object_unref(fm)
            throw RasterError(.library, "Pango could not create a context")
        }
        context = ctx
        guard let opts = cairo_font_options_create() else { throw RasterError(.library, "cairo_font_options_create failed") }
        cairo_font_options_set_hint_style(opts, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(opts, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(opts, CAIRO_ANTIALIAS_GRAY)
        fontOptions = opts
        pango_cairo_context_set_font_options(ctx, opts)
        pango_context_set_round_glyph_positions(ctx, 0)
    }

    deinit {
        for p in outlines.values { cairo_path_destroy(p) }
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(fontMap)
        cairo_font_options_destroy(fontOptions)
    }

    private var pangoContext: OpaquePointer { context }

    /// A Pango layout for a run; the caller unrefs it.
    private func layout(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?, alignment: TextRun.Alignment) -> OpaquePointer {
        let layout = pango_layout_new(pangoContext)!
        let desc = pango_font_description_new()!
        defer { pango_font_description_free(desc) }
        pango_font_description_set_family(desc, font.family)
        pango_font_description_set_weight(desc, PangoWeight(rawValue: UInt32(font.weight.rawValue)))
        pango_font_description_set_absolute_size(desc, font.size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, desc)
        pango_layout_set_text(layout, text, -1)
        // A word too long for its line breaks between characters without a hyphen, as iOS text
        // does by default (Pango would insert one).
        let attrs = pango_attr_list_new()
        pango_attr_list_insert(attrs, pango_attr_insert_hyphens_new(0))
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)
        if let w = maxWidth {
            pango_layout_set_width(layout, Int32((w * Double(PANGO_SCALE)).rounded()))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            switch alignment {
            case .leading: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
            case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
            case .trailing: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
            }
            if let n = maxLines {
                // A negative height is a number of lines.
                pango_layout_set_height(layout, -Int32(max(1, min(n, 10_000))))
                pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            }
        }
        return layout
    }

    func measure(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?) -> Size {
        FontEnvironment.layoutLock.lock()
        defer { FontEnvironment.layoutLock.unlock() }
        let key = Key(text: text, font: font, maxWidth: maxWidth, maxLines: maxLines)
        if let s = cache[key] { return s }
        pango_context_set_matrix(pangoContext, nil)
        let l = layout(text, font: font, maxWidth: maxWidth, maxLines: maxLines, alignment: .leading)
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        var logical = PangoRectangle()
        pango_layout_get_extents(l, nil, &logical)
        let size = Size(width: Double(logical.width) / Double(PANGO_SCALE), height: Double(logical.height) / Double(PANGO_SCALE))
        cache[key] = size
        return size
    }

    /// Draws a run with its layout box's top-left at `run.origin` (pt, in `cr`'s user space).
    ///
    /// With `asOutlines` (text inside a group that scales, such as the bumping badge) the run's
    /// glyph outlines are filled instead: taken once at a fixed resolution and cached, they are
    /// the same shapes at every scale. Drawing glyphs at each new scale would make Cairo and
    /// Pango create and cache a font per scale — memory that grows with the number of frames.
    /// Colour glyphs (emoji) have no outlines and are not drawn this way; the screens scale only
    /// the badge's number.
    func draw(_ run: TextRun, in cr: OpaquePointer, asOutlines: Bool = false) {
        FontEnvironment.layoutLock.lock()
        defer { FontEnvironment.layoutLock.unlock() }
        if asOutlines {
            let path = outline(of: run)
            cairo_save(cr)
            cairo_translate(cr, run.origin.x, run.origin.y)
            cairo_new_path(cr)
            cairo_append_path(cr, path)
            cairo_set_source_rgba(cr, run.color.red, run.color.green, run.color.blue, run.color.alpha)
            cairo_fill(cr)
            cairo_restore(cr)
            return
        }
        pango_cairo_update_context(cr, pangoContext)
        let l = layout(run.text, font: run.font, maxWidth: run.maxWidth, maxLines: run.maxLines, alignment: run.alignment)
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        cairo_save(cr)
        cairo_set_source_rgba(cr, run.color.red, run.color.green, run.color.blue, run.color.alpha)
        cairo_move_to(cr, run.origin.x, run.origin.y)
        pango_cairo_show_layout(cr, l)
        cairo_restore(cr)
    }

    /// The glyph outlines of `run` laid out at its origin (0, 0), in points: made on a scratch
    /// context with 4 device pixels per point (1/256 pt precision), whatever the frame's state.
    private func outline(of run: TextRun) -> UnsafeMutablePointer<cairo_path_t> {
        let key = OutlineKey(text: run.text, font: run.font, maxWidth: run.maxWidth, maxLines: run.maxLines, alignment: run.alignment)
        if let p = outlines[key] { return p }
        if outlines.count >= Self.outlineCacheLimit {
            for p in outlines.values { cairo_path_destroy(p) }
            outlines.removeAll()
        }
        let cr = cairo_create(scratch.pointer)
        defer { cairo_destroy(cr) }
        cairo_scale(cr, 4, 4)
        pango_cairo_update_context(cr, pangoContext)
        let l = layout(run.text, font: run.font, maxWidth: run.maxWidth, maxLines: run.maxLines, alignment: run.alignment)
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        cairo_move_to(cr, 0, 0)
        pango_cairo_layout_path(cr, l)
        let path = cairo_copy_path(cr)!
        outlines[key] = path
        return path
    }
}
