import CartRenderCore
import CPNG
import CPNGWriter
import Foundation

/// Why a PNG could not be decoded, as one sentence (`description`) and a kind a caller can map to
/// an exit code (docs/command-line.md: 65 for corrupt input, 66 for a missing or unreadable file).
public struct ImageDecodingError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// The broad cause.
    public enum Kind: Equatable, Sendable {
        /// The file could not be read (missing, unreadable, a directory…).
        case unreadable
        /// The data does not start with the 8-byte PNG signature.
        case notPNG
        /// The data ends before the image does.
        case truncated
        /// The image is larger than ``PNGDecoder/maxSide`` px a side or ``PNGDecoder/maxDecodedBytes``.
        case tooLarge
        /// libpng rejected the data (bad CRC, bad zlib stream, bad chunk…); `message` holds its words.
        case corrupt
    }

    /// The broad cause.
    public let kind: Kind
    /// What went wrong, lower case, no trailing period, e.g. `"truncated PNG data"`.
    public let message: String
    /// The file being decoded, when decoding from a path.
    public let path: String?

    /// The error of `kind` saying `message`, about the file at `path` when known.
    public init(kind: Kind, message: String, path: String? = nil) {
        self.kind = kind
        self.message = message
        self.path = path
    }

    /// `"cannot decode PNG frames/a.png: truncated PNG data"`, or without the path for in-memory data.
    public var description: String {
        if let path { return "cannot decode PNG \(path): \(message)" }
        return "cannot decode PNG data: \(message)"
    }

    /// 66 for a file that cannot be read, 65 for data that cannot be decoded.
    public var exitCode: ExitCode { kind == .unreadable ? .noInput : .dataError }

    func at(path: String) -> ImageDecodingError {
        ImageDecodingError(kind: kind, message: message, path: path)
    }
}

/// Decodes PNG files of any color type and bit depth into 8-bit straight-alpha sRGB ``RGBAImage``s.
///
/// Palette, grayscale, gray+alpha, RGB and RGBA images at 1–16 bits per sample, with or without
/// `tRNS` transparency and Adam7 interlacing, all come out as 8-bit RGBA with straight
/// (non-premultiplied) alpha. It uses libpng's simplified `png_image` API, which reports errors as
/// status codes rather than through `longjmp`, so every failure becomes an ``ImageDecodingError``.
/// PNGs that are only inflate and unfilter for that API (8-bit RGBA, not interlaced, sRGB, every
/// CRC right: what ``PNGEncoder`` writes) are inflated by libdeflate instead, to the same pixels.
///
/// Color: a PNG without a `gAMA`/`sRGB` chunk is taken to be sRGB and its 8-bit samples are passed
/// through unchanged; 16-bit samples without such a chunk are also taken as sRGB (libpng would
/// otherwise assume linear light) and scaled to 8 bits with rounding (`v16 = v8 × 257` maps back to
/// `v8`). A PNG whose `gAMA` differs from sRGB's is converted to sRGB by libpng.
public enum PNGDecoder {
    /// The largest accepted width or height, in px (docs/scene-file.md, “Limits”: canvases over 16384 px a side are refused).
    public static let maxSide = 16_384
    /// The largest accepted decoded size, in bytes (`width × height × 4`): 256 MiB.
    public static let maxDecodedBytes = 256 << 20
    /// The largest PNG file read from a path, in bytes: 512 MiB, twice ``maxDecodedBytes`` (even
    /// uncompressed, a PNG within that limit takes only a little more than 256 MiB).
    public static let maxFileBytes = 512 << 20

    // png.h macros that are composite expressions and do not import into Swift.
    private static let formatRGBA: UInt32 = 0x02 | 0x01   // PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA
    private static let flag16BitSRGB: UInt32 = 0x04        // PNG_IMAGE_FLAG_16BIT_sRGB
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Decodes a PNG held in memory.
    ///
    /// - Parameter data: the bytes of a PNG file.
    /// - Returns: the image in 8-bit sRGB RGBA, straight alpha, `width × height` px.
    /// - Throws: ``ImageDecodingError`` with kind `.notPNG` (bad signature), `.truncated` (data ends
    ///   early), `.tooLarge` (over ``maxSide`` px a side or ``maxDecodedBytes``) or `.corrupt`
    ///   (libpng's own message, e.g. a CRC or zlib error).
    /// - Complexity: O(width × height).
    public static func decode(_ data: [UInt8]) throws -> RGBAImage {
        guard data.count >= signature.count, Array(data.prefix(signature.count)) == signature else {
            if data.count < signature.count && signature.starts(with: data) && !data.isEmpty {
                throw ImageDecodingError(kind: .truncated, message: "truncated PNG data")
            }
            throw ImageDecodingError(kind: .notPNG, message: "not a PNG file")
        }

        // libpng's memory reader keeps a pointer into `data` until finish_read, so one scope holds both.
        return try data.withUnsafeBytes { try decode(signedBytes: $0) }
    }

    private static func decode(signedBytes bytes: UnsafeRawBufferPointer) throws -> RGBAImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        // When a call fails libpng frees its own state; after success we own it until finish_read.
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw libpngError(image)
        }

        let width = Int(image.width)
        let height = Int(image.height)
        guard width <= maxSide, height <= maxSide else {
            png_image_free(&image)
            throw ImageDecodingError(
                kind: .tooLarge,
                message: "image is \(width)×\(height) px, over the limit of \(maxSide) px a side")
        }
        let byteCount = width * height * 4
        guard byteCount <= maxDecodedBytes else {
            png_image_free(&image)
            throw ImageDecodingError(
                kind: .tooLarge,
                message: "image of \(width)×\(height) px would take \(byteCount >> 20) MiB decoded, over the limit of \(maxDecodedBytes >> 20) MiB")
        }

        var pixels = [UInt8](repeating: 0, count: byteCount)
        // The PNGs cartrender writes (8-bit RGBA, sRGB) are inflate and unfilter only:
        // libdeflate inflates them about twenty times faster than zlib. Anything else, and
        // anything the fast path does not accept, is libpng's.
        let fast = pixels.withUnsafeMutableBytes { out in
            cr_png_decode_rgba8(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int32(width), Int32(height),
                                out.bindMemory(to: UInt8.self).baseAddress)
        }
        if fast == 1 {
            png_image_free(&image)
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
        image.format = formatRGBA
        image.flags |= flag16BitSRGB
        let finished = pixels.withUnsafeMutableBytes { out in
            png_image_finish_read(&image, nil, out.baseAddress, Int32(width * 4), nil)
        }
        guard finished != 0 else { throw libpngError(image) }
        // libpng stops once the pixels are read; a file cut inside or before IEND still decodes.
        guard hasCompleteIEND(bytes) else {
            throw ImageDecodingError(kind: .truncated, message: "truncated PNG data")
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Whether the chunk sequence after the signature reaches a whole `IEND` chunk (bytes after it
    /// are tolerated, as libpng does). Only called once libpng has accepted the chunks before it.
    private static func hasCompleteIEND(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = signature.count
        while offset + 12 <= bytes.count {
            let length = (0..<4).reduce(0) { ($0 << 8) | Int(bytes[offset + $1]) }
            let isIEND = bytes[offset + 4] == 0x49 && bytes[offset + 5] == 0x45
                && bytes[offset + 6] == 0x4E && bytes[offset + 7] == 0x44
            let end = offset + 12 + length   // length, type, data, CRC
            if end > bytes.count { return false }
            if isIEND { return true }
            offset = end
        }
        return false
    }

    /// Reads and decodes the PNG file at `path`.
    ///
    /// - Parameter path: a file system path.
    /// - Returns: the image in 8-bit sRGB RGBA, straight alpha.
    /// - Throws: ``ImageDecodingError`` naming `path`: kind `.unreadable` when the file is missing,
    ///   not a regular file or cannot be read (``RegularFile``: a FIFO is refused, not waited on),
    ///   `.tooLarge` over ``maxFileBytes``, otherwise as ``decode(_:)``.
    public static func decode(contentsOf path: String) throws -> RGBAImage {
        let data: [UInt8]
        do {
            data = try RegularFile.read(path, limit: maxFileBytes)
        } catch {
            throw ImageDecodingError(kind: error.exitCode == .noInput ? .unreadable : .tooLarge, message: error.reason(), path: path)
        }
        do {
            return try decode(data)
        } catch let error as ImageDecodingError {
            throw error.at(path: path)
        }
    }

    /// Turns the failure recorded in `image` into a Swift error. libpng has already freed its state.
    private static func libpngError(_ image: png_image) -> ImageDecodingError {
        var message = image.message
        let text = withUnsafeBytes(of: &message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        // png_image_memory_read: "read beyond end of data"; the IDAT reader: "Not enough image data".
        if text.contains("beyond end of data") || text.contains("Not enough image data") {
            return ImageDecodingError(kind: .truncated, message: "truncated PNG data")
        }
        let said = text.isEmpty ? "unknown error" : text
        return ImageDecodingError(kind: .corrupt, message: "corrupt PNG data (libpng: \(said))")
    }
}
