/// The one check of an animation's canvas and frame rate that every encoder (GIF, WebP, APNG,
/// MP4, WebM) makes before it starts: each side 1…`maxSide` px, the format's own limit (GIF
/// 65 535, WebP 16 383, APNG and video their `maxSide`), and a whole number of frames per
/// second, 1…``maxFrameRate`` (the one fps type of the encoders is `Int`, as the scene's).
enum AnimationCanvas {
    /// The largest frame rate an encoder takes (fps): an APNG delay's denominator is 16-bit.
    static let maxFrameRate = 65535

    /// Checks a `width × height` px canvas at `fps` frames per second for `format` (its name in
    /// the message).
    /// - Throws: `AnimationEncodingError.invalidCanvasSize` when a side is outside 1…`maxSide`,
    ///   `.invalidFrameRate` when `fps` is outside 1…``maxFrameRate``.
    static func check(format: String, width: Int, height: Int, fps: Int, maxSide: Int) throws {
        guard (1...maxSide).contains(width), (1...maxSide).contains(height) else {
            throw AnimationEncodingError.invalidCanvasSize(format: format, width: width, height: height, limit: maxSide)
        }
        guard (1...maxFrameRate).contains(fps) else { throw AnimationEncodingError.invalidFrameRate(fps) }
    }
}
