/// An axis-aligned rectangle in pixels, origin at the top-left: columns `x ..< x + width`, rows
/// `y ..< y + height`. Used for diff masks, GIF image rectangles and changed regions. A rectangle
/// with a non-positive size is empty.
public struct PixelRect: Equatable, Hashable, Sendable {
    /// First column (px).
    public var x: Int
    /// First row (px).
    public var y: Int
    /// Width (px).
    public var width: Int
    /// Height (px).
    public var height: Int

    /// The rectangle of columns `x ..< x + width` and rows `y ..< y + height` (px).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// One past the last column and row.
    public var maxX: Int { x + width }
    /// One past the last row.
    public var maxY: Int { y + height }

    /// Whether pixel (`px`, `py`) lies inside.
    @inlinable
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && py >= y && px - x < width && py - y < height
    }

    /// The smallest rectangle containing both.
    public func union(_ other: PixelRect) -> PixelRect {
        let minX = min(x, other.x), minY = min(y, other.y)
        return PixelRect(x: minX, y: minY, width: max(maxX, other.maxX) - minX, height: max(maxY, other.maxY) - minY)
    }
}
