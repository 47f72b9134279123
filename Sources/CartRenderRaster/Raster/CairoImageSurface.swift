import CCairo

/// A Cairo image surface owned by this object: its status is checked when it is created and
/// after drawing, and `deinit` destroys it. Every image surface of the raster layer is one of
/// these; the `cairo_surface_t *` never leaves CartRenderRaster.
///
/// ```swift
/// let surface = try CairoImageSurface(width: 390, height: 844)
/// try surface.draw("drawing a frame") { cr in cairo_paint(cr) }
/// let image = surface.image        // straight RGBA
/// ```
final class CairoImageSurface {
    /// The pixel formats the raster layer uses.
    enum Format {
        /// `CAIRO_FORMAT_ARGB32`: premultiplied colour, native-endian 32-bit words (frames, images).
        case argb32
        /// `CAIRO_FORMAT_A8`: alpha only (scratch surfaces for text outlines).
        case a8

        var cairo: cairo_format_t { self == .argb32 ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_A8 }
    }

    /// The surface; valid while this object lives. Cairo patterns made from it hold their own
    /// reference.
    let pointer: OpaquePointer
    /// Size in px.
    let width: Int
    let height: Int
    let format: Format

    /// A new surface of `width × height` px, every pixel transparent black.
    /// - Throws: `RasterError(.library)` naming Cairo's reason and the size, such as
    ///   `Cairo cannot create a 40000×10 px image surface: invalid value (typically too big) for the size of the input (surface, pattern, etc.)`.
    init(width: Int, height: Int, format: Format = .argb32) throws {
        func failure(_ reason: String) -> RasterError {
            RasterError(.library, "Cairo cannot create a \(width)×\(height) px image surface: \(reason)")
        }
        guard width >= 0, height >= 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw failure(Self.reason(CAIRO_STATUS_INVALID_SIZE))
        }
        // Cairo returns an error surface rather than NULL; its status says why.
        guard let surface = cairo_image_surface_create(format.cairo, Int32(width), Int32(height)) else {
            throw failure(Self.reason(CAIRO_STATUS_NO_MEMORY))
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw failure(Self.reason(status))
        }
        pointer = surface
        self.width = width
        self.height = height
        self.format = format
    }

    deinit { cairo_surface_destroy(pointer) }

    /// A new ARGB32 surface holding a copy of `rows`, premultiplied (``PixelRows/copy(to:stride:format:)``).
    /// - Throws: as ``init(width:height:format:)``.
    static func copying(_ rows: PixelRows) throws -> CairoImageSurface {
        let surface = try CairoImageSurface(width: rows.width, height: rows.height)
        cairo_surface_flush(surface.pointer)
        if let data = cairo_image_surface_get_data(surface.pointer) {
            rows.copy(to: data, stride: Int(cairo_image_surface_get_stride(surface.pointer)), format: .premultipliedARGB32)
        }
        cairo_surface_mark_dirty(surface.pointer)
        try surface.checkAfterDrawing("copying pixels")
        return surface
    }

    /// A new ARGB32 surface holding `image`, premultiplied.
    /// - Throws: as ``init(width:height:format:)``.
    static func copying(_ image: RGBAImage) throws -> CairoImageSurface {
        try image.withRows { try copying($0) }
    }

    /// Runs `body` with a new drawing context on this surface, then checks the context's and the
    /// surface's status.
    /// - Parameter what: what is drawn, for the error message (`"drawing a frame"`).
    /// - Throws: what `body` throws; `RasterError(.library)` when Cairo reports a failure.
    func draw<R>(_ what: String, _ body: (OpaquePointer) throws -> R) throws -> R {
        guard let cr = cairo_create(pointer) else { throw failure(CAIRO_STATUS_NO_MEMORY, what) }
        defer { cairo_destroy(cr) }
        let result = try body(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw failure(status, what) }
        try checkAfterDrawing(what)
        return result
    }

    /// Runs `body` with a new drawing context on the part `rectangle` (x, y, width, height in
    /// px) of this surface — a subsurface whose origin is the rectangle's top-left and whose
    /// drawing stays inside it — then checks the statuses as ``draw(_:_:)`` does.
    func draw<R>(_ what: String, rectangle r: (x: Int, y: Int, width: Int, height: Int), _ body: (OpaquePointer) throws -> R) throws -> R {
        guard let sub = cairo_surface_create_for_rectangle(pointer, Double(r.x), Double(r.y), Double(r.width), Double(r.height)) else {
            throw failure(CAIRO_STATUS_NO_MEMORY, what)
        }
        defer { cairo_surface_destroy(sub) }
        guard let cr = cairo_create(sub) else { throw failure(CAIRO_STATUS_NO_MEMORY, what) }
        defer { cairo_destroy(cr) }
        let result = try body(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw failure(status, what) }
        cairo_surface_flush(sub)
        try checkAfterDrawing(what)
        return result
    }

    /// Finishes pending drawing (`cairo_surface_flush`) and checks the surface's status.
    /// - Parameter what: what was drawn, for the error message.
    /// - Throws: `RasterError(.library)` naming Cairo's reason, `what` and the size.
    func checkAfterDrawing(_ what: String) throws {
        cairo_surface_flush(pointer)
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else { throw failure(status, what) }
    }

    /// Calls `body` with the surface's pixels (premultiplied ARGB32 rows; flushed first), valid
    /// only during the call.
    /// - Precondition: the format is ``Format/argb32``.
    func withPixels<R>(_ body: (PixelRows) throws -> R) rethrows -> R {
        precondition(format == .argb32, "CairoImageSurface.withPixels: only ARGB32 surfaces hold RGBA pixels")
        cairo_surface_flush(pointer)
        // A surface with no pixels has no data; any non-null base will do, no row is read.
        let base = UnsafeRawPointer(cairo_image_surface_get_data(pointer)) ?? UnsafeRawPointer(bitPattern: 1)!
        return try body(PixelRows(base: base, width: width, height: height,
                                  stride: Int(cairo_image_surface_get_stride(pointer)), format: .premultipliedARGB32))
    }

    /// A copy of the pixels with straight alpha.
    var image: RGBAImage { withPixels { RGBAImage($0) } }

    private func failure(_ status: cairo_status_t, _ what: String) -> RasterError {
        RasterError(.library, "Cairo failed while \(what) on a \(width)×\(height) px image surface: \(Self.reason(status))")
    }

    /// Cairo's sentence for a status.
    static func reason(_ status: cairo_status_t) -> String { String(cString: cairo_status_to_string(status)) }
}
