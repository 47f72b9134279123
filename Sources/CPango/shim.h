#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <glib.h>
#include <hb-ot.h>

/* The direction of the first strong character of `text`'s first `length` bytes (all of it when -1; Pango's
   `pango_find_base_dir`, the rule PangoLayout applies to each paragraph when its direction is
   automatic), PANGO_DIRECTION_NEUTRAL when it has none. Wrapped so that Swift does not warn:
   Pango deprecated the function for applications (1.44) but its layouts still use it. */
static inline PangoDirection cpango_first_strong_direction(const char *text, int length) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    return pango_find_base_dir(text, length);
    G_GNUC_END_IGNORE_DEPRECATIONS
}

/* Whether glyph `glyph` of `font` is a colour glyph: a PNG bitmap (CBDT or sbix, as Noto Color
   Emoji's) or COLR layers, which Cairo paints in their own colours and cairo_glyph_path traces as
   pixel squares. HarfBuzz's OpenType colour tables of the font Pango shaped it with. */
static inline int cpango_is_colour_glyph(PangoFont *font, PangoGlyph glyph) {
    hb_font_t *hb = pango_font_get_hb_font(font);
    if (hb == NULL) return 0;
    hb_face_t *face = hb_font_get_face(hb);
    if (hb_ot_color_has_layers(face) && hb_ot_color_glyph_get_layers(face, glyph, 0, NULL, NULL) > 0) return 1;
    if (!hb_ot_color_has_png(face)) return 0;
    hb_blob_t *png = hb_ot_color_glyph_reference_png(hb, glyph);
    unsigned int length = hb_blob_get_length(png);
    hb_blob_destroy(png);
    return length > 0;
}
