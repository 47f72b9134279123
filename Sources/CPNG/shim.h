#include <png.h>
#include <zlib.h>
#include <libdeflate.h>
