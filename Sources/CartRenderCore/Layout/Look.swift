/// Light or dark appearance (`colorScheme` in the scene, `--color-scheme` on the command line).
public enum ColorScheme: String, Sendable, Codable, CaseIterable {
    case light, dark
}

/// A color that resolves differently in light and dark appearance, like UIKit's dynamic system colors.
public struct DynamicColor: Equatable, Sendable {
    public var light: Color
    public var dark: Color
    public init(light: Color, dark: Color) { self.light = light; self.dark = dark }
    /// A color that is the same in both appearances.
    public init(_ color: Color) { self.init(light: color, dark: color) }
    public func resolved(_ scheme: ColorScheme) -> Color { scheme == .light ? light : dark }
}

/// Font weights used by the screens, mapped to Inter's named instances by the raster layer.
public enum FontWeight: Int, Sendable, Codable, Comparable {
    case regular = 400, medium = 500, semibold = 600, bold = 700, heavy = 800, black = 900
    public static func < (a: FontWeight, b: FontWeight) -> Bool { a.rawValue < b.rawValue }
}

/// A font: size in points, weight and family. In the system family Inter stands in for SF Pro;
/// Inter Display is used at 20 pt and above, as SF Pro Display is (docs/motion-and-look.md, “Text
/// and fonts”).
public struct FontSpec: Equatable, Hashable, Sendable {
    /// Point size (pt).
    public var size: Double
    public var weight: FontWeight
    public var family: FontFamily
    public init(size: Double, weight: FontWeight = .regular, family: FontFamily = .system) {
        self.size = size; self.weight = weight; self.family = family
    }
    /// This font at another weight (SwiftUI's `.weight(_:)` / `.bold()`).
    public func weight(_ w: FontWeight) -> FontSpec { FontSpec(size: size, weight: w, family: family) }
    /// This font in another family.
    public func family(_ f: FontFamily) -> FontSpec { FontSpec(size: size, weight: weight, family: f) }
    /// The family name fontconfig matches: for the system family "Inter Display" at ≥ 20 pt,
    /// else "Inter"; otherwise the family's own name.
    public var familyName: String {
        switch family {
        case .system: return size >= 20 ? "Inter Display" : "Inter"
        case .named(let n): return n
        }
    }
}

/// Every look constant of the screens in one place, so they can be tuned; docs/motion-and-look.md
/// gives the source of each.
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
    public static let systemRed = systemColors["red"]!
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

    // MARK: Shop screen (seed 000)
    //
    // The seed's structure, from which the lengths below come:
    // `VStack(spacing: 0) { header.padding(.horizontal, 24).padding(.top, 8); ScrollView { VStack(spacing: 8) { flyButton.padding(.top, 48); name.padding(.top, 12); description }.padding(24) } }`,
    // the header an `HStack { title; Spacer; cart }`, the fly button a `VStack(spacing: 20)` of
    // the image container and the add button.

    /// Fonts of the shop screen (seed 000): title `.largeTitle.bold()`, cart symbol `.title2`,
    /// add button `.headline`, product name `.title2.bold()`, description `.body`, badge digits
    /// `.caption2.bold()`. All scale with Dynamic Type.
    public static let shopTitleFont = ScalableFont.style(.largeTitle, .bold)
    public static let shopCartSymbolFont = ScalableFont.style(.title2)
    public static let shopButtonFont = ScalableFont.style(.headline)
    public static let shopNameFont = ScalableFont.style(.title2, .bold)
    public static let shopDescriptionFont = ScalableFont.style(.body)
    public static let shopBadgeFont = ScalableFont.style(.caption2, .bold)
    /// Horizontal padding of the header and padding of the scroll content (pt, seed 000).
    public static let shopPadding = 24.0
    /// Padding above the header (pt, seed 000).
    public static let shopHeaderTopPadding = 8.0
    /// Spacing between the title and the cart icon when a long title wraps (pt; SwiftUI's
    /// default `HStack` spacing, approximate).
    public static let shopHeaderSpacing = 8.0
    /// Padding of the cart symbol inside the cart icon's frame, the frame `"measured"` names (pt, seed 000).
    public static let shopCartIconPadding = 8.0
    /// Padding above the fly button (pt, seed 000).
    public static let shopFlyButtonTopPadding = 48.0
    /// Spacing between the image container and the add button (pt, seed 000).
    public static let shopFlyButtonSpacing = 20.0
    /// Spacing of the scroll content's `VStack` (pt, seed 000).
    public static let shopStackSpacing = 8.0
    /// Padding above the product name (pt, seed 000).
    public static let shopNameTopPadding = 12.0
    /// Least height of the add button's label (pt, seed 000: `.frame(maxWidth: .infinity, minHeight: 44)`).
    public static let shopButtonMinLabelHeight = 44.0
    /// The most lines the shop's title wraps to before the last ends in "…" (choice: a header
    /// is a line or two; three keep a long localized title readable).
    public static let shopTitleLineLimit = 3
    /// The most lines the add button's title wraps to before the last ends in "…" (choice, as
    /// `Look.cartLabelLineLimit`).
    public static let shopButtonTitleLineLimit = 2
    /// Product image container height (pt) and padding of the image inside it (pt), seed 000.
    public static let shopImageContainerHeight = 260.0
    public static let shopImagePadding = 36.0

    // MARK: Fly button (seed 000)
    /// Flight circle diameter (pt) and image padding inside it (pt), seed 000.
    public static let flightDiameter = 84.0
    public static let flightImagePadding = 14.0
    /// Width of the flight's inner stroke (pt, seed 000).
    public static let flightStrokeWidth = 1.0
    /// Corner radius of the product image container (pt, seed 000).
    public static let imageContainerCornerRadius = 28.0
    /// Opacity of the tint behind the product image (seed 000).
    public static let imageContainerTintOpacity = 0.12
    /// Opacity of the flight's inner stroke (seed 000).
    public static let flightStrokeOpacity = 0.3
    /// Badge capsule minimum size (pt, seed 000) and horizontal padding (pt).
    public static let badgeMinSide = 18.0
    public static let badgePaddingH = 5.0
    /// How far a rolling digit travels, as a fraction of the badge font's line height
    /// (`.contentTransition(.numericText)`; choice, measured by eye).
    public static let digitRollFraction = 0.6
    /// The scale a rolling character shrinks to as it leaves, and grows from as it arrives,
    /// about its own center (`.numericText` shrinks and blurs the outgoing digits). Choice: 0.6
    /// keeps the digit legible in the first frames of the roll and reads as "leaving" by its
    /// midpoint.
    public static let digitRollMinimumScale = 0.6
    /// How much a rolling character blurs, as a fraction of the badge font's size: its Gaussian
    /// blur (`DisplayItem.blur`, standard deviation σ in pt) is this × the font size × (1 −
    /// its opacity), so the leaving character blurs as it fades and the arriving one sharpens as
    /// it appears, sharp at rest at both ends of the roll (progress 0 is the resting badge).
    /// σ peaks (1.1 pt for the 11 pt caption2 digits) where the character is gone; the blur a
    /// viewer sees, σ weighted by the character's opacity, peaks at the middle of the fade, where
    /// σ is half of it: 0.55 pt, about a third of the bold digits' ≈ 1.5 pt stems, so a digit at
    /// its most visible blur is soft but still legible, and blurred ink spreads at most 3σ ≈ 3.3 pt,
    /// within the capsule's 18 pt height. Choice, by eye: Apple documents
    /// `.contentTransition(.numericText())` ("a nonstandard transition tailored to numeric
    /// characters that count up or down") but not its magnitudes.
    public static let digitRollBlurFraction = 0.1

    // MARK: Cart page (seed 003)
    //
    // The seed takes three colors from its asset catalog, which the tutorial does not show:
    // `lightblue` and `blue` (the gradient behind every row and of the "Check out" button,
    // leading → trailing) and `gray` (the page and the row content). Their values are
    // cartrender's choice: a sky blue into a saturated blue that keeps white text and the trash
    // symbol legible, and the grouped-background gray of iOS (242,242,247) so that rows sit flush
    // on the page as in the seed's screenshots. Each is one color for every appearance (an
    // asset color set with no Dark variant), because the seed's own text on them is a fixed
    // `.black` (`.foregroundColor(.black)`), which iOS draws black in dark mode too: a dark page
    // would hide it. In dark mode only the system colors adapt (systemRed prices, systemGray,
    // the status bar); the contrast that results is for `cartrender audit` to judge.

    /// Asset color `lightblue`: 100,180,255 (#64B4FF) in every appearance. Choice.
    public static let cartLightBlue = DynamicColor(Color(r8: 100, g8: 180, b8: 255))
    /// Asset color `blue`: 0,88,220 (#0058DC) in every appearance. Choice.
    public static let cartBlue = DynamicColor(Color(r8: 0, g8: 88, b8: 220))
    /// Asset color `gray`: 242,242,247 (iOS's grouped background in light) in every appearance. Choice.
    public static let cartGray = DynamicColor(Color(r8: 242, g8: 242, b8: 247))
    /// The seed's `.black` text and symbols (names, quantities, steppers, chevron, title, total):
    /// `Color.black` is not a dynamic color, so it is black in dark mode too (seed 003).
    public static let cartText = DynamicColor(Color.black)
    /// The seed's `.gray` (details, "Total"): systemGray 142,142,147 in both appearances.
    public static let cartSecondaryText = systemColors["gray"]!
    /// The seed's `.red` (prices): systemRed.
    public static let cartPrice = systemRed
    /// Background of the quantity: the seed's `Color.black.opacity(0.06)`, in both appearances (seed 003).
    public static let cartQuantityBackground = DynamicColor(Color.black.opacity(0.06))

    /// Fonts of the cart page (seed 003), in the cart's family (`CartContent.font`, Jost by
    /// default, as the seed's `Jost-Bold` and `Jost-Regular` faces at their `.fontWeight`):
    /// title, "Total", the total and "Check out" heavy 28; name and details semibold 18;
    /// quantity heavy 18; price `.subheadline` (15) heavy. Line heights are the family's own
    /// (measured by the raster layer: Jost's line is 1.445 em, Inter's 1.21). The Jost faces are
    /// `Font.custom(_:size:)`, so they scale with Dynamic Type relative to body, as the price's
    /// text style does with its own sizes.
    public static let cartTitleFont = ScalableFont.custom(size: 28, weight: .heavy)
    public static let cartNameFont = ScalableFont.custom(size: 18, weight: .semibold)
    public static let cartDetailsFont = ScalableFont.custom(size: 18, weight: .semibold)
    public static let cartPriceFont = ScalableFont.style(.subheadline, .heavy)
    public static let cartQuantityFont = ScalableFont.custom(size: 18, weight: .heavy)
    public static let cartTotalFont = ScalableFont.custom(size: 28, weight: .heavy)
    public static let cartCheckoutFont = ScalableFont.custom(size: 28, weight: .heavy)

    /// SwiftUI's default `.padding()` (pt).
    public static let cartPadding = 16.0
    /// Spacing SwiftUI puts between the page's header, list and bottom area (default stack
    /// spacing, pt; approximate).
    public static let cartStackSpacing = 8.0
    /// Header: `HStack(spacing: 20)` (pt, seed 003).
    public static let cartHeaderSpacing = 20.0
    /// The back chevron (`chevron.left`, 26 pt heavy in the seed): its layout box (pt). SF's
    /// chevron is narrow; Bootstrap's glyph is drawn filling this box's height.
    public static let cartChevronSize = Size(width: 15, height: 26)
    /// The chevron's weight (seed 003: `.system(size: 26, weight: .heavy)`).
    public static let cartChevronWeight = FontWeight.heavy
    /// Product image side and corner radius (pt, seed 003).
    public static let cartImageSide = 130.0
    public static let cartImageCornerRadius = 18.0
    /// For `symbol:` product images: the tint behind the symbol and the symbol's inset (pt). Choice.
    public static let cartSymbolImageTintOpacity = 0.14
    public static let cartSymbolImageInset = 32.0
    /// Row: `HStack(spacing: 15)` between image and text; `VStack(spacing: 10)` of name, details,
    /// controls; `HStack(spacing: 15)` of price, minus, quantity, plus (pt, seed 003).
    public static let cartRowSpacing = 15.0
    public static let cartTextSpacing = 10.0
    public static let cartControlSpacing = 15.0
    /// Side of the minus and plus symbols (pt; SF Symbols at 16 pt heavy are about 15 pt wide,
    /// Bootstrap's glyphs fill 12/16 of their box).
    public static let cartStepperSymbolSide = 19.0
    /// The weight of the minus and plus symbols (seed 003: `.system(size: 16, weight: .heavy)`).
    public static let cartStepperSymbolWeight = FontWeight.heavy
    /// Padding of the quantity (pt, seed 003): 10 horizontal, 5 vertical.
    public static let cartQuantityPaddingH = 10.0
    public static let cartQuantityPaddingV = 5.0
    /// The trash button: 90×50 pt frame at the row's trailing edge, `trash` at `.title` (28 pt
    /// at large; the symbol's side is the style's size) in white (seed 003).
    public static let cartTrashSize = Size(width: 90, height: 50)
    public static let cartTrashSymbolFont = ScalableFont.style(.title)
    /// "Check out": full width minus 30 pt, 16 pt vertical padding, corner radius 15 (seed 003).
    public static let cartCheckoutInset = 30.0
    public static let cartCheckoutCornerRadius = 15.0
    /// The most lines "Total" and the "Check out" title wrap to before the last ends in "…"
    /// (choice: the seed sets no `lineLimit`; two lines keep the default labels whole at
    /// `accessibility5` and stop a long localized label from filling the screen).
    public static let cartLabelLineLimit = 2
    /// The most lines a row's name, and its details, wrap to before the last ends in "…"
    /// (choice: the seed sets no `lineLimit`; three keep "Tek Product 1" whole at
    /// `accessibility5` and a very long name from making its row taller than the list).
    public static let cartNameLineLimit = 3

    private static func dyn(_ r: Int, _ g: Int, _ b: Int, _ dr: Int, _ dg: Int, _ db: Int) -> DynamicColor {
        DynamicColor(light: Color(r8: r, g8: g, b8: b), dark: Color(r8: dr, g8: dg, b8: db))
    }
}
