/// The one check of an animation's canvas that every encoder (GIF, WebP, APNG, MP4, WebM)
/// makes before it starts: each side 1…`maxSide` px, the format's own limit (GIF 65 535,
/// WebP 16 383, APNG and video their `maxSide`).
enum AnimationCanvas {
    /// Checks a `width × height` px canvas for `format` (its name in the message).
    /// - Throws: `AnimationEncodingError.invalidCanvasSize` when a side is outside 1…`maxSide`.
    static func check(format: String, width: Int, height: Int, maxSide: Int) throws {
        guard (1...maxSide).contains(width), (1...maxSide).contains(height) else {
            throw AnimationEncodingError.invalidCanvasSize(format: format, width: width, height: height, limit: maxSide)
        }
    }
}
