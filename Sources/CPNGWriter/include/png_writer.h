#ifndef CARTRENDER_PNG_WRITER_H
#define CARTRENDER_PNG_WRITER_H
#include <stddef.h>
#include <stdint.h>

/// Result of cr_png_encode: on success `status` is 0 and `data`/`size` hold the PNG bytes
/// (free with cr_png_free); otherwise `message` names the cause.
typedef struct {
    int status;
    uint8_t *data;
    size_t size;
    char message[256];
} cr_png_result;

/// Encodes 8-bit straight-alpha RGBA rows (`stride` bytes apart) as a PNG.
/// `level` is the zlib level 0-9, `strategy` a zlib strategy (Z_DEFAULT_STRATEGY, Z_FILTERED,
/// Z_RLE, ...), `filters` a mask of PNG_FILTER_* values. libpng reports errors by longjmp, which
/// only C can catch; this function turns them into a status and message.
cr_png_result cr_png_encode(const uint8_t *rgba, int width, int height, size_t stride,
                            int level, int strategy, int filters);

void cr_png_free(cr_png_result *result);

#endif
