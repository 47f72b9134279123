/// An 8-bit-per-channel sRGB image with **straight (non-premultiplied)** alpha, rows top to bottom,
/// pixels left to right, bytes in R, G, B, A order and no row padding.
///
/// This is the one pixel format that crosses module boundaries: the rasterizer produces it from
/// Cairo's premultiplied ARGB32, the encoders (PNG, GIF, WebP) consume it, the PNG decoder
/// produces it, and the snapshot differ compares two of them.
public struct RGBAImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` bytes, straight alpha.
    public var pixels: [UInt8]

    /// Creates an image from its straight-alpha RGBA bytes.
    /// - Precondition: `pixels.count == width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "RGBAImage: \(pixels.count) bytes do not make a \(width)×\(height) RGBA image")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A fully transparent image of the given size in pixels.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// Bytes per row (`width × 4`).
    public var rowBytes: Int { width * 4 }

    /// The pixel at column `x`, row `y` as (r, g, b, a), straight alpha.
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
