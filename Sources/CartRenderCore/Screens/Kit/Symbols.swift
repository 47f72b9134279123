/// SF Symbols that scenes may name, and the Bootstrap Icons 1.11.3 (MIT, installed by the setup:
/// `make assets`) that stand in for them (docs/motion-and-look.md, “Symbols”).
public enum Symbols {
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
        "cart.fill": "cart-fill",
        "cart": "cart",
        "cart.badge.plus": "cart-plus",
        "trash": "trash",
        "trash.fill": "trash-fill",
        "plus": "plus-lg",
        "minus": "dash-lg",
        "chevron.left": "chevron-left",
    ]
    /// Symbols drawn mirrored in a right-to-left layout, as SF Symbols draws its localized
    /// right-to-left variants: the back chevron (the seed's `chevron.left` is a back button,
    /// which points toward the leading edge as `chevron.backward` does) and the carts (their
    /// basket faces the reading direction). The others have no direction and are drawn as they
    /// are.
    public static let mirroredRightToLeft: Set<String> = ["chevron.left", "cart.fill", "cart", "cart.badge.plus"]

    /// An image as a layout in `direction` draws it: mirrored when it is a directional symbol
    /// in a right-to-left layout.
    public static func isMirrored(_ source: ImageSource, in direction: LayoutDirection) -> Bool {
        guard direction.isRightToLeft, case .symbol(let name) = source else { return false }
        return mirroredRightToLeft.contains(name)
    }
}
