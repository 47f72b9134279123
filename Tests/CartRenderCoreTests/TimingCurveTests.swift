import CartRenderCore
import XCTest

final class TimingCurveTests: XCTestCase {
    /// Check values of docs/motion-and-look.md, “Timing curves and springs”: easeIn at 25 / 50 / 75 % of time.
    func testEaseInCheckValues() {
        let table: [(x: Double, y: Double)] = [(0.25, 0.0935), (0.5, 0.3154), (0.75, 0.6219)]
        for row in table {
            XCTAssertEqual(TimingCurve.easeIn.value(at: row.x), row.y, accuracy: 5e-5, "easeIn at \(row.x)")
        }
    }

    /// easeOut mirrors easeIn: easeOut(x) = 1 − easeIn(1 − x).
    func testEaseOutMirrorsEaseIn() {
        for x in stride(from: 0.0, through: 1.0, by: 0.05) {
            XCTAssertEqual(TimingCurve.easeOut.value(at: x), 1 - TimingCurve.easeIn.value(at: 1 - x), accuracy: 1e-9, "x = \(x)")
        }
    }

    func testEaseInOutIsSymmetricAboutTheMiddle() {
        XCTAssertEqual(TimingCurve.easeInOut.value(at: 0.5), 0.5, accuracy: 1e-9)
        XCTAssertEqual(TimingCurve.easeInOut.value(at: 0.2) + TimingCurve.easeInOut.value(at: 0.8), 1, accuracy: 1e-9)
    }

    func testEndpointsAndClamping() {
        for curve in [TimingCurve.linear, .easeIn, .easeOut, .easeInOut] {
            XCTAssertEqual(curve.value(at: 0), 0)
            XCTAssertEqual(curve.value(at: 1), 1)
            XCTAssertEqual(curve.value(at: -3), 0)
            XCTAssertEqual(curve.value(at: 7), 1)
        }
        XCTAssertEqual(TimingCurve.linear.value(at: 0.37), 0.37)
    }

    func testCurvesAreMonotonic() {
        for curve in [TimingCurve.easeIn, .easeOut, .easeInOut] {
            var last = 0.0
            for i in 1...200 {
                let v = curve.value(at: Double(i) / 200)
                XCTAssertGreaterThanOrEqual(v, last - 1e-12)
                last = v
            }
        }
    }

    func testCurveAnimationUsesItsDuration() {
        let a = CurveAnimation(.easeIn, duration: 0.65)
        XCTAssertEqual(a.progress(elapsed: 0.325), TimingCurve.easeIn.value(at: 0.5), accuracy: 1e-12)
        XCTAssertEqual(CurveAnimation(.easeOut).duration, 0.35, "SwiftUI's default duration")
    }
}
