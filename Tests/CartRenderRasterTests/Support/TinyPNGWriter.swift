/// Builds PNG files byte by byte, without libpng, so the decoder is tested against an independent
/// encoder: zlib "stored" (uncompressed) blocks, filter type 0 on every row, CRC-32 and Adler-32
/// computed here (PNG spec, RFC 1950/1951).
struct TinyPNGWriter {
    enum ColorType: UInt8 {
        case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6

        var samplesPerPixel: Int {
            switch self {
            case .gray, .palette: return 1
            case .grayAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }
    }

    var width: Int
    var height: Int
    var colorType: ColorType
    var bitDepth: Int
    /// Samples row by row, `samplesPerPixel` per pixel, each in `0 ..< 2^bitDepth`.
    var samples: [Int]
    /// PLTE entries (r, g, b) for palette images.
    var palette: [(UInt8, UInt8, UInt8)] = []
    /// Raw tRNS chunk payload, if any.
    var transparency: [UInt8]? = nil
    /// Adam7 interlacing.
    var interlaced = false
    /// gAMA value × 100000, if any.
    var gamma: UInt32? = nil
    /// Override the IHDR size (to declare huge images without providing their data).
    var declaredSize: (width: Int, height: Int)? = nil
    /// Filter types (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) for the rows in turn; 8-bit,
    /// not interlaced only. Empty: None on every row.
    var filters: [UInt8] = []
    /// Image data split into IDAT chunks of at most this many bytes; nil: one chunk.
    var idatChunkBytes: Int? = nil
    /// Chunks (type, data) written after IHDR and gAMA, before the palette and the image data.
    var extraChunks: [(String, [UInt8])] = []

    func encode() -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let size = declaredSize ?? (width, height)
        var ihdr = be32(UInt32(size.width)) + be32(UInt32(size.height))
        ihdr += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        out += chunk("IHDR", ihdr)
        if let gamma { out += chunk("gAMA", be32(gamma)) }
        for (type, data) in extraChunks { out += chunk(type, data) }
        if !palette.isEmpty { out += chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }) }
        if let transparency { out += chunk("tRNS", transparency) }
        let stream = zlibStored(scanlines())
        let step = max(1, idatChunkBytes ?? stream.count)
        for start in stride(from: 0, to: stream.count, by: step) {
            out += chunk("IDAT", Array(stream[start..<min(stream.count, start + step)]))
        }
        out += chunk("IEND", [])
        return out
    }

    /// Filtered (type 0) scanlines: the whole image, or its seven Adam7 passes one after another.
    private func scanlines() -> [UInt8] {
        guard interlaced else {
            let rows = packRows(xs: Array(0..<width), ys: Array(0..<height))
            return filters.isEmpty ? rows : filtered(rows)
        }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var data: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx))
            let ys = Array(stride(from: y0, to: height, by: dy))
            if xs.isEmpty || ys.isEmpty { continue }
            data += packRows(xs: xs, ys: ys)
        }
        return data
    }

    private func packRows(xs: [Int], ys: [Int]) -> [UInt8] {
        let spp = colorType.samplesPerPixel
        var data: [UInt8] = []
        for y in ys {
            data.append(0)  // filter type None
            var bits: UInt32 = 0
            var bitCount = 0
            for x in xs {
                for s in 0..<spp {
                    let value = samples[(y * width + x) * spp + s]
                    switch bitDepth {
                    case 16:
                        data += [UInt8(value >> 8), UInt8(value & 0xFF)]
                    case 8:
                        data.append(UInt8(value))
                    default:
                        bits = (bits << UInt32(bitDepth)) | UInt32(value)
                        bitCount += bitDepth
                        if bitCount == 8 { data.append(UInt8(bits)); bits = 0; bitCount = 0 }
                    }
                }
            }
            if bitCount > 0 { data.append(UInt8((bits << UInt32(8 - bitCount)) & 0xFF)) }
        }
        return data
    }

    /// Rows of filter type 0 (8-bit samples) filtered with ``filters`` in turn.
    private func filtered(_ rows: [UInt8]) -> [UInt8] {
        let bpp = colorType.samplesPerPixel, n = width * bpp
        var out: [UInt8] = []
        for y in 0..<height {
            let row = Array(rows[(y * (n + 1) + 1)..<((y + 1) * (n + 1))])
            let up = y > 0 ? Array(rows[((y - 1) * (n + 1) + 1)..<(y * (n + 1))]) : [UInt8](repeating: 0, count: n)
            let type = filters[y % filters.count]
            out.append(type)
            for i in 0..<n {
                let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(up[i]), c = i >= bpp ? Int(up[i - bpp]) : 0
                let predictor: Int
                switch type {
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: predictor = 0
                }
                out.append(UInt8((Int(row[i]) - predictor) & 0xFF))
            }
        }
        return out
    }

    private func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return be32(UInt32(payload.count)) + typeBytes + payload + be32(crc32(typeBytes + payload))
    }
}

func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// A zlib stream of uncompressed deflate blocks (RFC 1950 header, RFC 1951 BTYPE 00, Adler-32).
func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let n = min(65_535, data.count - offset)
        let final: UInt8 = offset + n == data.count ? 1 : 0
        out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
        out += data[offset ..< offset + n]
        offset += n
    } while offset < data.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in data { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
    return out + be32((b << 16) | a)
}
