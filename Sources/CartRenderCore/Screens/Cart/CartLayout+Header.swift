import Foundation

extension CartLayout {
    /// The header: `HStack(spacing: 20) { chevron; title; Spacer }.padding()` below the safe
    /// area's top. The title wraps; when it would leave the list no room at all it is cut to the
    /// lines that fit, the last ending in "…" (SwiftUI truncates a Text proposed too little height).
    struct Header {
        /// See `CartLayout.chevronFrame`, `titleFrame`, `titleMaxLines`.
        let chevronFrame: Rect
        let titleFrame: Rect
        let titleMaxLines: Int
        /// Bottom of the header (pt), its padding included.
        let bottom: Double

        /// The header of a page whose bottom area starts at `above` (pt).
        init(_ k: Kit, title text: String, above bottomAreaTop: Double) {
            let d = k.device, pad = CartLook.padding
            let chevron = CartLook.chevronSize
            let titleX = pad + chevron.width + CartLook.headerSpacing
            let titleWidth = max(1, d.width - pad - titleX)
            let headerTop = d.safeAreaTop + pad
            let room = bottomAreaTop - 2 * CartLook.stackSpacing - pad - headerTop
            titleMaxLines = max(1, Int((room / max(1, k.lineHeight(CartLook.titleFont))).rounded(.down)))
            let title = k.wrapped(text, k.font(CartLook.titleFont), width: titleWidth, maxLines: titleMaxLines)
            let content = max(chevron.height, title.height)
            chevronFrame = k.place(Rect(x: pad, y: headerTop + k.half(content - chevron.height), width: chevron.width, height: chevron.height))
            titleFrame = k.place(Rect(x: titleX, y: headerTop + k.half(content - title.height), width: titleWidth, height: title.height))
            bottom = headerTop + content + pad
        }
    }
}
