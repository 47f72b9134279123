// The accessibility elements of a screen's frames, which `cartrender audit` checks (touch
// targets, labels): each screen's model lays out its own (`ScreenModel.accessibilityElements(in:)`).

/// An element of a frame that VoiceOver and touch reach: a button, a stepper's button or an
/// image, where it is on screen and the accessibility label the scene gives it.
///
/// The display list knows only shapes, text and images, so the elements come from the screen's
/// layout (the frames of its controls) and the frame's state (which rows are where):
///
/// - Shop (seed 000, `ShopAccessibility.swift`): the add button (`Button { Label(title, systemImage:) }`, labelled by its
///   title, the scene's `buttonTitle`, as VoiceOver reads it whether or not it fits), the product image
///   (`.accessibilityLabel(imageLabel)`), the cart icon (`.accessibilityLabel("Cart")`).
/// - Cart page (seed 003, `CartAccessibility.swift`): the back chevron (a `Button` around `Image(systemName:)`), "Check out",
///   and per row in the list: the product image (`Image(item.image)`), the minus and plus
///   buttons of its stepper and, while the row is open, its trash button. Rows leaving after a
///   deletion and rows outside the list are not elements.
///
/// **What counts as a label.** A button's label is the text drawn inside it (SwiftUI reads a
/// button's title, and a `Label`'s title, as its label), or one the scene gives. A symbol's name
/// is not a label: an icon-only button ("chevron.left", "plus", "trash") has none, since the
/// scene format has no field for one (SwiftUI would read out the asset or symbol name, which
/// describes the picture, not the action). An image is labelled when the scene gives it a
/// non-blank label (the shop's `imageLabel`; the cart icon's "Cart" is the seed's own); cart
/// product images have no label field, so they are reported.
public struct AccessibilityElement: Equatable, Sendable {
    /// What the element is to VoiceOver: a button, a stepper (minus and plus) or an image (Apple
    /// documentation: *AccessibilityTraits*).
    public enum Role: String, Sendable { case button, stepper, image }
    /// The element's role, which decides what it needs (a label, a 44 × 44 pt target).
    public var role: Role
    /// What the audit calls it (`add button`, `plus (tek1)`): stable across frames.
    public var name: String
    /// Its frame on screen (pt); for buttons and steppers the touch target.
    public var frame: Rect
    /// The label given by the scene or the seed, nil when it has none; for buttons the text
    /// drawn inside the frame is taken when this is nil.
    public var label: String?

    /// Buttons and steppers: what a finger must hit (HIG: at least 44×44 pt).
    public var isTouchTarget: Bool { role != .image }
}
