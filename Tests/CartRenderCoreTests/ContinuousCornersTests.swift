@testable import CartRenderCore
import XCTest

/// Continuous corners (`ContinuousCorners`): the image container's 28 pt corner has the profile
/// of the reference curve (UIKit's reverse-engineered `UIBezierPath(roundedRect:cornerRadius:)`),
/// not a circle's, and the screens draw it.
final class ContinuousCornersTests: XCTestCase {
    /// The path flattened to points (pt).
    private func polyline(_ elements: [ContinuousCorners.Element]) -> [Point] {
        var points: [Point] = []
        for e in elements {
            switch e {
            case .move(let p), .line(let p): points.append(p)
            case .curve(let c1, let c2, let p):
                let p0 = points.last!
                for i in 1...4000 {
                    let t = Double(i) / 4000, u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    points.append(Point(x: a * p0.x + b * c1.x + c * c2.x + d * p.x, y: a * p0.y + b * c1.y + c * c2.y + d * p.y))
                }
            case .close: break
            }
        }
        return points
    }

    /// How far in from the left edge (pt) the top-left corner is `depth` pt below the top edge.
    private func inset(_ r: Rect, radius: Double, depth: Double) -> Double {
        // The top-left corner is the path's last (its first point, where it starts, left out).
        let points = polyline(ContinuousCorners.path(r, radius: radius)).dropFirst().filter { $0.x < r.midX && $0.y < r.midY }
        let y = r.minY + depth
        for (p, q) in zip(points, points.dropFirst()) where (p.y - y) * (q.y - y) <= 0 && p.y != q.y {
            return p.x + (q.x - p.x) * (y - p.y) / (q.y - p.y) - r.minX
        }
        return 0
    }

    /// The container's corner profile at several depths: the reference curve's insets
    /// (computed from its constants by hand, to 0.05 pt), and where it differs from a circle's
    /// (28 − √(28² − (28 − d)²): 20.58 pt at 1 pt) by more than the antialiasing.
    func testTheImageContainersCornerProfile() {
        let r = Rect(x: 24, y: 200, width: 345, height: 260)
        let expected: [(depth: Double, inset: Double)] = [(0.5, 25.085), (1, 21.904), (2, 18.08), (4, 13.594), (8, 8.326), (16, 2.777), (28, 0.244), (40, 0)]
        for (depth, value) in expected {
            XCTAssertEqual(inset(r, radius: 28, depth: depth), value, accuracy: 0.05, "at \(depth) pt")
        }
        XCTAssertGreaterThan(inset(r, radius: 28, depth: 1) - 20.584, 1, "not a circular arc")
        XCTAssertEqual(inset(r, radius: 28, depth: 0), 28 * ContinuousCorners.extent, accuracy: 0.01, "the corner starts 1.528665 radii from the corner")
    }

    /// The path is symmetric: every corner has the same profile, and it is closed.
    func testEveryCornerIsTheSame() {
        let r = Rect(x: 0, y: 0, width: 100, height: 60)
        let points = polyline(ContinuousCorners.path(r, radius: 15))
        let mirrored = points.map { Point(x: r.maxX - $0.x, y: r.maxY - $0.y) }
        for p in stride(from: 0, to: points.count, by: 997) {
            let m = mirrored[p]
            XCTAssertLessThan(points.map { hypot($0.x - m.x, $0.y - m.y) }.min()!, 0.02, "point \(p) turned by 180°")
        }
        XCTAssertEqual(ContinuousCorners.limitedRadius(40, in: r), 30 / ContinuousCorners.extent, accuracy: 1e-9, "UIKit's limit")
    }

    /// The shop's image container and the cart page's rounded images and "Check out" are
    /// drawn with continuous corners.
    func testTheScreensDrawContinuousCorners() {
        var s = Scene()
        let shop = ShopContent()
        s.content = shop
        let layout = ShopLayout(scene: s, shop: shop, measurer: FixedMetrics())
        let shapes = layout.displayList(for: layout.timeline().state(at: 0)).items.compactMap { item -> Shape? in
            if case .fill(let shape, _) = item { return shape }
            return nil
        }
        XCTAssertTrue(shapes.contains(.continuousRoundedRect(layout.imageContainerFrame, radius: 28)), "\(shapes)")
    }

    /// No radius is the plain rectangle, not 26 elements of corners of no size: an image
    /// filling its frame is clipped by it on every draw.
    func testNoRadiusIsThePlainRectangle() {
        let r = Rect(x: 2, y: 3, width: 40, height: 20)
        let rectangle: [ContinuousCorners.Element] = [.move(Point(x: 2, y: 3)), .line(Point(x: 42, y: 3)), .line(Point(x: 42, y: 23)),
                                                      .line(Point(x: 2, y: 23)), .close]
        XCTAssertEqual(ContinuousCorners.path(r, radius: 0), rectangle)
        XCTAssertEqual(ContinuousCorners.path(r, radius: -4), rectangle)
        XCTAssertEqual(ContinuousCorners.path(r, radius: 4).count, 26, "a radius keeps its corners")
    }
}
