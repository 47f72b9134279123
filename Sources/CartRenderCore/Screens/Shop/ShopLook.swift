/// The look constants of the shop screen (seed 000): its fonts, lengths and the fly button's
/// flight, badge and digit roll; docs/motion-and-look.md, “The fly button”, gives the source of
/// each. Shared constants (system colors, the bordered-prominent button, symbol metrics) are in
/// `Look`. Lengths are points (pt).
public enum ShopLook {
    // MARK: Shop screen (seed 000)
    //
    // The seed's structure, from which the lengths below come:
    // `VStack(spacing: 0) { header.padding(.horizontal, 24).padding(.top, 8); ScrollView { VStack(spacing: 8) { flyButton.padding(.top, 48); name.padding(.top, 12); description }.padding(24) } }`,
    // the header an `HStack { title; Spacer; cart }`, the fly button a `VStack(spacing: 20)` of
    // the image container and the add button.

    /// Fonts of the shop screen (seed 000): title `.largeTitle.bold()`, cart symbol `.title2`,
    /// add button `.headline`, product name `.title2.bold()`, description `.body`, badge digits
    /// `.caption2.bold()`. All scale with Dynamic Type.
    public static let titleFont = ScalableFont.style(.largeTitle, .bold)
    /// The cart symbol's font, `.title2` (seed 000).
    public static let cartSymbolFont = ScalableFont.style(.title2)
    /// The add button's font, `.headline` (seed 000).
    public static let buttonFont = ScalableFont.style(.headline)
    /// The product name's font, `.title2.bold()` (seed 000).
    public static let nameFont = ScalableFont.style(.title2, .bold)
    /// The description's font, `.body` (seed 000).
    public static let descriptionFont = ScalableFont.style(.body)
    /// The badge digits' font, `.caption2.bold()` (seed 000).
    public static let badgeFont = ScalableFont.style(.caption2, .bold)
    /// Horizontal padding of the header and padding of the scroll content (pt, seed 000).
    public static let padding = 24.0
    /// Padding above the header (pt, seed 000).
    public static let headerTopPadding = 8.0
    /// Spacing between the title and the cart icon when a long title wraps (pt; SwiftUI's
    /// default `HStack` spacing, approximate).
    public static let headerSpacing = 8.0
    /// Padding of the cart symbol inside the cart icon's frame, the frame `"measured"` names (pt, seed 000).
    public static let cartIconPadding = 8.0
    /// Padding above the fly button (pt, seed 000).
    public static let flyButtonTopPadding = 48.0
    /// Spacing between the image container and the add button (pt, seed 000).
    public static let flyButtonSpacing = 20.0
    /// Spacing of the scroll content's `VStack` (pt, seed 000).
    public static let stackSpacing = 8.0
    /// Padding above the product name (pt, seed 000).
    public static let nameTopPadding = 12.0
    /// Least height of the add button's label (pt, seed 000: `.frame(maxWidth: .infinity, minHeight: 44)`).
    public static let buttonMinLabelHeight = 44.0
    /// Product image container height (pt) and padding of the image inside it (pt), seed 000.
    public static let imageContainerHeight = 260.0
    /// Padding of the product image inside its container (pt, seed 000).
    public static let imagePadding = 36.0

    // MARK: Fly button (seed 000)
    /// Flight circle diameter (pt) and image padding inside it (pt), seed 000.
    public static let flightDiameter = 84.0
    /// Padding of the product image inside the flight circle (pt, seed 000).
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
    /// Horizontal padding of the badge's text inside its capsule (pt, seed 000).
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
}
