import Foundation

/// Compressed PNG stripes of recently encoded frames, shared by the workers of one render.
///
/// Consecutive frames of an animation differ in a few places (between frames of the default
/// scene about 10 % of the stripes change), so most stripes of a frame were already compressed
/// for an earlier one. A stripe's compressed bytes are a pure function of its rows and the row
/// above (`PNGEncoder` compresses each from a fresh zlib state), so reusing them gives the same
/// PNG bytes as compressing again: output does not depend on which frame was encoded first or
/// on how many workers share the cache.
///
/// Stripes are matched by comparing pixels byte for byte, not by hash. Keeps the last `depth`
/// versions of each stripe and at most `byteLimit` bytes of pixels in all, dropping the oldest
/// versions first: memory is bounded whatever the frame count or canvas size (a canvas larger
/// than the limit simply reuses less). Thread-safe.
public final class PNGStripeCache: @unchecked Sendable {
    /// A compressed stripe: raw deflate blocks ending in a sync flush, and the Adler-32 and length
    /// of the filtered rows they hold.
    struct Stripe {
        var deflated: [UInt8]
        var adler: UInt32
        var filteredSize: Int
    }

    private final class Entry {
        /// The rows the stripe was made from, `width × 4` bytes each: the row above (when the
        /// stripe does not start the image), then the stripe's rows.
        let pixels: [UInt8]
        let stripe: Stripe
        /// Order of addition: smaller is older.
        let serial: Int
        init(pixels: [UInt8], stripe: Stripe, serial: Int) { self.pixels = pixels; self.stripe = stripe; self.serial = serial }
    }

    private struct Kind: Equatable {
        var width: Int, height: Int, format: PixelRows.Format, compression: PNGEncoder.Compression
    }

    private let lock = NSLock()
    private let depth: Int
    private var kind: Kind?
    private var stripes: [[Entry]] = []
    /// Bytes of pixels held, and the number the next entry gets (older entries have smaller ones).
    private var bytes = 0
    private var serial = 0
    private let byteLimit: Int
    private var reused = 0, compressed = 0

    /// - Parameters:
    ///   - depth: versions kept per stripe; 3 covers frames encoded out of order by a few workers.
    ///   - byteLimit: most bytes of pixels kept (default 64 MiB: five 1179×2556 px frames).
    public init(depth: Int = 3, byteLimit: Int = 64 << 20) {
        self.depth = max(1, depth)
        self.byteLimit = max(0, byteLimit)
    }

    /// Stripes taken from the cache and stripes compressed since the cache was made, and the
    /// bytes of pixels it holds now.
    public var statistics: (reused: Int, compressed: Int, bytesHeld: Int) { lock.withLock { (reused, compressed, bytes) } }

    /// Whether this cache serves images like `rows` at `compression`: the first image it sees
    /// decides; images of another size, format or compression are encoded without it.
    func accepts(_ rows: PixelRows, compression: PNGEncoder.Compression) -> Bool {
        let k = Kind(width: rows.width, height: rows.height, format: rows.format, compression: compression)
        return lock.withLock {
            if kind == nil { kind = k }
            return kind == k
        }
    }

    /// The compressed stripe `index` (rows `range`) of an earlier image whose rows `range` and the
    /// row above are equal to those of `rows`, if the cache holds one.
    func stripe(_ index: Int, of rows: PixelRows, _ range: Range<Int>) -> Stripe? {
        let candidates = lock.withLock { index < stripes.count ? stripes[index] : [] }
        let keyRows = max(0, range.lowerBound - 1)..<range.upperBound
        let rowBytes = rows.width * 4
        for entry in candidates where entry.pixels.count == keyRows.count * rowBytes {
            let equal = entry.pixels.withUnsafeBytes { cached in
                keyRows.enumerated().allSatisfy { i, y in
                    memcmp(cached.baseAddress! + i * rowBytes, rows.base + y * rows.stride, rowBytes) == 0
                }
            }
            if equal {
                lock.withLock { reused += 1 }
                return entry.stripe
            }
        }
        return nil
    }

    /// Keeps `stripe`, compressed from rows `range` of `rows`, as the newest version of stripe `index`.
    func add(_ stripe: Stripe, _ index: Int, of rows: PixelRows, _ range: Range<Int>) {
        let keyRows = max(0, range.lowerBound - 1)..<range.upperBound
        var pixels: [UInt8] = []
        pixels.reserveCapacity(keyRows.count * rows.width * 4)
        for y in keyRows { pixels += rows.row(y) }
        lock.withLock {
            compressed += 1
            serial += 1
            let entry = Entry(pixels: pixels, stripe: stripe, serial: serial)
            if stripes.count <= index { stripes += Array(repeating: [], count: index + 1 - stripes.count) }
            stripes[index].insert(entry, at: 0)
            bytes += entry.pixels.count
            if stripes[index].count > depth { bytes -= stripes[index].removeLast().pixels.count }
            // Over the limit (a very large canvas): drop the oldest versions of any stripe.
            while bytes > byteLimit {
                var oldest: (index: Int, serial: Int)?
                for (i, list) in stripes.enumerated() {
                    if let last = list.last, last.serial < oldest?.serial ?? .max { oldest = (i, last.serial) }
                }
                guard let o = oldest else { break }
                bytes -= stripes[o.index].removeLast().pixels.count
            }
        }
    }
}

/// The compressed stripes of the last frame one worker encoded from its canvas, so that the
/// next frame drawn into the same canvas takes the stripes its damage left alone without
/// reading their pixels (``CanvasDamage``): a stripe whose rows and the row above were not
/// touched holds the bytes it held, so its compressed bytes are the same. One per worker; not
/// thread-safe.
public final class PNGCanvasStripes {
    fileprivate struct Kind: Equatable {
        var width: Int, height: Int, format: PixelRows.Format, compression: PNGEncoder.Compression
    }
    /// The draw the stripes were compressed from (``CanvasDamage/serial``), and their kind.
    private var serial: Int?
    private var kind: Kind?
    private var stripes: [PNGStripeCache.Stripe] = []
    /// Stripes taken without reading their pixels since this was made.
    public private(set) var untouchedReused = 0

    /// Stripes of no draw yet.
    public init() {}

    /// The stripe `index` (rows `range`) of the previous frame, if the canvas's damage left its
    /// rows and the row above alone and the previous draw was encoded here.
    func stripe(_ index: Int, _ range: Range<Int>, of rows: PixelRows, compression: PNGEncoder.Compression,
                damage: CanvasDamage) -> PNGStripeCache.Stripe? {
        guard !damage.whole, serial == damage.serial - 1, index < stripes.count,
              kind == Kind(width: rows.width, height: rows.height, format: rows.format, compression: compression),
              !damage.touches(max(0, range.lowerBound - 1)..<range.upperBound) else { return nil }
        untouchedReused += 1
        return stripes[index]
    }

    /// Keeps the stripes of the frame just encoded from draw `damage.serial`.
    func keep(_ all: [PNGStripeCache.Stripe], of rows: PixelRows, compression: PNGEncoder.Compression, damage: CanvasDamage) {
        stripes = all
        serial = damage.serial
        kind = Kind(width: rows.width, height: rows.height, format: rows.format, compression: compression)
    }
}
