/// An sRGB color with straight (non-premultiplied) alpha, each component in 0…1.
public struct Color: Equatable, Hashable, Sendable {
    /// Red component in sRGB, 0…1.
    public var red: Double
    /// Green component in sRGB, 0…1.
    public var green: Double
    /// Blue component in sRGB, 0…1.
    public var blue: Double
    /// Opacity, 0 (transparent) … 1 (opaque); not premultiplied into the components.
    public var alpha: Double
    /// A color from sRGB components and a straight alpha, each in 0…1 (SwiftUI's
    /// `Color(red:green:blue:opacity:)`).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// A color from 8-bit sRGB components (0…255) and an alpha in 0…1.
    public init(r8: Int, g8: Int, b8: Int, alpha: Double = 1) {
        self.init(red: Double(r8) / 255, green: Double(g8) / 255, blue: Double(b8) / 255, alpha: alpha)
    }
    /// This color with its alpha multiplied by `factor` (SwiftUI's `.opacity(_:)`).
    public func opacity(_ factor: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha * factor) }
    /// Opaque white, #FFFFFF.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Opaque black, #000000.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Fully transparent black (SwiftUI's `Color.clear`).
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// `#RRGGBB` for opaque colors, `#RRGGBBAA` otherwise.
    public var hex: String {
        func h(_ v: Double) -> String {
            let n = Int((min(max(v, 0), 1) * 255).rounded())
            let s = String(n, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + h(red) + h(green) + h(blue) + (alpha < 1 ? h(alpha) : "")
    }
}
