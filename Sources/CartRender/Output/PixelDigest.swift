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
    /// The digest of `image` (lowercase hex SHA-256).
    static func of(_ image: RGBAImage) -> String {
        let hasher = Checksum.Hasher()
        hasher.update(Array("rgba8 \(image.width) \(image.height)\n".utf8))
        let rowBytes = image.rowBytes
        guard rowBytes > 0 else { return hasher.finish() }
        var row = [UInt8](repeating: 0, count: rowBytes)
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<image.height {
                let start = y * rowBytes
                for i in stride(from: 0, to: rowBytes, by: 4) {
                    if p[start + i + 3] == 0 {
                        row[i] = 0; row[i + 1] = 0; row[i + 2] = 0; row[i + 3] = 0
                    } else {
                        row[i] = p[start + i]; row[i + 1] = p[start + i + 1]; row[i + 2] = p[start + i + 2]; row[i + 3] = p[start + i + 3]
                    }
                }
                hasher.update(row)
            }
        }
        return hasher.finish()
    }

    /// The digest of the PNG `bytes`, decoded under the image budget (``PNGDecoder/maxSide``,
    /// ``PNGDecoder/maxDecodedBytes``); nil when they are not a PNG it decodes.
    static func of(png bytes: [UInt8]) -> String? {
        guard let image = try? PNGDecoder.decode(bytes) else { return nil }
        return of(image)
    }
}
