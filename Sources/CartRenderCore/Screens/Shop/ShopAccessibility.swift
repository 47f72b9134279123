// The shop screen's accessibility elements, which `cartrender audit` checks (`AccessibilityElement`).

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
