import CartRenderCore

/// Why an animation (GIF, WebP, APNG, MP4, WebM…) could not be encoded. Each case renders as one sentence that
/// names the cause, suitable for stderr (`description`).
///
/// Exit statuses: 73 when the file cannot be written, 65 when a frame cannot reach the minimum
/// GIF quality, 64 for a canvas size or option the command line asked for; the other cases are
/// failures of the encoder or its libraries (70).
public enum AnimationEncodingError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// The canvas size is outside what the format can store (`limit` is the largest side in px).
    case invalidCanvasSize(format: String, width: Int, height: Int, limit: Int)
    /// The frame rate (frames per second) is not a whole number from 1 to 65535.
    case invalidFrameRate(Int)
    /// An option is out of range; `reason` says which values are allowed.
    case invalidOption(name: String, reason: String)
    /// A frame passed to `add(_:)` does not have the canvas size (all sizes in px).
    case frameSizeMismatch(frameIndex: Int, width: Int, height: Int, expectedWidth: Int, expectedHeight: Int)
    /// `finish()` was called before any frame was added.
    case noFrames
    /// `add(_:)` or `finish()` was called after `finish()`.
    case alreadyFinished
    /// libimagequant could not reach the minimum quality for a frame (quality 0…100).
    case qualityTooLow(frameIndex: Int, minimumQuality: Int)
    /// libimagequant reported an error (`code` is its `liq_error` value).
    case quantizationFailed(frameIndex: Int, operation: String, code: Int)
    /// giflib reported an error (`code` is its `E_GIF_ERR_*` value, `message` its `GifErrorString`).
    case gifFailed(operation: String, code: Int, message: String)
    /// An encoder's library reported an error: libwebp (`message` is the encoder's own text or
    /// the picture error code), FFmpeg's libavformat, libavcodec, libswscale or libavutil
    /// (`av_strerror`'s text for its code, or what is missing), or the library of another encoder.
    case libraryFailed(library: String, operation: String, message: String)
    /// One GIF frame would be displayed longer than the format allows (65 535 cs).
    case delayTooLong(centiseconds: Int)
    /// The output file could not be written (`message` is the system's reason).
    case writeFailed(path: String, message: String)

    /// One sentence naming what failed and why.
    public var description: String {
        switch self {
        case let .invalidCanvasSize(format, width, height, limit):
            return "\(format) canvas of \(width)×\(height) px is not allowed: each side must be 1…\(limit) px."
        case let .invalidFrameRate(fps):
            return "Frame rate \(fps) fps is not allowed: it must be a whole number of frames per second from 1 to \(AnimationCanvas.maxFrameRate)."
        case let .invalidOption(name, reason):
            return "Option \(name) \(reason)."
        case let .frameSizeMismatch(index, width, height, expectedWidth, expectedHeight):
            return "Frame \(index) is \(width)×\(height) px but the animation is \(expectedWidth)×\(expectedHeight) px."
        case .noFrames:
            return "The animation has no frames."
        case .alreadyFinished:
            return "The animation encoder was already finished."
        case let .qualityTooLow(index, minimum):
            return "Frame \(index) cannot be reduced to 256 colors at quality \(minimum) or better; lower the minimum GIF quality with --gif-quality."
        case let .quantizationFailed(index, operation, code):
            return "libimagequant failed in \(operation) for frame \(index) (liq_error \(code))."
        case let .gifFailed(operation, code, message):
            return "giflib failed in \(operation): \(message) (error \(code))."
        case let .libraryFailed(library, operation, message):
            return "\(library) failed in \(operation): \(message)."
        case let .delayTooLong(centiseconds):
            return "A GIF frame would be shown for \(centiseconds) cs, longer than the 65535 cs the format allows."
        case let .writeFailed(path, message):
            return "Cannot write \(path): \(message)."
        }
    }

    /// 73 for a write failure, 65 for a quality too low, 64 for settings, 70 for the rest.
    public var exitCode: ExitCode {
        switch self {
        case .writeFailed: return .cannotCreate
        case .qualityTooLow: return .dataError
        case .invalidCanvasSize, .invalidFrameRate, .invalidOption: return .usage
        case .frameSizeMismatch, .noFrames, .alreadyFinished, .quantizationFailed,
             .gifFailed, .libraryFailed, .delayTooLong:
            return .software
        }
    }

    /// ``description``, after `internal error: ` for exit 70.
    public var sentence: String { exitCode == .software ? "internal error: " + description : description }
}
