import CPNG

/// Options for `APNGEncoder`.
public struct APNGOptions: Equatable, Sendable {
    /// How many times the animation plays: 0 = forever (the default), N = N times (`acTL`'s
    /// `num_plays`); 0…2147483647, PNG's limit for a four-byte number.
    public var loopCount: Int
    /// zlib settings of every frame's image data, the same as for PNG frames
    /// (`--png-compression` sets both).
    public var compression: PNGEncoder.Compression

    /// - Parameters: see the properties; every default is the documented one.
    public init(loopCount: Int = 0, compression: PNGEncoder.Compression = .default) {
        self.loopCount = loopCount
        self.compression = compression
    }

    /// - Throws: `AnimationEncodingError.invalidOption` naming the option out of range.
    func validate() throws {
        guard (0...APNGEncoder.maxNumber).contains(loopCount) else {
            throw AnimationEncodingError.invalidOption(name: "loopCount", reason: "must be 0 (forever) or 1…\(APNGEncoder.maxNumber) plays, not \(loopCount)")
        }
    }
}

/// What `APNGEncoder.finish()` wrote.
public struct APNGSummary: Equatable, Sendable {
    /// Frames passed to `add(_:)`. The animation lasts `sourceFrameCount / fps` s exactly.
    public var sourceFrameCount: Int
    /// Frames in the file (`acTL`'s `num_frames`): one per run of identical source frames, plus
    /// one for each split of a hold too long for one delay.
    public var writtenFrameCount: Int
    /// Source frames equal to the frame before them, shown by lengthening its delay.
    public var mergedFrameCount: Int
    /// Size of the APNG file in bytes.
    public var byteCount: Int

    /// A summary of these counts and size (bytes).
    public init(sourceFrameCount: Int, writtenFrameCount: Int, mergedFrameCount: Int, byteCount: Int) {
        self.sourceFrameCount = sourceFrameCount
        self.writtenFrameCount = writtenFrameCount
        self.mergedFrameCount = mergedFrameCount
        self.byteCount = byteCount
    }
}

/// Encodes an animated PNG (APNG 1.0) from frames fed in index order, losslessly: every frame a
/// decoder shows equals, byte for byte in straight RGBA, the source frame of its time.
///
/// The file:
/// - signature, `IHDR` (8-bit RGBA, not interlaced), `gAMA`/`sRGB`/`cHRM` as libpng writes them
///   for `PNGEncoder`'s frames (sRGB, perceptual intent), `acTL` (`num_frames`, `num_plays` =
///   `APNGOptions.loopCount`);
/// - frame 0 is the default image: `fcTL` and `IDAT` over the whole canvas; every later frame
///   is an `fcTL` and one `fdAT` holding only the bounding rectangle of the pixels that changed
///   since the frame before, with `dispose_op` NONE and `blend_op` SOURCE, so the rectangle
///   replaces what is under it, alpha included. `fcTL` and `fdAT` share one sequence, from 0;
/// - `IEND`. CRCs are zlib's `crc32`.
///
/// Image data is `PNGEncoder`'s zlib stream of Up-filtered rows, compressed in stripes at
/// `APNGOptions.compression`; a rectangle is compressed as a view of the canvas's rows.
///
/// Timing: source frame `i` is shown from `i / fps` s. Identical consecutive frames are merged,
/// so a frame covering `n` source frames has the delay `n / fps` s as a reduced fraction
/// (`delay_num / delay_den`, both ≤ 65535): exact, so the delays add up to
/// `sourceFrameCount / fps` s. A hold whose reduced numerator does not fit in 16 bits is split
/// into frames of the same image (`delays(frames:fps:)`).
///
/// The whole file is assembled in memory and written by `finish()`. The same frames and options
/// give byte-identical files. Not thread-safe.
///
/// ```swift
/// let encoder = try APNGEncoder(width: 393, height: 852, fps: 60)
/// for frame in frames { try encoder.add(frame) }
/// try encoder.finish()
/// let png = encoder.encodedBytes
/// ```
public final class APNGEncoder {
    /// Canvas width in px.
    public let width: Int
    /// Canvas height in px.
    public let height: Int
    /// Source frames per second: frame `i` is shown from `i / fps` s.
    public let fps: Int
    /// The options the encoder was created with.
    public let options: APNGOptions
    /// The APNG file, once `finish()` has returned, when the destination is `.memory`; empty otherwise.
    public private(set) var encodedBytes: [UInt8] = []

    /// PNG's four-byte numbers go up to 2³¹ − 1.
    static let maxNumber = Int(Int32.max)
    /// The largest side in px: the canvas limit (docs/scene-file.md, “Limits”), which also keeps the
    /// image data of any frame within one chunk (under 2³¹ bytes even when incompressible).
    public static let maxSide = 16_384

    private let destination: AnimationDestination
    /// `fcTL`, `IDAT` and `fdAT` chunks written so far, in file order.
    private var body: [UInt8] = []
    /// The next `fcTL`/`fdAT` sequence number.
    private var sequence = 0
    private var writtenFrameCount = 0
    /// The last distinct source frame, its RGBA bytes read as 32-bit words (one per pixel).
    private var shown: [UInt32] = []
    /// The rectangle of `shown` that its frame stores, and the source frames the frame covers;
    /// written when the next distinct frame comes, since only then is its delay known.
    private var pending: (rect: PixelRect, count: Int)?
    private var sourceFrameCount = 0
    private var mergedFrameCount = 0
    private var isFinished = false

    /// Creates an encoder; nothing is written until `finish()`.
    /// - Parameters:
    ///   - destination: memory (read `encodedBytes` after `finish()`) or a file path.
    ///   - width, height: canvas size in px, 1…16384 (`maxSide`).
    ///   - fps: source frames per second, 1…65535 (the largest `delay_den`).
    ///   - options: see `APNGOptions`.
    /// - Throws: `AnimationEncodingError.invalidCanvasSize`, `.invalidFrameRate`, `.invalidOption`.
    public init(destination: AnimationDestination = .memory, width: Int, height: Int, fps: Int,
                options: APNGOptions = APNGOptions()) throws {
        try AnimationCanvas.check(format: "APNG", width: width, height: height, fps: fps, maxSide: Self.maxSide)
        try options.validate()
        self.destination = destination
        self.width = width
        self.height = height
        self.fps = fps
        self.options = options
    }

    /// Adds the next source frame (index = number of frames added before it).
    /// - Parameter frame: `width × height` px, straight alpha.
    /// - Throws: `AnimationEncodingError.frameSizeMismatch`, `.alreadyFinished`;
    ///   `RasterError(.library)` when zlib fails.
    public func add(_ frame: RGBAImage) throws {
        guard !isFinished else { throw AnimationEncodingError.alreadyFinished }
        guard frame.width == width, frame.height == height else {
            throw AnimationEncodingError.frameSizeMismatch(frameIndex: sourceFrameCount, width: frame.width, height: frame.height,
                                                           expectedWidth: width, expectedHeight: height)
        }
        sourceFrameCount += 1
        let current = Self.words(frame)
        guard let last = pending else {
            shown = current
            pending = (PixelRect(x: 0, y: 0, width: width, height: height), 1)
            return
        }
        guard let changed = GIFEncoder.differenceBounds(current, shown, width: width, height: height).changed else {
            pending!.count += 1
            mergedFrameCount += 1
            return
        }
        try writeFrame(last.rect, covering: last.count)
        shown = current
        pending = (changed, 1)
    }

    /// Writes the last frame and assembles the file: into `encodedBytes`, or at the destination's
    /// path (through a temporary file beside it).
    /// - Returns: counts and the file size.
    /// - Throws: `AnimationEncodingError.noFrames`, `.alreadyFinished`, `.writeFailed`;
    ///   `RasterError(.library)` when zlib fails.
    @discardableResult
    public func finish() throws -> APNGSummary {
        guard !isFinished else { throw AnimationEncodingError.alreadyFinished }
        isFinished = true
        guard let last = pending else { throw AnimationEncodingError.noFrames }
        try writeFrame(last.rect, covering: last.count)
        pending = nil
        shown = []

        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        Self.appendChunk("IHDR", Self.be32(width) + Self.be32(height) + [8, 6, 0, 0, 0], to: &header)
        // What png_set_sRGB_gAMA_and_cHRM(…, PNG_sRGB_INTENT_PERCEPTUAL) writes in PNGEncoder's frames.
        Self.appendChunk("gAMA", Self.be32(45455), to: &header)
        Self.appendChunk("sRGB", [0], to: &header)
        Self.appendChunk("cHRM", [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000].flatMap(Self.be32), to: &header)
        Self.appendChunk("acTL", Self.be32(writtenFrameCount) + Self.be32(options.loopCount), to: &header)
        var end: [UInt8] = []
        Self.appendChunk("IEND", [], to: &end)

        let sink = try AnimationByteSink(destination)
        try sink.write(header)
        try sink.write(body)
        try sink.write(end)
        try sink.commit()
        encodedBytes = sink.bytes
        body = []
        return APNGSummary(sourceFrameCount: sourceFrameCount, writtenFrameCount: writtenFrameCount,
                           mergedFrameCount: mergedFrameCount, byteCount: sink.byteCount)
    }

    /// The delays of a frame that covers `n` source frames, `n / fps` s in all, as
    /// (`delay_num`, `delay_den`) pairs: one reduced fraction when its numerator fits in 16 bits;
    /// otherwise whole seconds in parts of at most 65535 s, then the rest `r / fps` s
    /// (`r < fps`), reduced. A fraction cannot be made coarser and stay exact: the reduced one
    /// has the smallest numerator.
    /// - Precondition: `n ≥ 1`, `1 ≤ fps ≤ 65535`.
    static func delays(frames n: Int, fps: Int) -> [(numerator: Int, denominator: Int)] {
        func reduced(_ n: Int) -> (numerator: Int, denominator: Int) {
            var (a, b) = (n, fps)
            while b != 0 { (a, b) = (b, a % b) }
            return (n / a, fps / a)
        }
        let whole = reduced(n)
        if whole.numerator <= 65535 { return [whole] }
        // numerator > 65535 ≥ denominator, so n > fps: at least one whole second.
        var parts: [(numerator: Int, denominator: Int)] = []
        var seconds = n / fps
        while seconds > 0 {
            let part = min(seconds, 65535)
            parts.append((part, 1))
            seconds -= part
        }
        if n % fps > 0 { parts.append(reduced(n % fps)) }
        return parts
    }

    /// Writes the frame showing `shown`, storing its `rect`, for `count` source frames. The
    /// parts of a split hold after the first restate one pixel of the canvas.
    private func writeFrame(_ rect: PixelRect, covering count: Int) throws {
        for (part, delay) in Self.delays(frames: count, fps: fps).enumerated() {
            let stored = part == 0 ? rect : PixelRect(x: rect.x, y: rect.y, width: 1, height: 1)
            let data = try imageData(stored)
            var control = Self.be32(sequence) + Self.be32(stored.width) + Self.be32(stored.height)
            control += Self.be32(stored.x) + Self.be32(stored.y)
            control += Self.be16(delay.numerator) + Self.be16(delay.denominator)
            control += [0, 0]  // dispose_op APNG_DISPOSE_OP_NONE, blend_op APNG_BLEND_OP_SOURCE
            Self.appendChunk("fcTL", control, to: &body)
            sequence += 1
            if writtenFrameCount == 0 {
                Self.appendChunk("IDAT", data, to: &body)
            } else {
                Self.appendChunk("fdAT", Self.be32(sequence), data, to: &body)
                sequence += 1
            }
            writtenFrameCount += 1
        }
    }

    /// The zlib stream of `rect` of `shown`, as `PNGEncoder` compresses a whole frame.
    private func imageData(_ rect: PixelRect) throws -> [UInt8] {
        let stride = width * 4
        return try shown.withUnsafeBytes { canvas in
            let rows = PixelRows(base: canvas.baseAddress! + rect.y * stride + rect.x * 4, width: rect.width,
                                 height: rect.height, stride: stride, format: .straightRGBA)
            return try PNGEncoder.zlibStream(rows, compression: options.compression, cache: nil)
        }
    }

    /// The frame's bytes as one word per pixel (memory order R, G, B, A), for comparing pixels whole.
    private static func words(_ frame: RGBAImage) -> [UInt32] {
        let count = frame.width * frame.height
        return [UInt32](unsafeUninitializedCapacity: count) { words, initialized in
            frame.pixels.withUnsafeBytes { UnsafeMutableRawBufferPointer(words).copyMemory(from: $0) }
            initialized = count
        }
    }

    /// Appends a chunk: length, type, `prefix` and `data`, and the CRC-32 of type and data.
    private static func appendChunk(_ type: String, _ prefix: [UInt8], _ data: [UInt8] = [], to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        out += be32(prefix.count + data.count) + typeBytes + prefix + data
        var crc = crc32(0, nil, 0)
        // An empty part is skipped: crc32 with a null buffer returns the initial value.
        for part in [typeBytes, prefix, data] where !part.isEmpty {
            crc = part.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
        }
        out += be32(Int(crc))
    }

    private static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}

extension APNGEncoder: AnimationEncoder {}
extension APNGSummary: AnimationSummary {
    /// None: an APNG shows every source frame.
    public var notice: String? { nil }
}
