/// The look constants of the cart page (seed 003): its asset colors, fonts and lengths;
/// docs/motion-and-look.md, “The cart page”, gives the source of each. Shared constants (system
/// colors, symbol metrics) are in `Look`. Colors are sRGB; lengths are points (pt).
public enum CartLook {
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
    public static let lightBlue = DynamicColor(Color(r8: 100, g8: 180, b8: 255))
    /// Asset color `blue`: 0,88,220 (#0058DC) in every appearance. Choice.
    public static let blue = DynamicColor(Color(r8: 0, g8: 88, b8: 220))
    /// Asset color `gray`: 242,242,247 (iOS's grouped background in light) in every appearance. Choice.
    public static let gray = DynamicColor(Color(r8: 242, g8: 242, b8: 247))
    /// The seed's `.black` text and symbols (names, quantities, steppers, chevron, title, total):
    /// `Color.black` is not a dynamic color, so it is black in dark mode too (seed 003).
    public static let text = DynamicColor(Color.black)
    /// The seed's `.gray` (details, "Total"): systemGray 142,142,147 in both appearances.
    public static let secondaryText = Look.systemColors["gray"]!
    /// The seed's `.red` (prices): systemRed.
    public static let price = Look.systemRed
    /// Background of the quantity: the seed's `Color.black.opacity(0.06)`, in both appearances (seed 003).
    public static let quantityBackground = DynamicColor(Color.black.opacity(0.06))

    /// Fonts of the cart page (seed 003), in the cart's family (`CartContent.font`, Jost by
    /// default, as the seed's `Jost-Bold` and `Jost-Regular` faces at their `.fontWeight`):
    /// title, "Total", the total and "Check out" heavy 28; name and details semibold 18;
    /// quantity heavy 18; price `.subheadline` (15) heavy. Line heights are the family's own
    /// (measured by the raster layer: Jost's line is 1.445 em, Inter's 1.21). The Jost faces are
    /// `Font.custom(_:size:)`, so they scale with Dynamic Type relative to body, as the price's
    /// text style does with its own sizes.
    public static let titleFont = ScalableFont.custom(size: 28, weight: .heavy)
    /// Product name: semibold 18 pt, relative to body (seed 003).
    public static let nameFont = ScalableFont.custom(size: 18, weight: .semibold)
    /// Product details: semibold 18 pt, relative to body (seed 003).
    public static let detailsFont = ScalableFont.custom(size: 18, weight: .semibold)
    /// Price: the system font, `.subheadline` (15 pt at large) heavy (seed 003). The seed writes
    /// `.font(.subheadline).fontWeight(.heavy).font(.custom("Jost-Bold", size: 15))`; SwiftUI's
    /// `Text` resolves its modifiers from the outermost in, so the first `.font` wins and the
    /// later `.custom` one is ignored (docs/motion-and-look.md, “The cart page”).
    public static let priceFont = ScalableFont.style(.subheadline, .heavy)

    /// The family a font of the page is drawn in: the cart's (`CartContent.font`, standing for
    /// the seed's `Font.custom` Jost faces) for the body-relative custom sizes, the system
    /// font's stand-in for text styles (the price) and fixed system sizes.
    static func family(of f: ScalableFont, cart: FontFamily) -> FontFamily {
        if case .relativeToBody = f.scaling { return cart }
        return .system
    }

    /// A font of the page at Dynamic Type size `typeSize`, in its family (`family(of:cart:)`):
    /// the one place the page's fonts are resolved (`CartLayout.font(_:)`, its `Kit`).
    static func font(_ f: ScalableFont, at typeSize: DynamicTypeSize, cart: FontFamily) -> FontSpec {
        f.resolved(typeSize).family(family(of: f, cart: cart))
    }
    /// Quantity: heavy 18 pt, relative to body (seed 003).
    public static let quantityFont = ScalableFont.custom(size: 18, weight: .heavy)
    /// The total: heavy 28 pt, relative to body (seed 003).
    public static let totalFont = ScalableFont.custom(size: 28, weight: .heavy)
    /// "Check out": heavy 28 pt, relative to body (seed 003).
    public static let checkoutFont = ScalableFont.custom(size: 28, weight: .heavy)

    /// SwiftUI's default `.padding()` (pt).
    public static let padding = 16.0
    /// Spacing SwiftUI puts between the page's header, list and bottom area (default stack
    /// spacing, pt; approximate).
    public static let stackSpacing = 8.0
    /// Header: `HStack(spacing: 20)` (pt, seed 003).
    public static let headerSpacing = 20.0
    /// The back chevron (`chevron.left`, 26 pt heavy in the seed): its layout box (pt). SF's
    /// chevron is narrow; Bootstrap's glyph is drawn filling this box's height.
    public static let chevronSize = Size(width: 15, height: 26)
    /// The chevron's weight (seed 003: `.system(size: 26, weight: .heavy)`).
    public static let chevronWeight = FontWeight.heavy
    /// Product image side and corner radius (pt, seed 003).
    public static let imageSide = 130.0
    /// Product image corner radius (pt, seed 003).
    public static let imageCornerRadius = 18.0
    /// For `symbol:` product images: the tint behind the symbol and the symbol's inset (pt). Choice.
    public static let symbolImageTintOpacity = 0.14
    /// Inset of a `symbol:` product image inside its tinted square (pt, choice).
    public static let symbolImageInset = 32.0
    /// Row: `HStack(spacing: 15)` between image and text; `VStack(spacing: 10)` of name, details,
    /// controls; `HStack(spacing: 15)` of price, minus, quantity, plus (pt, seed 003).
    public static let rowSpacing = 15.0
    /// Spacing of the name, details and controls `VStack` (pt, seed 003).
    public static let textSpacing = 10.0
    /// Spacing of the price, minus, quantity and plus `HStack` (pt, seed 003).
    public static let controlSpacing = 15.0
    /// Side of the minus and plus symbols' layout boxes (pt): SF Symbols' `minus` and `plus` at
    /// 16 pt heavy are about 15 pt wide (docs/motion-and-look.md, “Symbols”). Bootstrap's glyphs
    /// fill 12/16 of the box they are drawn in.
    public static let stepperSymbolSide = 15.0
    /// The weight of the minus and plus symbols (seed 003: `.system(size: 16, weight: .heavy)`).
    public static let stepperSymbolWeight = FontWeight.heavy
    /// Padding of the quantity (pt, seed 003): 10 horizontal, 5 vertical.
    public static let quantityPaddingH = 10.0
    /// Vertical padding of the quantity (pt, seed 003).
    public static let quantityPaddingV = 5.0
    /// The trash button: 90×50 pt frame at the row's trailing edge, `trash` at `.title` (28 pt
    /// at large; the symbol's side is the style's size) in white (seed 003).
    public static let trashSize = Size(width: 90, height: 50)
    /// The trash symbol's font: `.title` (28 pt at large, seed 003); scales with Dynamic Type.
    public static let trashSymbolFont = ScalableFont.style(.title)
    /// "Check out": full width minus 30 pt, 16 pt vertical padding, corner radius 15 (seed 003).
    public static let checkoutInset = 30.0
    /// Corner radius of the "Check out" button (pt, seed 003).
    public static let checkoutCornerRadius = 15.0
}
