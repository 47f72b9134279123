import CartRenderRaster

/// An animated PNG as a player shows it, decoded by `APNGDecoder`.
public struct APNG {
    /// One `fcTL` chunk.
    public struct FrameControl: Equatable {
        /// The chunk's sequence number.
        public var sequence: Int
        /// Where the frame's image goes on the canvas, px.
        public var rect: PixelRect
        /// The delay's numerator: the frame shows for `delayNumerator / delayDenominator` s.
        public var delayNumerator: Int
        /// As stored: 0 means 100 (APNG 1.0).
        public var delayDenominator: Int
        /// 0 NONE, 1 BACKGROUND, 2 PREVIOUS.
        public var dispose: UInt8
        /// 0 SOURCE, 1 OVER.
        public var blend: UInt8
    }

    /// One frame as shown: its control chunk, its image and the canvas.
    public struct Frame {
        /// The frame's `fcTL`.
        public var control: FrameControl
        /// The frame's own image, `control.rect`'s size.
        public var image: RGBAImage
        /// The whole canvas while the frame is shown.
        public var canvas: RGBAImage
    }

    /// Canvas width (px).
    public var width: Int
    /// Canvas height (px).
    public var height: Int
    /// `acTL`'s `num_plays`: 0 = forever.
    public var numPlays: Int
    /// Every chunk in file order, with its data (CRCs already checked).
    public var chunks: [(type: String, data: [UInt8])]
    /// The frames in play order.
    public var frames: [Frame]
}

/// Decodes APNG files for tests (Debian's libpng 1.6.39 has no APNG support). It checks what a
/// strict reader would: the signature; every chunk's length and CRC-32 (computed here, not by
/// zlib); `IHDR` first and `IEND` last; `acTL` before the image data with `num_frames` equal to
/// the `fcTL` count; one `fcTL`/`fdAT` sequence counting from 0 without gaps; frame rectangles
/// inside the canvas, the first one the whole canvas. Each frame's image data (the `IDAT`
/// payloads, or the `fdAT` payloads after their sequence numbers) is decoded by wrapping it as a
/// PNG of its own (`IHDR` with the frame's size, one `IDAT`, `IEND`) for `PNGDecoder`, so
/// libpng does the inflating and undoes every filter type. Frames are then composed on the
/// canvas per `blend_op` (SOURCE only; OVER is refused) and `dispose_op`.
///
/// The default image must be the first frame (an `fcTL` before the `IDAT`): the encoder
/// always writes it so.
public enum APNGDecoder {
    /// A file that is not a valid APNG: what is wrong.
    public struct Failure: Error, CustomStringConvertible {
        /// What is wrong, one sentence.
        public let description: String
        /// The failure saying `description`.
        public init(_ description: String) { self.description = description }
    }

    /// The 8 bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The chunks of a PNG or APNG file in order, each with its length and CRC checked.
    public static func chunks(_ bytes: [UInt8]) throws -> [(type: String, data: [UInt8])] {
        guard bytes.starts(with: signature) else { throw Failure("not a PNG signature") }
        var chunks: [(type: String, data: [UInt8])] = []
        var offset = signature.count
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else { throw Failure("a chunk header is cut at byte \(offset)") }
            let length = be32(bytes, offset)
            let end = offset + 12 + length
            guard length <= Int(Int32.max), end <= bytes.count else { throw Failure("a chunk of \(length) bytes at byte \(offset) runs past the end") }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            guard be32(bytes, offset + 8 + length) == Int(crc32(Array(bytes[(offset + 4)..<(offset + 8 + length)]))) else {
                throw Failure("\(type) chunk at byte \(offset) has a wrong CRC")
            }
            chunks.append((type, data))
            offset = end
        }
        return chunks
    }

    /// Decodes an APNG file and composes every frame onto the canvas as a player does.
    /// - Throws: ``Failure`` for a file that is not a valid APNG.
    public static func decode(_ bytes: [UInt8]) throws -> APNG {
        let chunks = try chunks(bytes)
        guard chunks.first?.type == "IHDR", chunks.first?.data.count == 13 else { throw Failure("IHDR is not the first chunk") }
        guard chunks.last?.type == "IEND", chunks.filter({ $0.type == "IEND" }).count == 1 else { throw Failure("IEND is not the last chunk") }
        let ihdr = chunks[0].data
        let width = be32(ihdr, 0), height = be32(ihdr, 4)
        guard let actlIndex = chunks.firstIndex(where: { $0.type == "acTL" }), chunks[actlIndex].data.count == 8,
              let idatIndex = chunks.firstIndex(where: { $0.type == "IDAT" }), actlIndex < idatIndex else {
            throw Failure("no acTL before the image data")
        }
        let numFrames = be32(chunks[actlIndex].data, 0), numPlays = be32(chunks[actlIndex].data, 4)

        var parts: [(control: APNG.FrameControl, data: [UInt8])] = []
        var sequence = 0
        for (i, chunk) in chunks.enumerated() {
            switch chunk.type {
            case "fcTL":
                let d = chunk.data
                guard d.count == 26 else { throw Failure("fcTL of \(d.count) bytes") }
                let control = APNG.FrameControl(
                    sequence: be32(d, 0), rect: PixelRect(x: be32(d, 12), y: be32(d, 16), width: be32(d, 4), height: be32(d, 8)),
                    delayNumerator: be16(d, 20), delayDenominator: be16(d, 22), dispose: d[24], blend: d[25])
                guard control.sequence == sequence else { throw Failure("fcTL has sequence number \(control.sequence), expected \(sequence)") }
                sequence += 1
                guard control.rect.width > 0, control.rect.height > 0, control.rect.maxX <= width, control.rect.maxY <= height else {
                    throw Failure("frame \(parts.count) at \(control.rect) is outside the \(width)×\(height) px canvas")
                }
                if parts.isEmpty {
                    guard i < idatIndex else { throw Failure("the default image is not the first frame") }
                    guard control.rect == PixelRect(x: 0, y: 0, width: width, height: height) else { throw Failure("the first frame is not the whole canvas") }
                }
                parts.append((control, []))
            case "IDAT":
                guard parts.count == 1 else { throw Failure("IDAT outside the first frame") }
                parts[0].data += chunk.data
            case "fdAT":
                guard parts.count > 1, chunk.data.count > 4 else { throw Failure("fdAT before a second fcTL, or empty") }
                guard be32(chunk.data, 0) == sequence else { throw Failure("fdAT has sequence number \(be32(chunk.data, 0)), expected \(sequence)") }
                sequence += 1
                parts[parts.count - 1].data += chunk.data[4...]
            default:
                break
            }
        }
        guard parts.count == numFrames else { throw Failure("acTL says \(numFrames) frames, the file has \(parts.count)") }

        var canvas = RGBAImage(width: width, height: height)
        var frames: [APNG.Frame] = []
        for (k, part) in parts.enumerated() {
            guard !part.data.isEmpty else { throw Failure("frame \(k) has no image data") }
            let r = part.control.rect
            var header = ihdr
            header.replaceSubrange(0..<8, with: be32(r.width) + be32(r.height))
            var png = signature
            append("IHDR", header, to: &png)
            append("IDAT", part.data, to: &png)
            append("IEND", [], to: &png)
            let image = try PNGDecoder.decode(png)
            guard part.control.blend == 0 else { throw Failure("frame \(k): blend_op OVER is not supported by this decoder") }
            let before = canvas
            for y in 0..<r.height {
                let src = y * r.width * 4, dst = ((r.y + y) * width + r.x) * 4
                canvas.pixels.replaceSubrange(dst..<(dst + r.width * 4), with: image.pixels[src..<(src + r.width * 4)])
            }
            frames.append(APNG.Frame(control: part.control, image: image, canvas: canvas))
            switch part.control.dispose {
            case 0: break
            case 2 where k > 0: canvas = before
            case 1, 2:  // PREVIOUS on the first frame is BACKGROUND
                for y in r.y..<r.maxY {
                    let dst = (y * width + r.x) * 4
                    canvas.pixels.replaceSubrange(dst..<(dst + r.width * 4), with: repeatElement(0, count: r.width * 4))
                }
            default: throw Failure("frame \(k): dispose_op \(part.control.dispose)")
            }
        }
        return APNG(width: width, height: height, numPlays: numPlays, chunks: chunks, frames: frames)
    }

    /// CRC-32 of PNG (ISO 3309, polynomial 0xEDB88320, reflected), bit by bit.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    private static func append(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let body = Array(type.utf8) + data
        out += be32(data.count) + body + be32(Int(crc32(body)))
    }

    /// The big-endian 32-bit number at byte `o` of `b`.
    public static func be32(_ b: [UInt8], _ o: Int) -> Int { b[o..<(o + 4)].reduce(0) { $0 << 8 | Int($1) } }
    /// The big-endian 16-bit number at byte `o` of `b`.
    public static func be16(_ b: [UInt8], _ o: Int) -> Int { Int(b[o]) << 8 | Int(b[o + 1]) }
    /// `v` as 4 big-endian bytes.
    public static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}

extension APNG {
    /// Each frame's source frames at `fps` frames per second: the first it shows and how many
    /// (its delay × `fps`); nil when a delay is not a whole number of frames.
    public func sourceRuns(fps: Int) -> [Range<Int>]? {
        var start = 0
        var runs: [Range<Int>] = []
        for f in frames {
            let den = f.control.delayDenominator == 0 ? 100 : f.control.delayDenominator
            guard f.control.delayNumerator * fps % den == 0 else { return nil }
            let n = f.control.delayNumerator * fps / den
            runs.append(start..<(start + n))
            start += n
        }
        return runs
    }
}
