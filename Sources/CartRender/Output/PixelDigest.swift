import CartRenderCore
import CartRenderRaster

/// What a PNG shows, whatever its encoding: the SHA-256 of its size and its pixels decoded to
/// 8-bit straight RGBA (``PNGDecoder``: palette, gray, 16-bit and interlaced PNGs give the same
/// pixels as the RGBA PNG cartrender wrote), fully transparent pixels taken as 0,0,0,0 (PNG
/// optimisers clean the colour of what no one sees). The ownership ledger records it beside a
/// baseline frame's byte digest, so a lossless rewrite by oxipng, zopflipng, Imgbot or Pillow
/// leaves the frame cartrender's (``OwnershipLedger``).
///
/// The hashed bytes: `"rgba8 WIDTH HEIGHT\n"` in ASCII, then the rows top to bottom.
enum PixelDigest {
    /// The digest of `image` (lowercase hex SHA-256). One pass over the pixels as 32-bit words
    /// finds the fully transparent ones; only an image that has some is copied to clear them.
    static func of(_ image: RGBAImage) -> String {
        let hasher = Checksum.Hasher()
        hasher.update(Array("rgba8 \(image.width) \(image.height)\n".utf8))
        // RGBA bytes read as a little-endian word: alpha is the top byte.
        func hasTransparent(_ raw: UnsafeRawBufferPointer) -> Bool {
            raw.bindMemory(to: UInt32.self).contains { $0.littleEndian & 0xFF00_0000 == 0 }
        }
        guard image.pixels.withUnsafeBytes(hasTransparent) else {
            hasher.update(image.pixels)
            return hasher.finish()
        }
        var pixels = image.pixels
        pixels.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            for i in words.indices where words[i].littleEndian & 0xFF00_0000 == 0 { words[i] = 0 }
        }
        hasher.update(pixels)
        return hasher.finish()
    }

    /// The digest of the PNG `bytes`, decoded under the image budget (``PNGDecoder/maxSide``,
    /// ``PNGDecoder/maxDecodedBytes``); nil when they are not a PNG it decodes.
    static func of(png bytes: [UInt8]) -> String? {
        guard let image = try? PNGDecoder.decode(bytes) else { return nil }
        return of(image)
    }
}
