/// One spring keyframe of a keyframe timeline: move toward `target` for `duration` seconds with
/// `spring`, then hand the value and velocity reached to the next keyframe — SwiftUI's
/// `SpringKeyframe(_:duration:spring:)`, whose spring is cut off when its duration ends.
public struct SpringKeyframe: Equatable, Sendable {
    /// The value to move toward (unitless: the same unit as the animated value, e.g. a scale factor).
    public var target: Double
    /// Duration of this keyframe (s).
    public var duration: Double
    /// The spring that moves the value (response in s, bounce −1…1).
    public var spring: Spring
    /// A keyframe to `target` over `duration` seconds with `spring` (default `Spring()`: 0.5 s, bounce 0).
    public init(_ target: Double, duration: Double, spring: Spring = Spring()) {
        self.target = target; self.duration = duration; self.spring = spring
    }
}

/// A sequence of spring keyframes evaluated as a pure function of time since the timeline
/// started. After the last keyframe the value reached is held (velocity 0).
public struct KeyframeTimeline: Equatable, Sendable {
    /// The keyframes, played one after the other.
    public var keyframes: [SpringKeyframe]
    /// A timeline playing `keyframes` in order (SwiftUI's `KeyframeTrack`).
    public init(_ keyframes: [SpringKeyframe]) { self.keyframes = keyframes }

    /// Total duration (s).
    public var duration: Double { keyframes.reduce(0) { $0 + $1.duration } }

    /// The value and velocity `t` seconds after the timeline started from `value` moving at `velocity`.
    public func state(at t: Double, from value: Double, velocity: Double = 0) -> (value: Double, velocity: Double) {
        var start = (value: value, velocity: velocity)
        var remaining = max(t, 0)
        for k in keyframes {
            if remaining <= k.duration {
                return k.spring.state(from: start.value, to: k.target, initialVelocity: start.velocity, at: remaining)
            }
            start = k.spring.state(from: start.value, to: k.target, initialVelocity: start.velocity, at: k.duration)
            remaining -= k.duration
        }
        return (start.value, 0)
    }

    /// The cart badge bump of seed 000: `SpringKeyframe(1.3, duration: 0.14)` then
    /// `SpringKeyframe(1.0, duration: 0.30)`, each with `Spring()` (0.5 s, bounce 0).
    /// Check values from rest at 1.0 (docs/motion-and-look.md, “Timing curves and springs”): 1.1575
    /// at 0.14 s, 1.0252 at 0.44 s.
    public static let badgeBump = KeyframeTimeline([SpringKeyframe(1.3, duration: 0.14), SpringKeyframe(1.0, duration: 0.30)])
}
