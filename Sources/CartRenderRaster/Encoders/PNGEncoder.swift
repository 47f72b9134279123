import CPNG
import CPNGWriter

/// Writes 8-bit RGBA PNGs (straight alpha, sRGB chunk). Same pixels and settings give the same
/// bytes — no timestamps, no text chunks, and the same bytes whether or not a `PNGStripeCache`
/// supplied some of the compressed data.
///
/// Every row gets the Up filter, and the image is compressed in horizontal stripes of
/// `stripeRows` rows, each from a fresh zlib state (the way pigz splits a stream), so a stripe
/// equal to one of an earlier frame reuses its compressed bytes. libpng writes the chunks around
/// them.
public enum PNGEncoder {
    /// Speed/size trade-off of the zlib stream, measured on 1179×2556 px frames of the default
    /// scene, each compressed from scratch on one core (docs/performance.md). UI frames are
    /// flat colors: the Up filter turns most rows into zeros, and on those rows filters chosen per
    /// row gain nothing (libpng's adaptive filtering at level 9 made 75 kB frames in 127 ms).
    public enum Compression: String, Sendable, CaseIterable {
        /// zlib level 1, `Z_RLE`: ≈ 16 ms and 115 kB a frame.
        case fast
        /// zlib level 4 (lazy matching), the default: ≈ 28 ms and 77 kB a frame.
        case `default`
        /// zlib level 9: ≈ 85 ms and 75 kB a frame.
        case small

        var settings: (level: Int32, strategy: Int32) {
            switch self {
            case .fast: return (1, Z_RLE)
            case .default: return (4, Z_DEFAULT_STRATEGY)
            case .small: return (9, Z_DEFAULT_STRATEGY)
            }
        }
    }

    /// Rows per compressed stripe. Between consecutive frames of the default scene about 10 %
    /// of 32-row stripes change. Splitting costs under 1 % of the file size (at level 4, 8 bytes
    /// a stripe against one stream for the whole image).
    public static let stripeRows = 32

    /// Encodes `image` as PNG.
    /// - Throws: `RasterError(.library)` with libpng's or zlib's message when encoding fails.
    public static func encode(_ image: RGBAImage, compression: Compression = .default) throws -> [UInt8] {
        try image.withRows { try encode($0, compression: compression) }
    }

    /// Encodes `image` as an 8-bit palette PNG when it holds at most 256 distinct colors (a
    /// diff image: red, yellow and a few dozen grays), else as ``encode(_:compression:)`` does.
    /// Lossless either way: decoding gives `image`'s bytes. The palette is in order of first
    /// appearance, the rows unfiltered, the data compressed whole by libdeflate at level 6 (a
    /// 1179×2556 px diff image of the default scene with its tint changed: about 26 kB, against
    /// 74 kB in RGBA at ``Compression/fast``; Benchmarks/report-benchmark.sh). Same pixels, same bytes.
    /// - Throws: `RasterError(.library)` with libpng's or libdeflate's message when encoding fails.
    public static func encodeIndexed(_ image: RGBAImage) throws -> [UInt8] {
        var result = image.pixels.withUnsafeBufferPointer {
            cr_png_encode_indexed($0.baseAddress, image.width * 4, Int32(image.width), Int32(image.height), 6)
        }
        defer { cr_png_free(&result) }
        if result.status == 2 { return try encode(image, compression: .default) }
        guard result.status == 0, let data = result.data else {
            let msg = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw RasterError(.library, "could not encode a \(image.width)×\(image.height) px palette PNG: \(msg)")
        }
        return Array(UnsafeBufferPointer(start: data, count: result.size))
    }

    /// Encodes `rows` as PNG, reusing and adding to `cache`'s compressed stripes. With `canvas`
    /// and the `damage` of the draw that made `rows`, stripes the damage left alone are taken
    /// from the canvas's previous frame without reading their pixels. The bytes are the same
    /// with or without either.
    /// - Throws: `RasterError(.library)` with libpng's or zlib's message when encoding fails.
    public static func encode(_ rows: PixelRows, compression: Compression = .default, reusing cache: PNGStripeCache? = nil,
                              canvas: PNGCanvasStripes? = nil, damage: CanvasDamage? = nil) throws -> [UInt8] {
        let stream = try zlibStream(rows, compression: compression, cache: cache, canvas: canvas, damage: damage)
        var result = stream.withUnsafeBufferPointer { cr_png_wrap(Int32(rows.width), Int32(rows.height), $0.baseAddress, $0.count) }
        defer { cr_png_free(&result) }
        guard result.status == 0, let data = result.data else {
            let msg = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw RasterError(.library, "libpng could not encode a \(rows.width)×\(rows.height) px frame: \(msg)")
        }
        return Array(UnsafeBufferPointer(start: data, count: result.size))
    }

    /// The zlib stream of the image data (RFC 1950): header, the stripes' deflate blocks, a final
    /// empty block, the Adler-32 of all filtered rows.
    static func zlibStream(_ rows: PixelRows, compression: Compression, cache: PNGStripeCache?,
                           canvas: PNGCanvasStripes? = nil, damage: CanvasDamage? = nil) throws -> [UInt8] {
        let s = compression.settings
        let cache = cache?.accepts(rows, compression: compression) == true ? cache : nil
        var deflater: OpaquePointer?
        defer { cr_stripe_deflater_free(deflater) }
        // Header as zlib writes it for this level: 32 KiB window, FLEVEL from the level.
        let flevel: UInt16 = s.strategy == Z_RLE || s.level < 2 ? 0 : s.level < 6 ? 1 : s.level == 6 ? 2 : 3
        var header: UInt16 = 0x7800 | flevel << 6
        header += 31 - header % 31
        var stream: [UInt8] = [UInt8(header >> 8), UInt8(header & 0xFF)]
        stream.reserveCapacity(rows.width * rows.height / 16)
        var adler: UInt32 = 1
        var kept: [PNGStripeCache.Stripe] = []
        if canvas != nil, damage != nil { kept.reserveCapacity((rows.height + stripeRows - 1) / stripeRows) }
        for (index, y0) in stride(from: 0, to: rows.height, by: stripeRows).enumerated() {
            let range = y0..<min(rows.height, y0 + stripeRows)
            let stripe: PNGStripeCache.Stripe
            if let damage, let untouched = canvas?.stripe(index, range, of: rows, compression: compression, damage: damage) {
                stripe = untouched
            } else if let hit = cache?.stripe(index, of: rows, range) {
                stripe = hit
            } else {
                if deflater == nil {
                    deflater = cr_stripe_deflater_new(Int32(rows.width), s.level, s.strategy)
                    guard deflater != nil else { throw RasterError(.library, "zlib could not set up a compressor (out of memory?)") }
                }
                var out: UnsafePointer<UInt8>?
                var size = 0, rawSize = 0
                var stripeAdler: UInt32 = 0
                let status = cr_stripe_deflate(deflater, rows.base.assumingMemoryBound(to: UInt8.self), rows.stride, rows.format.c,
                                               Int32(range.lowerBound), Int32(range.upperBound), &out, &size, &stripeAdler, &rawSize)
                guard status == Z_OK, let out else {
                    throw RasterError(.library, "zlib could not compress rows \(range.lowerBound)–\(range.upperBound - 1) of a \(rows.width)×\(rows.height) px frame (error \(status))")
                }
                stripe = PNGStripeCache.Stripe(deflated: Array(UnsafeBufferPointer(start: out, count: size)), adler: stripeAdler, filteredSize: rawSize)
                cache?.add(stripe, index, of: rows, range)
            }
            if canvas != nil, damage != nil { kept.append(stripe) }
            stream += stripe.deflated
            adler = index == 0 ? stripe.adler : cr_adler32_combine(adler, stripe.adler, stripe.filteredSize)
        }
        if let canvas, let damage { canvas.keep(kept, of: rows, compression: compression, damage: damage) }
        stream += [0x03, 0x00] // final block: fixed Huffman codes, end of block only
        stream += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return stream
    }
}
