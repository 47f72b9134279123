/// SwiftUI's `.continuous` rounded rectangle (`RoundedRectangle(cornerRadius:style: .continuous)`,
/// the default style of `.rect(cornerRadius:)` and of `RoundedRectangle`), by the reverse-engineered
/// curve of iOS 7's `UIBezierPath(roundedRect:cornerRadius:)`: each corner is three cubic Béziers
/// joined by two short lines, starting 1.52866483 × the radius from the corner along each edge
/// (where a circular corner starts at 1 × the radius), its curvature growing from 0 at the edge.
///
/// Apple publishes no formula. These constants are PaintCode's reverse engineering of the path
/// UIKit builds (2013), reproduced in many open-source projects; the corner is symmetric about
/// its diagonal. Like UIKit's, the radius is limited to the shorter side's half divided by
/// 1.52866483, so that two corners never overlap. Confidence: medium — it is the widely used
/// reconstruction of UIKit's path, not Apple's definition; SwiftUI may draw through Core
/// Animation's continuous corners (`CALayer.cornerCurve = .continuous`), which a published
/// comparison found to differ from these constants by a fraction of a pixel at edge pixels
/// (docs/motion-and-look.md, “Continuous corners”).
public enum ContinuousCorners {
    /// How far along each edge a corner reaches, in radii.
    public static let extent = 1.52866483

    /// One step of a path (pt).
    public enum Element: Equatable, Sendable {
        /// Start a new subpath at a point.
        case move(Point)
        /// A straight line to a point.
        case line(Point)
        /// A cubic Bézier curve with two control points to a point.
        case curve(Point, Point, Point)
        /// Close the subpath.
        case close
    }

    /// The top-right corner in units of the radius: (distance from the corner along the top
    /// edge, distance down the right edge), from where the corner leaves the top edge to where it
    /// joins the right edge. Each `curve` is (control 1, control 2, end); lines go to `line`.
    private enum Step { case line(Double, Double), curve(Double, Double, Double, Double, Double, Double) }
    private static let corner: [Step] = [
        .curve(1.08849323, 0, 0.86840689, 0, 0.66993427, 0.06549600),
        .line(0.63149399, 0.07491100),
        .curve(0.37282392, 0.16905899, 0.16905899, 0.37282392, 0.07491100, 0.63149399),
        .line(0.06549600, 0.66993427),
        .curve(0, 0.86840689, 0, 1.08849323, 0, extent),
    ]

    /// The radius a rectangle's corners are drawn with: `radius`, at most the shorter side's
    /// half divided by `extent` (UIKit's limit), at least 0.
    public static func limitedRadius(_ radius: Double, in r: Rect) -> Double {
        max(0, min(radius, min(r.width, r.height) / 2 / extent))
    }

    /// The outline of `r` with continuous corners of `radius` pt, clockwise (in screen
    /// coordinates, y down) from the top edge's start, closed. With no radius (0, negative, or
    /// limited to 0 by an empty side) it is the plain rectangle: its four corners, closed.
    public static func path(_ r: Rect, radius: Double) -> [Element] {
        let k = limitedRadius(radius, in: r)
        guard k > 0 else {
            return [.move(Point(x: r.minX, y: r.minY)), .line(Point(x: r.maxX, y: r.minY)), .line(Point(x: r.maxX, y: r.maxY)),
                    .line(Point(x: r.minX, y: r.maxY)), .close]
        }
        var elements: [Element] = [.move(Point(x: r.minX + extent * k, y: r.minY))]
        // Each corner maps (along, across) to a point: the top-right one, then the others
        // turned by 90° each, clockwise.
        let corners: [(Double, Double) -> Point] = [
            { a, b in Point(x: r.maxX - a * k, y: r.minY + b * k) },
            { a, b in Point(x: r.maxX - b * k, y: r.maxY - a * k) },
            { a, b in Point(x: r.minX + a * k, y: r.maxY - b * k) },
            { a, b in Point(x: r.minX + b * k, y: r.minY + a * k) },
        ]
        for p in corners {
            elements.append(.line(p(extent, 0)))
            for step in corner {
                switch step {
                case .line(let a, let b): elements.append(.line(p(a, b)))
                case .curve(let a1, let b1, let a2, let b2, let a, let b): elements.append(.curve(p(a1, b1), p(a2, b2), p(a, b)))
                }
            }
        }
        elements.append(.close)
        return elements
    }
}
