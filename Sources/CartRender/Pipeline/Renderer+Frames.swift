import CartRenderCore

/// A frame selection that names frames the render does not have (exit 64).
public struct FrameSelectionError: UsageProblem, Equatable, Sendable, CustomStringConvertible {
    /// What the selection asks for that the render does not have.
    public enum Kind: Equatable, Sendable {
        /// `--frames A-B` with `B` past the last frame index.
        case pastLastFrame(last: Int, frameCount: Int)
        /// `--at t` (or a snapshot time) that is negative, not finite, or after the render ends
        /// at `end` seconds (``Renderer/endTime``).
        case timeOutside(time: Double, end: Double)
    }
    /// What is out of range, with the render's bounds.
    public var kind: Kind
    /// The subcommand whose options selected the frames (`verify`), nil for a render.
    public var command: String?

    /// The sentence, in the command line's words (`--frames: …`, `--at: …`).
    public var description: String {
        switch kind {
        case .pastLastFrame(let last, let count):
            return "--frames: the render has frames 0-\(count - 1), got \(last) as the last"
        case .timeOutside(let t, let end) where t >= 0 || !t.isFinite:
            return "--at: the render ends at \(JSONValue.format(end, decimals: 6)) s, got \(JSONValue.format(t, decimals: 6))"
        case .timeOutside(let t, _):
            return "--at: times start at 0 s, got \(JSONValue.format(t, decimals: 6))"
        }
    }
}

extension Renderer {
    /// The frames that `selections` name, each once, in index order: the one place where frame
    /// selections (`--frames`, `--at`, snapshot times) are checked against the timeline.
    ///
    /// - Parameters:
    ///   - selections: their union is planned; `[.all]` (or empty) is every frame; `.end` is
    ///     `.at(duration)`, the last frame index.
    ///   - exactTimes: `--at t` of a render shows the state at exactly `t` seconds, named after
    ///     the nearest frame index (`true`); `false` checks the nearest frame at that frame's own
    ///     time.
    /// - Throws: ``FrameSelectionError`` for a range past the last frame, or a time outside
    ///   `0 … endTime` (1 µs tolerance, docs/motion-and-look.md, “Time and frames”).
    public func plan(_ selections: [FrameSelection], exactTimes: Bool = true) throws -> [PlannedFrame] {
        try plan(selections) { index, t in exactTimes ? t : self.time(ofFrame: index) }
    }

    /// ``plan(_:exactTimes:)`` where a frame selected by time (`--at t`, `.end`) shows the time
    /// `timeAt(index, t)` (s): verify's `--at` takes the time its baseline frame shows
    /// (``Verifier``). A time selection wins over a range naming the same index.
    func plan(_ selections: [FrameSelection], timeAt: (Int, Double) -> Double) throws -> [PlannedFrame] {
        var byIndex: [Int: Double] = [:]
        for selection in selections.isEmpty ? [.all] : selections {
            switch selection {
            case .all:
                for i in 0..<frameCount where byIndex[i] == nil { byIndex[i] = time(ofFrame: i) }
            case .range(let a, let b):
                guard b < frameCount else { throw FrameSelectionError(kind: .pastLastFrame(last: b, frameCount: frameCount)) }
                let lo = max(0, a)
                if lo <= b { for i in lo...b where byIndex[i] == nil { byIndex[i] = time(ofFrame: i) } }
            case .at(let t):
                guard t.isFinite, t >= -TimeTolerance.epsilon, t <= endTime + TimeTolerance.epsilon else {
                    throw FrameSelectionError(kind: .timeOutside(time: t, end: endTime))
                }
                let i = frameIndex(nearest: t)
                byIndex[i] = timeAt(i, max(0, t))
            case .end:
                let i = frameIndex(nearest: duration)
                byIndex[i] = timeAt(i, duration)
            }
        }
        return byIndex.keys.sorted().map { PlannedFrame(index: $0, time: byIndex[$0]!) }
    }

    /// The frame index nearest time `t` (s), within `0 ..< frameCount`.
    package func frameIndex(nearest t: Double) -> Int { min(frameCount - 1, max(0, Int((t * Double(scene.fps)).rounded()))) }

    /// The part of `frames` that shard `k` of `n` renders: the k-th of n contiguous blocks
    /// (1-based `k`), sizes differing by at most one. Contiguous blocks keep hold frames together.
    public static func shard<Frame>(_ frames: [Frame], _ k: Int, of n: Int) -> [Frame] {
        let lo = (k - 1) * frames.count / n, hi = k * frames.count / n
        return Array(frames[lo..<hi])
    }
}
