#ifndef CARTRENDER_FFMPEG_RUNTIME_H
#define CARTRENDER_FFMPEG_RUNTIME_H
#include <stddef.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/// The FFmpeg functions cartrender calls, each with the library that defines it. FFmpeg and the
/// hundred libraries it brings (codecs, TLS, X11…) are not linked into cartrender: they are
/// loaded with dlopen the first time a video is encoded or decoded (`cr_ffmpeg_load`), so that
/// every other run starts without them (about 37 ms of dynamic linking a process on Debian 12).
#define CR_FFMPEG_FUNCTIONS(X) \
    X(avutil, av_chroma_location_name) \
    X(avutil, av_color_primaries_name) \
    X(avutil, av_color_range_name) \
    X(avutil, av_color_space_name) \
    X(avutil, av_color_transfer_name) \
    X(avutil, av_dict_free) \
    X(avutil, av_dict_get) \
    X(avutil, av_dict_set) \
    X(avutil, av_frame_alloc) \
    X(avutil, av_frame_free) \
    X(avutil, av_frame_get_buffer) \
    X(avutil, av_frame_make_writable) \
    X(avutil, av_frame_unref) \
    X(avutil, av_free) \
    X(avutil, av_freep) \
    X(avutil, av_get_pix_fmt_name) \
    X(avutil, av_image_get_linesize) \
    X(avutil, av_log_set_level) \
    X(avutil, av_malloc) \
    X(avutil, av_pix_fmt_count_planes) \
    X(avutil, av_pix_fmt_desc_get) \
    X(avutil, av_strerror) \
    X(avutil, av_version_info) \
    X(avcodec, av_packet_alloc) \
    X(avcodec, av_packet_free) \
    X(avcodec, av_packet_make_writable) \
    X(avcodec, av_packet_rescale_ts) \
    X(avcodec, av_packet_unref) \
    X(avcodec, av_shrink_packet) \
    X(avcodec, avcodec_alloc_context3) \
    X(avcodec, avcodec_find_encoder_by_name) \
    X(avcodec, avcodec_free_context) \
    X(avcodec, avcodec_get_name) \
    X(avcodec, avcodec_open2) \
    X(avcodec, avcodec_parameters_from_context) \
    X(avcodec, avcodec_parameters_to_context) \
    X(avcodec, avcodec_profile_name) \
    X(avcodec, avcodec_receive_frame) \
    X(avcodec, avcodec_receive_packet) \
    X(avcodec, avcodec_send_frame) \
    X(avcodec, avcodec_send_packet) \
    X(avformat, av_find_best_stream) \
    X(avformat, av_read_frame) \
    X(avformat, av_write_frame) \
    X(avformat, av_write_trailer) \
    X(avformat, avformat_alloc_output_context2) \
    X(avformat, avformat_close_input) \
    X(avformat, avformat_find_stream_info) \
    X(avformat, avformat_free_context) \
    X(avformat, avformat_new_stream) \
    X(avformat, avformat_open_input) \
    X(avformat, avformat_write_header) \
    X(avformat, avio_alloc_context) \
    X(avformat, avio_context_free) \
    X(avformat, avio_flush) \
    X(swscale, sws_freeContext) \
    X(swscale, sws_getCoefficients) \
    X(swscale, sws_getContext) \
    X(swscale, sws_scale) \
    X(swscale, sws_setColorspaceDetails)

/// One field per function of CR_FFMPEG_FUNCTIONS, named like it and of its exact type.
typedef struct cr_ffmpeg {
#define CR_FFMPEG_FIELD(library, name) __typeof__(&name) _Nonnull name;
    CR_FFMPEG_FUNCTIONS(CR_FFMPEG_FIELD)
#undef CR_FFMPEG_FIELD
} cr_ffmpeg;

/// Loads libavutil, libswscale, libavcodec and libavformat of the major versions cartrender was
/// built against (FFmpeg 5.1 on Debian 12: libavformat.so.59, …) and looks up every function,
/// once per process (thread-safe). Returns the functions, or NULL after writing to `message`
/// (`size` bytes) one sentence naming the library or function that is missing and dlerror's
/// reason.
const cr_ffmpeg * _Nullable cr_ffmpeg_load(char * _Nonnull message, size_t size);

/// After `cr_ffmpeg_load` failed: 1 when a library is not installed (dlopen found no file) or
/// lacks a function, 0 when a library is there but could not be loaded (out of memory or
/// address space: `ulimit -v`). 0 when loading succeeded.
int cr_ffmpeg_load_failure_is_missing(void);

/// The SIMD instruction sets libx264 is to use, as libx264's `asm` option (a decimal bit set of
/// its `X264_CPU_*` flags): what libx264 detects on this CPU without AVX-512, or 0 when the
/// libx264 that libavcodec loaded cannot be asked (then libx264 detects on its own). libx264's
/// AVX-512 functions make the end of the first frame's slice differ from run to run when other
/// threads of the process allocate and free memory meanwhile (measured on Debian 12's libx264
/// 164 r3095); its AVX2 and older functions give the same bytes as each other. Call after
/// `cr_ffmpeg_load` succeeded.
unsigned cr_x264_cpu_without_avx512(void);

/// Turns transparent huge pages off for this process (`prctl(PR_SET_THP_DISABLE)`, for every
/// thread and every later mapping; 0 on success, -1 with errno set). libx264 asks for them for
/// each of its frame buffers of 2 MB and more (`madvise(MADV_HUGEPAGE)`), which under Debian's
/// default kernel setting (`/sys/kernel/mm/transparent_hugepage/defrag` = `madvise`) makes the
/// kernel compact memory and clear a whole 2 MB page at the first touch of each: 0.5–0.7 s of
/// system time for the MP4 of the default scene at 3x (0.95 s against 0.25 s, 2 cores), for no
/// measurable gain in libx264's own time. With the kernel's `madvise` mode nothing else in
/// cartrender asks for huge pages. The bytes do not change.
int cr_x264_without_huge_pages(void);

// Error codes that libavutil defines as function-like macros, which Swift does not import.
static inline int cartrender_averror_eof(void) { return AVERROR_EOF; }
static inline int cartrender_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int cartrender_averror(int posix_error) { return AVERROR(posix_error); }

#endif
