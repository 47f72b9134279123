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

/* The PNG around a zlib stream of filtered rows: IHDR of `color_type` (RGBA, or a palette of
   `colors` straight-alpha RGBA entries, with tRNS when `translucent`), sRGB, IDAT, IEND. */
static cr_png_result wrap_stream(int width, int height, int color_type, const uint8_t *palette, int colors,
                                 int translucent, const uint8_t *zlib_stream, size_t size) {
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
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color plte[256];
        png_byte alpha[256];
        for (int i = 0; i < colors; i++) {
            plte[i].red = palette[4 * i]; plte[i].green = palette[4 * i + 1]; plte[i].blue = palette[4 * i + 2];
            alpha[i] = palette[4 * i + 3];
        }
        png_set_PLTE(png, info, plte, colors > 0 ? colors : 1);
        if (translucent) png_set_tRNS(png, info, alpha, colors, NULL);
    }
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

cr_png_result cr_png_wrap(int width, int height, const uint8_t *zlib_stream, size_t size) {
    return wrap_stream(width, height, PNG_COLOR_TYPE_RGBA, NULL, 0, 0, zlib_stream, size);
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

/* ---- Palette images ------------------------------------------------------------------------ */

cr_png_result cr_png_encode_indexed(const uint8_t *pixels, size_t stride, int width, int height, int level) {
    cr_png_result result;
    memset(&result, 0, sizeof result);
    /* Colour (native word) -> index, open addressing; a pixel like the one before it skips the lookup. */
    enum { SLOTS = 1024 };
    uint32_t keys[SLOTS];
    int16_t values[SLOTS];
    for (int i = 0; i < SLOTS; i++) values[i] = -1;
    uint8_t palette[256 * 4];
    int colors = 0, translucent = 0;
    const size_t row_bytes = (size_t)width + 1;
    const size_t raw = row_bytes * (size_t)height;
    uint8_t *filtered = malloc(raw ? raw : 1);
    if (!filtered) { fail(&result, "out of memory"); return result; }
    uint32_t last = 0;
    uint8_t last_index = 0;
    int have_last = 0;
    for (int y = 0; y < height; y++) {
        const uint8_t *s = pixels + (size_t)y * stride;
        uint8_t *d = filtered + (size_t)y * row_bytes;
        *d++ = 0; /* filter None */
        for (int x = 0; x < width; x++) {
            uint32_t p;
            memcpy(&p, s + 4 * (size_t)x, 4);
            if (have_last && p == last) { d[x] = last_index; continue; }
            uint32_t h = (p * 2654435761u) >> 22; /* 10 bits */
            for (;;) {
                if (values[h] < 0) {
                    if (colors == 256) { free(filtered); result.status = 2; return result; }
                    keys[h] = p;
                    values[h] = (int16_t)colors;
                    memcpy(palette + 4 * colors, s + 4 * (size_t)x, 4);
                    if (s[4 * (size_t)x + 3] != 255) translucent = 1;
                    colors++;
                    break;
                }
                if (keys[h] == p) break;
                h = (h + 1) & (SLOTS - 1);
            }
            last = p; last_index = (uint8_t)values[h]; have_last = 1;
            d[x] = last_index;
        }
    }
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
    if (!c) { free(filtered); fail(&result, "libdeflate could not set up a compressor"); return result; }
    size_t bound = libdeflate_zlib_compress_bound(c, raw);
    uint8_t *stream = malloc(bound);
    size_t size = stream ? libdeflate_zlib_compress(c, filtered, raw, stream, bound) : 0;
    libdeflate_free_compressor(c);
    free(filtered);
    if (!size) { free(stream); fail(&result, "libdeflate could not compress the image data"); return result; }

    result = wrap_stream(width, height, PNG_COLOR_TYPE_PALETTE, palette, colors, translucent, stream, size);
    free(stream);
    return result;
}

/* ---- Decoding the PNGs that are inflate and unfilter only ---------------------------------- */

static uint32_t read_u32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static int is_type(const uint8_t *p, const char *type) { return memcmp(p, type, 4) == 0; }

static int paeth(int a, int b, int c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

int cr_png_decode_rgba8(const uint8_t *data, size_t size, int width, int height, uint8_t *out) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (size < 8 || memcmp(data, signature, 8) != 0 || width <= 0 || height <= 0) return 0;
    size_t offset = 8, idat_start = 0, idat_bytes = 0;
    int seen_ihdr = 0, idat_run = 0, idat_done = 0, seen_iend = 0, idat_chunks = 0;
    while (offset + 12 <= size) {
        uint32_t length = read_u32(data + offset);
        if (length > 0x7FFFFFFFu || offset + 12 + (size_t)length > size) return 0;
        const uint8_t *type = data + offset + 4, *body = data + offset + 8;
        if (libdeflate_crc32(0, type, 4 + (size_t)length) != read_u32(body + length)) return 0;
        if (!seen_ihdr) {
            if (!is_type(type, "IHDR") || length != 13) return 0;
            if ((int)read_u32(body) != width || (int)read_u32(body + 4) != height) return 0;
            if (body[8] != 8 || body[9] != 6 || body[10] != 0 || body[11] != 0 || body[12] != 0) return 0;
            seen_ihdr = 1;
        } else if (is_type(type, "IDAT")) {
            if (idat_done) return 0;
            if (!idat_run) idat_start = offset;
            idat_run = 1;
            idat_bytes += length;
            idat_chunks++;
        } else {
            if (idat_run) { idat_run = 0; idat_done = 1; }
            if (is_type(type, "IEND")) { seen_iend = 1; break; }
            if (!idat_done) {
                if (is_type(type, "gAMA")) { if (length != 4 || read_u32(body) != 45455) return 0; }
                else if (!(is_type(type, "sRGB") || is_type(type, "cHRM") || is_type(type, "pHYs") || is_type(type, "tIME") || is_type(type, "bKGD")
                           || is_type(type, "tEXt") || is_type(type, "zTXt") || is_type(type, "iTXt"))) return 0;
            }
        }
        offset += 12 + (size_t)length;
    }
    if (!seen_iend || !idat_done || idat_bytes == 0) return 0;

    /* The zlib stream: in place when it is one chunk, else the chunks' data joined. */
    const uint8_t *stream = data + idat_start + 8;
    uint8_t *joined = NULL;
    if (idat_chunks > 1) {
        joined = malloc(idat_bytes);
        if (!joined) return 0;
        size_t o = idat_start, at = 0;
        for (int k = 0; k < idat_chunks; k++) {
            uint32_t length = read_u32(data + o);
            memcpy(joined + at, data + o + 8, length);
            at += length;
            o += 12 + (size_t)length;
        }
        stream = joined;
    }
    const size_t row_bytes = (size_t)width * 4;
    const size_t raw = (row_bytes + 1) * (size_t)height;
    uint8_t *filtered = malloc(raw);
    struct libdeflate_decompressor *d = filtered ? libdeflate_alloc_decompressor() : NULL;
    size_t used = 0;
    int ok = d && libdeflate_zlib_decompress_ex(d, stream, idat_bytes, filtered, raw, &used, NULL) == LIBDEFLATE_SUCCESS
        && used == idat_bytes;
    if (d) libdeflate_free_decompressor(d);
    free(joined);
    if (!ok) { free(filtered); return 0; }

    for (int y = 0; y < height; y++) {
        const uint8_t *f = filtered + (size_t)y * (row_bytes + 1);
        uint8_t filter = *f++;
        uint8_t *row = out + (size_t)y * row_bytes;
        const uint8_t *up = y > 0 ? row - row_bytes : NULL;
        size_t i;
        switch (filter) {
        case 0: memcpy(row, f, row_bytes); break;
        case 1:
            for (i = 0; i < 4; i++) row[i] = f[i];
            for (; i < row_bytes; i++) row[i] = (uint8_t)(f[i] + row[i - 4]);
            break;
        case 2:
            if (up) for (i = 0; i < row_bytes; i++) row[i] = (uint8_t)(f[i] + up[i]);
            else memcpy(row, f, row_bytes);
            break;
        case 3:
            for (i = 0; i < row_bytes; i++) {
                int left = i >= 4 ? row[i - 4] : 0, above = up ? up[i] : 0;
                row[i] = (uint8_t)(f[i] + ((left + above) >> 1));
            }
            break;
        case 4:
            for (i = 0; i < row_bytes; i++) {
                int left = i >= 4 ? row[i - 4] : 0, above = up ? up[i] : 0, corner = (up && i >= 4) ? up[i - 4] : 0;
                row[i] = (uint8_t)(f[i] + paeth(left, above, corner));
            }
            break;
        default: free(filtered); return 0;
        }
    }
    free(filtered);
    return 1;
}
