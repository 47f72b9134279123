#include "png_writer.h"
#include <png.h>
#include <zlib.h>
#include <libdeflate.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* ---- Pixel rows ---------------------------------------------------------------------------- */

static inline void unpremultiply(uint32_t p, uint8_t *d) {
    uint32_t a = p >> 24, r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
    if (a != 255 && a != 0) {
        r = (r * 255 + a / 2) / a;
        g = (g * 255 + a / 2) / a;
        b = (b * 255 + a / 2) / a;
        if (r > 255) r = 255;
        if (g > 255) g = 255;
        if (b > 255) b = 255;
    }
    d[0] = (uint8_t)r; d[1] = (uint8_t)g; d[2] = (uint8_t)b; d[3] = (uint8_t)a;
}

void cr_rows_to_rgba(const uint8_t *src, size_t src_stride, cr_row_format format,
                     uint8_t *dst, size_t dst_stride, int width, int rows) {
    for (int y = 0; y < rows; y++) {
        const uint8_t *s = src + (size_t)y * src_stride;
        uint8_t *d = dst + (size_t)y * dst_stride;
        if (format == CR_ROWS_RGBA) {
            memcpy(d, s, (size_t)width * 4);
            continue;
        }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        /* UI frames are mostly opaque: move the bytes of every pixel as if it were, noting
           whether all were (one loop the compiler vectorizes), then divide the translucent
           ones of a row that had some by alpha. */
        uint32_t alpha = 0xFF000000u;
        for (int x = 0; x < width; x++) {
            uint32_t p;
            memcpy(&p, s + 4 * x, 4);
            alpha &= p;
            uint32_t q = (p & 0xFF00FF00u) | ((p >> 16) & 0xFFu) | ((p & 0xFFu) << 16);
            memcpy(d + 4 * x, &q, 4);
        }
        if ((alpha & 0xFF000000u) == 0xFF000000u) continue;
        for (int x = 0; x < width; x++) {
            uint8_t a = s[4 * x + 3];
            if (a != 255 && a != 0) {
                uint32_t p;
                memcpy(&p, s + 4 * x, 4);
                unpremultiply(p, d + 4 * x);
            }
        }
#else
        for (int x = 0; x < width; x++) {
            uint32_t p;
            memcpy(&p, s + 4 * x, 4);
            unpremultiply(p, d + 4 * x);
        }
#endif
    }
}

static inline uint32_t premultiply(const uint8_t *s) {
    uint32_t a = s[3];
    uint32_t r = (s[0] * a + 127) / 255, g = (s[1] * a + 127) / 255, b = (s[2] * a + 127) / 255;
    return (a << 24) | (r << 16) | (g << 8) | b;
}

void cr_rows_to_argb32(const uint8_t *src, size_t src_stride, cr_row_format format,
                       uint8_t *dst, size_t dst_stride, int width, int rows) {
    for (int y = 0; y < rows; y++) {
        const uint8_t *s = src + (size_t)y * src_stride;
        uint8_t *d = dst + (size_t)y * dst_stride;
        if (format == CR_ROWS_CAIRO_ARGB32) {
            memcpy(d, s, (size_t)width * 4);
            continue;
        }
        for (int x = 0; x < width; x++) {
            uint32_t p = premultiply(s + 4 * x);
            memcpy(d + 4 * x, &p, 4);
        }
    }
}

/* ---- libpng plumbing ----------------------------------------------------------------------- */

typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
} buffer;

typedef struct {
    jmp_buf jump;
    char *message;
} error_context;

static void on_error(png_structp png, png_const_charp msg) {
    error_context *ctx = (error_context *)png_get_error_ptr(png);
    strncpy(ctx->message, msg ? msg : "unknown libpng error", 255);
    ctx->message[255] = 0;
    longjmp(ctx->jump, 1);
}

static void on_warning(png_structp png, png_const_charp msg) { (void)png; (void)msg; }

static void on_write(png_structp png, png_bytep bytes, png_size_t length) {
    buffer *b = (buffer *)png_get_io_ptr(png);
    if (b->size + length > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 65536;
        while (cap < b->size + length) cap *= 2;
        uint8_t *p = realloc(b->data, cap);
        if (!p) { png_error(png, "out of memory while writing PNG"); return; }
        b->data = p;
        b->capacity = cap;
    }
    memcpy(b->data + b->size, bytes, length);
    b->size += length;
}

static void on_flush(png_structp png) { (void)png; }

static void fail(cr_png_result *result, const char *message) {
    result->status = 1;
    strncpy(result->message, message, sizeof result->message - 1);
}

cr_png_result cr_png_wrap(int width, int height, const uint8_t *zlib_stream, size_t size) {
    cr_png_result result;
    memset(&result, 0, sizeof result);
    /* volatile: these are read after a longjmp back into this frame */
    buffer * volatile out = calloc(1, sizeof(buffer));
    error_context ctx;
    ctx.message = result.message;
    png_structp volatile png = NULL;
    png_infop volatile info = NULL;
    if (!out) { fail(&result, "out of memory"); return result; }
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    if (!png) { free(out); fail(&result, "png_create_write_struct failed"); return result; }
    info = png_create_info_struct(png);
    if (!info) {
        png_structp p = png;
        png_destroy_write_struct(&p, NULL);
        free(out); fail(&result, "png_create_info_struct failed"); return result;
    }
    if (setjmp(ctx.jump)) {
        png_structp p = png; png_infop i = info;
        png_destroy_write_struct(&p, &i);
        free(out->data); free(out);
        result.status = 1;
        return result;
    }
    png_set_write_fn(png, out, on_write, on_flush);
    /* No time, no text: same pixels, same bytes. */
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_set_sRGB_gAMA_and_cHRM(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, info);
    png_write_chunk(png, (png_const_bytep)"IDAT", zlib_stream, size);
    png_write_chunk(png, (png_const_bytep)"IEND", NULL, 0);
    {
        png_structp p = png; png_infop i = info;
        png_destroy_write_struct(&p, &i);
    }
    result.data = out->data;
    result.size = out->size;
    free(out);
    return result;
}

void cr_png_free(cr_png_result *result) {
    free(result->data);
    result->data = NULL;
    result->size = 0;
}

/* ---- Stripes ------------------------------------------------------------------------------- */

struct cr_stripe_deflater {
    z_stream z;
    int width;
    uint8_t *above;      /* scratch: straight RGBA of the row above the current one */
    uint8_t *row;        /* scratch: straight RGBA of the current row */
    uint8_t *filtered;   /* filter byte + filtered row, for every row of the stripe */
    size_t filtered_capacity;
    uint8_t *out;
    size_t out_capacity;
};

cr_stripe_deflater *cr_stripe_deflater_new(int width, int level, int strategy) {
    cr_stripe_deflater *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->width = width;
    d->above = malloc((size_t)width * 4 + 1);
    d->row = malloc((size_t)width * 4 + 1);
    /* Raw deflate (negative window bits): the zlib header and Adler-32 trailer of the whole
       image are written once, around all stripes. */
    if (!d->above || !d->row || deflateInit2(&d->z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK) {
        free(d->above); free(d->row); free(d);
        return NULL;
    }
    return d;
}

void cr_stripe_deflater_free(cr_stripe_deflater *d) {
    if (!d) return;
    deflateEnd(&d->z);
    free(d->above); free(d->row); free(d->filtered); free(d->out); free(d);
}

static int reserve(uint8_t **p, size_t *capacity, size_t size) {
    if (*capacity >= size) return 1;
    uint8_t *q = realloc(*p, size);
    if (!q) return 0;
    *p = q;
    *capacity = size;
    return 1;
}

/* Per-byte difference a - b (mod 256) of the four bytes of two words. */
static inline uint32_t sub_bytes(uint32_t a, uint32_t b) {
    return ((a | 0x80808080u) - (b & 0x7F7F7F7Fu)) ^ ((a ^ ~b) & 0x80808080u);
}

/* Writes the Up-filtered straight RGBA bytes of `row` (the row above is `above`, or zeros when
   NULL) to `out`. `row_rgba` and `above_rgba` are scratch rows of `width` pixels. */
static void filter_up(const uint8_t *row, const uint8_t *above, cr_row_format format, int width,
                      uint8_t *out, uint8_t *row_rgba, uint8_t *above_rgba) {
    const size_t row_bytes = (size_t)width * 4;
    if (format == CR_ROWS_RGBA) {
        if (above) for (size_t i = 0; i < row_bytes; i++) out[i] = (uint8_t)(row[i] - above[i]);
        else memcpy(out, row, row_bytes);
        return;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (above) {
        /* Both rows opaque (UI frames nearly always are): straight colour is the premultiplied
           colour, and the filter commutes with the byte order swap, so the difference of the
           raw words, reordered, is the filtered row. Otherwise the row is done again below. */
        uint32_t alpha = 0xFF000000u;
        for (int x = 0; x < width; x++) {
            uint32_t c, a;
            memcpy(&c, row + 4 * (size_t)x, 4);
            memcpy(&a, above + 4 * (size_t)x, 4);
            alpha &= c & a;
            uint32_t d = sub_bytes(c, a);
            d = (d & 0xFF00FF00u) | ((d >> 16) & 0xFFu) | ((d & 0xFFu) << 16);
            memcpy(out + 4 * (size_t)x, &d, 4);
        }
        if ((alpha & 0xFF000000u) == 0xFF000000u) return;
    }
#endif
    cr_rows_to_rgba(row, row_bytes, format, row_rgba, row_bytes, width, 1);
    if (above) {
        cr_rows_to_rgba(above, row_bytes, format, above_rgba, row_bytes, width, 1);
        for (size_t i = 0; i < row_bytes; i++) out[i] = (uint8_t)(row_rgba[i] - above_rgba[i]);
    } else {
        memcpy(out, row_rgba, row_bytes);
    }
}

int cr_stripe_deflate(cr_stripe_deflater *d, const uint8_t *pixels, size_t stride,
                      cr_row_format format, int y0, int y1,
                      const uint8_t **out, size_t *out_size, uint32_t *adler, size_t *raw_size) {
    const size_t row_bytes = (size_t)d->width * 4;
    const size_t raw = (size_t)(y1 - y0) * (row_bytes + 1);
    if (!reserve(&d->filtered, &d->filtered_capacity, raw)) return Z_MEM_ERROR;
    uint8_t *f = d->filtered;
    for (int y = y0; y < y1; y++) {
        *f++ = 2; /* PNG filter type Up */
        filter_up(pixels + (size_t)y * stride, y > 0 ? pixels + (size_t)(y - 1) * stride : NULL, format, d->width,
                  f, d->row, d->above);
        f += row_bytes;
    }
    /* libdeflate's Adler-32 (vectorized): the same value as zlib's, about 12 times faster. */
    *adler = libdeflate_adler32(1, d->filtered, raw);
    *raw_size = raw;

    /* A fresh state for every stripe makes its bytes independent of what was compressed before. */
    int status = deflateReset(&d->z);
    if (status != Z_OK) return status;
    size_t bound = deflateBound(&d->z, (uLong)raw) + 64;
    if (!reserve(&d->out, &d->out_capacity, bound)) return Z_MEM_ERROR;
    d->z.next_in = d->filtered;
    d->z.avail_in = (uInt)raw;
    size_t produced = 0;
    for (;;) {
        d->z.next_out = d->out + produced;
        d->z.avail_out = (uInt)(d->out_capacity - produced);
        status = deflate(&d->z, Z_SYNC_FLUSH);
        produced = d->out_capacity - d->z.avail_out;
        if (status != Z_OK && status != Z_BUF_ERROR) return status;
        if (d->z.avail_in == 0 && d->z.avail_out > 0) break;
        if (!reserve(&d->out, &d->out_capacity, d->out_capacity * 2)) return Z_MEM_ERROR;
    }
    *out = d->out;
    *out_size = produced;
    return Z_OK;
}

uint32_t cr_adler32_combine(uint32_t adler_a, uint32_t adler_b, size_t length_b) {
    return (uint32_t)adler32_combine(adler_a, adler_b, (z_off_t)length_b);
}
