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
}
