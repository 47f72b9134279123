/// Light or dark appearance (`colorScheme` in the scene, `--color-scheme` on the command line).
public enum ColorScheme: String, Sendable, Codable, CaseIterable {
    /// The two appearances of SwiftUI's `ColorScheme` (Apple documentation: *ColorScheme*).
    case light, dark
}

/// A color that resolves differently in light and dark appearance, like UIKit's dynamic system colors.
public struct DynamicColor: Equatable, Sendable {
    /// The color in the light appearance (sRGB, straight alpha).
    public var light: Color
    /// The color in the dark appearance (sRGB, straight alpha).
    public var dark: Color
    /// A color that is `light` in the light appearance and `dark` in the dark one.
    public init(light: Color, dark: Color) { self.light = light; self.dark = dark }
    /// A color that is the same in both appearances.
    public init(_ color: Color) { self.init(light: color, dark: color) }
    /// The color in `scheme`.
    public func resolved(_ scheme: ColorScheme) -> Color { scheme == .light ? light : dark }
}

/// Font weights used by the screens, mapped to Inter's named instances by the raster layer.
public enum FontWeight: Int, Sendable, Codable, Comparable {
    /// The CSS / OpenType weights (`usWeightClass`) of SwiftUI's `Font.Weight` cases used here.
    case regular = 400, medium = 500, semibold = 600, bold = 700, heavy = 800, black = 900
    /// Lighter before heavier, by the CSS/OpenType weight value (400 … 900).
    public static func < (a: FontWeight, b: FontWeight) -> Bool { a.rawValue < b.rawValue }
}

/// A font: size in points, weight and family. In the system family Inter stands in for SF Pro;
/// Inter Display is used at 20 pt and above, as SF Pro Display is (docs/motion-and-look.md, “Text
/// and fonts”), and text takes SF Pro's line heights and tracking (“Line height and tracking”).
public struct FontSpec: Equatable, Hashable, Sendable {
    /// Point size (pt).
    public var size: Double
    /// The weight, mapped to one of Inter's named instances.
    public var weight: FontWeight
    /// The family: `.system` (Inter for SF Pro, Inter Display at 20 pt and above) or a named one
    /// (Jost, or a family a scene registers).
    public var family: FontFamily
    /// The line height (pt) of the text style the font was made from at its Dynamic Type size
    /// (`TextStyle.lineHeight(at:)`); nil for a font made at a size. It applies in the system
    /// family only (`lineHeight`).
    public var styleLineHeight: Double?
    /// A font of `size` pt; regular weight, the system family and no text style unless given.
    public init(size: Double, weight: FontWeight = .regular, family: FontFamily = .system, styleLineHeight: Double? = nil) {
        self.size = size; self.weight = weight; self.family = family; self.styleLineHeight = styleLineHeight
    }
    /// This font at another weight (SwiftUI's `.weight(_:)` / `.bold()`).
    public func weight(_ w: FontWeight) -> FontSpec { FontSpec(size: size, weight: w, family: family, styleLineHeight: styleLineHeight) }
    /// This font in another family.
    public func family(_ f: FontFamily) -> FontSpec { FontSpec(size: size, weight: weight, family: f, styleLineHeight: styleLineHeight) }
    /// The family name fontconfig matches: for the system family "Inter Display" at ≥ 20 pt,
    /// else "Inter"; otherwise the family's own name.
    public var familyName: String {
        switch family {
        case .system: return size >= 20 ? "Inter Display" : "Inter"
        case .named(let n): return n
        }
    }
    /// The distance (pt) between the baselines of two lines, and the height of each line: a text
    /// style's line height in the system family (Human Interface Guidelines, *Typography*: body
    /// 17 pt on 22 pt); nil otherwise — the font's own, its ascent + descent + line gap (Jost's
    /// 1.445 em, as `Font.custom` takes the font's metrics).
    public var lineHeight: Double? { family == .system ? styleLineHeight : nil }
    /// Space (pt) added between characters (none after a line's last): SF Pro's tracking at this size in the system
    /// family (`SystemTracking.points(at:)`: −0.43 pt at 17 pt), 0 in a named family (a custom
    /// font is drawn with its own spacing).
    public var tracking: Double { family == .system ? SystemTracking.points(at: size) : 0 }
}

/// SF Pro's size-specific tracking, which the system font applies at every point size (Human
/// Interface Guidelines, *Typography*, "Tracking values", SF Pro, iOS: the "Tracking (points)"
/// column, 6 to 96 pt). Inter has no such table, so the system family adds it to every character.
public enum SystemTracking {
    /// (size, tracking) in points, ascending by size.
    public static let table: [(size: Double, points: Double)] = [
        (6, 0.24), (7, 0.23), (8, 0.21), (9, 0.17), (10, 0.12), (11, 0.06), (12, 0), (13, -0.08), (14, -0.15),
        (15, -0.23), (16, -0.31), (17, -0.43), (18, -0.44), (19, -0.45), (20, -0.45), (21, -0.36), (22, -0.26),
        (23, -0.10), (24, 0.07), (25, 0.15), (26, 0.22), (27, 0.29), (28, 0.38), (29, 0.40), (30, 0.40),
        (31, 0.39), (32, 0.41), (33, 0.40), (34, 0.40), (35, 0.38), (36, 0.37), (37, 0.36), (38, 0.37),
        (39, 0.38), (40, 0.37), (41, 0.36), (42, 0.37), (43, 0.38), (44, 0.37), (45, 0.35), (46, 0.36),
        (47, 0.37), (48, 0.35), (49, 0.33), (50, 0.34), (51, 0.35), (52, 0.33), (53, 0.31), (54, 0.32),
        (56, 0.30), (58, 0.28), (60, 0.26), (62, 0.24), (64, 0.22), (66, 0.19), (68, 0.17), (70, 0.14),
        (72, 0.14), (76, 0.07), (80, 0), (84, 0), (88, 0), (92, 0), (96, 0),
    ]

    /// The tracking (pt) at `size` pt: the table's value at a listed size, linear between two
    /// listed sizes (55 pt: 0.31), the first row's below 6 pt and 0 above 96 pt.
    public static func points(at size: Double) -> Double {
        guard let first = table.first, size > first.size else { return table.first?.points ?? 0 }
        guard let upper = table.firstIndex(where: { $0.size >= size }) else { return 0 }
        let b = table[upper], a = table[upper - 1]
        if b.size == size { return b.points }
        return a.points + (b.points - a.points) * (size - a.size) / (b.size - a.size)
    }
}

/// The look constants the screens share (system colors, the bordered-prominent button, symbol
/// metrics), so they can be tuned in one place; each screen's own are in its folder (`ShopLook`,
/// `CartLook`). docs/motion-and-look.md gives the source of each.
/// Colors are sRGB; lengths are points (pt).
public enum Look {
    // Text styles and their sizes at each Dynamic Type size: `TextStyle` (documented table).

    // MARK: System colors (documented iOS values, light · dark)
    /// System colors by the names a scene's `tint` accepts.
    public static let systemColors: [String: DynamicColor] = [
        "red": dyn(255, 59, 48, 255, 69, 58),
        "orange": dyn(255, 149, 0, 255, 159, 10),
        "yellow": dyn(255, 204, 0, 255, 214, 10),
        "green": dyn(52, 199, 89, 48, 209, 88),
        "mint": dyn(0, 199, 190, 99, 230, 226),
        "teal": dyn(48, 176, 199, 64, 200, 224),
        "cyan": dyn(50, 173, 230, 100, 210, 255),
        "blue": dyn(0, 122, 255, 10, 132, 255),
        "indigo": dyn(88, 86, 214, 94, 92, 230),
        "purple": dyn(175, 82, 222, 191, 90, 242),
        "pink": dyn(255, 45, 85, 255, 55, 95),
        "brown": dyn(162, 132, 94, 172, 142, 104),
        "gray": dyn(142, 142, 147, 142, 142, 147),
    ]
    /// `systemRed`: 255,59,48 · 255,69,58 (Apple documentation: *UIColor.systemRed*).
    public static let systemRed = systemColors["red"]!
    /// `systemIndigo`: 88,86,214 · 94,92,230 (Apple documentation: *UIColor.systemIndigo*); the
    /// default tint.
    public static let systemIndigo = systemColors["indigo"]!
    /// `label`: black · white.
    public static let label = DynamicColor(light: .black, dark: .white)
    /// `secondaryLabel`: 60,60,67 @ 0.6 · 235,235,245 @ 0.6.
    public static let secondaryLabel = DynamicColor(light: Color(r8: 60, g8: 60, b8: 67, alpha: 0.6),
                                                    dark: Color(r8: 235, g8: 235, b8: 245, alpha: 0.6))
    /// `systemBackground`: white · black.
    public static let background = DynamicColor(light: .white, dark: .black)
    /// `secondarySystemBackground` / grouped background: 242,242,247 · 28,28,30.
    public static let secondaryBackground = DynamicColor(light: Color(r8: 242, g8: 242, b8: 247), dark: Color(r8: 28, g8: 28, b8: 30))

    // MARK: Bordered-prominent button (approximate)
    /// Horizontal padding inside a `.borderedProminent` button (pt).
    public static let buttonPaddingH = 14.0
    /// Vertical padding inside a `.borderedProminent` button (pt).
    public static let buttonPaddingV = 7.0
    /// Corner radius of a `.borderedProminent` button (pt).
    public static let buttonCornerRadius = 8.0
    /// Opacity of a pressed `.borderedProminent` button (approximate).
    public static let buttonPressedOpacity = 0.7
    /// How long a tapped button shows its pressed look (s; a finger's touch, choice).
    public static let buttonPressDuration = 0.1
    /// Spacing between a `Label`'s icon and its title (pt, measured on iOS ≈ 6–8).
    public static let labelSpacing = 7.0

    // MARK: Symbol metrics (SF Symbols are approximated by Bootstrap Icons)
    /// Size of a symbol image in a text style, relative to the font size: SF Symbols at
    /// `.font(.title2)` draw about 1.2 × 0.95 of the point size for wide symbols like `cart.fill`.
    public static let symbolWidthFactor = 1.2
    /// Height of a symbol image relative to the font size (see `symbolWidthFactor`).
    public static let symbolHeightFactor = 1.0
    /// How much a symbol is emboldened at a weight: the width (in units of Bootstrap Icons'
    /// 16-unit grid, so it scales with the symbol) of a stroke of the symbol's outline in its
    /// own color, which thickens every part by that much (half on each side). SF Symbols come
    /// in nine weights matching the font's (ultralight … black); Bootstrap Icons have one, a
    /// little lighter than SF's regular, so regular draws them as they are and each heavier
    /// weight adds about 0.25 unit: a heavy `chevron.left` at 26 pt has ≈ 2.9 pt strokes
    /// (Bootstrap's 0.71 unit + 1.05, at 1.625 pt a unit) where SF's is ≈ 3 pt, and a heavy
    /// `plus` in its 19 pt box ≈ 2.4 pt. Weights lighter than regular (not used by the
    /// screens) cannot be drawn thinner by a stroke. Choice, compared by eye with SF Symbols.
    public static func symbolOutlineWidth(_ weight: FontWeight) -> Double {
        switch weight {
        case .regular: return 0
        case .medium: return 0.3
        case .semibold: return 0.55
        case .bold: return 0.8
        case .heavy: return 1.05
        case .black: return 1.3
        }
    }

    private static func dyn(_ r: Int, _ g: Int, _ b: Int, _ dr: Int, _ dg: Int, _ db: Int) -> DynamicColor {
        DynamicColor(light: Color(r8: r, g8: g, b8: b), dark: Color(r8: dr, g8: dg, b8: db))
    }
}
