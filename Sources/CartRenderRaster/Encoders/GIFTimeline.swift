/// When each source frame appears in a GIF, in centiseconds (cs), the unit of GIF delays.
///
/// Source frame `i` shows the state at `t = i / fps` s and lasts until frame `i + 1`; a sequence
/// of `n` frames lasts `n / fps` s (docs/motion-and-look.md). The GIF keeps those times exactly where it can:
///
/// - At or below `maxFrameRate`, frame `i` starts at `round(i × 100 / fps)` cs, so rounding never
///   accumulates and the total is `round(n × 100 / fps)` cs. Every delay is at least 2 cs, because
///   frames are at least 2 cs apart and rounding is monotonic.
/// - Above it, the GIF samples the animation at `maxFrameRate` ticks (tick `k` at
///   `round(k × 100 / maxFrameRate)` cs) and each tick shows the latest source frame whose time has
///   come, like a display refreshing at that rate. Frames never reached by a tick are dropped; the
///   drops are evenly spread and deterministic (at 60 fps → 50 fps, frames 5, 11, 17, …). A frame
///   is never shown before its time.
///
/// Times are compared with a tolerance of 1 µs (docs/motion-and-look.md); exact halves round up.
struct GIFTimeline: Equatable, Sendable {
    /// Source frame rate (frames per second).
    let fps: Double
    /// Highest frame rate the GIF plays at (frames per second), 0 < `maxFrameRate` ≤ 50.
    let maxFrameRate: Double

    /// 1 µs, the time tolerance of docs/motion-and-look.md, in seconds.
    static let tolerance = 1e-6

    /// Whether frames are dropped to respect `maxFrameRate`.
    var dropsFrames: Bool { fps > maxFrameRate + GIFTimeline.tolerance }

    /// The time at which source frame `index` starts being displayed, in cs from the start, or
    /// `nil` when the frame is dropped by the frame-rate cap.
    func displayStart(ofFrame index: Int) -> Int? {
        let t = Double(index) / fps
        guard dropsFrames else { return GIFTimeline.centiseconds(t) }
        // First tick at or after t; the frame is shown there unless the next frame is due by then.
        let tick = (( t - GIFTimeline.tolerance) * maxFrameRate).rounded(.up)
        let tickTime = tick / maxFrameRate
        let nextFrameTime = Double(index + 1) / fps
        guard nextFrameTime > tickTime + GIFTimeline.tolerance else { return nil }
        return GIFTimeline.centiseconds(tickTime)
    }

    /// The end of a sequence of `frameCount` source frames, in cs: `round(frameCount × 100 / fps)`.
    func end(frameCount: Int) -> Int {
        GIFTimeline.centiseconds(Double(frameCount) / fps)
    }

    /// `seconds` rounded to whole centiseconds, halves (within 1 µs) up.
    static func centiseconds(_ seconds: Double) -> Int {
        Int((seconds * 100 + 0.5 + tolerance * 100).rounded(.down))
    }

    /// `seconds` rounded to whole milliseconds, halves (within 1 µs) up.
    static func milliseconds(_ seconds: Double) -> Int {
        Int((seconds * 1000 + 0.5 + tolerance * 1000).rounded(.down))
    }
}
