#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <glib.h>

/* The direction of the first strong character of `text`'s first `length` bytes (all of it when -1; Pango's
   `pango_find_base_dir`, the rule PangoLayout applies to each paragraph when its direction is
   automatic), PANGO_DIRECTION_NEUTRAL when it has none. Wrapped so that Swift does not warn:
   Pango deprecated the function for applications (1.44) but its layouts still use it. */
static inline PangoDirection cpango_first_strong_direction(const char *text, int length) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    return pango_find_base_dir(text, length);
    G_GNUC_END_IGNORE_DEPRECATIONS
}
