import CFFmpegRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// FFmpeg's functions, loaded by `VideoEncoder.init` (`FFmpeg.load()`).
private var ff: cr_ffmpeg { FFmpeg.functions }

/// Encodes a video (H.264 in MP4 or VP9 in WebM, `VideoCodec`) through FFmpeg's libavformat and
/// libavcodec from frames fed in index order, at a constant frame rate: frame `i` is shown from
/// `i / fps` s for `1 / fps` s, every frame stored, identical ones included (they cost a few
/// bytes each), so the video lasts `frameCount / fps` s.
///
/// Pixels:
/// - 4:2:0 (H.264, lossy VP9): `yuv420p`, converted by libswscale with the BT.709 matrix into
///   limited range (Y 16…235, Cb/Cr 16…240), `SWS_ACCURATE_RND | SWS_BITEXACT`; chroma is the
///   mean of each 2 × 2 block (`SWS_AREA`, chroma sited at the block's centre, tagged so).
///   Tagged BT.709 primaries (the sRGB primaries), BT.709 transfer, BT.709 matrix, limited range.
///   4:2:0 needs even sides: an odd width or height is padded by one pixel that repeats the last
///   column or row, so a 1179 × 2556 px render is a 1180 × 2556 px video.
/// - Lossless VP9: `gbrp` (planar R, G, B; profile 1), a copy of the frames' bytes with no
///   colour conversion, at the frames' own size. Tagged BT.709 primaries and transfer, RGB
///   matrix, full range.
/// - Alpha is dropped: frames are opaque (every screen fills its background).
///
/// Deterministic: a fixed number of encoder threads (`encoderThreads`), no wall-clock or version metadata (`AVFMT_FLAG_BITEXACT`
/// and `AV_CODEC_FLAG_BITEXACT`: no creation time, no `Lavf` version, track numbers instead of
/// random track UIDs in WebM), and the SEI NAL units libx264 writes into the first H.264 frame
/// (its version and settings string) are dropped, and libx264 runs without its AVX-512
/// functions (`cr_x264_cpu_without_avx512`: with them the first frame's slice varied when other
/// threads of the process ran other encoders). The same frames and options give
/// byte-identical files with the same Debian FFmpeg, libx264 and libvpx.
///
/// MP4: `+faststart` (the `moov` index before the media data, so a browser starts playing
/// before the whole file has arrived). Times in units of 1/fps s, scaled by the muxer.
/// WebM: times in whole milliseconds (`round(i × 1000 / fps)`), the WebM unit, and the frame
/// duration to the nanosecond (`DefaultDuration`).
///
/// The file is assembled in memory (FFmpeg writes and, for `+faststart`, re-reads it there)
/// and written by `finish()`. Not thread-safe, except `convert(_:changedRows:frameIndex:)`: the colour
/// conversion of a frame's changed rows (`VideoFramePatch`) runs on any thread, several at once
/// (the drawing workers), so that the thread that adds the frames only copies the converted rows
/// into the codec's picture and encodes.
///
/// ```swift
/// let encoder = try VideoEncoder(width: 393, height: 852, fps: 60, codec: .h264(H264Options()))
/// for frame in frames { try encoder.add(frame) }
/// try encoder.finish()
/// let mp4 = encoder.encodedBytes
/// ```
public final class VideoEncoder: ReportsFinishProgress {
    /// Where `finish()` reports encoding the frames the codec holds and writing the container.
    public var finishProgress: EncoderProgress?
    /// Frame width in px.
    public let width: Int
    /// Frame height in px.
    public let height: Int
    /// The video's width in px: `width`, plus one when odd and the chroma is 4:2:0.
    public let codedWidth: Int
    /// The video's height in px: `height`, plus one when odd and the chroma is 4:2:0.
    public let codedHeight: Int
    /// Frames per second: frame `i` is shown from `i / fps` s.
    public let fps: Int
    /// The codec and its options.
    public let codec: VideoCodec
    /// The video file, once `finish()` has returned, when the destination is `.memory`; empty otherwise.
    public private(set) var encodedBytes: [UInt8] = []

    /// Threads of each encoder: a fixed number, not the machine's cores, so that the bytes do not
    /// depend on the machine. libx264 encodes two frames at once (its frame threads give the same
    /// bytes on every run); libvpx encodes the two tile columns of a frame at once (tiles are
    /// coded independently: the same bytes as one thread).
    static let encoderThreads = 2

    /// The largest side in px: the canvas limit (docs/scene-file.md, “Limits”).
    public static let maxSide = 16_384

    private let destination: AnimationDestination
    private let file = VideoMemoryFile()
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frameCount = 0
    private var isFinished = false

    /// Sets up the encoder and writes the container's header (into memory).
    /// - Parameters:
    ///   - destination: memory (read `encodedBytes` after `finish()`) or a file path.
    ///   - width, height: frame size in px, 1…16384 (`maxSide`).
    ///   - fps: frames per second, 1…65535.
    ///   - codec: H.264/MP4 or VP9/WebM, with its options.
    /// - Throws: `RasterError(.missingDependency)` when FFmpeg's libraries cannot be loaded,
    ///   `AnimationEncodingError.invalidCanvasSize`, `.invalidFrameRate`, `.invalidOption`, `.libraryFailed` with
    ///   FFmpeg's reason (for example when libavcodec was built without libx264 or libvpx).
    public init(destination: AnimationDestination = .memory, width: Int, height: Int, fps: Int, codec: VideoCodec) throws {
        try FFmpeg.load()
        try AnimationCanvas.check(format: codec.containerName, width: width, height: height, fps: fps, maxSide: Self.maxSide)
        try codec.validate()
        self.destination = destination
        self.width = width
        self.height = height
        self.fps = fps
        self.codec = codec
        codedWidth = codec.subsamplesChroma ? width + width % 2 : width
        codedHeight = codec.subsamplesChroma ? height + height % 2 : height
        _ = Self.silenceLibraryLog
        // libx264's frame buffers without transparent huge pages (see cr_x264_without_huge_pages):
        // a setting of the whole process, made before libx264 allocates.
        if case .h264 = codec { _ = cr_x264_without_huge_pages() }
        try openContainer()
        try openEncoder()
        try writeHeader()
    }

    deinit {
        ff.av_frame_free(&picture)
        ff.av_packet_free(&packet)
        ff.avcodec_free_context(&context)
        if let format {
            var pb = format.pointee.pb
            if let context = pb { ff.av_freep(&context.pointee.buffer) }
            ff.avio_context_free(&pb)
            ff.avformat_free_context(format)
        }
    }

    /// Adds the next frame, shown from `index / fps` s.
    /// - Parameter frame: `width × height` px, straight alpha (ignored: frames are opaque).
    /// - Throws: `AnimationEncodingError.frameSizeMismatch`, `.alreadyFinished`, `.libraryFailed`.
    public func add(_ frame: RGBAImage) throws { try add(frame, changedRows: nil) }

    /// Adds the next frame, whose pixels outside `changedRows` (px rows, sorted and disjoint) are
    /// those of the frame added before it; nil when not known (every row): converts the changed
    /// rows (`convert(_:changedRows:frameIndex:)`) and adds them (`add(_:)` of a `VideoFramePatch`).
    /// - Throws: `AnimationEncodingError.frameSizeMismatch`, `.alreadyFinished`, `.libraryFailed`.
    public func add(_ frame: RGBAImage, changedRows: [Range<Int>]?) throws {
        guard !isFinished else { throw AnimationEncodingError.alreadyFinished }
        try add(frame.withRows { rows in try convert(rows, changedRows: frameCount == 0 ? nil : changedRows, frameIndex: frameCount) })
    }

    /// Adds the next frame: `patch`'s rows, and outside them the pixels of the frame added before
    /// it. An empty patch (a frame that repeats the one before) passes the same picture to the
    /// codec again.
    /// - Throws: `AnimationEncodingError.frameSizeMismatch` (a patch of another encoder's size, or
    ///   a first frame that is not complete), `.alreadyFinished`, `.libraryFailed`.
    public func add(_ patch: VideoFramePatch) throws {
        guard !isFinished, let picture else { throw AnimationEncodingError.alreadyFinished }
        guard patch.codedWidth == codedWidth, patch.codedHeight == codedHeight, patch.layout == codec.colorTags.pixelFormat.rawValue,
              frameCount > 0 || patch.bands == [0..<codedHeight] else {
            throw AnimationEncodingError.frameSizeMismatch(frameIndex: frameCount, width: patch.width, height: patch.height,
                                                           expectedWidth: width, expectedHeight: height)
        }
        if !patch.bands.isEmpty {
            try Self.check(ff.av_frame_make_writable(picture), "libavutil", "av_frame_make_writable")
            copy(patch, into: picture)
        }
        try sendPicture()
    }

    /// Passes the picture, as the rows added so far left it, to the codec as the next frame.
    private func sendPicture() throws {
        guard let picture else { throw AnimationEncodingError.alreadyFinished }
        picture.pointee.pts = Int64(frameCount)
        frameCount += 1
        try send(picture)
    }

    /// The coded rows to convert when `changedRows` of the frame changed: each range widened to
    /// whole row pairs when the chroma is 4:2:0, the padding row with the last one, merged;
    /// every row when not known.
    func codedBands(_ changedRows: [Range<Int>]?) -> [Range<Int>] {
        guard let changedRows else { return [0..<codedHeight] }
        let pair = codec.subsamplesChroma ? 2 : 1
        let widened = RowRanges.clamped(changedRows, height: height).map { rows -> Range<Int> in
            let end = rows.upperBound == height ? codedHeight : rows.upperBound
            return (rows.lowerBound / pair * pair)..<min(codedHeight, (end + pair - 1) / pair * pair)
        }
        return RowRanges.merged(widened)
    }

    /// Flushes the encoder, writes the container's index (`moov` moved to the front for MP4)
    /// and puts the file into `encodedBytes` or at the destination's path.
    /// - Returns: the frame count, the video's size and the file size.
    /// - Throws: `AnimationEncodingError.noFrames`, `.alreadyFinished`, `.libraryFailed`, `.writeFailed`.
    @discardableResult
    public func finish() throws -> VideoSummary {
        guard !isFinished else { throw AnimationEncodingError.alreadyFinished }
        isFinished = true
        guard frameCount > 0 else { throw AnimationEncodingError.noFrames }
        finishProgress?(.encoding, 0, 1)
        try send(nil)
        finishProgress?(.encoding, 1, 1)
        finishProgress?(.muxing, 0, 1)
        try Self.check(ff.av_write_trailer(format), "libavformat", "av_write_trailer")
        if let pb = format?.pointee.pb {
            ff.avio_flush(pb)
            try Self.check(pb.pointee.error, "libavformat", "avio_flush")
        }
        let sink = try AnimationByteSink(destination)
        try sink.write(file.bytes)
        try sink.commit()
        encodedBytes = sink.bytes
        file.bytes = []
        finishProgress?(.muxing, 1, 1)
        return VideoSummary(frameCount: frameCount, codedWidth: codedWidth, codedHeight: codedHeight, byteCount: sink.byteCount)
    }

    // MARK: - Set-up

    /// The output context: MP4 or WebM, bit-exact, writing into `file` through a custom
    /// `AVIOContext` that can also be opened again for reading (`+faststart` re-reads the file).
    private func openContainer() throws {
        try Self.check(ff.avformat_alloc_output_context2(&format, nil, codec.muxerName, nil), "libavformat", "avformat_alloc_output_context2")
        guard let format else { throw Self.failure("libavformat", "avformat_alloc_output_context2", cartrender_averror(ENOMEM)) }
        format.pointee.flags |= AVFMT_FLAG_BITEXACT | AVFMT_FLAG_CUSTOM_IO
        format.pointee.opaque = Unmanaged.passUnretained(file).toOpaque()
        format.pointee.io_open = videoMemoryFileOpen
        format.pointee.io_close2 = videoMemoryFileClose
        guard let pb = VideoMemoryFile.makeContext(opaque: format.pointee.opaque, writable: true) else {
            throw Self.failure("libavformat", "avio_alloc_context", cartrender_averror(ENOMEM))
        }
        format.pointee.pb = pb
        guard let stream = ff.avformat_new_stream(format, nil) else {
            throw Self.failure("libavformat", "avformat_new_stream", cartrender_averror(ENOMEM))
        }
        self.stream = stream
    }

    /// The encoder context: size, pixel format, colour tags, time base, two threads, bit-exact,
    /// and the codec's private options.
    private func openEncoder() throws {
        guard let encoder = ff.avcodec_find_encoder_by_name(codec.encoderName) else {
            throw AnimationEncodingError.libraryFailed(library: "libavcodec", operation: "avcodec_find_encoder_by_name",
                                                     message: "this libavcodec has no \(codec.encoderName) encoder")
        }
        context = ff.avcodec_alloc_context3(encoder)
        guard let context, let format, let stream else { throw Self.failure("libavcodec", "avcodec_alloc_context3", cartrender_averror(ENOMEM)) }
        context.pointee.width = Int32(codedWidth)
        context.pointee.height = Int32(codedHeight)
        context.pointee.time_base = AVRational(num: 1, den: Int32(fps))
        context.pointee.framerate = AVRational(num: Int32(fps), den: 1)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        context.pointee.thread_count = Int32(Self.encoderThreads)
        context.pointee.bit_rate = 0
        context.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let tags = codec.colorTags
        context.pointee.pix_fmt = tags.pixelFormat
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        context.pointee.colorspace = tags.matrix
        context.pointee.color_range = tags.range
        context.pointee.chroma_sample_location = tags.chromaLocation

        var options = try Self.dictionary(codec.encoderOptions(pixels: Int(context.pointee.width) * Int(context.pointee.height)))
        defer { ff.av_dict_free(&options) }
        try Self.check(ff.avcodec_open2(context, encoder, &options), "libavcodec", "avcodec_open2 (\(codec.encoderName))")
        try Self.checkConsumed(options, "avcodec_open2 (\(codec.encoderName))")
        try Self.check(ff.avcodec_parameters_from_context(stream.pointee.codecpar, context), "libavcodec", "avcodec_parameters_from_context")
        stream.pointee.time_base = context.pointee.time_base
        // libavformat gives every packet (the last one too) the duration of one frame at this rate.
        stream.pointee.avg_frame_rate = context.pointee.framerate
        stream.pointee.r_frame_rate = context.pointee.framerate

        picture = ff.av_frame_alloc()
        packet = ff.av_packet_alloc()
        guard let picture, packet != nil else { throw Self.failure("libavutil", "av_frame_alloc", cartrender_averror(ENOMEM)) }
        picture.pointee.format = tags.pixelFormat.rawValue
        picture.pointee.width = Int32(codedWidth)
        picture.pointee.height = Int32(codedHeight)
        picture.pointee.color_primaries = AVCOL_PRI_BT709
        picture.pointee.color_trc = AVCOL_TRC_BT709
        picture.pointee.colorspace = tags.matrix
        picture.pointee.color_range = tags.range
        picture.pointee.chroma_location = tags.chromaLocation
        try Self.check(ff.av_frame_get_buffer(picture, 0), "libavutil", "av_frame_get_buffer")
    }

    /// The container's header (`+faststart` for MP4).
    private func writeHeader() throws {
        var options = try Self.dictionary(codec.muxerOptions)
        defer { ff.av_dict_free(&options) }
        try Self.check(ff.avformat_write_header(format, &options), "libavformat", "avformat_write_header (\(codec.muxerName))")
        try Self.checkConsumed(options, "avformat_write_header (\(codec.muxerName))")
    }

    /// RGBA → the codec's pixel format, `codedWidth × height` px: BT.709, limited range for
    /// `yuv420p`; a plain repacking for `gbrp`. The caller frees it.
    private func makeConverter(height: Int) throws -> OpaquePointer {
        let target = codec.colorTags.pixelFormat
        let yuv = target == AV_PIX_FMT_YUV420P
        let flags = (yuv ? SWS_AREA : SWS_POINT) | SWS_ACCURATE_RND | SWS_BITEXACT
        guard let converter = ff.sws_getContext(Int32(codedWidth), Int32(height), AV_PIX_FMT_RGBA,
                                                Int32(codedWidth), Int32(height), target, flags, nil, nil, nil) else {
            throw AnimationEncodingError.libraryFailed(library: "libswscale", operation: "sws_getContext",
                                                     message: "no conversion from RGBA to \(ff.av_get_pix_fmt_name(target).map { String(cString: $0) } ?? "pixel format \(target.rawValue)")")
        }
        guard yuv else { return converter }
        // Source: RGB, full range (its table is not used for RGB input). Destination: the BT.709
        // matrix, limited range. Brightness 0, contrast and saturation 1.0 (16.16 fixed point).
        let bt709 = ff.sws_getCoefficients(SWS_CS_ITU709)
        guard ff.sws_setColorspaceDetails(converter, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16) >= 0 else {
            ff.sws_freeContext(converter)
            throw AnimationEncodingError.libraryFailed(library: "libswscale", operation: "sws_setColorspaceDetails",
                                                     message: "the BT.709 matrix cannot be set for RGBA to yuv420p")
        }
        return converter
    }

    // MARK: - Frames

    /// Converts the rows of a frame that changed since the frame before it into the codec's
    /// pixel format, for `add(_:)` of the patch. Thread-safe: it reads only the encoder's
    /// settings, so the drawing workers convert their frames at once, in any order.
    ///
    /// The coded rows converted (`codedBands(_:)`) are the changed ones widened to whole 2 × 2
    /// chroma blocks (4:2:0), with the padding row and column of an odd side repeating the last
    /// row and column, each band by a converter of its own: the bytes are those of converting
    /// every row (libswscale converts each row pair on its own at this size).
    /// - Parameters:
    ///   - rows: the frame, `width × height` px, straight RGBA or Cairo's premultiplied ARGB32
    ///     (opaque pixels: alpha is dropped), valid during the call.
    ///   - changedRows: px rows, sorted and disjoint, outside which the frame equals the frame
    ///     before it; nil when not known (every row), and for the first frame.
    ///   - frameIndex: the frame's index, for the error.
    /// - Throws: `AnimationEncodingError.frameSizeMismatch`, `.libraryFailed`.
    public func convert(_ rows: PixelRows, changedRows: [Range<Int>]?, frameIndex: Int) throws -> VideoFramePatch {
        guard rows.width == width, rows.height == height else {
            throw AnimationEncodingError.frameSizeMismatch(frameIndex: frameIndex, width: rows.width, height: rows.height,
                                                           expectedWidth: width, expectedHeight: height)
        }
        let bands = codedBands(changedRows)
        let format = codec.colorTags.pixelFormat
        let vertical = codec.subsamplesChroma ? 1 : 0
        let horizontal = codec.subsamplesChroma ? 1 : 0
        // Each plane's rows back to back, every row 64-byte aligned in length.
        let strides = (0..<3).map { plane in ((plane == 0 ? codedWidth : codedWidth >> horizontal) + 63) / 64 * 64 }
        let planeRows = (0..<3).map { plane in bands.reduce(0) { $0 + (plane == 0 ? $1.count : $1.count >> vertical) } }
        var plane0 = [UInt8](repeating: 0, count: strides[0] * planeRows[0])
        var plane1 = [UInt8](repeating: 0, count: strides[1] * planeRows[1])
        var plane2 = [UInt8](repeating: 0, count: strides[2] * planeRows[2])
        let rowBytes = codedWidth * 4
        var source = [UInt8](repeating: 0, count: rowBytes * (bands.map(\.count).max() ?? 0))
        var offsets = [0, 0, 0]
        for band in bands {
            // The band as straight RGBA, `codedWidth` px wide: the padding column repeats the
            // last pixel of the row, the padding row the last row.
            source.withUnsafeMutableBytes { target in
                for y in band {
                    let to = target.baseAddress! + (y - band.lowerBound) * rowBytes
                    let row = PixelRows(base: rows.base + min(y, height - 1) * rows.stride, width: width, height: 1,
                                        stride: rows.stride, format: rows.format)
                    row.copy(to: to, stride: rowBytes, format: .straightRGBA)
                    if codedWidth > width { (to + width * 4).copyMemory(from: to + (width - 1) * 4, byteCount: 4) }
                }
            }
            let converter = try makeConverter(height: band.count)
            defer { ff.sws_freeContext(converter) }
            let converted = source.withUnsafeBufferPointer { pixels in
                plane0.withUnsafeMutableBufferPointer { p0 in
                    plane1.withUnsafeMutableBufferPointer { p1 in
                        plane2.withUnsafeMutableBufferPointer { p2 in
                            var from: [UnsafePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
                            var fromStride: [Int32] = [Int32(rowBytes), 0, 0, 0]
                            var to: [UnsafeMutablePointer<UInt8>?] = [p0.baseAddress! + offsets[0] * strides[0],
                                                                      p1.baseAddress! + offsets[1] * strides[1],
                                                                      p2.baseAddress! + offsets[2] * strides[2], nil]
                            var toStride: [Int32] = strides.map { Int32($0) } + [0]
                            return ff.sws_scale(converter, &from, &fromStride, 0, Int32(band.count), &to, &toStride)
                        }
                    }
                }
            }
            guard converted == Int32(band.count) else {
                throw AnimationEncodingError.libraryFailed(library: "libswscale", operation: "sws_scale",
                                                         message: converted < 0 ? Self.describe(converted) : "converted \(converted) of \(band.count) rows")
            }
            offsets[0] += band.count
            offsets[1] += band.count >> vertical
            offsets[2] += band.count >> vertical
        }
        return VideoFramePatch(width: width, height: height, codedWidth: codedWidth, codedHeight: codedHeight,
                               layout: format.rawValue, chromaShift: vertical, bands: bands, planes: [plane0, plane1, plane2], strides: strides)
    }

    /// Copies the rows of `patch` into the same rows of `picture`'s planes.
    private func copy(_ patch: VideoFramePatch, into picture: UnsafeMutablePointer<AVFrame>) {
        withUnsafeMutablePointer(to: &picture.pointee.data) { data in
            withUnsafeMutablePointer(to: &picture.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) { targets in
                    linesize.withMemoryRebound(to: Int32.self, capacity: Int(AV_NUM_DATA_POINTERS)) { targetStrides in
                        for plane in 0..<3 {
                            let shift = plane == 0 ? 0 : patch.chromaShift
                            let length = plane == 0 || patch.chromaShift == 0 ? codedWidth : codedWidth >> 1
                            let target = targets[plane]!, targetStride = Int(targetStrides[plane]), stride = patch.strides[plane]
                            patch.planes[plane].withUnsafeBufferPointer { source in
                                var from = source.baseAddress!
                                for band in patch.bands {
                                    for y in (band.lowerBound >> shift)..<(band.upperBound >> shift) {
                                        (target + y * targetStride).update(from: from, count: length)
                                        from += stride
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Sends a frame (nil: the end) to the encoder and writes every packet it has ready.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        try Self.check(ff.avcodec_send_frame(context, frame), "libavcodec", "avcodec_send_frame (\(codec.encoderName))")
        guard let packet, let context, let stream else { return }
        while true {
            let status = ff.avcodec_receive_packet(context, packet)
            if status == cartrender_averror_eagain() || status == cartrender_averror_eof() { return }
            try Self.check(status, "libavcodec", "avcodec_receive_packet (\(codec.encoderName))")
            if case .h264 = codec { try Self.dropSEI(packet) }
            ff.av_packet_rescale_ts(packet, context.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            try Self.check(ff.av_write_frame(format, packet), "libavformat", "av_write_frame (\(codec.muxerName))")
            ff.av_packet_unref(packet)
        }
    }

    /// Removes the SEI NAL units (type 6) from an H.264 packet in Annex B form. With these
    /// settings the only SEI libx264 writes is its version and options string, which
    /// libavcodec puts at the start of the first frame.
    static func dropSEI(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        guard let data = packet.pointee.data else { return }
        let units = annexBUnits(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
        let kept = units.filter { unit in unit.payload.first.map { $0 & 0x1F != 6 } ?? true }
        guard kept.count < units.count else { return }
        try check(ff.av_packet_make_writable(packet), "libavcodec", "av_packet_make_writable")
        let source = Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
        var size = 0
        for unit in kept {
            let range = unit.start..<unit.payload.endIndex
            source.withUnsafeBufferPointer { (packet.pointee.data + size).update(from: $0.baseAddress! + range.lowerBound, count: range.count) }
            size += range.count
        }
        ff.av_shrink_packet(packet, Int32(size))
    }

    /// The NAL units of an Annex B byte stream: where each starts (its start code) and its bytes
    /// after the start code. Emulation prevention keeps `00 00 01` out of the units themselves.
    static func annexBUnits(_ bytes: UnsafeBufferPointer<UInt8>) -> [(start: Int, payload: Slice<UnsafeBufferPointer<UInt8>>)] {
        var codes: [(start: Int, end: Int)] = []
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                let start = i > 0 && bytes[i - 1] == 0 ? i - 1 : i
                codes.append((start, i + 3))
                i += 3
            } else {
                i += 1
            }
        }
        return codes.enumerated().map { k, code in
            let end = k + 1 < codes.count ? codes[k + 1].start : bytes.count
            return (code.start, bytes[code.end..<end])
        }
    }

    // MARK: - FFmpeg's status codes

    /// libavutil's log goes to stderr; the encoder reports failures as errors instead.
    private static let silenceLibraryLog: Void = ff.av_log_set_level(AV_LOG_QUIET)

    /// Throws `.libraryFailed` when `status` is an FFmpeg error (negative).
    static func check(_ status: Int32, _ library: String, _ operation: String) throws {
        if status < 0 { throw failure(library, operation, status) }
    }

    static func failure(_ library: String, _ operation: String, _ status: Int32) -> AnimationEncodingError {
        .libraryFailed(library: library, operation: operation, message: describe(status))
    }

    /// `av_strerror`'s sentence for an FFmpeg error code.
    static func describe(_ status: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(AV_ERROR_MAX_STRING_SIZE))
        guard ff.av_strerror(status, &buffer, buffer.count) == 0 else { return "error \(status)" }
        return String(cString: buffer)
    }

    /// An `AVDictionary` of options (the caller frees it).
    private static func dictionary(_ pairs: [(String, String)]) throws -> OpaquePointer? {
        var dictionary: OpaquePointer?
        for (key, value) in pairs {
            try check(ff.av_dict_set(&dictionary, key, value, 0), "libavutil", "av_dict_set")
        }
        return dictionary
    }

    /// The options FFmpeg left in `dictionary` are ones it does not know: a programming error
    /// that would otherwise pass silently.
    private static func checkConsumed(_ dictionary: OpaquePointer?, _ operation: String) throws {
        guard let entry = ff.av_dict_get(dictionary, "", nil, AV_DICT_IGNORE_SUFFIX) else { return }
        throw AnimationEncodingError.libraryFailed(library: "libavcodec", operation: operation,
                                                 message: "option \(String(cString: entry.pointee.key)) is unknown")
    }
}

extension VideoCodec {
    /// libavformat's muxer.
    var muxerName: String {
        switch self {
        case .h264: return "mp4"
        case .vp9: return "webm"
        }
    }

    var muxerOptions: [(String, String)] {
        switch self {
        case .h264: return [("movflags", "+faststart")]
        case .vp9: return []
        }
    }

    /// libavcodec's encoder.
    var encoderName: String {
        switch self {
        case .h264: return "libx264"
        case .vp9: return "libvpx-vp9"
        }
    }

    /// The encoder's private options for frames of `pixels` pixels (see `H264Options`,
    /// `VP9Options` for the choices).
    func encoderOptions(pixels: Int) -> [(String, String)] {
        switch self {
        case let .h264(options):
            var pairs = [("preset", "veryfast"), ("tune", "animation"), ("crf", String(options.crf))]
            // From `H264Options.fastSearchPixels` a frame: sub-pixel motion search at its
            // fastest level and a 5-frame lookahead (veryfast: 2 and 10), less CPU for the same
            // quality class; smaller frames keep the preset's, which they encode quickly anyway.
            var params = pixels >= H264Options.fastSearchPixels ? ["subme=1", "rc-lookahead=5"] : []
            // libx264's own CPU detection without AVX-512 (see cr_x264_cpu_without_avx512).
            let cpu = cr_x264_cpu_without_avx512()
            if cpu != 0 { params.insert("asm=\(cpu)", at: 0) }
            if !params.isEmpty { pairs.append(("x264-params", params.joined(separator: ":"))) }
            return pairs
        case let .vp9(options):
            var pairs = [("deadline", "realtime"), ("cpu-used", "5"), ("lag-in-frames", "0"), ("row-mt", "0"), ("tile-columns", "1")]
            pairs += options.lossless ? [("lossless", "1")] : [("crf", String(options.crf))]
            return pairs
        }
    }

    /// Pixel format and colour tags (primaries and transfer are BT.709 for every codec).
    var colorTags: (pixelFormat: AVPixelFormat, matrix: AVColorSpace, range: AVColorRange, chromaLocation: AVChromaLocation) {
        if subsamplesChroma { return (AV_PIX_FMT_YUV420P, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, AVCHROMA_LOC_CENTER) }
        return (AV_PIX_FMT_GBRP, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG, AVCHROMA_LOC_UNSPECIFIED)
    }
}

/// A growing file in memory behind an `AVIOContext`: written and sought by the muxer, and opened
/// again for reading by its `io_open` (the MP4 muxer's `+faststart` pass reads the file back
/// while it moves the media data). Not thread-safe.
final class VideoMemoryFile {
    var bytes: [UInt8] = []
    /// The write position.
    var position = 0

    /// A cursor of a read-only context opened on the same bytes.
    final class Reader {
        let file: VideoMemoryFile
        var position = 0
        init(_ file: VideoMemoryFile) { self.file = file }
    }

    /// Bytes of the context's buffer (libavformat's own default size).
    static let bufferSize = 32_768

    /// An `AVIOContext` on the file (`opaque` is the file, unretained) or, when not `writable`,
    /// on a new `Reader` of it (retained until `videoMemoryFileClose`).
    static func makeContext(opaque: UnsafeMutableRawPointer?, writable: Bool) -> UnsafeMutablePointer<AVIOContext>? {
        guard let opaque, let buffer = ff.av_malloc(bufferSize)?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let context: UnsafeMutablePointer<AVIOContext>?
        if writable {
            context = ff.avio_alloc_context(buffer, Int32(bufferSize), 1, opaque, nil, { opaque, buffer, size in
                Unmanaged<VideoMemoryFile>.fromOpaque(opaque!).takeUnretainedValue().write(buffer!, Int(size))
                return size
            }, { opaque, offset, whence in
                let file = Unmanaged<VideoMemoryFile>.fromOpaque(opaque!).takeUnretainedValue()
                return VideoMemoryFile.seek(&file.position, size: file.bytes.count, offset, whence)
            })
        } else {
            let file = Unmanaged<VideoMemoryFile>.fromOpaque(opaque).takeUnretainedValue()
            let reader = Unmanaged.passRetained(Reader(file)).toOpaque()
            context = ff.avio_alloc_context(buffer, Int32(bufferSize), 0, reader, { opaque, buffer, size in
                let reader = Unmanaged<Reader>.fromOpaque(opaque!).takeUnretainedValue()
                let count = min(Int(size), reader.file.bytes.count - reader.position)
                guard count > 0 else { return cartrender_averror_eof() }
                reader.file.bytes.withUnsafeBufferPointer { buffer!.update(from: $0.baseAddress! + reader.position, count: count) }
                reader.position += count
                return Int32(count)
            }, nil, { opaque, offset, whence in
                let reader = Unmanaged<Reader>.fromOpaque(opaque!).takeUnretainedValue()
                return VideoMemoryFile.seek(&reader.position, size: reader.file.bytes.count, offset, whence)
            })
            if context == nil { Unmanaged<Reader>.fromOpaque(reader).release() }
        }
        if context == nil { ff.av_free(buffer) }
        return context
    }

    /// Writes at the current position, growing the file as needed.
    func write(_ buffer: UnsafePointer<UInt8>, _ count: Int) {
        let end = position + count
        if end > bytes.count { bytes.append(contentsOf: repeatElement(0, count: end - bytes.count)) }
        bytes.withUnsafeMutableBufferPointer { ($0.baseAddress! + position).update(from: buffer, count: count) }
        position = end
    }

    /// `AVIOContext`'s seek: `SEEK_SET`, `SEEK_CUR`, `SEEK_END`, or `AVSEEK_SIZE` (the size).
    static func seek(_ position: inout Int, size: Int, _ offset: Int64, _ whence: Int32) -> Int64 {
        let whence = whence & ~AVSEEK_FORCE
        if whence == AVSEEK_SIZE { return Int64(size) }
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = size
        default: return Int64(cartrender_averror(EINVAL))
        }
        let target = Int64(base) + offset
        guard target >= 0 else { return Int64(cartrender_averror(EINVAL)) }
        position = Int(target)
        return target
    }
}

/// `AVFormatContext.io_open` of the encoder: a reading context on the memory file (the only
/// thing the MP4 muxer opens, for `+faststart`).
private func videoMemoryFileOpen(_ format: UnsafeMutablePointer<AVFormatContext>?, _ pb: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                                 _ url: UnsafePointer<CChar>?, _ flags: Int32, _ options: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard flags & AVIO_FLAG_WRITE == 0, let pb else { return cartrender_averror(EPERM) }
    guard let context = VideoMemoryFile.makeContext(opaque: format?.pointee.opaque, writable: false) else { return cartrender_averror(ENOMEM) }
    pb.pointee = context
    return 0
}

/// `AVFormatContext.io_close2` of the encoder: frees a context made by `videoMemoryFileOpen`.
private func videoMemoryFileClose(_ format: UnsafeMutablePointer<AVFormatContext>?, _ pb: UnsafeMutablePointer<AVIOContext>?) -> Int32 {
    guard let pb else { return 0 }
    if let reader = pb.pointee.opaque { Unmanaged<VideoMemoryFile.Reader>.fromOpaque(reader).release() }
    ff.av_freep(&pb.pointee.buffer)
    var context: UnsafeMutablePointer<AVIOContext>? = pb
    ff.avio_context_free(&context)
    return 0
}

extension VideoEncoder: ConvertsOnWorkers {
    /// Adds the next frame from its converted rows (`convert(_:changedRows:frameIndex:)`), or,
    /// for nil, the frame before it again.
    /// - Throws: as `add(_:)`; `.frameSizeMismatch` when the first frame is nil.
    public func add(converted patch: VideoFramePatch?) throws {
        if let patch { return try add(patch) }
        guard !isFinished else { throw AnimationEncodingError.alreadyFinished }
        guard frameCount > 0 else {
            throw AnimationEncodingError.frameSizeMismatch(frameIndex: 0, width: 0, height: 0, expectedWidth: width, expectedHeight: height)
        }
        try sendPicture()
    }
}

/// The rows of one frame that changed since the frame before it, converted into a video codec's
/// pixel format by `VideoEncoder.convert(_:changedRows:)` (on any thread) for
/// `VideoEncoder.add(_:)`: for each band of coded rows, the band's rows of each plane (Y, Cb, Cr
/// for 4:2:0, with half as many chroma rows; G, B, R for lossless VP9).
public struct VideoFramePatch: Sendable {
    /// The frame's size in px.
    public let width: Int, height: Int
    /// The video's size in px (each odd side one larger for 4:2:0).
    public let codedWidth: Int, codedHeight: Int
    /// The pixel format (`AVPixelFormat`'s raw value).
    let layout: Int32
    /// 1 when the chroma planes have half the rows (4:2:0), else 0.
    let chromaShift: Int
    /// The coded rows held (px, sorted and disjoint; whole row pairs for 4:2:0); empty when the
    /// frame repeats the one before.
    public let bands: [Range<Int>]
    /// Each plane's rows of every band, one after the other, `strides[plane]` bytes apart.
    let planes: [[UInt8]]
    let strides: [Int]
}
extension VideoSummary: AnimationSummary {
    /// None: a video shows every frame.
    public var notice: String? { nil }
}
