import CartRenderCore

extension AccessibilityElement {
    /// The elements of one frame of `model`'s screen in `state`, in reading order, as the
    /// screen's model lays them out (``ScreenModel/accessibilityElements(in:)``, which the
    /// system chrome's wrapper passes through). None for a state of another screen: the tests
    /// audit display lists of their own with a state that belongs to no screen.
    static func elements(model: any ScreenModel, state: any FrameState) -> [AccessibilityElement] {
        model.accessibilityElements(of: state) ?? []
    }
}
