import Foundation

/// A point in screen points (pt), origin at the top-left of the screen, y growing downward.
public struct Point: Equatable, Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
    public static func + (a: Point, b: Vector) -> Point { Point(x: a.x + b.dx, y: a.y + b.dy) }
    public static func - (a: Point, b: Point) -> Vector { Vector(dx: a.x - b.x, dy: a.y - b.y) }
}

/// A displacement in points (pt); the seed's `CGSize` used as an offset.
public struct Vector: Equatable, Hashable, Sendable {
    public var dx: Double
    public var dy: Double
    public init(dx: Double, dy: Double) { self.dx = dx; self.dy = dy }
    public static let zero = Vector(dx: 0, dy: 0)
}

/// A size in points (pt).
public struct Size: Equatable, Hashable, Sendable, Codable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle in screen points (pt).
public struct Rect: Equatable, Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }
    /// A rectangle of `size` whose center is `center`.
    public init(center: Point, size: Size) {
        self.init(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
    }
    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var center: Point { Point(x: midX, y: midY) }
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
    public var a, b, c, d, tx, ty: Double
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    /// A translation by `v` pt.
    public static func translation(_ v: Vector) -> AffineTransform { AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: v.dx, ty: v.dy) }
    /// A uniform scale by `s` about `anchor` (pt), like SwiftUI's `scaleEffect(_:anchor:)`.
    public static func scale(_ s: Double, about anchor: Point) -> AffineTransform {
        AffineTransform(a: s, b: 0, c: 0, d: s, tx: anchor.x * (1 - s), ty: anchor.y * (1 - s))
    }
    /// The point `p` mapped by this transform.
    public func apply(_ p: Point) -> Point { Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty) }
    public var isIdentity: Bool { self == .identity }
    /// This transform, then `outer`: maps `p` to `outer.apply(self.apply(p))` (a child's
    /// transform followed by its parent's).
    public func followed(by outer: AffineTransform) -> AffineTransform {
        AffineTransform(a: outer.a * a + outer.c * b, b: outer.b * a + outer.d * b,
                        c: outer.a * c + outer.c * d, d: outer.b * c + outer.d * d,
                        tx: outer.a * tx + outer.c * ty + outer.tx, ty: outer.b * tx + outer.d * ty + outer.ty)
    }
}
