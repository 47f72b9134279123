import CartRenderCore
import Foundation

extension Renderer {
    /// The text alternative of a render: its length and the accessibility labels of its first
    /// frame's elements in reading order (the scene's `imageLabel`, the button's title, "Cart"),
    /// each once: `Animation, 3.3 s: Cart, Trail backpack, Add to Cart`. A screen whose
    /// elements carry no label is named instead (`Animation, 3.9 s, of the cart screen`).
    /// `worker` (one of this renderer's) lays out the first frame.
    package func textAlternative(worker: FrameWorker) -> String {
        let state = worker.frame(at: 0).state
        var labels: [String] = []
        for label in AccessibilityElement.elements(model: worker.model, state: state).compactMap(\.label)
        where !label.trimmingCharacters(in: .whitespaces).isEmpty && !labels.contains(label) {
            labels.append(label)
        }
        let length = "Animation, " + String(format: "%.1f s", duration)
        return labels.isEmpty ? "\(length), of the \(type(of: scene.content).name) screen" : "\(length): \(labels.joined(separator: ", "))"
    }
}
