import Foundation

/// A spring in SwiftUI's duration/bounce model (Apple's documentation, “Spring”; docs/motion-and-look.md,
/// “Timing curves and springs”): mass 1, stiffness `(2π/duration)²`,
/// damping `4π(1 − bounce)/duration`. Solved in closed form, so a value at any time is exact and
/// needs no stepping.
public struct Spring: Equatable, Sendable {
    /// Perceptual duration (s).
    public var duration: Double
    /// Bounce (0 = critically damped, up to but excluding 1).
    public var bounce: Double

    /// A spring; `bounce` is clamped to 0…0.99 (bounce below 0 is not modelled).
    public init(duration: Double = 0.5, bounce: Double = 0) {
        self.duration = duration
        self.bounce = min(max(bounce, 0), 0.99)
    }

    /// `.smooth`: (0.5 s, 0).
    public static let smooth = Spring(duration: 0.5, bounce: 0)
    /// `.snappy`: (0.5 s, 0.15). Check values 0→1 from rest: 0.388 / 0.786 / 0.956 / 1.0016 at 0.1 / 0.2 / 0.3 / 0.4 s.
    public static let snappy = Spring(duration: 0.5, bounce: 0.15)
    /// `.bouncy`: (0.5 s, 0.3).
    public static let bouncy = Spring(duration: 0.5, bounce: 0.3)

    /// Stiffness `k` (1/s², mass 1).
    public var stiffness: Double { pow(2 * .pi / duration, 2) }
    /// Damping coefficient `c` (1/s, mass 1).
    public var damping: Double { 4 * .pi * (1 - bounce) / duration }
    /// Damping ratio ζ = 1 − bounce.
    public var dampingRatio: Double { 1 - bounce }

    /// Value and velocity `t` seconds after the spring started moving from `from` (with
    /// `initialVelocity`, units per second) toward `to`.
    public func state(from: Double, to: Double, initialVelocity v0: Double = 0, at t: Double) -> (value: Double, velocity: Double) {
        let t = max(t, 0)
        let w0 = 2 * .pi / duration
        let zeta = dampingRatio
        let u0 = from - to
        if zeta >= 1 - 1e-12 {
            // Critically damped: u(t) = (u0 + (v0 + ω u0) t) e^{−ωt}.
            let e = exp(-w0 * t)
            let b = v0 + w0 * u0
            return (to + (u0 + b * t) * e, (v0 - w0 * b * t) * e)
        }
        // Under-damped: u(t) = e^{−ζωt} (A cos ω_d t + B sin ω_d t).
        let wd = w0 * (1 - zeta * zeta).squareRoot()
        let a = u0
        let b = (v0 + zeta * w0 * u0) / wd
        let e = exp(-zeta * w0 * t)
        let c = cos(wd * t), s = sin(wd * t)
        let u = e * (a * c + b * s)
        let v = e * ((-zeta * w0) * (a * c + b * s) + (-a * wd * s + b * wd * c))
        return (to + u, v)
    }

    /// Fraction of a 0→1 move from rest done after `t` seconds (may exceed 1 with bounce).
    public func progress(at t: Double) -> Double { state(from: 0, to: 1, at: t).value }

    /// Time (s) after which a 0→1 move from rest stays within `epsilon` of 1 with a velocity
    /// under `epsilon` per 0.1 s: when it has visually settled.
    public func settlingDuration(epsilon: Double = 1e-3) -> Double {
        // The envelope bounds the motion, so stepping until it is small is exact enough.
        let step = 1.0 / 1000
        var lastOutside = 0.0
        var t = 0.0
        while t < 20 * duration {
            let s = state(from: 0, to: 1, at: t)
            if abs(s.value - 1) > epsilon || abs(s.velocity) * 0.1 > epsilon { lastOutside = t }
            t += step
        }
        return (lastOutside * 1000).rounded(.up) / 1000
    }
}
