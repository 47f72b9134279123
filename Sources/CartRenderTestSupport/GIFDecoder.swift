import CartRenderRaster
import CGif

/// A decoded GIF: every image composed onto the canvas as a browser shows it.
public struct GIFAnimation: Equatable, Sendable {
    /// A rectangle on the canvas, in px from the top-left corner.
    public typealias Rect = PixelRect

    /// One image of the GIF as shown: the canvas after it, its rectangle and its delay.
    public struct Frame: Equatable, Sendable {
        /// The whole canvas after this image was drawn (straight alpha; never-drawn pixels are
        /// transparent black).
        public var image: RGBAImage
        /// The rectangle the GIF image itself covers (its image descriptor).
        public var storedRect: Rect
        /// When the frame appears, in centiseconds from the start (sum of earlier delays).
        public var startCentiseconds: Int
        /// How long it stays, in centiseconds (the GIF delay, as stored).
        public var delayCentiseconds: Int
        /// Whether the image has its own (local) color table; false when it uses the global one
        /// (giflib's `SavedImage.ImageDesc.ColorMap == NULL`).
        public var hasLocalColorTable: Bool = false
    }

    /// Canvas width in px.
    public var width: Int
    /// Canvas height in px.
    public var height: Int
    /// How many times the animation plays: 0 = forever, 1 = once (no NETSCAPE2.0 extension),
    /// N = N times (an extension with N − 1 repetitions).
    public var loopCount: Int
    /// The frames in display order.
    public var frames: [Frame]

    /// Sum of all delays in centiseconds.
    public var durationCentiseconds: Int { frames.reduce(0) { $0 + $1.delayCentiseconds } }
}

/// Decodes GIF files with giflib (`DGifOpen`, `DGifSlurp`) and composes their frames, honoring
/// each image's position, transparent index and disposal method. For tests and self-checks: it
/// keeps every frame in memory.
public enum GIFDecoder {
    /// - Parameter bytes: a whole GIF file.
    /// - Throws: `AnimationDecodingError.gifFailed` naming giflib's reason.
    public static func decode(_ bytes: [UInt8]) throws -> GIFAnimation {
        let file = try GIFReadFile(bytes)
        return try compose(file.gif)
    }

    /// - Throws: `AnimationDecodingError.readFailed` when the file cannot be read, `.gifFailed`
    ///   when giflib rejects it.
    public static func decode(contentsOf path: String) throws -> GIFAnimation {
        try decode(readAnimationFile(path))
    }

    private static func compose(_ gif: UnsafeMutablePointer<GifFileType>) throws -> GIFAnimation {
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var frames: [GIFAnimation.Frame] = []
        var loopCount = 1
        var start = 0
        let imageCount = Int(gif.pointee.ImageCount)
        for index in 0..<imageCount {
            let saved = gif.pointee.SavedImages[index]
            if let repetitions = netscapeRepetitions(saved.ExtensionBlocks, Int(saved.ExtensionBlockCount)) {
                loopCount = repetitions == 0 ? 0 : repetitions + 1
            }
            var control = GraphicsControlBlock()
            // Returns GIF_ERROR when the image has no graphics control extension, leaving the
            // defaults: no delay, no transparency, unspecified disposal.
            if DGifSavedExtensionToGCB(gif, Int32(index), &control) != GIF_OK {
                control = GraphicsControlBlock(DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false,
                                               DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
            }
            let descriptor = saved.ImageDesc
            guard let map = descriptor.ColorMap ?? gif.pointee.SColorMap else {
                throw AnimationDecodingError.gifFailed(operation: "DGifSlurp", code: Int(D_GIF_ERR_NO_COLOR_MAP),
                                                       message: gifErrorMessage(Int32(D_GIF_ERR_NO_COLOR_MAP)))
            }
            let colorCount = Int(map.pointee.ColorCount)
            let restore = control.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
            let left = Int(descriptor.Left), top = Int(descriptor.Top)
            let imageWidth = Int(descriptor.Width), imageHeight = Int(descriptor.Height)
            if let raster = saved.RasterBits {
                for y in 0..<imageHeight where top + y >= 0 && top + y < height {
                    for x in 0..<imageWidth where left + x >= 0 && left + x < width {
                        let index = Int(raster[y * imageWidth + x])
                        if index == Int(control.TransparentColor) { continue }
                        let o = ((top + y) * width + left + x) * 4
                        if index < colorCount {
                            let color = map.pointee.Colors[index]
                            canvas[o] = color.Red; canvas[o + 1] = color.Green; canvas[o + 2] = color.Blue
                        } else {
                            canvas[o] = 0; canvas[o + 1] = 0; canvas[o + 2] = 0
                        }
                        canvas[o + 3] = 255
                    }
                }
            }
            let delay = Int(control.DelayTime)
            frames.append(GIFAnimation.Frame(image: RGBAImage(width: width, height: height, pixels: canvas),
                                             storedRect: GIFAnimation.Rect(x: left, y: top, width: imageWidth, height: imageHeight),
                                             startCentiseconds: start, delayCentiseconds: delay,
                                             hasLocalColorTable: descriptor.ColorMap != nil))
            start += delay
            switch control.DisposalMode {
            case DISPOSE_BACKGROUND:
                for y in max(top, 0)..<min(top + imageHeight, height) {
                    for x in max(left, 0)..<min(left + imageWidth, width) {
                        let o = (y * width + x) * 4
                        canvas[o] = 0; canvas[o + 1] = 0; canvas[o + 2] = 0; canvas[o + 3] = 0
                    }
                }
            case DISPOSE_PREVIOUS:
                canvas = restore!
            default:
                break
            }
        }
        if let repetitions = netscapeRepetitions(gif.pointee.ExtensionBlocks, Int(gif.pointee.ExtensionBlockCount)) {
            loopCount = repetitions == 0 ? 0 : repetitions + 1
        }
        return GIFAnimation(width: width, height: height, loopCount: loopCount, frames: frames)
    }

    /// The repetition count of a NETSCAPE2.0 (or ANIMEXTS1.0) application extension among `blocks`.
    private static func netscapeRepetitions(_ blocks: UnsafeMutablePointer<ExtensionBlock>?, _ count: Int) -> Int? {
        guard let blocks, count > 1 else { return nil }
        for i in 0..<(count - 1) where blocks[i].Function == APPLICATION_EXT_FUNC_CODE && blocks[i].ByteCount == 11 {
            let identifier = String(decoding: UnsafeBufferPointer(start: blocks[i].Bytes, count: 11), as: UTF8.self)
            let data = blocks[i + 1]
            guard identifier == "NETSCAPE2.0" || identifier == "ANIMEXTS1.0",
                  data.Function == CONTINUE_EXT_FUNC_CODE, data.ByteCount >= 3, data.Bytes[0] == 1 else { continue }
            return Int(data.Bytes[1]) | Int(data.Bytes[2]) << 8
        }
        return nil
    }
}

/// A giflib decoder over a copy of the file's bytes, slurped on creation and closed by `deinit`.
private final class GIFReadFile {
    private(set) var gif: UnsafeMutablePointer<GifFileType>
    private let reader: Unmanaged<ByteReader>

    final class ByteReader {
        let bytes: [UInt8]
        var offset = 0
        /// Whether giflib asked for bytes past the end of the data.
        var ranOut = false
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    init(_ bytes: [UInt8]) throws {
        reader = Unmanaged.passRetained(ByteReader(bytes))
        var error: Int32 = 0
        guard let gif = DGifOpen(reader.toOpaque(), { file, buffer, length in
            guard let file, let buffer, length >= 0, let user = file.pointee.UserData else { return 0 }
            let reader = Unmanaged<ByteReader>.fromOpaque(user).takeUnretainedValue()
            let count = min(Int(length), reader.bytes.count - reader.offset)
            reader.bytes.withUnsafeBufferPointer { source in
                buffer.update(from: source.baseAddress! + reader.offset, count: count)
            }
            reader.offset += count
            reader.ranOut = reader.ranOut || count < Int(length)
            return Int32(count)
        }, &error) else {
            reader.release()
            throw AnimationDecodingError.gifFailed(operation: "DGifOpen", code: Int(error), message: gifErrorMessage(error))
        }
        self.gif = gif
        guard DGifSlurp(gif) == GIF_OK else {
            let code = gif.pointee.Error
            // giflib's text for a short read speaks of a file; from memory it means truncated data.
            let truncated = code == D_GIF_ERR_READ_FAILED && reader.takeUnretainedValue().ranOut
            throw AnimationDecodingError.gifFailed(operation: "DGifSlurp", code: Int(code),
                                                   message: truncated ? "the data ends too early (truncated)" : gifErrorMessage(code))
        }
    }

    deinit {
        var error: Int32 = 0
        // Reading from memory: closing can only fail on a file descriptor, which there is none of.
        _ = DGifCloseFile(gif, &error)
        reader.release()
    }
}

/// giflib's sentence for an error code.
private func gifErrorMessage(_ code: Int32) -> String {
    GifErrorString(code).map { String(cString: $0) } ?? "unknown giflib error"
}
