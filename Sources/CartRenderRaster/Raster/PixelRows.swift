import CPNGWriter

/// A borrowed view of an image's rows of 4-byte pixels: Cairo's canvas as drawn, or the bytes
/// of an `RGBAImage`. Valid only inside the closure that hands it out (the memory belongs to the
/// canvas or the image), so nothing is copied to look at a frame.
public struct PixelRows {
    /// How the 4 bytes of a pixel are laid out.
    ///
    /// The conversions between the two formats are ``PixelRows/copy(to:stride:format:)`` (and
    /// `RGBAImage(_:)`, which uses it); both round to nearest, 8 bits a channel:
    /// - straight → premultiplied: `c' = (c · a + 127) / 255` (c · a / 255 never falls half-way);
    /// - premultiplied → straight: `c = min(255, (c' · 255 + a / 2) / a)`, halves up, as
    ///   `cairo_surface_write_to_png` does.
    ///
    /// Alpha 255 leaves colour unchanged both ways; alpha 0 gives (0, 0, 0, 0) both ways.
    /// Premultiplying loses precision at low alpha, so a round trip is exact only at alpha 255.
    public enum Format: Sendable {
        /// R, G, B, A bytes, straight alpha (`RGBAImage`).
        case straightRGBA
        /// Cairo's `CAIRO_FORMAT_ARGB32`: native-endian 32-bit words, alpha in the high byte,
        /// colour premultiplied by alpha.
        case premultipliedARGB32

        var c: cr_row_format { self == .straightRGBA ? CR_ROWS_RGBA : CR_ROWS_CAIRO_ARGB32 }
    }

    /// First byte of row 0.
    public let base: UnsafeRawPointer
    /// Width and height in pixels.
    public let width: Int
    /// Rows (px).
    public let height: Int
    /// Bytes from the start of one row to the next (≥ `width × 4`).
    public let stride: Int
    /// How the 4 bytes of a pixel are laid out, and whether alpha is premultiplied.
    public let format: Format

    /// A view of memory the caller keeps alive while the view is used.
    /// - Precondition: `stride >= width × 4`.
    public init(base: UnsafeRawPointer, width: Int, height: Int, stride: Int, format: Format) {
        precondition(width >= 0 && height >= 0 && stride >= width * 4, "PixelRows: a stride of \(stride) bytes cannot hold \(width) px")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
    }

    /// Bytes of row `y` that hold pixels (`width × 4`, without padding).
    public func row(_ y: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + y * stride, count: width * 4)
    }
}

extension PixelRows {
    /// Copies the pixels into `destination`, rows `stride` bytes apart, converting them to
    /// `format`: the one place where alpha is premultiplied or divided out (rounding in
    /// ``Format``). Rows already in `format` are copied unchanged.
    /// - Precondition: `destination` holds `height` rows of `stride ≥ width × 4` bytes.
    public func copy(to destination: UnsafeMutableRawPointer, stride: Int, format: Format) {
        precondition(stride >= width * 4, "PixelRows.copy: a stride of \(stride) bytes cannot hold \(width) px")
        let src = base.assumingMemoryBound(to: UInt8.self), dst = destination.assumingMemoryBound(to: UInt8.self)
        switch format {
        case .straightRGBA:
            cr_rows_to_rgba(src, self.stride, self.format.c, dst, stride, Int32(width), Int32(height))
        case .premultipliedARGB32:
            cr_rows_to_argb32(src, self.stride, self.format.c, dst, stride, Int32(width), Int32(height))
        }
    }
}

extension RGBAImage {
    /// Copies `rows` into a new image, dividing premultiplied colour by alpha (rounded, as
    /// `cairo_surface_write_to_png` does; see ``PixelRows/Format``).
    public init(_ rows: PixelRows) {
        let bytes = [UInt8](unsafeUninitializedCapacity: rows.width * rows.height * 4) { dst, count in
            if let base = dst.baseAddress { rows.copy(to: base, stride: rows.width * 4, format: .straightRGBA) }
            count = rows.width * rows.height * 4
        }
        self.init(width: rows.width, height: rows.height, pixels: bytes)
    }

    /// Calls `body` with a view of this image's rows.
    public func withRows<R>(_ body: (PixelRows) throws -> R) rethrows -> R {
        try pixels.withUnsafeBytes { buf in
            // An empty image has no storage; any non-null base will do, no row is read.
            let base = buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            return try body(PixelRows(base: base, width: width, height: height, stride: rowBytes, format: .straightRGBA))
        }
    }
}
