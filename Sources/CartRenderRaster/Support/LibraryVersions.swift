import CCairo
import CFFmpegRuntime
import CGif
import CImageQuant
import CPango
import CPNG
import CPixman
import CRsvg
import CWebP

/// Versions of the C libraries in use, for the manifest's `software` object and
/// `cartrender --version`. Each is the version of the library loaded at run time, except
/// librsvg's and giflib's, which export none: theirs is the version of the headers built against.
public enum LibraryVersions {
    /// Cairo's version at run time (`1.16.0`).
    public static var cairo: String { String(cString: cairo_version_string()) }
    /// Pango's version at run time.
    public static var pango: String { String(cString: pango_version_string()) }
    /// librsvg's version from the headers built against.
    public static var librsvg: String { "\(LIBRSVG_MAJOR_VERSION).\(LIBRSVG_MINOR_VERSION).\(LIBRSVG_MICRO_VERSION)" }
    /// libpng's version at run time.
    public static var libpng: String { String(cString: png_get_libpng_ver(nil)) }
    /// zlib compresses the PNG image data: its version decides the bytes of PNG frames.
    public static var zlib: String { String(cString: zlibVersion()) }
    /// pixman composites Cairo's surfaces.
    public static var pixman: String { String(cString: pixman_version_string()) }
    /// fontconfig picks the font files (`FcGetVersion()` is MAJOR·10000 + MINOR·100 + REVISION).
    public static var fontconfig: String {
        let v = Int(FcGetVersion())
        return "\(v / 10000).\(v / 100 % 100).\(v % 100)"
    }
    /// HarfBuzz shapes the text Pango lays out.
    public static var harfbuzz: String { String(cString: hb_version_string()) }
    /// FreeType rasterises the glyphs.
    public static var freetype: String {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return "(unknown)" }
        defer { FT_Done_FreeType(library) }
        var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
        FT_Library_Version(library, &major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
    /// giflib writes GIF files.
    public static var giflib: String { "\(GIFLIB_MAJOR).\(GIFLIB_MINOR).\(GIFLIB_RELEASE)" }
    /// libimagequant chooses the GIF palettes (`liq_version()` is MAJOR·10000 + MINOR·100 + PATCH).
    public static var libimagequant: String {
        let v = Int(liq_version())
        return "\(v / 10000).\(v / 100 % 100).\(v % 100)"
    }
    /// libwebp encodes WebP frames (`WebPGetEncoderVersion()` is 0xMMmmpp).
    public static var libwebp: String {
        let v = Int(WebPGetEncoderVersion())
        return "\(v >> 16).\(v >> 8 & 0xFF).\(v & 0xFF)"
    }
    /// FFmpeg's version (`av_version_info`, as Debian builds it: `5.1.6-0+deb12u1`), loading
    /// FFmpeg's libraries (MP4 and WebM), or the sentence saying why they cannot be loaded.
    public static var ffmpeg: Result<String, RasterError> {
        Result { try FFmpeg.load(); return FFmpeg.functions.av_version_info().map { String(cString: $0) } ?? "(no version)" }
            .mapError { $0 as? RasterError ?? RasterError(.library, "\($0)") }
    }
}
