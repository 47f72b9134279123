#ifndef CARTRENDER_PNG_WRITER_H
#define CARTRENDER_PNG_WRITER_H
#include <stddef.h>
#include <stdint.h>

/// Result of cr_png_wrap: on success `status` is 0 and `data`/`size` hold the
/// PNG bytes (free with cr_png_free); otherwise `message` names the cause.
typedef struct {
    int status;
    uint8_t *data;
    size_t size;
    char message[256];
} cr_png_result;

/// Layout of the 4-byte pixels a row holds.
typedef enum {
    /// Bytes R, G, B, A; straight (non-premultiplied) alpha.
    CR_ROWS_RGBA = 0,
    /// Cairo's CAIRO_FORMAT_ARGB32: one native-endian 32-bit word per pixel, alpha in the high
    /// byte, colour premultiplied by alpha.
    CR_ROWS_CAIRO_ARGB32 = 1,
} cr_row_format;

/// The two conversions between straight and premultiplied alpha. Every conversion in cartrender
/// goes through one of these two functions (Swift: `PixelRows.copy(to:stride:format:)` and
/// `RGBAImage(_:)`); rows already in the target format are copied unchanged.

/// Converts `rows` rows of `width` pixels to straight RGBA bytes. Premultiplied colour is
/// divided by alpha rounded to nearest, halves up: `(c * 255 + a / 2) / a` (as
/// cairo_surface_write_to_png), clamped to 255; alpha 255 leaves colour as it is and fully
/// transparent pixels become (0, 0, 0, 0).
void cr_rows_to_rgba(const uint8_t *src, size_t src_stride, cr_row_format format,
                     uint8_t *dst, size_t dst_stride, int width, int rows);

/// Converts `rows` rows of `width` pixels to Cairo's CAIRO_FORMAT_ARGB32 (native-endian words,
/// alpha in the high byte). Straight colour is multiplied by alpha rounded to nearest,
/// `(c * a + 127) / 255` (c · a / 255 is never half-way between two integers, so no tie arises);
/// alpha 255 leaves colour as it is and alpha 0 gives (0, 0, 0, 0).
void cr_rows_to_argb32(const uint8_t *src, size_t src_stride, cr_row_format format,
                       uint8_t *dst, size_t dst_stride, int width, int rows);

/// Compresses horizontal stripes of an image into pieces of one PNG image data stream, each a
/// pure function of its rows' pixels (and the row above), so a piece can be reused by any frame
/// whose rows are equal. Not thread-safe: one per thread.
typedef struct cr_stripe_deflater cr_stripe_deflater;

/// A deflater for rows of `width` pixels at zlib `level` and `strategy`, or NULL when out of
/// memory or zlib rejects the settings.
cr_stripe_deflater *cr_stripe_deflater_new(int width, int level, int strategy);
void cr_stripe_deflater_free(cr_stripe_deflater *deflater);

/// Filters rows [y0, y1) of `pixels` (`stride` bytes apart, `format`) with the PNG Up filter
/// (row y0 against row y0 - 1, or against zeros when y0 is 0) and compresses them as raw deflate
/// blocks from a fresh compressor state, ended by a sync flush (byte-aligned, not final).
/// On success returns 0 and sets `*out`/`*out_size` to the compressed bytes (owned by the
/// deflater, valid until its next call), `*adler` to the Adler-32 of the filtered bytes and
/// `*raw_size` to their count; otherwise returns a zlib error code.
int cr_stripe_deflate(cr_stripe_deflater *deflater, const uint8_t *pixels, size_t stride,
                      cr_row_format format, int y0, int y1,
                      const uint8_t **out, size_t *out_size, uint32_t *adler, size_t *raw_size);

/// zlib's adler32_combine: the Adler-32 of A followed by B from those of A and B and B's length.
uint32_t cr_adler32_combine(uint32_t adler_a, uint32_t adler_b, size_t length_b);

/// Writes a PNG with libpng around an image data stream (libpng reports errors by longjmp, which
/// only C can catch; this function turns them into a status and message): signature, IHDR (8-bit RGBA,
/// `width` × `height` px), sRGB/gAMA/cHRM, one IDAT chunk holding `zlib_stream` (a complete
/// zlib stream of filtered rows), IEND.
cr_png_result cr_png_wrap(int width, int height, const uint8_t *zlib_stream, size_t size);

void cr_png_free(cr_png_result *result);

/// Encodes straight RGBA pixels (`width` × `height`, rows `stride` bytes apart) as an 8-bit
/// palette PNG when they hold at most 256 distinct colours: the palette in order of first
/// appearance (row by row), a `tRNS` chunk only when a colour is translucent, sRGB/gAMA/cHRM,
/// every row filter None, the image data compressed whole by libdeflate at `level` (1–12).
/// Lossless: decoding gives the same RGBA bytes. Same pixels, same bytes. On success `status`
/// is 0; it is 2 (and nothing is written) when the pixels hold more than 256 colours, 1 on
/// any other failure (`message` names it).
cr_png_result cr_png_encode_indexed(const uint8_t *pixels, size_t stride, int width, int height, int level);

/// Decodes, without libpng, the PNGs whose decoding is only inflate and unfilter: 8-bit RGBA,
/// not interlaced, every chunk's CRC right, IDAT chunks in one run, a whole IEND, and before the
/// image data only chunks that do not change its pixels for libpng's simplified API (sRGB, gAMA
/// of sRGB's 1/2.2 (45455), cHRM, pHYs, tIME, tEXt, zTXt, iTXt, and bKGD, which only serves an
/// output without alpha). The zlib stream is inflated by
/// libdeflate, which checks its Adler-32, and must fill the image exactly. Writes `width` ×
/// `height` × 4 bytes to `out` and returns 1; returns 0 for anything else (not decoded: the
/// caller decodes with libpng, which says what is wrong, if anything). `width` and `height`
/// are those of its IHDR, which the caller has read already.
int cr_png_decode_rgba8(const uint8_t *data, size_t size, int width, int height, uint8_t *out);

#endif
