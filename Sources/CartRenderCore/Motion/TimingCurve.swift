import Foundation

/// A timing curve: maps the fraction of an animation's duration that has elapsed (0…1) to the
/// fraction of the change that has happened (docs/motion-and-look.md, “Timing curves and
/// springs”). Cubic Béziers from (0,0) to (1,1) are
/// solved for x, as SwiftUI and CSS do.
public enum TimingCurve: Equatable, Sendable {
    /// No easing: progress equals the elapsed fraction.
    case linear
    /// A cubic Bézier with control points (x1, y1) and (x2, y2); x1 and x2 in 0…1.
    case bezier(Double, Double, Double, Double)

    /// `easeIn` = Bézier (0.42, 0, 1, 1).
    public static let easeIn = TimingCurve.bezier(0.42, 0, 1, 1)
    /// `easeOut` = Bézier (0, 0, 0.58, 1).
    public static let easeOut = TimingCurve.bezier(0, 0, 0.58, 1)
    /// `easeInOut` = Bézier (0.42, 0, 0.58, 1).
    public static let easeInOut = TimingCurve.bezier(0.42, 0, 0.58, 1)

    /// The eased fraction at time fraction `x`; `x` is clamped to 0…1.
    ///
    /// Check values (docs/motion-and-look.md, “Timing curves and springs”): `easeIn` at 0.25 / 0.5 / 0.75 = 0.0935 / 0.3154 / 0.6219.
    /// - Complexity: O(1): at most 8 Newton steps, then at most 40 bisection steps.
    public func value(at x: Double) -> Double {
        let x = min(max(x, 0), 1)
        switch self {
        case .linear:
            return x
        case .bezier(let x1, let y1, let x2, let y2):
            if x == 0 || x == 1 { return x }
            // Polynomial coefficients of B(s) = ((a s + b) s + c) s.
            let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
            let cy = 3 * y1, by = 3 * (y2 - y1) - cy, ay = 1 - cy - by
            func sx(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
            func dsx(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
            func sy(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
            var s = x
            for _ in 0..<8 {
                let err = sx(s) - x
                if abs(err) < 1e-12 { return sy(s) }
                let d = dsx(s)
                if abs(d) < 1e-9 { break }
                s -= err / d
            }
            var lo = 0.0, hi = 1.0
            s = x
            for _ in 0..<40 {
                let v = sx(s)
                if abs(v - x) < 1e-12 { break }
                if v < x { lo = s } else { hi = s }
                s = (lo + hi) / 2
            }
            return sy(s)
        }
    }
}

/// A timed animation with a timing curve, like SwiftUI's `.easeIn(duration:)`.
public struct CurveAnimation: Equatable, Sendable {
    /// The timing curve mapping elapsed fraction to progress.
    public var curve: TimingCurve
    /// Duration (s); SwiftUI's default is 0.35 s.
    public var duration: Double
    /// An animation along `curve` lasting `duration` seconds (default 0.35 s, SwiftUI's default;
    /// Apple documentation: *Animation.easeIn(duration:)*).
    public init(_ curve: TimingCurve, duration: Double = 0.35) { self.curve = curve; self.duration = duration }

    /// The eased fraction (0…1) `elapsed` seconds after the animation started; 0 before, 1 after.
    public func progress(elapsed: Double) -> Double {
        guard duration > 0 else { return elapsed >= 0 ? 1 : 0 }
        return curve.value(at: elapsed / duration)
    }
}
