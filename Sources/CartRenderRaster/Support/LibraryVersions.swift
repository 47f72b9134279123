import CCairo
import CPango
import CPNG
import CRsvg

/// Versions of the C libraries in use, for the manifest's `software` object.
public enum LibraryVersions {
    public static var cairo: String { String(cString: cairo_version_string()) }
    public static var pango: String { String(cString: pango_version_string()) }
    public static var librsvg: String { "\(LIBRSVG_MAJOR_VERSION).\(LIBRSVG_MINOR_VERSION).\(LIBRSVG_MICRO_VERSION)" }
    public static var libpng: String { String(cString: png_get_libpng_ver(nil)) }
    /// zlib compresses the PNG image data: its version decides the bytes of PNG frames.
    public static var zlib: String { String(cString: zlibVersion()) }
}
