#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

// Error codes that libavutil defines as function-like macros, which Swift does not import.
static inline int cartrender_averror_eof(void) { return AVERROR_EOF; }
static inline int cartrender_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int cartrender_averror(int posix_error) { return AVERROR(posix_error); }
