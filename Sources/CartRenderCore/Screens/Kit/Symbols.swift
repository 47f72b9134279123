/// SF Symbols that scenes may name, and what stands in for them (docs/motion-and-look.md,
/// “Symbols”): Bootstrap Icons 1.11.3 (MIT, installed by the setup: `make assets`), or, where no
/// Bootstrap icon has SF Symbols' silhouette, a stand-in of cartrender's own composed from
/// Bootstrap Icons' parts (`standIns`).
public enum Symbols {
    /// Every symbol name a scene may give, sorted.
    public static let names: [String] = (Array(bootstrapNames.keys) + Array(standIns.keys)).sorted()

    /// Whether a scene may name `name` (`symbol:NAME`).
    public static func isKnown(_ name: String) -> Bool { bootstrapNames[name] != nil || standIns[name] != nil }

    /// Stand-ins drawn from SVG documents of cartrender's own (fill `currentColor`, tinted and
    /// emboldened like Bootstrap's icons), for symbols whose silhouette no Bootstrap icon has:
    ///
    /// - `cart.fill`: Bootstrap's `cart-fill` basket widened by 1.263 with two solid round
    ///   wheels, as SF Symbols draws them (Bootstrap's are rings): 18.95 × 15 units of ink, the
    ///   proportions of SF Symbols' `cart.fill` (26.4 × 20.9 pt at `.title2`'s 22 pt; `boxFactors`).
    /// - `cart.badge.plus`: Bootstrap's `cart` outline with a plus badge at its top right, the
    ///   cart cut away in a ring around the plus, as SF Symbols draws badged symbols (Bootstrap's
    ///   `cart-plus` puts the plus inside the basket). 20.5 × 16 units, so that at the headline's
    ///   17 pt it is about 23 × 18 pt, SF Symbols' size (`boxFactors`).
    ///
    /// The path data is Bootstrap Icons' (© 2019–2024 The Bootstrap Authors, MIT License:
    /// permission is granted, free of charge, to deal in the software without restriction,
    /// provided the copyright notice and this permission notice are included; the software is
    /// provided "as is", without warranty of any kind), rearranged. Nothing is taken from
    /// Apple's artwork.
    public static let standIns: [String: String] = [
        "cart.fill": """
            <svg xmlns="http://www.w3.org/2000/svg" width="18.95" height="15" viewBox="0 1 18.95 15">\
            <path fill="currentColor" transform="scale(1.26333 1)" d="M0 1.5A.5.5 0 0 1 .5 1H2a.5.5 0 0 1 .485.379L2.89 3H14.5a.5.5 \
            0 0 1 .491.592l-1.5 8A.5.5 0 0 1 13 12H4a.5.5 0 0 1-.491-.408L2.01 3.607 1.61 2H.5a.5.5 0 0 1-.5-.5"/>\
            <circle fill="currentColor" cx="6.32" cy="14" r="2"/><circle fill="currentColor" cx="15.16" cy="14" r="2"/></svg>
            """,
        "cart.badge.plus": """
            <svg xmlns="http://www.w3.org/2000/svg" width="20.5" height="16" viewBox="0 0 20.5 16">\
            <defs><clipPath id="badge"><path clip-rule="evenodd" d="M0 0h20.5v16H0zM21.3 3.5a4.3 4.3 0 1 0-8.6 0 4.3 4.3 0 1 0 \
            8.6 0z"/></clipPath></defs>\
            <path fill="currentColor" clip-path="url(#badge)" d="M.5 1a.5.5 0 0 0 0 1h1.11l.401 1.607 1.498 7.985A.5.5 0 0 0 4 \
            12h1a2 2 0 1 0 0 4 2 2 0 0 0 0-4h7a2 2 0 1 0 0 4 2 2 0 0 0 0-4h1a.5.5 0 0 0 .491-.408l1.5-8A.5.5 0 0 0 14.5 3H2.89l-.405 \
            -1.621A.5.5 0 0 0 2 1zm3.915 10L3.102 4h10.796l-1.313 7zM6 14a1 1 0 1 1-2 0 1 1 0 0 1 2 0m7 0a1 1 0 1 1-2 0 1 1 0 0 1 2 \
            0"/><path fill="currentColor" d="M17.5 1a.5.5 0 0 0-1 0v2h-2a.5.5 0 0 0 0 1h2v2a.5.5 0 0 0 1 0V4h2a.5.5 0 0 0 0-1h-2z"/>\
            </svg>
            """,
    ]

    /// The box a symbol occupies at a font, as multiples of the point size (width, height):
    /// `Look.symbolWidthFactor` × `Look.symbolHeightFactor` (1.2 × 1.0), except where SF Symbols
    /// draws a symbol notably wider — `cart.badge.plus` is about 23 × 18 pt at the headline's
    /// 17 pt (1.35 × 1.06; measured on SF Symbols' rendering, not taken from it) — or lower:
    /// `cart.fill`'s ink is 26.4 × 20.9 pt at 22 pt (1.2 × 0.95, docs/motion-and-look.md, “Symbols”).
    public static func boxFactors(_ name: String) -> (width: Double, height: Double) {
        switch name {
        case "cart.badge.plus": return (1.35, 1.06)
        case "cart.fill": return (1.2, 0.95)
        default: return (Look.symbolWidthFactor, Look.symbolHeightFactor)
        }
    }

    /// SF Symbol name → Bootstrap Icons file name without `.svg`.
    public static let bootstrapNames: [String: String] = [
        "backpack.fill": "backpack-fill",
        "backpack": "backpack",
        "bag.fill": "bag-fill",
        "bag": "bag",
        "handbag.fill": "handbag-fill",
        "briefcase.fill": "briefcase-fill",
        "gift.fill": "gift-fill",
        "heart.fill": "heart-fill",
        "star.fill": "star-fill",
        "cart": "cart",
        "trash": "trash",
        "trash.fill": "trash-fill",
        "plus": "plus-lg",
        "minus": "dash-lg",
        "chevron.left": "chevron-left",
        "chevron.backward": "chevron-left",
    ]
    /// Symbols drawn mirrored in a right-to-left layout, as SF Symbols draws its localized
    /// right-to-left variants: `chevron.backward`, whose direction is the reading order's, and
    /// the carts (their basket faces the reading direction). A symbol named for a fixed
    /// direction keeps it: the seed's `chevron.left` points left in every layout (Apple, *Human
    /// Interface Guidelines: Right to left*, "flip … only directional symbols"; SF Symbols gives
    /// `chevron.left` no right-to-left variant). The others have no direction and are drawn as
    /// they are.
    public static let mirroredRightToLeft: Set<String> = ["chevron.backward", "cart.fill", "cart", "cart.badge.plus"]

    /// An image as a layout in `direction` draws it: mirrored when it is a directional symbol
    /// in a right-to-left layout.
    public static func isMirrored(_ source: ImageSource, in direction: LayoutDirection) -> Bool {
        guard direction.isRightToLeft, case .symbol(let name) = source else { return false }
        return mirroredRightToLeft.contains(name)
    }
}
