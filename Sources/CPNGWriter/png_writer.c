#include "png_writer.h"
#include <png.h>
#include <zlib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int failed;
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
    if (b->failed) return;
    if (b->size + length > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 65536;
        while (cap < b->size + length) cap *= 2;
        uint8_t *p = realloc(b->data, cap);
        if (!p) { b->failed = 1; png_error(png, "out of memory while writing PNG"); return; }
        b->data = p;
        b->capacity = cap;
    }
    memcpy(b->data + b->size, bytes, length);
    b->size += length;
}

static void on_flush(png_structp png) { (void)png; }

cr_png_result cr_png_encode(const uint8_t *rgba, int width, int height, size_t stride,
                            int level, int strategy, int filters) {
    cr_png_result result;
    memset(&result, 0, sizeof result);
    /* volatile: these are read after a longjmp back into this frame */
    buffer * volatile out = calloc(1, sizeof(buffer));
    error_context ctx;
    ctx.message = result.message;
    png_structp volatile png = NULL;
    png_infop volatile info = NULL;
    if (!out) { result.status = 1; strcpy(result.message, "out of memory"); return result; }
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    if (!png) { free(out); result.status = 1; strcpy(result.message, "png_create_write_struct failed"); return result; }
    info = png_create_info_struct(png);
    if (!info) {
        png_structp p = png;
        png_destroy_write_struct(&p, NULL);
        free(out); result.status = 1; strcpy(result.message, "png_create_info_struct failed"); return result;
    }
    if (setjmp(ctx.jump)) {
        png_structp p = png; png_infop i = info;
        png_destroy_write_struct(&p, &i);
        free(out->data); free(out);
        result.status = 1;
        return result;
    }
    png_set_write_fn(png, out, on_write, on_flush);
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_set_sRGB_gAMA_and_cHRM(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(rgba + (size_t)y * stride));
    }
    png_write_end(png, info);
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
