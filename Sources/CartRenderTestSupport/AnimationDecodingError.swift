#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an animation (GIF, WebP or video) could not be decoded. Each case renders as one sentence.
public enum AnimationDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// giflib rejected the data (`code` is its `D_GIF_ERR_*` value, `message` its `GifErrorString`).
    case gifFailed(operation: String, code: Int, message: String)
    /// libwebp rejected the data.
    case webpFailed(operation: String, message: String)
    /// FFmpeg rejected the file (`message` is `av_strerror`'s text).
    case videoFailed(operation: String, message: String)
    /// The file could not be read (`message` is the system's reason).
    case readFailed(path: String, message: String)

    /// One sentence naming what failed and why.
    public var description: String {
        switch self {
        case let .gifFailed(operation, code, message):
            return "GIF data cannot be decoded: giflib failed in \(operation): \(message) (error \(code))."
        case let .webpFailed(operation, message):
            return "WebP data cannot be decoded: libwebp failed in \(operation): \(message)."
        case let .videoFailed(operation, message):
            return "Video cannot be decoded: FFmpeg failed in \(operation): \(message)."
        case let .readFailed(path, message):
            return "Cannot read \(path): \(message)."
        }
    }
}

/// The bytes of the file at `path`.
/// - Throws: `AnimationDecodingError.readFailed` with the system's reason.
func readAnimationFile(_ path: String) throws -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        throw AnimationDecodingError.readFailed(path: path, message: String(cString: strerror(errno)))
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        bytes += chunk.prefix(count)
        if count < chunk.count {
            if ferror(file) != 0 {
                throw AnimationDecodingError.readFailed(path: path, message: String(cString: strerror(errno)))
            }
            return bytes
        }
    }
}
