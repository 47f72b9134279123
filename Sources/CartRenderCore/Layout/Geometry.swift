import Foundation

/// A point in screen points (pt), origin at the top-left of the screen, y growing downward.
public struct Point: Equatable, Hashable, Sendable, Codable {
    /// Horizontal position (pt), growing to the right.
    public var x: Double
    /// Vertical position (pt), growing downward.
    public var y: Double
    /// A point at (`x`, `y`) pt.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin (0, 0): the screen's top-left corner.
    public static let zero = Point(x: 0, y: 0)
    /// The point `a` moved by `b` (pt).
    public static func + (a: Point, b: Vector) -> Point { Point(x: a.x + b.dx, y: a.y + b.dy) }
    /// The displacement from `b` to `a` (pt).
    public static func - (a: Point, b: Point) -> Vector { Vector(dx: a.x - b.x, dy: a.y - b.y) }
}

/// A displacement in points (pt); the seed's `CGSize` used as an offset.
public struct Vector: Equatable, Hashable, Sendable {
    /// Horizontal displacement (pt), positive to the right.
    public var dx: Double
    /// Vertical displacement (pt), positive downward.
    public var dy: Double
    /// A displacement of (`dx`, `dy`) pt.
    public init(dx: Double, dy: Double) { self.dx = dx; self.dy = dy }
    /// No displacement.
    public static let zero = Vector(dx: 0, dy: 0)
}

/// A size in points (pt).
public struct Size: Equatable, Hashable, Sendable, Codable {
    /// Width (pt), not negative for laid-out frames.
    public var width: Double
    /// Height (pt), not negative for laid-out frames.
    public var height: Double
    /// A size of `width` × `height` pt.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    /// A 0 × 0 pt size.
    public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle in screen points (pt).
public struct Rect: Equatable, Hashable, Sendable, Codable {
    /// Left edge (pt).
    public var x: Double
    /// Top edge (pt).
    public var y: Double
    /// Width (pt).
    public var width: Double
    /// Height (pt).
    public var height: Double
    /// A rectangle with its top-left corner at (`x`, `y`) pt and the given size (pt).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// A rectangle with its top-left corner at `origin` and the given `size` (pt).
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }
    /// A rectangle of `size` whose center is `center`.
    public init(center: Point, size: Size) {
        self.init(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
    }
    /// Left edge (pt), Core Graphics' `CGRect.minX`.
    public var minX: Double { x }
    /// Top edge (pt), Core Graphics' `CGRect.minY`.
    public var minY: Double { y }
    /// Right edge (pt): `x + width`.
    public var maxX: Double { x + width }
    /// Bottom edge (pt): `y + height`.
    public var maxY: Double { y + height }
    /// Horizontal center (pt).
    public var midX: Double { x + width / 2 }
    /// Vertical center (pt).
    public var midY: Double { y + height / 2 }
    /// The center point (pt).
    public var center: Point { Point(x: midX, y: midY) }
    /// The width and height (pt).
    public var size: Size { Size(width: width, height: height) }
    /// The rectangle shrunk by `d` pt on every side (grown when `d` is negative).
    public func insetBy(_ d: Double) -> Rect { Rect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }
    /// The rectangle on the device pixel grid at `scale` px per pt, as SwiftUI rounds laid-out
    /// frames to the display's pixels ("nearest or up"): the origin moves to the nearest pixel
    /// boundary (halves away from zero), the size grows to whole pixels, so a text's box never
    /// gets narrower than its text. Lengths within 1e-9 px of a whole pixel count as whole.
    /// Example at 3 px/pt: (68.4, 10.1, 42, 38.05) → (68.333…, 10, 42, 38.333…).
    public func roundedToPixels(scale: Double) -> Rect {
        guard scale > 0 else { return self }
        func up(_ v: Double) -> Double { (v * scale - 1e-9).rounded(.up) / scale }
        return Rect(x: (minX * scale).rounded() / scale, y: (minY * scale).rounded() / scale, width: up(width), height: up(height))
    }
    /// The smallest rectangle holding both (pt).
    public func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }
    /// Whether the two rectangles share interior points.
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
    /// The bounding box of the rectangle's four corners mapped by `t`.
    public func applying(_ t: AffineTransform) -> Rect {
        if t.b == 0, t.c == 0 {
            let x0 = t.a * minX + t.tx, x1 = t.a * maxX + t.tx, y0 = t.d * minY + t.ty, y1 = t.d * maxY + t.ty
            return Rect(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
        }
        let corners = [Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: minX, y: maxY), Point(x: maxX, y: maxY)].map(t.apply)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
    /// The largest rectangle of aspect ratio `content` that fits inside, centered (`.scaledToFit`).
    public func aspectFit(_ content: Size) -> Rect {
        guard content.width > 0, content.height > 0 else { return self }
        let s = min(width / content.width, height / content.height)
        return Rect(center: center, size: Size(width: content.width * s, height: content.height * s))
    }
    /// The smallest rectangle of aspect ratio `content` that covers this one, centered (`.aspectRatio(contentMode: .fill)`).
    public func aspectFill(_ content: Size) -> Rect {
        guard content.width > 0, content.height > 0 else { return self }
        let s = max(width / content.width, height / content.height)
        return Rect(center: center, size: Size(width: content.width * s, height: content.height * s))
    }
}

/// A 2-D affine transform mapping (x, y) to (a·x + c·y + tx, b·x + d·y + ty), as in Core Graphics and Cairo.
public struct AffineTransform: Equatable, Hashable, Sendable {
    /// The matrix entries of Core Graphics' *CGAffineTransform*: `a`, `b`, `c`, `d` scale, rotate
    /// and skew (unitless); `tx`, `ty` translate (pt).
    public var a, b, c, d, tx, ty: Double
    /// A transform from its six matrix entries (Apple documentation: *CGAffineTransform*).
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    /// The transform that maps every point to itself.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    /// A translation by `v` pt.
    public static func translation(_ v: Vector) -> AffineTransform { AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: v.dx, ty: v.dy) }
    /// A uniform scale by `s` about `anchor` (pt), like SwiftUI's `scaleEffect(_:anchor:)`.
    public static func scale(_ s: Double, about anchor: Point) -> AffineTransform {
        AffineTransform(a: s, b: 0, c: 0, d: s, tx: anchor.x * (1 - s), ty: anchor.y * (1 - s))
    }
    /// The point `p` mapped by this transform.
    public func apply(_ p: Point) -> Point { Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty) }
    /// Whether this is exactly `identity` (no tolerance).
    public var isIdentity: Bool { self == .identity }
    /// This transform, then `outer`: maps `p` to `outer.apply(self.apply(p))` (a child's
    /// transform followed by its parent's).
    public func followed(by outer: AffineTransform) -> AffineTransform {
        AffineTransform(a: outer.a * a + outer.c * b, b: outer.b * a + outer.d * b,
                        c: outer.a * c + outer.c * d, d: outer.b * c + outer.d * d,
                        tx: outer.a * tx + outer.c * ty + outer.tx, ty: outer.b * tx + outer.d * ty + outer.ty)
    }
}
