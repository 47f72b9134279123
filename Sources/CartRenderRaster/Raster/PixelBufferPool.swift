import Foundation

/// Frame-sized byte buffers kept for reuse, so that copying a frame out of a canvas writes into
/// memory that is already mapped. A buffer the allocator gives out fresh (above 32 MiB always
/// its own mapping, `MemoryTuning.configureAllocator`) is faulted in and zeroed by the kernel
/// page by page on first write: at 1179 × 2556 px that cost more than the conversion itself
/// (about 6 ms a frame against 3 ms, measured with `perf` on the default scene at 3x).
///
/// A buffer given back may still be shared (an encoder kept the image): writing into it then
/// copies it first (copy on write), so reuse never changes what anyone sees. At most `limit`
/// buffers are kept, the most recently returned ones; thread-safe.
public final class PixelBufferPool: @unchecked Sendable {
    /// Most buffers kept at once.
    public let limit: Int
    private let lock = NSLock()
    private var buffers: [[UInt8]] = []

    /// - Parameter limit: most buffers kept (≥ 0).
    public init(limit: Int) { self.limit = max(0, limit) }

    /// The pool of the frames copied for the animation encoders (a few frames of memory at most).
    public static let frames = PixelBufferPool(limit: 4)

    /// A buffer of exactly `count` bytes with unspecified contents: a kept one when there is one
    /// of that size, otherwise a new one.
    public func take(count: Int) -> [UInt8] {
        let kept: [UInt8]? = lock.withLock {
            guard let i = buffers.lastIndex(where: { $0.count == count }) else { return nil }
            return buffers.remove(at: i)
        }
        return kept ?? [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Keeps `buffer` for a later `take`, dropping the oldest kept buffer beyond `limit`.
    public func give(_ buffer: [UInt8]) {
        guard limit > 0, !buffer.isEmpty else { return }
        lock.withLock {
            buffers.append(buffer)
            if buffers.count > limit { buffers.removeFirst() }
        }
    }

    /// Buffers kept now.
    public var count: Int { lock.withLock { buffers.count } }
}

extension RGBAImage {
    /// Copies `rows` into an image whose bytes come from `pool` (see `init(_:)` for the
    /// conversion); give them back with `pool.give(image.pixels)` once the image is done with.
    public init(_ rows: PixelRows, bufferFrom pool: PixelBufferPool) {
        var bytes = pool.take(count: rows.width * rows.height * 4)
        bytes.withUnsafeMutableBytes { dst in
            if let base = dst.baseAddress { rows.copy(to: base, stride: rows.width * 4, format: .straightRGBA) }
        }
        self.init(width: rows.width, height: rows.height, pixels: bytes)
    }
}
