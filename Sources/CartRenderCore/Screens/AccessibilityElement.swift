// The accessibility elements of a screen's frames, which `cartrender audit` checks (touch
// targets, labels): each screen's model lays out its own (`ScreenModel.accessibilityElements(in:)`).

/// An element of a frame that VoiceOver and touch reach: a button, a stepper's button or an
/// image, where it is on screen and the accessibility label the scene gives it.
///
/// The display list knows only shapes, text and images, so the elements come from the screen's
/// layout (the frames of its controls) and the frame's state (which rows are where):
///
/// - Shop (seed 000): the add button (`Button { Label(title, systemImage:) }`, labelled by its
///   title, the scene's `buttonTitle`, as VoiceOver reads it whether or not it fits), the product image
///   (`.accessibilityLabel(imageLabel)`), the cart icon (`.accessibilityLabel("Cart")`).
/// - Cart page (seed 003): the back chevron (a `Button` around `Image(systemName:)`), "Check out",
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
    public enum Role: String, Sendable { case button, stepper, image }
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

extension ShopModel {
    /// The shop's elements in the frame showing `state`, in reading order: the cart icon, the
    /// product image, the add button.
    public func accessibilityElements(in state: ShopFrameState) -> [AccessibilityElement] {
        [
            AccessibilityElement(role: .image, name: "cart", frame: layout.cartIconFrame, label: state.accessibility.cart.label),
            AccessibilityElement(role: .image, name: "product image", frame: layout.imageContainerFrame, label: state.accessibility.productImage.label),
            // A `Label`'s title is the button's label, read whole even when it is truncated or has
            // no room to show (a 100 pt screen at accessibility5): the scene's `buttonTitle`.
            AccessibilityElement(role: .button, name: "add button", frame: layout.buttonFrame, label: state.accessibility.addButton.label),
        ]
    }
}

extension CartModel {
    /// The cart page's elements in the frame showing `state`, in reading order: the back button,
    /// each row on screen (image, minus, plus, and trash while open), the checkout button.
    public func accessibilityElements(in state: CartFrameState) -> [AccessibilityElement] {
        var elements = [AccessibilityElement(role: .button, name: "back button", frame: layout.chevronFrame, label: nil)]
        let list = layout.listFrame
        for row in state.rows where row.phase != .delete {
            guard let item = layout.items.firstIndex(where: { $0.id == row.id }) else { continue }
            let m = layout.rows[item]
            guard row.y < list.maxY, row.y + m.height > list.minY else { continue }
            func onScreen(_ r: Rect, dx: Double) -> Rect { Rect(x: r.x + dx, y: r.y + row.y, width: r.width, height: r.height) }
            let stepper = layout.stepperFrames(quantity: row.quantity, metrics: m)
            elements.append(AccessibilityElement(role: .image, name: "image (\(row.id))", frame: onScreen(m.imageFrame, dx: row.offset), label: nil))
            elements.append(AccessibilityElement(role: .stepper, name: "minus (\(row.id))", frame: onScreen(stepper.minus, dx: row.offset), label: nil))
            elements.append(AccessibilityElement(role: .stepper, name: "plus (\(row.id))", frame: onScreen(stepper.plus, dx: row.offset), label: nil))
            if row.offset != 0 {
                elements.append(AccessibilityElement(role: .button, name: "trash (\(row.id))", frame: onScreen(m.trashFrame, dx: 0), label: nil))
            }
        }
        elements.append(AccessibilityElement(role: .button, name: "checkout button", frame: layout.checkoutFrame, label: nil))
        return elements
    }
}
