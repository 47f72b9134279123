import CCairo
import CPNGWriter

/// A borrowed view of an image's rows of 4-byte pixels: Cairo's canvas as drawn, or the bytes
/// of an `RGBAImage`. Valid only inside the closure that hands it out (the memory belongs to the
/// canvas or the image), so nothing is copied to look at a frame.
public struct PixelRows {
    /// How the 4 bytes of a pixel are laid out.
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
    public let height: Int
    /// Bytes from the start of one row to the next (≥ `width × 4`).
    public let stride: Int
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

extension RGBAImage {
    /// Copies `rows` into a new image, dividing premultiplied colour by alpha (rounded, as
    /// `cairo_surface_write_to_png` does).
    public init(_ rows: PixelRows) {
        let bytes = [UInt8](unsafeUninitializedCapacity: rows.width * rows.height * 4) { dst, count in
            cr_rows_to_rgba(rows.base.assumingMemoryBound(to: UInt8.self), rows.stride, rows.format.c,
                            dst.baseAddress, rows.width * 4, Int32(rows.width), Int32(rows.height))
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

extension PixelRows {
    /// The pixels of a Cairo image surface (flushed by the caller).
    init(surface: OpaquePointer) {
        // A surface with no pixels has no data; any non-null base will do, no row is read.
        self.init(base: UnsafeRawPointer(cairo_image_surface_get_data(surface)) ?? UnsafeRawPointer(bitPattern: 1)!,
                  width: Int(cairo_image_surface_get_width(surface)), height: Int(cairo_image_surface_get_height(surface)),
                  stride: Int(cairo_image_surface_get_stride(surface)), format: .premultipliedARGB32)
    }
}
