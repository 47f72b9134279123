import CartRenderCore
import CCairo
import CRsvg
import Foundation

/// An image file a scene names cannot be used: which one and why, as one sentence that starts
/// with "image file PATH" (`image file /a/b.png is truncated (the PNG data ends early)`).
public struct ImageError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// The image the scene names.
    public var source: ImageSource
    /// True when the file cannot be read (exit 66); false when its contents are unusable (65).
    public var unreadable: Bool
    /// The sentence, starting with `image file PATH`.
    public var message: String
    /// The error about `source`, saying `message`.
    public init(_ source: ImageSource, unreadable: Bool = false, _ message: String) {
        self.source = source; self.unreadable = unreadable; self.message = message
    }
    /// The sentence (``message``).
    public var description: String { message }
    /// 66 for a file that cannot be read, 65 for contents that cannot be used.
    public var exitCode: ExitCode { unreadable ? .noInput : .dataError }
}

/// The images a scene draws, decoded once before the first frame and shared by all workers:
/// raster files as premultiplied pixels, SVG files and symbol icons as their bytes (each worker
/// parses its own librsvg handle).
///
/// The format is taken from the file's first bytes, not its name: PNG through libpng
/// (`PNGDecoder`: strict about truncation, CRCs and size), JPEG through gdk-pixbuf after a walk of
/// its markers (libjpeg would fill a cut-off file with gray), SVG through librsvg. Nothing else
/// is handed to gdk-pixbuf, so its other loaders (TIFF, ICO, …) never see scene input. Every
/// limit is checked before the pixels are decoded; an SVG's XML is checked against
/// ``SVGLimits`` (filter parameters, nesting, and the images it embeds or references, which
/// share the pixel budget of raster files) and then drawn once here, so that documents librsvg
/// refuses only while drawing (too many `<use>` references) fail before any frame is written.
/// Image files are read from the scene's ``AssetFolder``; librsvg loads the files an SVG
/// references only from the SVG's own directory and below.
public final class ImageLibrary: @unchecked Sendable {
    /// Largest raster image side accepted (px).
    public static let maxImageSide = 8192
    /// Largest PNG or JPEG file accepted (bytes).
    public static let maxRasterBytes = 64 << 20
    /// Largest SVG file accepted (bytes).
    public static let maxSVGBytes = 8 << 20
    /// Most pixels of all the images one scene draws together: its raster files and the images
    /// its SVG files embed or reference (2 × 8192 × 8192: 512 MiB decoded), so that a cart of
    /// 1000 items cannot hold 1000 images of the largest size.
    public static let maxScenePixels = 2 * 8192 * 8192

    struct Raster {
        let width: Int
        let height: Int
        /// Cairo ARGB32: premultiplied, native-endian 32-bit words, `width × 4` bytes a row.
        let argb: [UInt8]

        /// Calls `body` with a view of the pixels.
        func withRows<R>(_ body: (PixelRows) throws -> R) rethrows -> R {
            try argb.withUnsafeBytes { buf in
                try body(PixelRows(base: buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, width: width, height: height,
                                   stride: width * 4, format: .premultipliedARGB32))
            }
        }
    }

    enum Entry {
        case raster(Raster)
        /// SVG document bytes and the path it came from (for relative references).
        case svg([UInt8], path: String)
    }

    private(set) var entries: [ImageSource: Entry] = [:]

    /// Loads every image in `sources` (a screen lists its product images and its own symbols).
    /// - Parameter assets: the folder image files must lie in; nil reads them as named.
    /// - Throws: `ImageError` for an unreadable, corrupt, truncated or oversized image file, or
    ///   one outside `assets`; `RasterError(.missingDependency)` when Bootstrap Icons is not
    ///   installed (`ProjectData`).
    public init(sources: [ImageSource], assets: AssetFolder? = nil) throws {
        let folder = assets ?? AssetFolder(directory: "/", allowsOutside: true)
        var pixels = 0
        for source in sources where entries[source] == nil {
            entries[source] = try Self.load(source, from: folder, pixels: &pixels)
        }
    }

    /// Loads one image, adding its pixels (a raster's, or those an SVG embeds or references)
    /// to `pixels`, the scene's total so far.
    /// - Throws: `ImageError` as ``init(sources:assets:)``, also when the total passes ``maxScenePixels``.
    static func load(_ source: ImageSource, from folder: AssetFolder, pixels: inout Int) throws -> Entry {
        func add(_ n: Int, _ path: String) throws {
            pixels += n
            guard pixels <= maxScenePixels else {
                throw ImageError(source, "image file \(path) brings the scene's images to more than \(maxScenePixels / 1_000_000) million px together; at most \(maxScenePixels / 1_000_000) million (512 MiB decoded)")
            }
        }
        switch source {
        case .symbol(let name):
            if let svg = Symbols.standIns[name] { return .svg(Array(svg.utf8), path: "symbol:\(name)") }
            guard let file = Symbols.bootstrapNames[name] else { throw ImageError(source, "unknown symbol \"\(name)\"") }
            let path = try ProjectData.iconDirectory() + "/" + file + ".svg"
            do {
                return .svg(try RegularFile.read(path, limit: maxSVGBytes), path: path)
            } catch {
                let problem = error.problem == .missing ? "is missing" : error.reason(notA: "an icon")
                throw RasterError(.missingDependency, "the icon \(path) \(problem); \(ProjectData.setup)")
            }
        case .file(let path):
            let isSVG = path.lowercased().hasSuffix(".svg")
            let limit = isSVG ? maxSVGBytes : maxRasterBytes
            let bytes = try readFile(path, limit: limit, source: source, from: folder)
            guard !bytes.isEmpty else { throw ImageError(source, "image file \(path) is empty") }
            if isSVG {
                try checkSVG(bytes, path: path, source: source) { try add($0, path) }
                return .svg(bytes, path: path)
            }
            let raster = try decodeRaster(bytes, path: path, source: source)
            try add(raster.width * raster.height, path)
            return .raster(raster)
        }
    }

    /// Reads at most `limit` bytes of a regular file in `folder` (``AssetFolder``, through
    /// ``RegularFile``: never blocks on a FIFO).
    /// - Throws: `ImageError` starting "image file PATH": unreadable (exit 66) when it is missing,
    ///   not a regular file or cannot be read; not unreadable (65) when it is larger than `limit`,
    ///   outside the folder or reached through a symbolic link.
    static func readFile(_ path: String, limit: Int, source: ImageSource, from folder: AssetFolder) throws -> [UInt8] {
        do {
            return try folder.read(path, limit: limit)
        } catch {
            throw ImageError(source, unreadable: error.unreadable,
                             "image file \(path) \(error.reason(folder: folder, notA: "an image"))")
        }
    }

    /// Parses an SVG file, checks it against ``SVGLimits`` and draws it once at 64×64 px.
    /// - Parameter admit: called, before drawing, with the pixels of the raster images it
    ///   embeds or references; throws to refuse them.
    static func checkSVG(_ bytes: [UInt8], path: String, source: ImageSource, admit: (Int) throws -> Void = { _ in }) throws {
        do {
            let doc = try SVGDocument(data: bytes, path: path)
            let pixels: Int
            do { pixels = try SVGLimits.check(bytes, path: path) } catch { throw ImageError(source, "image file \(path) \(error.why)") }
            try admit(pixels)
            try CairoImageSurface(width: 64, height: 64).draw("drawing the SVG image \(path)") { cr in
                try doc.render(in: cr, viewport: Rect(x: 0, y: 0, width: 64, height: 64))
            }
        } catch let e as SVGDocument.Failure {
            throw ImageError(source, "image file \(path) \(e.description)")
        }
    }

    /// Decodes a PNG (libpng) or a JPEG (gdk-pixbuf) into Cairo's premultiplied ARGB32.
    static func decodeRaster(_ bytes: [UInt8], path: String, source: ImageSource) throws -> Raster {
        func invalid(_ why: String) -> ImageError { ImageError(source, "image file \(path) \(why)") }
        func checkSize(_ w: Int, _ h: Int) throws {
            guard w > 0, h > 0, w <= maxImageSide, h <= maxImageSide else {
                throw invalid("is \(w)×\(h) px; at most \(maxImageSide) px a side")
            }
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            // IHDR is the first chunk: width and height at bytes 16 and 20, big-endian.
            if bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) {
                let be = { (o: Int) in bytes[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
                try checkSize(be(16), be(20))
            }
            let image: RGBAImage
            do { image = try PNGDecoder.decode(bytes) } catch let e as ImageDecodingError {
                switch e.kind {
                case .truncated: throw invalid("is truncated (the PNG data ends early)")
                default: throw invalid("is not a valid PNG image: \(e.message)")
                }
            }
            try checkSize(image.width, image.height)
            return premultiplied(image)
        }
        let jpeg: JPEGStructure
        do { jpeg = try JPEGStructure.parse(bytes) } catch let p as JPEGStructure.Problem {
            switch p {
            case .notJPEG: throw invalid("is not a PNG or JPEG image")
            case .truncated: throw invalid("is truncated (the JPEG data ends before its end marker)")
            case .malformed(let why): throw invalid("is not a valid JPEG image: \(why)")
            }
        }
        try checkSize(jpeg.width, jpeg.height)
        return try decodeJPEG(bytes, invalid: invalid)
    }

    /// Straight-alpha RGBA → premultiplied native-endian ARGB32 (``PixelRows/copy(to:stride:format:)``).
    static func premultiplied(_ image: RGBAImage) -> Raster {
        var out = [UInt8](repeating: 0, count: image.width * image.height * 4)
        image.withRows { rows in
            out.withUnsafeMutableBytes { dst in
                if let base = dst.baseAddress { rows.copy(to: base, stride: image.width * 4, format: .premultipliedARGB32) }
            }
        }
        return Raster(width: image.width, height: image.height, argb: out)
    }

    /// Decodes JPEG bytes with gdk-pixbuf's JPEG loader (no format sniffing).
    static func decodeJPEG(_ bytes: [UInt8], invalid: (String) -> ImageError) throws -> Raster {
        var err: UnsafeMutablePointer<GError>?
        func failure() -> ImageError {
            let msg = err.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let e = err { g_error_free(e); err = nil }
            return invalid("cannot be decoded as JPEG: \(msg)")
        }
        guard let loader = gdk_pixbuf_loader_new_with_type("jpeg", &err) else { throw failure() }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let wrote = bytes.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), &err) }
        guard wrote != 0 else {
            var ignored: UnsafeMutablePointer<GError>?
            gdk_pixbuf_loader_close(loader, &ignored)
            if let e = ignored { g_error_free(e) }
            throw failure()
        }
        guard gdk_pixbuf_loader_close(loader, &err) != 0 else { throw failure() }
        guard let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { throw invalid("cannot be decoded as JPEG") }
        // The loader owns the pixbuf; it is released with the loader.
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels == (hasAlpha ? 4 : 3),
              let src = gdk_pixbuf_read_pixels(pixbuf) else {
            throw invalid("has an unsupported pixel format")
        }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBytes { dst in
            guard let base = dst.baseAddress else { return }
            if hasAlpha {
                PixelRows(base: UnsafeRawPointer(src), width: width, height: height, stride: stride, format: .straightRGBA)
                    .copy(to: base, stride: width * 4, format: .premultipliedARGB32)
                return
            }
            // RGB rows: made opaque RGBA one row at a time, then converted like any other row.
            var row = [UInt8](repeating: 255, count: width * 4)
            for y in 0..<height {
                let s = src + y * stride
                for x in 0..<width { row[x * 4] = s[x * 3]; row[x * 4 + 1] = s[x * 3 + 1]; row[x * 4 + 2] = s[x * 3 + 2] }
                row.withUnsafeBytes { r in
                    PixelRows(base: r.baseAddress!, width: width, height: 1, stride: width * 4, format: .straightRGBA)
                        .copy(to: base + y * width * 4, stride: width * 4, format: .premultipliedARGB32)
                }
            }
        }
        return Raster(width: width, height: height, argb: out)
    }
}

/// A parsed SVG document (librsvg handle). Not thread-safe: one per worker.
final class SVGDocument {
    let handle: UnsafeMutablePointer<RsvgHandle>
    /// The file the document came from (for messages and relative references).
    let path: String
    /// Intrinsic size (px = pt at 96 dpi) or viewBox size, for aspect ratios.
    let size: Size
    /// Whether the document has text elements, which librsvg lays out with Pango: those are
    /// drawn holding `FontEnvironment.layoutLock`.
    let hasText: Bool

    init(data: [UInt8], path: String) throws {
        hasText = data.firstRange(of: Array("<text".utf8)) != nil
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
            throw Failure(path: path, parsing: true, librsvg: msg)
        }
        self.handle = handle
        self.path = path
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

    /// Renders the document fitted into `viewport` (pt in `cr`'s user space).
    func render(in cr: OpaquePointer, viewport: Rect) throws {
        var vp = RsvgRectangle(x: viewport.x, y: viewport.y, width: viewport.width, height: viewport.height)
        var err: UnsafeMutablePointer<GError>?
        if hasText { FontEnvironment.layoutLock.lock() }
        defer { if hasText { FontEnvironment.layoutLock.unlock() } }
        if rsvg_handle_render_document(handle, cr, &vp, &err) == 0 {
            let msg = err.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let e = err { g_error_free(e) }
            throw Failure(path: path, parsing: false, librsvg: msg)
        }
    }

    /// librsvg refused a document, while parsing it or while drawing it.
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var parsing: Bool
        /// librsvg's message, e.g. `XML parse error: Error domain 1 code 89 on line 14 column 76
        /// of data: Detected an entity reference loop`.
        var librsvg: String

        /// `is not a valid SVG image (line 14, column 76: detected an entity reference loop)`.
        var description: String {
            var why = librsvg.trimmingCharacters(in: .whitespacesAndNewlines)
            // libxml2's wording through librsvg: keep the position and the sentence.
            if let m = why.range(of: #"^XML parse error: Error domain \d+ code \d+ on line (\d+) column (\d+) of data: "#, options: .regularExpression) {
                let head = String(why[m])
                let numbers = head.split(whereSeparator: { !$0.isNumber }).suffix(2)
                let rest = why[m.upperBound...]
                why = "line \(numbers.first!), column \(numbers.last!): " + (rest.first?.lowercased() ?? "") + rest.dropFirst()
            }
            return parsing ? "is not a valid SVG image (\(why))" : "cannot be drawn by librsvg (\(why))"
        }
    }
}

extension SVGDocument.Failure {
    /// As a raster error, for SVGs drawn while rendering frames (exit 65).
    var rasterError: RasterError { RasterError(.invalidInput, "SVG image \(path) \(description)") }
}

extension SVGDocument {
    /// Rasterizes an SVG document with librsvg at `scale` pixels per SVG unit (for checking
    /// SVG frames against PNG frames with a second renderer).
    static func rasterize(_ data: [UInt8], width: Int, height: Int, scale: Double) throws -> RGBAImage {
        let doc: SVGDocument
        do { doc = try SVGDocument(data: data, path: "/frame.svg") } catch let f as SVGDocument.Failure { throw f.rasterError }
        let surface = try CairoImageSurface(width: width, height: height)
        try surface.draw("drawing an SVG frame with librsvg") { cr in
            cairo_scale(cr, scale, scale)
            do {
                try doc.render(in: cr, viewport: Rect(x: 0, y: 0, width: Double(width) / scale, height: Double(height) / scale))
            } catch let f as SVGDocument.Failure { throw f.rasterError }
        }
        return surface.image
    }
}
