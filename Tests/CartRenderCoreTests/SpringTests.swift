import CartRenderCore
import Foundation
import XCTest

final class SpringTests: XCTestCase {
    /// docs/motion-and-look.md, “Timing curves and springs”: `.snappy` moving 0→1 from rest.
    func testSnappyCheckValues() {
        let table: [(t: Double, value: Double)] = [(0.1, 0.388), (0.2, 0.786), (0.3, 0.956), (0.4, 1.0016)]
        for row in table {
            XCTAssertEqual(Spring.snappy.progress(at: row.t), row.value, accuracy: 5e-4, "snappy at \(row.t) s")
        }
    }

    func testPresetsFollowTheDurationBounceModel() {
        XCTAssertEqual(Spring.smooth, Spring(duration: 0.5, bounce: 0))
        XCTAssertEqual(Spring.snappy, Spring(duration: 0.5, bounce: 0.15))
        XCTAssertEqual(Spring.bouncy, Spring(duration: 0.5, bounce: 0.3))
        XCTAssertEqual(Spring(), Spring.smooth, "Spring() is critically damped, 0.5 s")
        let s = Spring(duration: 0.5, bounce: 0.15)
        XCTAssertEqual(s.stiffness, pow(2 * .pi / 0.5, 2), accuracy: 1e-9)
        XCTAssertEqual(s.damping, 4 * .pi * 0.85 / 0.5, accuracy: 1e-9)
    }

    func testCriticallyDampedSpringNeverOvershoots() {
        var t = 0.0
        while t < 3 {
            XCTAssertLessThanOrEqual(Spring().progress(at: t), 1 + 1e-12)
            t += 0.01
        }
    }

    /// The velocity returned is the derivative of the value.
    func testVelocityIsTheDerivative() {
        for spring in [Spring.smooth, .snappy, .bouncy] {
            for t in [0.05, 0.13, 0.3, 0.61] {
                let h = 1e-6
                let numeric = (spring.state(from: 2, to: -1, initialVelocity: 3, at: t + h).value
                               - spring.state(from: 2, to: -1, initialVelocity: 3, at: t - h).value) / (2 * h)
                XCTAssertEqual(spring.state(from: 2, to: -1, initialVelocity: 3, at: t).velocity, numeric, accuracy: 1e-4)
            }
        }
    }

    /// The badge bump's check values (docs/motion-and-look.md), from rest at 1.0.
    func testBadgeBumpKeyframes() {
        let bump = KeyframeTimeline.badgeBump
        XCTAssertEqual(bump.duration, 0.44, accuracy: 1e-12)
        XCTAssertEqual(bump.state(at: 0.14, from: 1).value, 1.1575, accuracy: 5e-5)
        XCTAssertEqual(bump.state(at: 0.44, from: 1).value, 1.0252, accuracy: 5e-5)
        // Held after the timeline ends.
        XCTAssertEqual(bump.state(at: 2, from: 1).value, bump.state(at: 0.44, from: 1).value, accuracy: 1e-12)
        XCTAssertEqual(bump.state(at: 2, from: 1).velocity, 0)
        // Peak ≈ 1.172 near 0.17 s.
        var peak = (t: 0.0, v: 0.0)
        for i in 0...440 {
            let t = Double(i) / 1000
            let v = bump.state(at: t, from: 1).value
            if v > peak.v { peak = (t, v) }
        }
        XCTAssertEqual(peak.v, 1.172, accuracy: 1e-3)
        XCTAssertEqual(peak.t, 0.17, accuracy: 0.01)
    }

    /// The second keyframe starts from the value and velocity the first reached when cut off.
    func testKeyframesHandOverValueAndVelocity() {
        let k1 = SpringKeyframe(1.3, duration: 0.14)
        let end1 = k1.spring.state(from: 1, to: 1.3, at: 0.14)
        let timeline = KeyframeTimeline([k1, SpringKeyframe(1.0, duration: 0.3)])
        let expected = Spring().state(from: end1.value, to: 1.0, initialVelocity: end1.velocity, at: 0.1)
        XCTAssertEqual(timeline.state(at: 0.24, from: 1).value, expected.value, accuracy: 1e-12)
    }
}
