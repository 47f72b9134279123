import CartRenderCore
import CCairo
import CRsvg
import Foundation

/// The images a scene draws, decoded once before the first frame and shared by all workers:
/// raster files (PNG, JPEG through gdk-pixbuf) as premultiplied pixels, SVG files and symbol
/// icons as their bytes (each worker parses its own librsvg handle).
public final class ImageLibrary: @unchecked Sendable {
    /// Largest raster image side accepted (px).
    public static let maxImageSide = 8192
    /// Largest SVG file accepted (bytes).
    public static let maxSVGBytes = 8 << 20

    struct Raster {
        let width: Int
        let height: Int
        /// Cairo ARGB32: premultiplied, native-endian 32-bit words, `width × 4` bytes a row.
        let argb: [UInt8]
    }

    enum Entry {
        case raster(Raster)
        /// SVG document bytes and the path it came from (for relative references).
        case svg([UInt8], path: String)
    }

    private(set) var entries: [ImageSource: Entry] = [:]

    /// Loads every image in `sources` (and the symbols the screens use themselves).
    /// - Throws: `RasterError.invalidInput` for a corrupt, truncated or oversized image,
    ///   `.missingDependency` when Bootstrap Icons is not installed.
    public init(sources: [ImageSource]) throws {
        let builtIn: [ImageSource] = ["cart.fill", "cart.badge.plus", "trash", "plus", "minus", "chevron.left"].map { .symbol($0) }
        for source in builtIn + sources where entries[source] == nil {
            entries[source] = try Self.load(source)
        }
    }

    static func load(_ source: ImageSource) throws -> Entry {
        switch source {
        case .symbol(let name):
            guard let path = Symbols.svgPath(for: name) else { throw RasterError(.invalidInput, "unknown symbol \"\(name)\"") }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw RasterError(.missingDependency, "the icon \(path) is missing; install the Debian package bootstrap-icons")
            }
            return .svg(Array(data), path: path)
        case .file(let path):
            if path.lowercased().hasSuffix(".svg") {
                guard let attrs = try? FileManager.default.attributesOfItem(atPath: path),
                      let size = attrs[.size] as? Int else { throw RasterError(.invalidInput, "image file \(path) cannot be read") }
                guard size <= maxSVGBytes else { throw RasterError(.invalidInput, "SVG image \(path) is larger than 8 MiB") }
                guard let data = FileManager.default.contents(atPath: path) else { throw RasterError(.invalidInput, "image file \(path) cannot be read") }
                // Parse once now so that a broken SVG fails before any frame is written.
                _ = try SVGDocument(data: Array(data), path: path)
                return .svg(Array(data), path: path)
            }
            return .raster(try decodeRaster(path))
        }
    }

    /// Decodes a PNG or JPEG with gdk-pixbuf into Cairo's premultiplied ARGB32.
    static func decodeRaster(_ path: String) throws -> Raster {
        var w: Int32 = 0, h: Int32 = 0
        guard gdk_pixbuf_get_file_info(path, &w, &h) != nil else {
            throw RasterError(.invalidInput, "image file \(path) is not a PNG or JPEG image that can be decoded")
        }
        guard w > 0, h > 0, w <= maxImageSide, h <= maxImageSide else {
            throw RasterError(.invalidInput, "image file \(path) is \(w)×\(h) px; at most \(maxImageSide) px a side")
        }
        var err: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_file(path, &err) else {
            let msg = err.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let e = err { g_error_free(e) }
            throw RasterError(.invalidInput, "image file \(path) cannot be decoded: \(msg)")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels == (hasAlpha ? 4 : 3),
              let src = gdk_pixbuf_read_pixels(pixbuf) else {
            throw RasterError(.invalidInput, "image file \(path) has an unsupported pixel format")
        }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                for x in 0..<width {
                    let s = src + y * stride + x * channels
                    let a = hasAlpha ? UInt32(s[3]) : 255
                    func pm(_ c: UInt8) -> UInt8 { UInt8((UInt32(c) * a + 127) / 255) }
                    let word = (a << 24) | (UInt32(pm(s[0])) << 16) | (UInt32(pm(s[1])) << 8) | UInt32(pm(s[2]))
                    let d = (y * width + x) * 4
                    // Cairo stores native-endian 32-bit words.
                    withUnsafeBytes(of: word) { bytes in
                        for k in 0..<4 { dst[d + k] = bytes[k] }
                    }
                }
            }
        }
        return Raster(width: width, height: height, argb: out)
    }
}

/// A parsed SVG document (librsvg handle). Not thread-safe: one per worker.
final class SVGDocument {
    let handle: UnsafeMutablePointer<RsvgHandle>
    /// Intrinsic size (px = pt at 96 dpi) or viewBox size, for aspect ratios.
    let size: Size

    init(data: [UInt8], path: String) throws {
        var err: UnsafeMutablePointer<GError>?
        let flags = RSVG_HANDLE_FLAGS_NONE
        let h: UnsafeMutablePointer<RsvgHandle>? = data.withUnsafeBufferPointer { buf in
            let stream = g_memory_input_stream_new_from_data(buf.baseAddress, gssize(buf.count), nil)
            defer { g_object_unref(stream) }
            let file = g_file_new_for_path(path)
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            return rsvg_handle_new_from_stream_sync(stream, file, flags, nil, &err)
        }
        guard let handle = h else {
            let msg = err.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let e = err { g_error_free(e) }
            throw RasterError(.invalidInput, "SVG image \(path) cannot be parsed: \(msg.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        self.handle = handle
        rsvg_handle_set_dpi(handle, 96)
        var w = 0.0, hh = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &hh) != 0, w > 0, hh > 0 {
            size = Size(width: w, height: hh)
        } else {
            var hasViewBox: gboolean = 0
            var vb = RsvgRectangle()
            rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &vb)
            size = hasViewBox != 0 && vb.width > 0 && vb.height > 0 ? Size(width: vb.width, height: vb.height) : Size(width: 1, height: 1)
        }
    }

    deinit { g_object_unref(handle) }

    /// Renders the document fitted into `viewport` with CSS `color` (`currentColor`) set to
    /// `color`'s RGB, its alpha applied to the whole drawing.
    func render(in cr: OpaquePointer, viewport: Rect, currentColor color: Color) throws {
        func c(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
        let css = Array("svg { color: rgb(\(c(color.red)), \(c(color.green)), \(c(color.blue))); }".utf8)
        var err: UnsafeMutablePointer<GError>?
        let ok = css.withUnsafeBufferPointer { rsvg_handle_set_stylesheet(handle, $0.baseAddress, gsize($0.count), &err) }
        if ok == 0 {
            let msg = err.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let e = err { g_error_free(e) }
            throw RasterError(.library, "librsvg could not set a symbol's color: \(msg)")
        }
        guard color.alpha < 1 else { return try render(in: cr, viewport: viewport) }
        guard color.alpha > 0 else { return }
        cairo_push_group(cr)
        do { try render(in: cr, viewport: viewport) } catch { cairo_pattern_destroy(cairo_pop_group(cr)); throw error }
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, color.alpha)
    }

    /// Renders the document fitted into `viewport` (pt in `cr`'s user space).
    func render(in cr: OpaquePointer, viewport: Rect) throws {
        var vp = RsvgRectangle(x: viewport.x, y: viewport.y, width: viewport.width, height: viewport.height)
        var err: UnsafeMutablePointer<GError>?
        if rsvg_handle_render_document(handle, cr, &vp, &err) == 0 {
            let msg = err.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let e = err { g_error_free(e) }
            throw RasterError(.invalidInput, "librsvg could not render an SVG image: \(msg)")
        }
    }
}
