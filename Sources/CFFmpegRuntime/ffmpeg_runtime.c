#include "ffmpeg_runtime.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <libavcodec/version.h>
#include <libavformat/version.h>
#include <libavutil/version.h>
#include <libswscale/version.h>

static cr_ffmpeg functions;
static const cr_ffmpeg *loaded;
static char failure[512];
/// Whether the failure is a library or function that is not there (1), rather than one that is
/// there but could not be loaded, most often for want of memory (0).
static int failure_is_missing = 1;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *open_library(const char *soname) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "FFmpeg's %s cannot be loaded (%s)", soname, reason ? reason : "no reason given");
        // glibc says "cannot open shared object file: No such file or directory" for a library
        // (or one it needs) that is not installed; "failed to map segment from shared object",
        // "cannot map zero-fill pages" or "Cannot allocate memory" when it is there but the
        // address space (ulimit -v) or memory is short.
        failure_is_missing = reason && strstr(reason, "No such file or directory") != NULL;
    }
    return handle;
}

static void *avcodec_handle;

static void load(void) {
    void *avutil = open_library("libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR));
    void *swscale = avutil ? open_library("libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR)) : NULL;
    void *avcodec = swscale ? open_library("libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR)) : NULL;
    void *avformat = avcodec ? open_library("libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR)) : NULL;
    if (!avformat) return;
    avcodec_handle = avcodec;
#define CR_FFMPEG_LOOKUP(library, name) \
    { \
        void *symbol = dlsym(library, #name); \
        if (!symbol) { \
            snprintf(failure, sizeof failure, "FFmpeg's lib%s has no function %s", #library, #name); \
            return; \
        } \
        memcpy(&functions.name, &symbol, sizeof symbol); \
    }
    CR_FFMPEG_FUNCTIONS(CR_FFMPEG_LOOKUP)
#undef CR_FFMPEG_LOOKUP
    loaded = &functions;
}

const cr_ffmpeg *cr_ffmpeg_load(char *message, size_t size) {
    pthread_once(&once, load);
    if (!loaded && size > 0) snprintf(message, size, "%s", failure);
    return loaded;
}

int cr_ffmpeg_load_failure_is_missing(void) {
    pthread_once(&once, load);
    return !loaded && failure_is_missing;
}

int cr_x264_without_huge_pages(void) {
    return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
}

/// libx264's table of instruction set names and their flags (`x264_cpu_names` in its cpu.c).
typedef struct { const char *name; unsigned flags; } cr_x264_cpu_name;

unsigned cr_x264_cpu_without_avx512(void) {
    if (!loaded || !avcodec_handle) return 0;
    // libx264 is a dependency of libavcodec: dlsym on libavcodec's handle searches it too.
    unsigned (*detect)(void) = NULL;
    void *symbol = dlsym(avcodec_handle, "x264_cpu_detect");
    memcpy(&detect, &symbol, sizeof symbol);
    const cr_x264_cpu_name *names = dlsym(avcodec_handle, "x264_cpu_names");
    if (!detect || !names) return 0;
    unsigned avx2 = 0, avx512 = 0;
    for (int i = 0; i < 64 && names[i].name && names[i].flags; i++) {
        if (!strcmp(names[i].name, "AVX2")) avx2 = names[i].flags;
        if (!strcmp(names[i].name, "AVX512")) avx512 = names[i].flags;
    }
    unsigned flags = detect() & ~(avx512 & ~avx2);
    return avx512 && (avx512 & ~avx2) && flags < 0x80000000u ? flags : 0;
}
