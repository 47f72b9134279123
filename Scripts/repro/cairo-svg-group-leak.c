/* cairo 1.16 (Debian 12) leaks 472 bytes each time a group (or any recording surface) is painted
 * onto an SVG surface and then released, and reads that block uninitialised when the SVG surface
 * is finished; nothing the caller owns is left to free. Scripts/lsan.supp and
 * Scripts/valgrind.supp suppress both. Recheck when Debian ships a newer cairo:
 *   cc -fsanitize=address cairo-svg-group-leak.c $(pkg-config --cflags --libs cairo) && ./a.out 10
 * reports "4720 byte(s) leaked in 10 allocation(s)" with cairo 1.16.0-7, and
 *   cc cairo-svg-group-leak.c $(pkg-config --cflags --libs cairo) && valgrind --leak-check=full ./a.out 3
 * "Conditional jump or move depends on uninitialised value(s)" under cairo_surface_finish and
 * "1,416 bytes in 3 blocks are definitely lost". */
#include <cairo-svg.h>
#include <stdlib.h>

static cairo_status_t discard(void *closure, const unsigned char *data, unsigned int length) {
    (void)closure; (void)data; (void)length;
    return CAIRO_STATUS_SUCCESS;
}

int main(int argc, char **argv) {
    int frames = argc > 1 ? atoi(argv[1]) : 1;
    for (int i = 0; i < frames; i++) {
        cairo_surface_t *svg = cairo_svg_surface_create_for_stream(discard, NULL, 100, 100);
        cairo_t *cr = cairo_create(svg);
        cairo_save(cr);
        cairo_push_group(cr);
        cairo_rectangle(cr, 10, 10, 50, 50);
        cairo_fill(cr);
        cairo_pop_group_to_source(cr);
        cairo_paint_with_alpha(cr, 0.5);
        cairo_restore(cr);
        cairo_destroy(cr);
        cairo_surface_finish(svg);
        cairo_surface_destroy(svg);
    }
    return 0;
}
