import CGif

/// A giflib encoder (`EGifOpen`) writing through an `AnimationByteSink`, one image at a time.
/// `close()` writes the trailer; `deinit` closes a writer abandoned after an error.
final class GIFStreamWriter {
    private var gif: UnsafeMutablePointer<GifFileType>?
    private let sink: AnimationByteSink
    private let sinkReference: Unmanaged<AnimationByteSink>
    /// The global color table as given to `init`.
    let globalColors: [UInt8]?

    /// Opens the stream and writes the header, the logical screen descriptor (with the global
    /// color table when given) and, unless the animation plays once, the NETSCAPE2.0 loop extension.
    /// - Parameters:
    ///   - width, height: canvas size in px, 1…65535.
    ///   - globalColors: R, G, B bytes per entry (1…256 entries), or `nil` for local tables only.
    ///   - loopCount: plays, 0 = forever; stored as `loopCount − 1` repetitions.
    /// - Throws: `AnimationEncodingError.gifFailed` or `.writeFailed`.
    init(sink: AnimationByteSink, width: Int, height: Int, globalColors: [UInt8]?, loopCount: Int) throws {
        self.sink = sink
        self.globalColors = globalColors
        sinkReference = Unmanaged.passRetained(sink)
        var error: Int32 = 0
        gif = EGifOpen(sinkReference.toOpaque(), { file, bytes, count in
            guard let file, let bytes, count >= 0, let user = file.pointee.UserData else { return 0 }
            let sink = Unmanaged<AnimationByteSink>.fromOpaque(user).takeUnretainedValue()
            return sink.write(UnsafeRawBufferPointer(start: bytes, count: Int(count))) ? count : 0
        }, &error)
        guard let gif else {
            throw GIFStreamWriter.failure("EGifOpen", code: error, sink: sink)
        }
        EGifSetGifVersion(gif, true)
        try withColorMap(globalColors) { map in
            try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map), "EGifPutScreenDesc")
        }
        if loopCount != 1 {
            let repetitions = loopCount == 0 ? 0 : loopCount - 1
            try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "EGifPutExtensionLeader")
            let identifier = Array("NETSCAPE2.0".utf8)
            try check(EGifPutExtensionBlock(gif, Int32(identifier.count), identifier), "EGifPutExtensionBlock")
            let loop: [UInt8] = [1, UInt8(repetitions & 0xFF), UInt8(repetitions >> 8)]
            try check(EGifPutExtensionBlock(gif, Int32(loop.count), loop), "EGifPutExtensionBlock")
            try check(EGifPutExtensionTrailer(gif), "EGifPutExtensionTrailer")
        }
    }

    deinit {
        if let gif {
            var error: Int32 = 0
            // Only reached after an earlier error was thrown; that error is the one reported.
            _ = EGifCloseFile(gif, &error)
        }
        sinkReference.release()
    }

    /// Writes one image: graphics control extension, image descriptor (with its local color
    /// table, if any) and LZW-compressed pixels.
    /// - Parameters:
    ///   - rect: where the image goes on the canvas (px).
    ///   - delay: display time in centiseconds, 0…65535.
    ///   - disposal: `DISPOSE_DO_NOT` or `DISPOSE_BACKGROUND` (what happens after the delay).
    /// - Throws: `AnimationEncodingError.gifFailed` or `.writeFailed`.
    func writeImage(_ pixels: IndexedPixels, at rect: PixelRect, delay: Int, disposal: Int32) throws {
        guard let gif else { throw AnimationEncodingError.alreadyFinished }
        precondition(pixels.width == rect.width && pixels.height == rect.height)
        var control = GraphicsControlBlock(DisposalMode: disposal, UserInputFlag: false, DelayTime: Int32(delay),
                                           TransparentColor: Int32(pixels.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var extensionBytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes), "EGifPutExtension")
        try withColorMap(pixels.localColors) { map in
            try check(EGifPutImageDesc(gif, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), false, map), "EGifPutImageDesc")
        }
        // EGifPutLine masks the indices in place, so it gets its own copy.
        var indices = pixels.indices
        try indices.withUnsafeMutableBufferPointer { buffer in
            try check(EGifPutLine(gif, buffer.baseAddress, Int32(buffer.count)), "EGifPutLine")
        }
    }

    /// Writes the trailer and releases giflib's state.
    /// - Throws: `AnimationEncodingError.gifFailed` or `.writeFailed`.
    func close() throws {
        guard let gif else { throw AnimationEncodingError.alreadyFinished }
        self.gif = nil
        var error: Int32 = 0
        if EGifCloseFile(gif, &error) != GIF_OK {
            throw GIFStreamWriter.failure("EGifCloseFile", code: error, sink: sink)
        }
        // giflib does not check the write of the trailer byte; the sink does.
        if let failure = sink.failure { throw failure }
    }

    private func check(_ status: Int32, _ operation: String) throws {
        guard status == GIF_OK else {
            throw GIFStreamWriter.failure(operation, code: gif?.pointee.Error ?? 0, sink: sink)
        }
    }

    /// A giflib color map for `colors` (R, G, B per entry), padded with black to the power of two
    /// giflib requires, valid for the duration of `body`.
    private func withColorMap(_ colors: [UInt8]?, _ body: (UnsafeMutablePointer<ColorMapObject>?) throws -> Void) throws {
        guard let colors else { return try body(nil) }
        let entries = colors.count / 3
        var size = 2
        while size < entries { size *= 2 }
        var padded = colors
        padded += [UInt8](repeating: 0, count: (size - entries) * 3)
        let table: [GifColorType] = (0..<size).map { GifColorType(Red: padded[$0 * 3], Green: padded[$0 * 3 + 1], Blue: padded[$0 * 3 + 2]) }
        guard let map = GifMakeMapObject(Int32(size), table) else {
            throw AnimationEncodingError.gifFailed(operation: "GifMakeMapObject", code: Int(E_GIF_ERR_NOT_ENOUGH_MEM), message: GIFStreamWriter.message(Int32(E_GIF_ERR_NOT_ENOUGH_MEM)))
        }
        defer { GifFreeMapObject(map) }
        try body(map)
    }

    private static func failure(_ operation: String, code: Int32, sink: AnimationByteSink) -> AnimationEncodingError {
        if let failure = sink.failure { return failure }
        return .gifFailed(operation: operation, code: Int(code), message: message(code))
    }

    static func message(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "unknown giflib error"
    }
}
