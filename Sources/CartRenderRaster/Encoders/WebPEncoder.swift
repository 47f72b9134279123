import CWebP

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
    /// (the default) lets every frame after the first store only what changed. Key frames every
    /// 9…17 frames (gif2webp's choice) made the animation above 37 % larger and 4 × slower.
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

    public init(sourceFrameCount: Int, durationMilliseconds: Int, byteCount: Int) {
        self.sourceFrameCount = sourceFrameCount
        self.durationMilliseconds = durationMilliseconds
        self.byteCount = byteCount
    }
}

/// Encodes an animated WebP with libwebp's animation encoder (`WebPAnimEncoder`, libwebpmux),
/// from frames fed in index order. Frame `i` is at `round(i × 1000 / fps)` ms. libwebp keeps
/// only the previous canvas and the compressed frames; it stores each frame as the rectangle
/// that changed and merges identical frames.
///
/// The same frames and options give byte-identical files. Not thread-safe.
public final class WebPEncoder {
    /// Canvas width in px.
    public let width: Int
    /// Canvas height in px.
    public let height: Int
    /// Source frames per second.
    public let fps: Double
    /// The options the encoder was created with.
    public let options: WebPOptions
    /// The WebP file, once `finish()` has returned, when the destination is `.memory`; empty otherwise.
    public private(set) var encodedBytes: [UInt8] = []

    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private let destination: AnimationDestination
    private var sourceFrameCount = 0
    private var isFinished = false

    /// - Parameters:
    ///   - destination: memory (read `encodedBytes` after `finish()`) or a file path.
    ///   - width, height: canvas size in px, 1…16383.
    ///   - fps: source frames per second, finite and above 0.
    /// - Throws: `AnimationEncodingError.invalidCanvasSize`, `.invalidFrameRate`,
    ///   `.invalidOption`, `.webpFailed`.
    public init(destination: AnimationDestination = .memory, width: Int, height: Int, fps: Double,
                options: WebPOptions = WebPOptions()) throws {
        guard (1...16383).contains(width), (1...16383).contains(height) else {
            throw AnimationEncodingError.invalidCanvasSize(format: "WebP", width: width, height: height, limit: 16383)
        }
        guard fps.isFinite, fps > 0 else { throw AnimationEncodingError.invalidFrameRate(fps) }
        try options.validate()
        var animationOptions = WebPAnimEncoderOptions()
        // WebPAnimEncoderOptionsInit / WebPConfigInit are header inlines around these entry points.
        guard WebPAnimEncoderOptionsInitInternal(&animationOptions, WEBP_MUX_ABI_VERSION) != 0 else {
            throw AnimationEncodingError.webpFailed(operation: "WebPAnimEncoderOptionsInit", message: "libwebpmux version mismatch")
        }
        animationOptions.anim_params.loop_count = Int32(options.loopCount)
        animationOptions.allow_mixed = 0
        animationOptions.minimize_size = 0
        if let interval = options.keyframeInterval {
            animationOptions.kmin = Int32(interval.lowerBound)
            animationOptions.kmax = Int32(interval.upperBound)
        } else {
            animationOptions.kmax = 0  // key-frame insertion off: every later frame is a delta
        }
        guard WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, 75, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw AnimationEncodingError.webpFailed(operation: "WebPConfigInit", message: "libwebp version mismatch")
        }
        config.lossless = options.lossless ? 1 : 0
        // For lossless, quality is effort; 75 is libwebp's (and cwebp's) default.
        config.quality = options.lossless ? 75 : options.quality
        config.method = Int32(options.method)
        config.thread_level = 0
        guard WebPValidateConfig(&config) != 0 else {
            throw AnimationEncodingError.webpFailed(operation: "WebPValidateConfig", message: "the configuration is invalid")
        }
        guard let encoder = WebPAnimEncoderNewInternal(Int32(width), Int32(height), &animationOptions, WEBP_MUX_ABI_VERSION) else {
            throw AnimationEncodingError.webpFailed(operation: "WebPAnimEncoderNew", message: "out of memory or invalid options")
        }
        self.encoder = encoder
        self.width = width
        self.height = height
        self.fps = fps
        self.options = options
        self.destination = destination
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Adds the next source frame, shown from `round(index × 1000 / fps)` ms.
    /// - Parameter frame: `width × height` px, straight alpha.
    /// - Throws: `AnimationEncodingError.frameSizeMismatch`, `.alreadyFinished`, `.webpFailed`.
    public func add(_ frame: RGBAImage) throws {
        guard !isFinished else { throw AnimationEncodingError.alreadyFinished }
        guard frame.width == width, frame.height == height else {
            throw AnimationEncodingError.frameSizeMismatch(frameIndex: sourceFrameCount, width: frame.width, height: frame.height,
                                                           expectedWidth: width, expectedHeight: height)
        }
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw AnimationEncodingError.webpFailed(operation: "WebPPictureInit", message: "libwebp version mismatch")
        }
        defer { WebPPictureFree(&picture) }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = 1
        let imported = frame.pixels.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.rowBytes))
        }
        guard imported != 0 else {
            throw AnimationEncodingError.webpFailed(operation: "WebPPictureImportRGBA", message: WebPEncoder.describe(picture.error_code))
        }
        let timestamp = GIFTimeline.milliseconds(Double(sourceFrameCount) / fps)
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
            throw AnimationEncodingError.webpFailed(operation: "WebPAnimEncoderAdd", message: lastError(picture))
        }
        sourceFrameCount += 1
    }

    /// Ends the last frame at `round(frames × 1000 / fps)` ms, assembles the file and writes it.
    /// - Throws: `AnimationEncodingError.noFrames`, `.alreadyFinished`, `.webpFailed`, `.writeFailed`.
    @discardableResult
    public func finish() throws -> WebPSummary {
        guard !isFinished else { throw AnimationEncodingError.alreadyFinished }
        isFinished = true
        guard sourceFrameCount > 0 else { throw AnimationEncodingError.noFrames }
        let end = GIFTimeline.milliseconds(Double(sourceFrameCount) / fps)
        guard WebPAnimEncoderAdd(encoder, nil, Int32(end), nil) != 0 else {
            throw AnimationEncodingError.webpFailed(operation: "WebPAnimEncoderAdd", message: lastError(nil))
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
            WebPFree(UnsafeMutableRawPointer(mutating: data.bytes))
            throw AnimationEncodingError.webpFailed(operation: "WebPAnimEncoderAssemble", message: lastError(nil))
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: data.bytes)) }
        let bytes = Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
        let sink = try AnimationByteSink(destination)
        try sink.write(bytes)
        try sink.commit()
        encodedBytes = sink.bytes
        return WebPSummary(sourceFrameCount: sourceFrameCount, durationMilliseconds: end, byteCount: bytes.count)
    }

    private func lastError(_ picture: WebPPicture?) -> String {
        if let text = WebPAnimEncoderGetError(encoder).map({ String(cString: $0) }), !text.isEmpty {
            return text
        }
        return picture.map { WebPEncoder.describe($0.error_code) } ?? "unknown error"
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
