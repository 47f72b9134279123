import CartRenderRaster
import CFFmpegRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// FFmpeg's functions, loaded by `VideoDecoder.forEachFrame` (`FFmpeg.load()`).
private var ff: cr_ffmpeg { FFmpeg.functions }

/// What a video file says about its video stream, as FFmpeg's libavformat and libavcodec read it
/// (the names are FFmpeg's, as `ffprobe` prints them).
public struct VideoStreamInfo: Equatable, Sendable {
    /// The demuxer: `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `apng`.
    public var formatName: String
    /// The codec: `h264`, `vp9`, `apng`.
    public var codecName: String
    /// The codec's profile (`High`, `Profile 1`), or nil.
    public var profileName: String?
    /// Size in px as stored.
    public var width: Int
    /// Height in px as stored.
    public var height: Int
    /// `yuv420p`, `gbrp`, `rgba`, ….
    public var pixelFormat: String
    /// `bt709`, `unknown`, ….
    public var colorPrimaries: String
    /// The transfer characteristic: `bt709`, `unknown`, ….
    public var colorTransfer: String
    /// The matrix: `bt709`, `gbr`, ….
    public var colorSpace: String
    /// `tv` (limited), `pc` (full), `unknown`.
    public var colorRange: String
    /// `left`, `center`, `unspecified`, ….
    public var chromaLocation: String
    /// The stream's average and real frame rates as fractions (`60/1`).
    public var averageFrameRate: String
    /// The stream's real frame rate as a fraction (`60/1`).
    public var realFrameRate: String
    /// The container's duration in s.
    public var durationSeconds: Double
    /// The container's tags (`encoder`, `creation_time`, …).
    public var metadata: [String: String]
    /// The stream's tags.
    public var streamMetadata: [String: String]
}

/// One decoded picture.
public struct DecodedVideoFrame: Equatable, Sendable {
    /// Presentation time in s: the frame's timestamp × the stream's time base.
    public var time: Double
    /// The picture's planes as stored, each row after row without padding (for `yuv420p`: Y at
    /// `width × height`, then Cb and Cr at half size rounded up; for `gbrp`: G, B, R).
    public var planes: [[UInt8]]
    /// The picture as straight RGBA: `gbrp` and `rgba` copied exactly; `yuv420p` converted by
    /// libswscale from limited-range BT.709 (what the encoder tags), chroma upsampled
    /// bilinearly; opaque unless the stream has alpha.
    public var image: RGBAImage
}

extension DecodedVideoFrame {
    /// The top-left `width × height` px of `image`: a video padded to even sides, cut back to
    /// the size of the frames it was made from.
    /// - Precondition: `width`, `height` within the picture.
    public func image(width: Int, height: Int) -> RGBAImage {
        precondition(width <= image.width && height <= image.height, "\(width)×\(height) px is larger than the \(image.width)×\(image.height) px picture")
        if width == image.width && height == image.height { return image }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height { pixels += image.pixels[(y * image.rowBytes)..<(y * image.rowBytes + width * 4)] }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}

/// Decodes video files (MP4, WebM, APNG) with FFmpeg, one thread. For tests and the benchmark.
public enum VideoDecoder {
    /// Every frame of the file's video stream, in presentation order.
    /// - Throws: `AnimationDecodingError.videoFailed` with FFmpeg's reason.
    public static func decode(contentsOf path: String) throws -> (info: VideoStreamInfo, frames: [DecodedVideoFrame]) {
        var frames: [DecodedVideoFrame] = []
        let info = try forEachFrame(contentsOf: path) { frames.append($0) }
        return (info, frames)
    }

    /// Calls `body` with each frame of the file's video stream, in presentation order, holding
    /// one frame at a time.
    /// - Returns: what the file says about the stream.
    /// - Throws: `RasterError(.missingDependency)` when FFmpeg's libraries cannot be loaded,
    ///   `AnimationDecodingError.videoFailed` with FFmpeg's reason, or what `body` throws.
    @discardableResult
    public static func forEachFrame(contentsOf path: String, _ body: (DecodedVideoFrame) throws -> Void) throws -> VideoStreamInfo {
        try FFmpeg.load()
        ff.av_log_set_level(AV_LOG_QUIET)
        let reader = try Reader(path)
        let info = reader.info
        try reader.run(body)
        return info
    }

    /// The demuxer, the decoder and the RGBA converter of one file; freed by `deinit`.
    private final class Reader {
        private var format: UnsafeMutablePointer<AVFormatContext>?
        private var context: UnsafeMutablePointer<AVCodecContext>?
        private var packet: UnsafeMutablePointer<AVPacket>? = ff.av_packet_alloc()
        private var frame: UnsafeMutablePointer<AVFrame>? = ff.av_frame_alloc()
        private var scaler: OpaquePointer?
        private let streamIndex: Int32
        private let timeBase: AVRational
        private(set) var info: VideoStreamInfo

        init(_ path: String) throws {
            try check(ff.avformat_open_input(&format, path, nil, nil), "avformat_open_input (\(path))")
            try check(ff.avformat_find_stream_info(format, nil), "avformat_find_stream_info")
            guard let format else { throw failure("avformat_open_input", cartrender_averror(ENOMEM)) }
            var decoder: UnsafePointer<AVCodec>?
            streamIndex = ff.av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
            try check(streamIndex, "av_find_best_stream")
            guard let decoder, let stream = format.pointee.streams[Int(streamIndex)] else {
                throw failure("av_find_best_stream", cartrender_averror(EINVAL))
            }
            timeBase = stream.pointee.time_base
            context = ff.avcodec_alloc_context3(decoder)
            guard let context else { throw failure("avcodec_alloc_context3", cartrender_averror(ENOMEM)) }
            try check(ff.avcodec_parameters_to_context(context, stream.pointee.codecpar), "avcodec_parameters_to_context")
            context.pointee.thread_count = 1
            try check(ff.avcodec_open2(context, decoder, nil), "avcodec_open2")
            let parameters = stream.pointee.codecpar.pointee
            func name(_ text: UnsafePointer<CChar>?) -> String { text.map { String(cString: $0) } ?? "unknown" }
            func rational(_ r: AVRational) -> String { "\(r.num)/\(r.den)" }
            info = VideoStreamInfo(
                formatName: name(format.pointee.iformat.pointee.name), codecName: name(ff.avcodec_get_name(parameters.codec_id)),
                profileName: ff.avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) },
                width: Int(parameters.width), height: Int(parameters.height),
                pixelFormat: name(ff.av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format))),
                colorPrimaries: name(ff.av_color_primaries_name(parameters.color_primaries)),
                colorTransfer: name(ff.av_color_transfer_name(parameters.color_trc)),
                colorSpace: name(ff.av_color_space_name(parameters.color_space)),
                colorRange: name(ff.av_color_range_name(parameters.color_range)),
                chromaLocation: name(ff.av_chroma_location_name(parameters.chroma_location)),
                averageFrameRate: rational(stream.pointee.avg_frame_rate), realFrameRate: rational(stream.pointee.r_frame_rate),
                durationSeconds: Double(format.pointee.duration) / Double(AV_TIME_BASE),
                metadata: Self.tags(format.pointee.metadata), streamMetadata: Self.tags(stream.pointee.metadata))
        }

        deinit {
            ff.sws_freeContext(scaler)
            ff.av_frame_free(&frame)
            ff.av_packet_free(&packet)
            ff.avcodec_free_context(&context)
            ff.avformat_close_input(&format)
        }

        func run(_ body: (DecodedVideoFrame) throws -> Void) throws {
            while true {
                let status = ff.av_read_frame(format, packet)
                if status == cartrender_averror_eof() { break }
                try check(status, "av_read_frame")
                defer { ff.av_packet_unref(packet) }
                guard packet!.pointee.stream_index == streamIndex else { continue }
                try check(ff.avcodec_send_packet(context, packet), "avcodec_send_packet")
                try receive(body)
            }
            try check(ff.avcodec_send_packet(context, nil), "avcodec_send_packet")
            try receive(body)
        }

        private func receive(_ body: (DecodedVideoFrame) throws -> Void) throws {
            while true {
                let status = ff.avcodec_receive_frame(context, frame)
                if status == cartrender_averror_eagain() || status == cartrender_averror_eof() { return }
                try check(status, "avcodec_receive_frame")
                defer { ff.av_frame_unref(frame) }
                try body(try decoded(frame!))
            }
        }

        private func decoded(_ frame: UnsafeMutablePointer<AVFrame>) throws -> DecodedVideoFrame {
            let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
            let pixelFormat = AVPixelFormat(rawValue: frame.pointee.format)
            let data = withUnsafeBytes(of: frame.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
            let linesize = withUnsafeBytes(of: frame.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }
            var planes: [[UInt8]] = []
            let descriptor = ff.av_pix_fmt_desc_get(pixelFormat)!.pointee
            let isYUV = descriptor.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0
            for p in 0..<Int(ff.av_pix_fmt_count_planes(pixelFormat)) {
                let rowBytes = Int(ff.av_image_get_linesize(pixelFormat, Int32(width), Int32(p)))
                let chroma = isYUV && (p == 1 || p == 2)
                let rows = chroma ? -((-height) >> Int(descriptor.log2_chroma_h)) : height
                var plane = [UInt8](repeating: 0, count: rowBytes * rows)
                for y in 0..<rows {
                    plane.withUnsafeMutableBufferPointer { ($0.baseAddress! + y * rowBytes).update(from: data[p]! + y * Int(linesize[p]), count: rowBytes) }
                }
                planes.append(plane)
            }
            let image: RGBAImage
            if pixelFormat == AV_PIX_FMT_GBRP {
                var pixels = [UInt8](repeating: 255, count: width * height * 4)
                for i in 0..<(width * height) {
                    pixels[i * 4] = planes[2][i]; pixels[i * 4 + 1] = planes[0][i]; pixels[i * 4 + 2] = planes[1][i]
                }
                image = RGBAImage(width: width, height: height, pixels: pixels)
            } else if pixelFormat == AV_PIX_FMT_RGBA {
                image = RGBAImage(width: width, height: height, pixels: planes[0])
            } else {
                image = try rgba(frame, pixelFormat, width, height)
            }
            let pts = frame.pointee.best_effort_timestamp
            return DecodedVideoFrame(time: Double(pts) * Double(timeBase.num) / Double(timeBase.den), planes: planes, image: image)
        }

        /// libswscale's RGBA of a YUV picture, reading it as limited-range BT.709.
        private func rgba(_ frame: UnsafeMutablePointer<AVFrame>, _ pixelFormat: AVPixelFormat, _ width: Int, _ height: Int) throws -> RGBAImage {
            if scaler == nil {
                scaler = ff.sws_getContext(Int32(width), Int32(height), pixelFormat, Int32(width), Int32(height), AV_PIX_FMT_RGBA,
                                        SWS_BILINEAR | SWS_FULL_CHR_H_INT | SWS_ACCURATE_RND | SWS_BITEXACT, nil, nil, nil)
                guard let scaler else { throw failure("sws_getContext", cartrender_averror(EINVAL)) }
                let bt709 = ff.sws_getCoefficients(SWS_CS_ITU709)
                _ = ff.sws_setColorspaceDetails(scaler, bt709, 0, bt709, 1, 0, 1 << 16, 1 << 16)
            }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let rows = pixels.withUnsafeMutableBufferPointer { target -> Int32 in
                var planes: [UnsafeMutablePointer<UInt8>?] = [target.baseAddress, nil, nil, nil]
                var strides: [Int32] = [Int32(width * 4), 0, 0, 0]
                return withUnsafeBytes(of: frame.pointee.data) { data in
                    withUnsafeBytes(of: frame.pointee.linesize) { linesize in
                        let source = data.bindMemory(to: UnsafePointer<UInt8>?.self)
                        return ff.sws_scale(scaler, source.baseAddress, linesize.bindMemory(to: Int32.self).baseAddress, 0, Int32(height),
                                         &planes, &strides)
                    }
                }
            }
            guard rows == Int32(height) else { throw failure("sws_scale", rows < 0 ? rows : cartrender_averror(EINVAL)) }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }

        private static func tags(_ dictionary: OpaquePointer?) -> [String: String] {
            var tags: [String: String] = [:]
            var entry: UnsafeMutablePointer<AVDictionaryEntry>?
            while let next = ff.av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
                tags[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
                entry = next
            }
            return tags
        }
    }

    /// The types of an MP4 file's top-level boxes, in file order (`ftyp`, `moov`, `free`, `mdat`
    /// for a `+faststart` file), read from the 32-bit (or 64-bit) box sizes; nil when the sizes
    /// do not add up to the file.
    public static func mp4TopLevelBoxes(_ bytes: [UInt8]) -> [String]? {
        var types: [String] = []
        var offset = 0
        func number(_ at: Int, _ count: Int) -> Int { bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) } }
        while offset + 8 <= bytes.count {
            var size = number(offset, 4)
            if size == 1, offset + 16 <= bytes.count { size = number(offset + 8, 8) }
            guard size >= 8, offset + size <= bytes.count else { return nil }
            types.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
            offset += size
        }
        return offset == bytes.count ? types : nil
    }

    private static func check(_ status: Int32, _ operation: String) throws {
        if status < 0 { throw failure(operation, status) }
    }

    private static func failure(_ operation: String, _ status: Int32) -> AnimationDecodingError {
        var buffer = [CChar](repeating: 0, count: Int(AV_ERROR_MAX_STRING_SIZE))
        let message = ff.av_strerror(status, &buffer, buffer.count) == 0 ? String(cString: buffer) : "error \(status)"
        return .videoFailed(operation: operation, message: message)
    }
}
