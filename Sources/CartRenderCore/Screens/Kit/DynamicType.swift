/// The text size a person chose (SwiftUI's `DynamicTypeSize`): a scene's `"dynamicTypeSize"`,
/// `large` by default, the size every look constant of docs/motion-and-look.md is given at.
public enum DynamicTypeSize: String, Sendable, CaseIterable, Comparable {
    /// The seven standard sizes, smallest first (`large` is the default).
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    /// The five accessibility sizes, larger than `xxxLarge` (Settings › Accessibility › Larger Text).
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5

    /// Position in `allCases` (0 = xSmall … 11 = accessibility5): the column of `TextStyle.sizes`.
    var index: Int { Self.allCases.firstIndex(of: self)! }

    /// Ordered from `xSmall` to `accessibility5`, as SwiftUI's `DynamicTypeSize` is.
    public static func < (a: DynamicTypeSize, b: DynamicTypeSize) -> Bool { a.index < b.index }

    /// Whether it is one of the five accessibility sizes.
    public var isAccessibilitySize: Bool { self >= .accessibility1 }
}

/// The text styles of iOS, with the point sizes of Apple's published Dynamic Type table
/// (Human Interface Guidelines, Typography, "iOS, iPadOS Dynamic Type sizes").
public enum TextStyle: String, Sendable, CaseIterable {
    /// The eleven text styles of SwiftUI's `Font.TextStyle` (Apple documentation: *Font.TextStyle*).
    case largeTitle, title, title2, title3, headline, body, callout, subheadline, footnote, caption, caption2

    /// Point sizes (pt) from xSmall to accessibility5 (`DynamicTypeSize.allCases` order).
    public var sizes: [Double] {
        switch self {
        case .largeTitle: return [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60]
        case .title: return [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58]
        case .title2: return [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56]
        case .title3: return [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55]
        case .headline: return [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
        case .body: return [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
        case .callout: return [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51]
        case .subheadline: return [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49]
        case .footnote: return [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44]
        case .caption: return [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43]
        case .caption2: return [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40]
        }
    }

    /// The style's point size (pt) at a Dynamic Type size.
    public func size(at d: DynamicTypeSize) -> Double { sizes[d.index] }

    /// Line heights (pt) from xSmall to accessibility5 (`DynamicTypeSize.allCases` order): the
    /// "Leading (points)" column of the same table (Human Interface Guidelines, *Typography*,
    /// "iOS, iPadOS Dynamic Type sizes" and "iOS, iPadOS larger accessibility type sizes"), the
    /// distance between the baselines of two lines of the style and the height of each line of
    /// its text (docs/motion-and-look.md, “Line height and tracking”). It depends on the point
    /// size alone (17 pt is 22 pt wherever it occurs) except subheadline at xxxLarge, 21 pt on
    /// 28 pt where body at xxLarge has 21 on 26: the table's value is kept.
    public var lineHeights: [Double] {
        switch self {
        case .largeTitle: return [38, 39, 40, 41, 43, 46, 48, 52, 57, 61, 66, 70]
        case .title: return [31, 32, 33, 34, 37, 39, 41, 46, 51, 57, 62, 68]
        case .title2: return [24, 25, 26, 28, 30, 32, 34, 41, 47, 52, 59, 66]
        case .title3: return [22, 23, 24, 25, 28, 30, 32, 38, 44, 51, 58, 65]
        case .headline: return [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62]
        case .body: return [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62]
        case .callout: return [18, 19, 20, 21, 23, 25, 28, 32, 39, 46, 52, 60]
        case .subheadline: return [16, 18, 19, 20, 22, 24, 28, 31, 37, 43, 50, 58]
        case .footnote: return [16, 16, 16, 18, 20, 22, 24, 29, 33, 40, 46, 52]
        case .caption: return [13, 13, 13, 16, 19, 21, 23, 28, 32, 39, 44, 51]
        case .caption2: return [13, 13, 13, 13, 18, 20, 22, 25, 30, 35, 41, 48]
        }
    }

    /// The style's line height (pt) at a Dynamic Type size (`lineHeights`).
    public func lineHeight(at d: DynamicTypeSize) -> Double { lineHeights[d.index] }

    /// The style's own weight: semibold for headline, regular for the others.
    public var weight: FontWeight { self == .headline ? .semibold : .regular }
}

/// A font as a view asks for it, before the Dynamic Type size is known: a text style
/// (`.font(.title2.bold())`), a custom font (`Font.custom(_:size:)`, which scales relative to
/// body), or a fixed system size (`.system(size:)`, which does not scale).
public struct ScalableFont: Equatable, Hashable, Sendable {
    /// How the font's size follows the Dynamic Type size (docs/motion-and-look.md, “Dynamic Type”).
    public enum Scaling: Equatable, Hashable, Sendable {
        /// One of the text styles: its size in `TextStyle.sizes` at the chosen Dynamic Type size.
        case textStyle(TextStyle)
        /// Size (pt) at `large`, scaled by body's size at the chosen size over body's at large.
        case relativeToBody(Double)
        /// Size (pt) at every Dynamic Type size.
        case fixed(Double)
    }
    /// A text style's size table, a body-relative size or a fixed size (pt).
    public var scaling: Scaling
    /// The weight the font is drawn at.
    public var weight: FontWeight

    /// A text style, at its own weight unless another is given.
    public static func style(_ style: TextStyle, _ weight: FontWeight? = nil) -> ScalableFont {
        ScalableFont(scaling: .textStyle(style), weight: weight ?? style.weight)
    }
    /// `Font.custom(_:size:)`: `size` pt at `large`, scaling with body.
    public static func custom(size: Double, weight: FontWeight) -> ScalableFont {
        ScalableFont(scaling: .relativeToBody(size), weight: weight)
    }
    /// `.system(size:weight:)`: `size` pt at every Dynamic Type size.
    public static func system(size: Double, weight: FontWeight = .regular) -> ScalableFont {
        ScalableFont(scaling: .fixed(size), weight: weight)
    }

    /// The font at a Dynamic Type size. A custom font's size is `size × body(d) / 17`, not
    /// rounded (UIFontMetrics scales continuously); at `large` it is `size` exactly. A text
    /// style carries its line height at that size (`TextStyle.lineHeight(at:)`).
    public func resolved(_ d: DynamicTypeSize) -> FontSpec {
        switch scaling {
        case .textStyle(let s): return FontSpec(size: s.size(at: d), weight: weight, styleLineHeight: s.lineHeight(at: d))
        case .relativeToBody(let size):
            let body = TextStyle.body.size(at: d), large = TextStyle.body.size(at: .large)
            return FontSpec(size: body == large ? size : size * body / large, weight: weight)
        case .fixed(let size): return FontSpec(size: size, weight: weight)
        }
    }
}
