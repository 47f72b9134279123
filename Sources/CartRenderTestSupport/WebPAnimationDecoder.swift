import CartRenderRaster
import CWebPDemux

/// A decoded animated (or still) WebP: every frame composed onto the canvas by libwebp.
public struct WebPAnimation: Equatable, Sendable {
    /// One displayed frame.
    public struct Frame: Equatable, Sendable {
        /// The whole canvas after this frame (straight alpha).
        public var image: RGBAImage
        /// When the frame appears, in milliseconds from the start.
        public var startMilliseconds: Int
        /// How long it stays, in milliseconds.
        public var durationMilliseconds: Int
    }

    /// Canvas width in px.
    public var width: Int
    /// Canvas height in px.
    public var height: Int
    /// How many times the animation plays: 0 = forever.
    public var loopCount: Int
    /// The frames in display order.
    public var frames: [Frame]

    /// Total duration in milliseconds.
    public var durationMilliseconds: Int { frames.last.map { $0.startMilliseconds + $0.durationMilliseconds } ?? 0 }
}

/// Decodes WebP files with libwebp's animation decoder (`WebPAnimDecoder`, libwebpdemux). For
/// tests and self-checks: it keeps every frame in memory.
public enum WebPAnimationDecoder {
    /// - Parameter bytes: a whole WebP file.
    /// - Throws: `AnimationDecodingError.webpFailed` when libwebp rejects the data.
    public static func decode(_ bytes: [UInt8]) throws -> WebPAnimation {
        let decoder = try AnimDecoder(bytes)
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder.pointer, &info) != 0 else {
            throw AnimationDecodingError.webpFailed(operation: "WebPAnimDecoderGetInfo", message: "invalid decoder")
        }
        let width = Int(info.canvas_width), height = Int(info.canvas_height)
        var frames: [WebPAnimation.Frame] = []
        var previousEnd = 0
        while WebPAnimDecoderHasMoreFrames(decoder.pointer) != 0 {
            var buffer: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            // The timestamp returned is the time at which this frame ends, in ms.
            guard WebPAnimDecoderGetNext(decoder.pointer, &buffer, &timestamp) != 0, let buffer else {
                throw AnimationDecodingError.webpFailed(operation: "WebPAnimDecoderGetNext", message: "frame \(frames.count) is corrupt")
            }
            let pixels = Array(UnsafeBufferPointer(start: buffer, count: width * height * 4))
            let end = Int(timestamp)
            frames.append(WebPAnimation.Frame(image: RGBAImage(width: width, height: height, pixels: pixels),
                                              startMilliseconds: previousEnd, durationMilliseconds: end - previousEnd))
            previousEnd = end
        }
        return WebPAnimation(width: width, height: height, loopCount: Int(info.loop_count), frames: frames)
    }

    /// - Throws: `AnimationDecodingError.readFailed` when the file cannot be read, `.webpFailed`
    ///   when libwebp rejects it.
    public static func decode(contentsOf path: String) throws -> WebPAnimation {
        try decode(readAnimationFile(path))
    }

    /// `WebPAnimDecoder` over a copy of the bytes, which must outlive it; both freed by `deinit`.
    private final class AnimDecoder {
        let pointer: OpaquePointer
        private let bytes: UnsafeMutableBufferPointer<UInt8>

        init(_ data: [UInt8]) throws {
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInitInternal(&options, WEBP_DEMUX_ABI_VERSION) != 0 else {
                throw AnimationDecodingError.webpFailed(operation: "WebPAnimDecoderOptionsInit", message: "libwebpdemux version mismatch")
            }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(data.count, 1))
            _ = copy.initialize(from: data)
            var webpData = WebPData(bytes: UnsafePointer(copy.baseAddress), size: data.count)
            guard let decoder = WebPAnimDecoderNewInternal(&webpData, &options, WEBP_DEMUX_ABI_VERSION) else {
                copy.deallocate()
                throw AnimationDecodingError.webpFailed(operation: "WebPAnimDecoderNew", message: "not a valid WebP file")
            }
            pointer = decoder
            bytes = copy
        }

        deinit {
            WebPAnimDecoderDelete(pointer)
            bytes.deallocate()
        }
    }
}
