import CPNG
import CPNGWriter

/// Writes 8-bit RGBA PNGs (straight alpha, sRGB chunk) with libpng. Same pixels and settings
/// give the same bytes: no timestamps, no text chunks.
public enum PNGEncoder {
    /// Speed/size trade-off of the zlib stream and row filters. Measured on a 1179×2556 px
    /// frame of the default scene (README, "Performance"): UI frames are flat colors, so the Up
    /// filter turns most rows into zeros and fast zlib levels compress them well; adaptive
    /// filtering costs more time than it saves bytes until the slowest levels.
    public enum Compression: String, Sendable, CaseIterable {
        /// zlib level 1, `Z_RLE`, filter Up: ≈ 18 ms, 140 KB.
        case fast
        /// zlib level 3, default strategy, filter Up: ≈ 17 ms, 140 KB; the default.
        case `default`
        /// zlib level 9, default strategy, all filters chosen per row: ≈ 170 ms, 86 KB.
        case small

        var settings: (level: Int32, strategy: Int32, filters: Int32) {
            switch self {
            case .fast: return (1, Z_RLE, PNG_FILTER_UP)
            case .default: return (3, Z_DEFAULT_STRATEGY, PNG_FILTER_UP)
            case .small: return (9, Z_DEFAULT_STRATEGY, PNG_FILTER_NONE | PNG_FILTER_SUB | PNG_FILTER_UP | PNG_FILTER_AVG | PNG_FILTER_PAETH)
            }
        }
    }

    /// Encodes `image` as PNG.
    /// - Throws: `RasterError(.library)` with libpng's message when encoding fails.
    public static func encode(_ image: RGBAImage, compression: Compression = .default) throws -> [UInt8] {
        let s = compression.settings
        var result = image.pixels.withUnsafeBufferPointer { buf in
            cr_png_encode(buf.baseAddress, Int32(image.width), Int32(image.height), image.rowBytes, s.level, s.strategy, s.filters)
        }
        defer { cr_png_free(&result) }
        guard result.status == 0, let data = result.data else {
            let msg = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw RasterError(.library, "libpng could not encode a \(image.width)×\(image.height) px frame: \(msg)")
        }
        return Array(UnsafeBufferPointer(start: data, count: result.size))
    }
}
