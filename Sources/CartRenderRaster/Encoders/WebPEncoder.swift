import CWebP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Options for `WebPEncoder`. The defaults give an exact (lossless) animation.
public struct WebPOptions: Equatable, Sendable {
    /// Lossless (true, the default: decoded frames equal the source, byte for byte where opaque)
    /// or lossy VP8 (false).
    public var lossless: Bool
    /// Lossy quality, 0 (smallest) … 100 (best); ignored when `lossless`.
    public var quality: Float
    /// Compression effort, 0 (fastest) … 6 (slowest, smallest); `WebPConfig.method`. Default 4
    /// (cwebp's): on a 60-frame 1179 × 2556 px UI animation, lossless method 0 / 2 / 4 / 6 gave
    /// 924 / 372 / 347 / 344 kB for 1.2 / 2.0 / 2.7 / 3.1 s.
    public var method: Int
    /// How many times the animation plays: 0 = forever (the default), N = N times; 0…65535.
    public var loopCount: Int
    /// Distance between key frames (full frames that can be decoded alone), in frames; `nil`
    /// (the default) lets every frame after the first store only what changed. With `kmin…kmax`
    /// the first changed frame `kmax` stored frames after the last key frame is stored whole
    /// (libwebp's animation encoder also tried each frame from `kmin` on and kept the smaller;
    /// key frames every 9…17 frames, gif2webp's choice, made the animation above 37 % larger
    /// and 4 × slower there).
    public var keyframeInterval: ClosedRange<Int>?

    /// - Parameters: see the properties; every default is the documented one.
    public init(lossless: Bool = true, quality: Float = 90, method: Int = 4, loopCount: Int = 0,
                keyframeInterval: ClosedRange<Int>? = nil) {
        self.lossless = lossless
        self.quality = quality
        self.method = method
        self.loopCount = loopCount
        self.keyframeInterval = keyframeInterval
    }

    /// - Throws: `AnimationEncodingError.invalidOption` naming the first option out of range.
    func validate() throws {
        guard quality >= 0, quality <= 100 else {
            throw AnimationEncodingError.invalidOption(name: "quality", reason: "must be 0…100, not \(quality)")
        }
        guard (0...6).contains(method) else {
            throw AnimationEncodingError.invalidOption(name: "method", reason: "must be 0…6, not \(method)")
        }
        guard (0...65535).contains(loopCount) else {
            throw AnimationEncodingError.invalidOption(name: "loopCount", reason: "must be 0 (forever) or 1…65535 plays, not \(loopCount)")
        }
        if let interval = keyframeInterval {
            // libwebp's rule: kmax > kmin ≥ kmax / 2 + 1.
            guard interval.lowerBound >= 1, interval.upperBound > interval.lowerBound,
                  interval.lowerBound >= interval.upperBound / 2 + 1 else {
                throw AnimationEncodingError.invalidOption(name: "keyframeInterval", reason: "must be kmin…kmax with kmax > kmin ≥ kmax / 2 + 1, not \(interval)")
            }
        }
    }
}

/// What `WebPEncoder.finish()` wrote.
public struct WebPSummary: Equatable, Sendable {
    /// Frames passed to `add(_:)` (libwebp merges identical ones into longer frames).
    public var sourceFrameCount: Int
    /// Total duration in milliseconds: `round(sourceFrameCount × 1000 / fps)`.
    public var durationMilliseconds: Int
    /// Size of the WebP file in bytes.
    public var byteCount: Int

    /// A summary of these counts, duration (ms) and size (bytes).
    public init(sourceFrameCount: Int, durationMilliseconds: Int, byteCount: Int) {
        self.sourceFrameCount = sourceFrameCount
        self.durationMilliseconds = durationMilliseconds
        self.byteCount = byteCount
    }
}

/// Encodes an animated WebP from frames fed in index order, its frames compressed on `jobs`
/// threads and assembled with libwebpmux. Frame `i` is at `round(i × 1000 / fps)` ms.
///
/// Per frame, in order: a frame equal to the one before it lengthens that one; otherwise the
/// frame stores the bounding rectangle of the pixels that changed (its corner moved to even
/// coordinates, as WebP requires), disposal "none". When every changed pixel is opaque the
/// rectangle blends over the canvas and its unchanged pixels are transparent (they compress to
/// almost nothing); otherwise it replaces the canvas there. The first frame and key frames
/// (`WebPOptions.keyframeInterval`) are whole. Each rectangle is then a still WebP of its own
/// (`WebPEncode`, the options' lossless or lossy settings), independent of the others, so
/// `jobs` rectangles at a time are compressed in parallel; `finish()` pushes them in frame
/// order into a `WebPMux` with the loop count and white background.
///
/// This is what libwebp's `WebPAnimEncoder` did with these options (no key frames, no size
/// search), which compresses one frame at a time. The same frames and options give
/// byte-identical files whatever `jobs`. It holds the last frame, at most `2 × jobs` cut-out
/// rectangles and the compressed frames. Not thread-safe: call it from one thread at a time.
public final class WebPEncoder {
    /// Canvas width in px.
    public let width: Int
    /// Canvas height in px.
    public let height: Int
    /// Source frames per second.
    public let fps: Int
    /// How many source frames each added frame stands for (1; a report's motion diff, which
    /// adds every `frameStride`-th frame, shows each for that many).
    public let frameStride: Int
    /// Added frames per second: `fps / frameStride`.
    public var frameRate: Double { Double(fps) / Double(frameStride) }
    /// The options the encoder was created with.
    public let options: WebPOptions
    /// Threads that compress frames (≥ 1).
    public let jobs: Int
    /// The WebP file, once `finish()` has returned, when the destination is `.memory`; empty otherwise.
    public private(set) var encodedBytes: [UInt8] = []

    private var config = WebPConfig()
    private let destination: AnimationDestination
    private var sourceFrameCount = 0
    private var isFinished = false
    /// The last source frame's pixels (what a decoder shows after the frames so far, where
    /// opaque), in a buffer of the encoder's own.
    private var previous: [UInt8]?
    /// Frames stored since the last key frame (the first frame is one).
    private var framesSinceKeyFrame = 0
    /// Rectangles cut out and not compressed yet, in frame order.
    private var pending: [SubFrame] = []
    /// Compressed frames, in frame order.
    private var encoded: [(frame: SubFrame, bytes: [UInt8])] = []

    /// One stored frame: where it goes on the canvas and its pixels.
    private struct SubFrame {
        var x: Int, y: Int, width: Int, height: Int
        /// Start of display in ms.
        var start: Int
        /// `width × height × 4` bytes; with `blend`, alpha 0 where the canvas stays as it is.
        var rgba: [UInt8]
        var blend: Bool
    }

    /// - Parameters:
    ///   - destination: memory (read `encodedBytes` after `finish()`) or a file path.
    ///   - width, height: canvas size in px, 1…16383.
    ///   - fps: source frames per second, 1…65535.
    ///   - frameStride: source frames each added frame stands for (≥ 1): frame `i` is at
    ///     `round(i × frameStride × 1000 / fps)` ms.
    ///   - jobs: threads that compress frames; clamped to ≥ 1.
    /// - Throws: `AnimationEncodingError.invalidCanvasSize`, `.invalidFrameRate`,
    ///   `.invalidOption`, `.libraryFailed`.
    public init(destination: AnimationDestination = .memory, width: Int, height: Int, fps: Int, frameStride: Int = 1,
                options: WebPOptions = WebPOptions(), jobs: Int = 1) throws {
        try AnimationCanvas.check(format: "WebP", width: width, height: height, fps: fps, maxSide: 16383)
        guard frameStride >= 1 else { throw AnimationEncodingError.invalidOption(name: "frameStride", reason: "must be 1 or more, not \(frameStride)") }
        try options.validate()
        // WebPConfigInit is a header inline around this entry point.
        guard WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, 75, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw AnimationEncodingError.libraryFailed(library: "libwebp", operation: "WebPConfigInit", message: "libwebp version mismatch")
        }
        config.lossless = options.lossless ? 1 : 0
        // For lossless, quality is effort; 75 is libwebp's (and cwebp's) default.
        config.quality = options.lossless ? 75 : options.quality
        config.method = Int32(options.method)
        config.thread_level = 0
        guard WebPValidateConfig(&config) != 0 else {
            throw AnimationEncodingError.libraryFailed(library: "libwebp", operation: "WebPValidateConfig", message: "the configuration is invalid")
        }
        self.width = width
        self.height = height
        self.fps = fps
        self.frameStride = frameStride
        self.options = options
        self.jobs = max(1, jobs)
        self.destination = destination
    }

    /// Adds the next source frame, shown from `round(index × 1000 / fps)` ms.
    /// - Parameter frame: `width × height` px, straight alpha.
    /// - Throws: `AnimationEncodingError.frameSizeMismatch`, `.alreadyFinished`, `.libraryFailed`
    ///   (for this frame or one before it, compressed now).
    public func add(_ frame: RGBAImage) throws { try add(frame, changedRows: nil) }

    /// Adds the next frame, whose pixels outside `changedRows` (px rows, sorted and disjoint;
    /// nil when not known) are those of the frame added before it: only those rows are compared
    /// (``RenderedFrame/changedRows``). The file is the same as with `add(_:)`.
    /// - Throws: as `add(_:)`.
    public func add(_ frame: RGBAImage, changedRows: [Range<Int>]?) throws {
        guard !isFinished else { throw AnimationEncodingError.alreadyFinished }
        guard frame.width == width, frame.height == height else {
            throw AnimationEncodingError.frameSizeMismatch(frameIndex: sourceFrameCount, width: frame.width, height: frame.height,
                                                           expectedWidth: width, expectedHeight: height)
        }
        let start = GIFTimeline.milliseconds(Double(sourceFrameCount) / frameRate)
        sourceFrameCount += 1
        let keyFrame = previous == nil || options.keyframeInterval.map { framesSinceKeyFrame >= $0.upperBound } ?? false
        var sub: SubFrame
        if keyFrame {
            sub = SubFrame(x: 0, y: 0, width: width, height: height, start: start, rgba: frame.pixels, blend: false)
        } else {
            guard let changed = WebPEncoder.cut(frame.pixels, over: previous!, width: width, height: height,
                                                rows: changedRows.map { RowRanges.clamped($0, height: height) },
                                                blending: options.lossless) else { return }
            sub = changed
            sub.start = start
        }
        framesSinceKeyFrame = keyFrame ? 1 : framesSinceKeyFrame + 1
        remember(frame, rows: keyFrame ? 0..<height : sub.y..<(sub.y + sub.height))
        pending.append(sub)
        if pending.count >= 2 * jobs { try compressPending() }
    }

    /// Ends the last frame at `round(frames × 1000 / fps)` ms, assembles the file and writes it.
    /// - Throws: `AnimationEncodingError.noFrames`, `.alreadyFinished`, `.libraryFailed`, `.writeFailed`.
    @discardableResult
    public func finish() throws -> WebPSummary {
        guard !isFinished else { throw AnimationEncodingError.alreadyFinished }
        isFinished = true
        guard sourceFrameCount > 0 else { throw AnimationEncodingError.noFrames }
        try compressPending()
        let end = GIFTimeline.milliseconds(Double(sourceFrameCount) / frameRate)
        guard let mux = WebPNewInternal(WEBP_MUX_ABI_VERSION) else {
            throw AnimationEncodingError.libraryFailed(library: "libwebp", operation: "WebPMuxNew", message: "out of memory or libwebpmux version mismatch")
        }
        defer { WebPMuxDelete(mux) }
        func check(_ status: WebPMuxError, _ operation: String) throws {
            guard status == WEBP_MUX_OK else {
                throw AnimationEncodingError.libraryFailed(library: "libwebp", operation: operation, message: WebPEncoder.describe(status))
            }
        }
        for (i, (frame, bytes)) in encoded.enumerated() {
            let next = i + 1 < encoded.count ? encoded[i + 1].frame.start : end
            try bytes.withUnsafeBufferPointer { buffer in
                var info = WebPMuxFrameInfo()
                info.bitstream = WebPData(bytes: buffer.baseAddress, size: buffer.count)
                info.x_offset = Int32(frame.x)
                info.y_offset = Int32(frame.y)
                info.duration = Int32(next - frame.start)
                info.id = WEBP_CHUNK_ANMF
                info.dispose_method = WEBP_MUX_DISPOSE_NONE
                info.blend_method = frame.blend ? WEBP_MUX_BLEND : WEBP_MUX_NO_BLEND
                try check(WebPMuxPushFrame(mux, &info, 1), "WebPMuxPushFrame")
            }
        }
        try check(WebPMuxSetCanvasSize(mux, Int32(width), Int32(height)), "WebPMuxSetCanvasSize")
        var animation = WebPMuxAnimParams(bgcolor: 0xFFFF_FFFF, loop_count: Int32(options.loopCount))
        try check(WebPMuxSetAnimationParams(mux, &animation), "WebPMuxSetAnimationParams")
        var data = WebPData()
        defer { WebPFree(UnsafeMutableRawPointer(mutating: data.bytes)) }
        try check(WebPMuxAssemble(mux, &data), "WebPMuxAssemble")
        let bytes = Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
        let sink = try AnimationByteSink(destination)
        try sink.write(bytes)
        try sink.commit()
        encodedBytes = sink.bytes
        return WebPSummary(sourceFrameCount: sourceFrameCount, durationMilliseconds: end, byteCount: bytes.count)
    }

    /// Makes `previous` equal to `frame`, copying only `rows` (outside them the two are equal).
    /// `previous` is the encoder's own buffer, so the frame's bytes are not held after `add`.
    private func remember(_ frame: RGBAImage, rows: Range<Int>) {
        let rowBytes = width * 4
        guard previous != nil else {
            // A copy of its own, not a second reference to the frame's storage.
            previous = [UInt8](unsafeUninitializedCapacity: frame.pixels.count) { target, count in
                frame.pixels.withUnsafeBytes { UnsafeMutableRawBufferPointer(target).copyMemory(from: $0) }
                count = frame.pixels.count
            }
            return
        }
        frame.pixels.withUnsafeBytes { source in
            previous!.withUnsafeMutableBytes { target in
                let offset = rows.lowerBound * rowBytes
                (target.baseAddress! + offset).copyMemory(from: source.baseAddress! + offset, byteCount: rows.count * rowBytes)
            }
        }
    }

    /// Compresses the pending rectangles on `jobs` threads.
    private func compressPending() throws {
        let frames = pending, config = config
        pending.removeAll()
        let compressed = try WorkerPool.map(count: frames.count, jobs: jobs) { _, i in
            try WebPEncoder.compress(frames[i], config: config)
        }
        encoded += zip(frames, compressed).map { frame, bytes in
            var stored = frame
            stored.rgba = []
            return (stored, bytes)
        }
    }

    /// The rectangle of `current` that differs from `previous` (both `width × height × 4`
    /// bytes), its corner moved to even coordinates; nil when nothing changed. With `blending`
    /// and every changed pixel opaque, unchanged pixels become transparent and the rectangle
    /// blends; otherwise it holds `current`'s pixels as they are. Only `rows` are compared
    /// (nil: every row); outside them `current` must equal `previous`.
    private static func cut(_ current: [UInt8], over previous: [UInt8], width: Int, height: Int, rows: [Range<Int>]?,
                            blending: Bool) -> SubFrame? {
        current.withUnsafeBytes { cur in
            previous.withUnsafeBytes { prev in
                let c = cur.bindMemory(to: UInt32.self), p = prev.bindMemory(to: UInt32.self)
                var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
                var changedOpaque = true
                // Outside `rows` the frame is the one before (`previous`).
                for y in (rows ?? [0..<height]).joined() {
                    let row = y * width
                    if memcmp(cur.baseAddress! + row * 4, prev.baseAddress! + row * 4, width * 4) == 0 { continue }
                    minY = min(minY, y); maxY = y
                    for x in 0..<width where c[row + x] != p[row + x] {
                        minX = min(minX, x); maxX = max(maxX, x)
                        if cur[(row + x) * 4 + 3] != 255 { changedOpaque = false }
                    }
                }
                guard maxY >= 0 else { return nil }
                let x0 = minX & ~1, y0 = minY & ~1
                let w = maxX + 1 - x0, h = maxY + 1 - y0
                let blend = blending && changedOpaque
                var rgba = [UInt8](repeating: 0, count: w * h * 4)
                rgba.withUnsafeMutableBytes { out in
                    let o = out.bindMemory(to: UInt32.self)
                    for y in 0..<h {
                        let source = (y0 + y) * width + x0, target = y * w
                        for x in 0..<w where !blend || c[source + x] != p[source + x] {
                            o[target + x] = c[source + x]
                        }
                    }
                }
                return SubFrame(x: x0, y: y0, width: w, height: h, start: 0, rgba: rgba, blend: blend)
            }
        }
    }

    /// One rectangle as a still WebP file (what `WebPMuxPushFrame` takes).
    private static func compress(_ frame: SubFrame, config: WebPConfig) throws -> [UInt8] {
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw AnimationEncodingError.libraryFailed(library: "libwebp", operation: "WebPPictureInit", message: "libwebp version mismatch")
        }
        defer { WebPPictureFree(&picture) }
        picture.width = Int32(frame.width)
        picture.height = Int32(frame.height)
        picture.use_argb = 1
        let imported = frame.rgba.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.width * 4))
        }
        guard imported != 0 else {
            throw AnimationEncodingError.libraryFailed(library: "libwebp", operation: "WebPPictureImportRGBA", message: describe(picture.error_code))
        }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        var config = config
        if config.lossless == 0, frame.blend {
            // As libwebp's animation encoder: no loop filter where the rectangle blends.
            config.autofilter = 0
            config.filter_strength = 0
        }
        let ok = withUnsafeMutablePointer(to: &writer) { pointer -> Int32 in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(pointer)
            return WebPEncode(&config, &picture)
        }
        guard ok != 0 else {
            throw AnimationEncodingError.libraryFailed(library: "libwebp", operation: "WebPEncode", message: describe(picture.error_code))
        }
        return Array(UnsafeBufferPointer(start: writer.mem, count: writer.size))
    }

    static func describe(_ status: WebPMuxError) -> String {
        switch status {
        case WEBP_MUX_NOT_FOUND: return "a chunk was not found"
        case WEBP_MUX_INVALID_ARGUMENT: return "invalid argument (a frame outside the canvas, or a duration of 2^24 ms or more)"
        case WEBP_MUX_BAD_DATA: return "bad data"
        case WEBP_MUX_MEMORY_ERROR: return "out of memory"
        case WEBP_MUX_NOT_ENOUGH_DATA: return "not enough data"
        default: return "error \(status.rawValue)"
        }
    }

    static func describe(_ code: WebPEncodingError) -> String {
        switch code {
        case VP8_ENC_OK: return "no error"
        case VP8_ENC_ERROR_OUT_OF_MEMORY: return "out of memory"
        case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory while flushing the bitstream"
        case VP8_ENC_ERROR_NULL_PARAMETER: return "a required pointer was null"
        case VP8_ENC_ERROR_INVALID_CONFIGURATION: return "invalid configuration"
        case VP8_ENC_ERROR_BAD_DIMENSION: return "bad picture dimensions"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW: return "partition 0 overflow (over 512 KiB)"
        case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "partition overflow (over 16 MiB)"
        case VP8_ENC_ERROR_BAD_WRITE: return "picture writer failed"
        case VP8_ENC_ERROR_FILE_TOO_BIG: return "file too big (over 4 GiB)"
        case VP8_ENC_ERROR_USER_ABORT: return "aborted"
        default: return "error \(code.rawValue)"
        }
    }
}

extension WebPEncoder: AnimationEncoder {}
extension WebPSummary: AnimationSummary {
    /// None: libwebp keeps every source frame's time.
    public var notice: String? { nil }
}
