/// An encoder of one animation file from frames fed in index order (GIF, WebP, APNG, MP4, WebM):
/// what the render's animation sink drives. Frame `i` is shown from `i / fps` s; GIF, WebP and
/// APNG merge identical consecutive frames into one longer frame, video keeps every frame
/// (constant frame rate). Not thread-safe.
public protocol AnimationEncoder: AnyObject {
    /// What `finish()` reports.
    associatedtype Summary: AnimationSummary
    /// Adds the next frame: `width × height` px, straight alpha.
    func add(_ frame: RGBAImage) throws
    /// Adds the next frame, whose pixels outside `changedRows` (px rows, sorted and disjoint)
    /// are those of the frame added before it; nil when not known. Encoders that compare frames
    /// compare only those rows; the others ignore them (the default).
    func add(_ frame: RGBAImage, changedRows: [Range<Int>]?) throws
    /// Ends the animation after the last frame and assembles the file.
    func finish() throws -> Summary
    /// The file, after `finish()`, for the `.memory` destination.
    var encodedBytes: [UInt8] { get }
}

/// What an animation encoder did, as far as a user needs to know.
public protocol AnimationSummary: Sendable {
    /// A sentence about a choice the encoder made that changes what plays (frames dropped to
    /// fit a frame-rate limit), or nil.
    var notice: String? { get }
}

extension AnimationEncoder {
    /// Adds `frame`, ignoring which rows changed (an encoder that compares whole frames).
    public func add(_ frame: RGBAImage, changedRows: [Range<Int>]?) throws { try add(frame) }
}
