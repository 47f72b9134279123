import Foundation
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

/// An encoder whose per-frame work before encoding (a video's colour conversion) runs on the
/// thread that drew the frame, the drawing workers, several frames at once, so that the thread
/// that adds the frames in order only encodes. `AnimationSink` converts in the first stage of
/// each frame that changed (``convert(_:changedRows:frameIndex:)``) and adds the results in
/// order (``add(converted:)``). The bytes are those of `add(_:changedRows:)`.
public protocol ConvertsOnWorkers: AnimationEncoder {
    /// A frame's changed rows, converted.
    associatedtype Converted: Sendable
    /// Converts the rows of `rows` (the frame, valid during the call) that changed since the
    /// frame before it (`changedRows`; nil: every row). Thread-safe.
    func convert(_ rows: PixelRows, changedRows: [Range<Int>]?, frameIndex: Int) throws -> Converted
    /// Adds the next frame from its converted rows; nil: the frame repeats the one before.
    func add(converted: Converted?) throws
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

/// Where an encoder that does long work in `finish()` reports it, so that a progress display
/// can say what is happening after the last frame: building the palette (GIF), encoding the
/// held images (GIF) or the frames the codec still holds (video), writing the container
/// (video). Called on the thread that runs `finish()`, or on the encoder's worker threads.
public final class EncoderProgress: @unchecked Sendable {
    /// What `finish()` is doing.
    public enum Phase: String, Sendable { case palette, encoding, muxing }
    private let report: @Sendable (Phase, _ done: Int, _ total: Int) -> Void
    private let lock = NSLock()
    private var counted = 0

    /// Progress that calls `report` with the phase, steps done and steps in all, from any thread.
    public init(_ report: @escaping @Sendable (Phase, _ done: Int, _ total: Int) -> Void) { self.report = report }

    /// Reports that `done` of `total` steps of `phase` are done (0 of `total` when it starts).
    public func callAsFunction(_ phase: Phase, _ done: Int, _ total: Int) { report(phase, done, total) }

    /// Counts one more step of `phase` from any thread (steps done in parallel), after a
    /// `(phase, 0, total)` start.
    func step(_ phase: Phase, of total: Int) {
        lock.lock()
        counted += 1
        let done = counted
        lock.unlock()
        report(phase, min(done, total), total)
    }

    /// Restarts the counter of ``step(_:of:)``.
    func start(_ phase: Phase, total: Int) {
        lock.lock(); counted = 0; lock.unlock()
        report(phase, 0, total)
    }
}

/// An encoder that reports the work of its `finish()` (``EncoderProgress``).
public protocol ReportsFinishProgress: AnyObject {
    var finishProgress: EncoderProgress? { get set }
}
