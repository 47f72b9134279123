import CartRenderCore
import CCairo
import CPango

/// Text layout and drawing with Pango over the confined fonts. One per worker: Pango font maps
/// and contexts are not shared between threads.
///
/// Layout is resolution-independent: hinting is off and glyph positions are not rounded, so a
/// text measures the same in points at every scale and in every output format.
///
/// Layout takes time linear in the text's length. Pango, breaking a word too long for its line
/// between characters, shapes the rest of the word again for every line it fills (a
/// 10,000-character word took seconds). So a run of more than `longRunCharacters` characters with
/// no line break opportunity is first broken into lines on its own (Pango's character wrapping of
/// that run, at the same width and font), and the layout is told to start a new item at each of
/// those line starts (`pieceStarts`): each line of the word is then shaped once, as Pango shapes
/// the pieces of a broken word anyway. Texts without such runs are laid out exactly as before.
///
/// Lines are placed by the font's line height, not by the fonts that draw them
/// (`lineMetrics(_:)`): a text of n lines is n × `FontSpec.lineHeight` tall (the text style's
/// line height of the Human Interface Guidelines in the system family, the font's own
/// ascent + descent + line gap otherwise), each line's baseline at the same place in its line,
/// the font's ascent–descent box centered in the line. A fallback font with a taller line
/// (Noto Sans Arabic, an emoji) draws on that baseline without making its line taller. The
/// system family also takes SF Pro's tracking (`FontSpec.tracking`), added between characters.
///
/// A one-line run (`maxLines: 1`) too wide for its `maxWidth` is cut at its tail in reading order
/// with "…" (`tailTruncated(_:font:width:direction:)`) and laid out as that text: measured and
/// drawn alike, aligned in its width like any line. Runs of more lines use Pango's end ellipsis
/// on their last line.
final class TextEngine: TextMeasuring {
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer  // PangoContext *
    private let fontOptions: OpaquePointer  // cairo_font_options_t *
    private var cache: [Key: Size] = [:]
    /// `lineMetrics` by font (at most `outlineCacheLimit` of them).
    private var metrics: [FontSpec: LineMetrics] = [:]
    /// `pieceStarts` of texts longer than `longRunCharacters`, by text, font and width (at most
    /// `outlineCacheLimit` of them).
    private var pieces: [Key: [Int32]] = [:]
    /// Longest run without a line break opportunity that Pango breaks by itself: its cost grows
    /// with the square of a run's length, negligible at this length.
    static let longRunCharacters = 64
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
        var direction: LayoutDirection
    }

    /// Where a font's lines go: each is `height` pt tall with its baseline `baseline` pt below its top.
    struct LineMetrics: Equatable {
        /// Line height (pt): the distance between two baselines.
        var height: Double
        /// Distance (pt) from a line's top to its baseline.
        var baseline: Double
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

    /// A Pango layout for a run whose items also end at the UTF-8 byte offsets `newItemsAt`
    /// (ascending, inside the text): each offset starts a range with an attribute that changes
    /// nothing drawn (font fallback on, Pango's default) but ends an item.
    ///
    /// The paragraph direction is natural (UIKit's `NSWritingDirection.natural`): each
    /// paragraph's comes from its first strong character (Pango's automatic direction; a
    /// left-to-right mark counts), and is the layout's direction for a paragraph with none
    /// (digits, punctuation: the context's weak base direction). "AirPods (2nd gen)!" in an
    /// Arabic layout is a left-to-right paragraph, its "!" at its end. Alignment follows the
    /// layout's direction, not the paragraph's: `.leading` is the left edge left to right and
    /// the right edge right to left (SwiftUI's `TextAlignment`). Pango swaps left and right for
    /// a paragraph against the context's direction, so the alignment is swapped back for the
    /// first paragraph's direction (a later paragraph of the other direction is aligned to the
    /// other edge). The base direction is set for every layout made, before it is made: a
    /// layout lays out again when its context changes.
    func layout(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?, alignment: TextRun.Alignment,
                direction: LayoutDirection = .leftToRight, newItemsAt starts: [Int32]) -> PangoLayout {
        if maxLines == 1, let w = maxWidth, let cut = tailTruncated(text, font: font, width: w, direction: direction) {
            return layout(cut, font: font, maxWidth: w, maxLines: nil, alignment: alignment, direction: direction, newItemsAt: [])
        }
        let rightToLeft = direction.isRightToLeft
        pango_context_set_base_dir(pangoContext, rightToLeft ? PANGO_DIRECTION_WEAK_RTL : PANGO_DIRECTION_WEAK_LTR)
        let made = PangoLayout(pango_layout_new(pangoContext)!)
        let layout = made.pointer
        let desc = Self.description(font)
        defer { pango_font_description_free(desc) }
        pango_layout_set_font_description(layout, desc)
        pango_layout_set_text(layout, text, -1)
        // A word too long for its line breaks between characters without a hyphen, as iOS text
        // does by default (Pango would insert one).
        let attrs = pango_attr_list_new()
        pango_attr_list_insert(attrs, pango_attr_insert_hyphens_new(0))
        if font.tracking != 0 {
            pango_attr_list_insert(attrs, pango_attr_letter_spacing_new(Int32((font.tracking * Double(PANGO_SCALE)).rounded())))
        }
        for (i, start) in starts.enumerated() {
            let attr = pango_attr_fallback_new(1)!
            attr.pointee.start_index = guint(start)
            attr.pointee.end_index = i + 1 < starts.count ? guint(starts[i + 1]) : guint.max  // PANGO_ATTR_INDEX_TO_TEXT_END
            pango_attr_list_insert(attrs, attr)
        }
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)
        if let w = maxWidth {
            pango_layout_set_width(layout, Int32((w * Double(PANGO_SCALE)).rounded()))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            // Pango swaps left and right for a paragraph whose direction is against the
            // context's: swapped here first, so that the alignment follows the layout's direction.
            // The first paragraph's direction is found as Pango finds it, from its text alone:
            // asking the layout for its first line would break it into lines once here and
            // again after the alignment is set.
            let against = Self.firstParagraphDirection(text) == (rightToLeft ? PANGO_DIRECTION_LTR : PANGO_DIRECTION_RTL)
            let leftEdge = rightToLeft == against
            switch alignment {
            case .leading: pango_layout_set_alignment(layout, leftEdge ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT)
            case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
            case .trailing: pango_layout_set_alignment(layout, leftEdge ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT)
            }
            if let n = maxLines {
                // A negative height is a number of lines.
                pango_layout_set_height(layout, -Int32(max(1, min(n, 10_000))))
                pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            }
        }
        return made
    }

    /// The direction of `text`'s first paragraph as a layout with automatic direction resolves
    /// it: its first strong character's (Pango's own rule, `pango_find_base_dir`) or, when it
    /// has none, the first strong character's of the whole text (a layout starts with that
    /// direction and carries it into neutral paragraphs) — so the first strong character of
    /// the whole text either way; `PANGO_DIRECTION_NEUTRAL` when the text has none (the layout
    /// then takes the context's base direction).
    /// - Complexity: O(n) in the text's length, with no shaping or line breaking.
    static func firstParagraphDirection(_ text: String) -> PangoDirection {
        cpango_first_strong_direction(text, -1)
    }

    /// The Pango font description of a font (family name, weight, absolute size); the caller frees it.
    private static func description(_ font: FontSpec) -> OpaquePointer {
        let desc = pango_font_description_new()!
        pango_font_description_set_family(desc, font.familyName)
        pango_font_description_set_weight(desc, PangoWeight(rawValue: UInt32(font.weight.rawValue)))
        pango_font_description_set_absolute_size(desc, font.size * Double(PANGO_SCALE))
        return desc
    }

    /// Where `font`'s lines go: `font.lineHeight` tall, or the font's own ascent + descent +
    /// line gap (Pango's metrics of the font the description selects: Inter, Jost, a scene's),
    /// and the baseline that centers the font's ascent–descent box in that height — half the
    /// extra leading above the line, half below, as Pango's own line-height attribute and CSS
    /// place it (docs/motion-and-look.md, “Line height and tracking”, on what is known of iOS).
    /// Measured with the context untransformed whatever the frame's scale; cached.
    func lineMetrics(_ font: FontSpec) -> LineMetrics {
        if let m = metrics[font] { return m }
        let saved = pango_context_get_matrix(pangoContext).map { pango_matrix_copy($0) }
        pango_context_set_matrix(pangoContext, nil)
        defer {
            if let saved { pango_context_set_matrix(pangoContext, saved); pango_matrix_free(saved) }
        }
        let desc = Self.description(font)
        defer { pango_font_description_free(desc) }
        let scale = Double(PANGO_SCALE)
        var ascent = font.size, descent = 0.0, natural = font.size
        if let loaded = pango_font_map_load_font(fontMap, pangoContext, desc) {
            if let m = pango_font_get_metrics(loaded, pango_language_from_string("en")) {
                ascent = Double(pango_font_metrics_get_ascent(m)) / scale
                descent = Double(pango_font_metrics_get_descent(m)) / scale
                // Pango's height is 0 for a font whose metrics do not give it: ascent + descent then.
                let height = Double(pango_font_metrics_get_height(m)) / scale
                natural = height > 0 ? height : ascent + descent
                pango_font_metrics_unref(m)
            }
            g_object_unref(UnsafeMutableRawPointer(loaded))
        }
        let height = font.lineHeight ?? natural
        let m = LineMetrics(height: height, baseline: ascent + (height - ascent - descent) / 2)
        if metrics.count >= Self.outlineCacheLimit { metrics.removeAll() }
        metrics[font] = m
        return m
    }

    /// A one-line text too wide for `width` pt cut at its tail in reading order: the longest
    /// prefix of whole characters (trailing spaces dropped) that fits with "…" after it; nil
    /// when the text fits. This is SwiftUI's `.lineLimit(1)` with `.truncationMode(.tail)`: the
    /// end of the text goes, whatever its direction. Pango's own end ellipsis removes the visual
    /// end of the line instead — in a right-to-left amount (`١٢٫٥٠ ر.س.`) the currency and the
    /// start of the number, leaving its last digits — and widens "…" to fill what it removed, so
    /// that a truncated line could not be aligned to its trailing edge.
    /// - Complexity: O(n log n) in the text's length (a binary search of layouts).
    func tailTruncated(_ text: String, font: FontSpec, width: Double, direction: LayoutDirection) -> String? {
        func fits(_ s: String) -> Bool {
            let made = layout(s, font: font, maxWidth: nil, maxLines: nil, alignment: .leading, direction: direction, newItemsAt: [])
            defer { withExtendedLifetime(made) {} }
            let l = made.pointer
            var logical = PangoRectangle()
            pango_layout_get_extents(l, nil, &logical)
            return Double(logical.width) / Double(PANGO_SCALE) <= width
        }
        guard !fits(text) else { return nil }
        let characters = Array(text)
        func candidate(_ k: Int) -> String {
            String(String(characters[0..<k]).reversed().drop { $0.isWhitespace }.reversed()) + "…"
        }
        // The largest k whose candidate fits (0: "…" alone, drawn only where it fits: see the layout).
        var lo = 0, hi = characters.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if fits(candidate(mid)) { lo = mid } else { hi = mid - 1 }
        }
        return candidate(lo)
    }

    /// The UTF-8 byte offsets of the lines of each run of more than `longRunCharacters`
    /// characters without a line break opportunity in `text`, when it is broken at `maxWidth` pt
    /// between characters on its own (the first line of each run excluded); empty when the text
    /// has no such run. Cached for long texts.
    /// - Complexity: O(n) in the text's length.
    func pieceStarts(_ text: String, font: FontSpec, maxWidth: Double) -> [Int32] {
        let scalars = text.unicodeScalars.count
        guard scalars > Self.longRunCharacters else { return [] }
        let key = Key(text: text, font: font, maxWidth: maxWidth, maxLines: nil)
        if let p = pieces[key] { return p }
        let bytes = Array(text.utf8)
        // Byte offset of every character, and one past the end.
        var offsets: [Int32] = []
        offsets.reserveCapacity(scalars + 1)
        for (i, b) in bytes.enumerated() where b & 0xC0 != 0x80 { offsets.append(Int32(i)) }
        offsets.append(Int32(bytes.count))
        var attrs = [PangoLogAttr](repeating: PangoLogAttr(), count: offsets.count)
        pango_get_log_attrs(text, Int32(bytes.count), -1, pango_context_get_language(pangoContext), &attrs, Int32(attrs.count))
        var starts: [Int32] = []
        var runStart = 0
        for i in 1...scalars where attrs[i].is_line_break != 0 || attrs[i].is_mandatory_break != 0 || i == scalars {
            if i - runStart > Self.longRunCharacters {
                let a = Int(offsets[runStart]), b = Int(offsets[i])
                let run = String(decoding: bytes[a..<b], as: UTF8.self)
                let made = layout(run, font: font, maxWidth: maxWidth, maxLines: nil, alignment: .leading, newItemsAt: [])
                let l = made.pointer
                pango_layout_set_wrap(l, PANGO_WRAP_CHAR)
                var line = pango_layout_get_lines_readonly(l)?.pointee.next
                while let node = line {
                    let start = node.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self).pointee.start_index
                    if start > 0 { starts.append(Int32(a) + start) }
                    line = node.pointee.next
                }
                withExtendedLifetime(made) {}
            }
            runStart = i
        }
        if pieces.count >= Self.outlineCacheLimit { pieces.removeAll() }
        pieces[key] = starts
        return starts
    }

    func measure(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?) -> Size {
        FontEnvironment.layoutLock.lock()
        defer { FontEnvironment.layoutLock.unlock() }
        let key = Key(text: text, font: font, maxWidth: maxWidth, maxLines: maxLines)
        if let s = cache[key] { return s }
        pango_context_set_matrix(pangoContext, nil)
        let size = self.size(text, font: font, maxWidth: maxWidth, maxLines: maxLines,
                             newItemsAt: maxWidth.map { pieceStarts(text, font: font, maxWidth: $0) } ?? [])
        cache[key] = size
        return size
    }

    func firstBaseline(_ text: String, font: FontSpec) -> Double {
        FontEnvironment.layoutLock.lock()
        defer { FontEnvironment.layoutLock.unlock() }
        return lineMetrics(font).baseline
    }

    /// The logical size (pt) of `text` laid out with items also ending at the UTF-8 byte
    /// offsets `newItemsAt` (see `layout(_:font:maxWidth:maxLines:alignment:newItemsAt:)`): the
    /// widest line's width, and the number of lines times the font's line height.
    func size(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?, newItemsAt starts: [Int32]) -> Size {
        let made = layout(text, font: font, maxWidth: maxWidth, maxLines: maxLines, alignment: .leading, newItemsAt: starts)
        defer { withExtendedLifetime(made) {} }
        let l = made.pointer
        var logical = PangoRectangle()
        pango_layout_get_extents(l, nil, &logical)
        let lines = Double(pango_layout_get_line_count(l))
        return Size(width: Double(logical.width) / Double(PANGO_SCALE), height: lines * lineMetrics(font).height)
    }

    /// Calls `body` with each line of `layout`, top to bottom: the line, its left edge and
    /// width (pt, its logical extents) where its alignment puts it, and its baseline (pt below
    /// the layout's top) at `lineMetrics(font)`'s place in its line. The one walk of a layout's
    /// lines that drawing, `drawnLines(_:)` and the animated SVG's `glyphs(of:)` share.
    func forEachLine(of layout: PangoLayout, font: FontSpec,
                     _ body: (_ line: UnsafeMutablePointer<PangoLayoutLine>, _ x: Double, _ width: Double, _ baseline: Double) -> Void) {
        let m = lineMetrics(font)
        guard let iter = pango_layout_get_iter(layout.pointer) else { return }
        defer { pango_layout_iter_free(iter) }
        var index = 0.0
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            if let line = pango_layout_iter_get_line_readonly(iter) {
                body(line, Double(logical.x) / Double(PANGO_SCALE), Double(logical.width) / Double(PANGO_SCALE), index * m.height + m.baseline)
            }
            index += 1
        } while pango_layout_iter_next_line(iter) != 0
    }

    /// Draws (or, with `asPath`, adds to the current path) each line of `layout` with its left
    /// edge where Pango aligns it and its baseline at `lineMetrics(font)`'s place in its line,
    /// the first line's top at `y`.
    private func showLines(_ layout: PangoLayout, font: FontSpec, x: Double, y: Double, in cr: OpaquePointer, asPath: Bool) {
        forEachLine(of: layout, font: font) { line, left, _, baseline in
            cairo_move_to(cr, x + left, y + baseline)
            if asPath { pango_cairo_layout_line_path(cr, line) } else { pango_cairo_show_layout_line(cr, line) }
        }
    }

    /// The layout `measure` makes of `run`'s text at its width and line limit, with the same
    /// pieces (`pieceStarts`), in the same untransformed context: the lines a run draws are the
    /// lines its layout measured, at every scale. (A layout made in the frame's transform, with
    /// fonts loaded at the device size, could break its lines elsewhere than the layout that
    /// sized its box.) Cairo still renders the glyphs at the device's resolution: it scales
    /// the fonts by its own transform when it shows them.
    func measuredLayout(of run: TextRun) -> PangoLayout {
        pango_context_set_matrix(pangoContext, nil)
        let starts = run.maxWidth.map { pieceStarts(run.text, font: run.font, maxWidth: $0) } ?? []
        return layout(run.text, font: run.font, maxWidth: run.maxWidth, maxLines: run.maxLines, alignment: run.alignment, direction: run.direction,
                      newItemsAt: starts)
    }

    /// One line `draw(_:in:asOutlines:)` draws: its text, where it starts and its direction.
    struct DrawnLine: Equatable {
        /// The text the line holds (a one-line run cut by `tailTruncated` ends in "…"; a line
        /// Pango ellipsizes gives the whole text it stands for).
        var text: String
        /// The line's left edge (pt) from the run's origin, where its alignment puts it.
        var x: Double
        /// The line's width (pt).
        var width: Double
        /// The line's paragraph direction (resolved from its first strong character).
        var direction: LayoutDirection
        /// The left edge (pt, from the run's origin) and width of the line's ink: where its
        /// glyphs draw, which may reach past its logical extents (`x`, `width`) or fall short.
        var inkX: Double = 0, inkWidth: Double = 0
    }

    /// The lines `draw(_:in:asOutlines:)` draws for `run`, top to bottom.
    func drawnLines(_ run: TextRun) -> [DrawnLine] {
        FontEnvironment.layoutLock.lock()
        defer { FontEnvironment.layoutLock.unlock() }
        let made = measuredLayout(of: run)
        guard let text = pango_layout_get_text(made.pointer) else { return [] }
        let bytes = Array(String(cString: text).utf8)
        var lines: [DrawnLine] = []
        forEachLine(of: made, font: run.font) { pointer, x, width, _ in
            let line = pointer.pointee
            let a = Int(line.start_index), b = min(bytes.count, a + Int(line.length))
            let rightToLeft = pango_layout_line_get_resolved_direction(pointer) == PANGO_DIRECTION_RTL
            // The line's own extents are from its start; its logical left edge is at `x`.
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_line_get_extents(pointer, &ink, &logical)
            let scale = Double(PANGO_SCALE)
            lines.append(DrawnLine(text: String(decoding: bytes[a..<b], as: UTF8.self), x: x, width: width,
                                   direction: rightToLeft ? .rightToLeft : .leftToRight,
                                   inkX: x + Double(ink.x - logical.x) / scale, inkWidth: Double(ink.width) / scale))
        }
        return lines
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
        let made = measuredLayout(of: run)
        cairo_save(cr)
        cairo_set_source_rgba(cr, run.color.red, run.color.green, run.color.blue, run.color.alpha)
        showLines(made, font: run.font, x: run.origin.x, y: run.origin.y, in: cr, asPath: false)
        cairo_restore(cr)
    }

    /// The glyph outlines of `run` laid out at its origin (0, 0), in points: made on a scratch
    /// context with 4 device pixels per point (1/256 pt precision), whatever the frame's state.
    private func outline(of run: TextRun) -> UnsafeMutablePointer<cairo_path_t> {
        let key = OutlineKey(text: run.text, font: run.font, maxWidth: run.maxWidth, maxLines: run.maxLines, alignment: run.alignment,
                             direction: run.direction)
        if let p = outlines[key] { return p }
        if outlines.count >= Self.outlineCacheLimit {
            for p in outlines.values { cairo_path_destroy(p) }
            outlines.removeAll()
        }
        let path = withOutlineContext { cr in
            showLines(measuredLayout(of: run), font: run.font, x: 0, y: 0, in: cr, asPath: true)
            return cairo_copy_path(cr)!
        }
        outlines[key] = path
        return path
    }

    /// Calls `body` with a new Cairo context on the scratch surface at 4 device pixels per
    /// point (1/256 pt precision for outlines taken in it), destroyed after.
    func withOutlineContext<T>(_ body: (OpaquePointer) -> T) -> T {
        let cr = cairo_create(scratch.pointer)!
        defer { cairo_destroy(cr) }
        cairo_scale(cr, 4, 4)
        return body(cr)
    }
}

/// A Pango layout (`PangoLayout *`), released when the value goes away: no caller unrefs by
/// hand, and none can forget to. Use ``pointer`` only while the value is alive.
final class PangoLayout {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}
