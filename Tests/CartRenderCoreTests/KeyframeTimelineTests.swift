import CartRenderCore
import Foundation
import XCTest

/// ``KeyframeTimeline``: the badge bump's check values and the hand-over between keyframes.
final class KeyframeTimelineTests: XCTestCase {
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
