// The cart page's accessibility elements, which `cartrender audit` checks (`AccessibilityElement`).

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
