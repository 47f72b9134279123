/// Some whole rows of a frame, copied as straight RGBA: what an in-order consumer needs to bring
/// its own copy of the frame before up to this one, when only these rows changed
/// (`RenderedFrame.changedRows`). Copying the changed rows instead of the whole canvas spares
/// the conversion of rows that stay as they were (most of them, in an animation).
public struct RowPatch: Sendable {
    /// Width of the frame in px.
    public let width: Int
    /// Height of the frame in px.
    public let height: Int
    /// The rows held (px, sorted, disjoint, inside `0 ..< height`).
    public let rows: [Range<Int>]
    /// The rows' bytes one after the other, `width × 4` a row, straight alpha.
    private let bytes: [UInt8]

    /// Copies `rows` of `source` (clipped to its height), converted to straight RGBA as
    /// `RGBAImage(_:)` converts them; every row when `rows` is nil.
    public init(_ source: PixelRows, rows: [Range<Int>]?) {
        let kept = rows.map { RowRanges.clamped($0, height: source.height) } ?? (source.height > 0 ? [0..<source.height] : [])
        let rowBytes = source.width * 4
        let count = kept.reduce(0) { $0 + $1.count } * rowBytes
        width = source.width
        height = source.height
        self.rows = kept
        bytes = [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
            var offset = 0
            for band in kept where rowBytes > 0 {
                let part = PixelRows(base: source.base + band.lowerBound * source.stride, width: source.width,
                                     height: band.count, stride: source.stride, format: source.format)
                part.copy(to: target.baseAddress! + offset, stride: rowBytes, format: .straightRGBA)
                offset += band.count * rowBytes
            }
            initialized = count
        }
    }

    /// Whether the patch holds every row of the frame (then it needs no frame before it).
    public var isComplete: Bool { rows == (height > 0 ? [0..<height] : []) }

    /// Writes the patch's rows into `image`; a new image when `image` is nil or of another size.
    /// - Throws: `RasterError` (`.library`) when the patch is not complete and `image` cannot
    ///   take it (there is no frame before it to update).
    public func apply(to image: inout RGBAImage?) throws {
        if image?.width != width || image?.height != height {
            guard isComplete else {
                throw RasterError(.library, "\(rows.count) bands of changed rows came without the frame before them")
            }
            image = RGBAImage(width: width, height: height, pixels: bytes)
            return
        }
        let rowBytes = width * 4
        bytes.withUnsafeBytes { source in
            image!.pixels.withUnsafeMutableBytes { target in
                var offset = 0
                for band in rows {
                    let count = band.count * rowBytes
                    (target.baseAddress! + band.lowerBound * rowBytes).copyMemory(from: source.baseAddress! + offset, byteCount: count)
                    offset += count
                }
            }
        }
    }
}
