import Foundation

extension CartLayout {
    /// The header: `HStack(spacing: 20) { chevron; title; Spacer }.padding()` below the safe
    /// area's top. The title wraps, to at most the lines its share of the page's stack holds
    /// (`StackShares`), the last ending in "…" (SwiftUI truncates a Text proposed too little height).
    struct Header {
        /// See `CartLayout.chevronFrame`, `titleFrame`, `titleMaxLines`.
        let chevronFrame: Rect
        let titleFrame: Rect
        let titleMaxLines: Int
        /// Bottom of the header (pt), its padding included.
        let bottom: Double

        /// The header, its title on at most `maxLines` lines.
        init(_ k: Kit, title text: String, maxLines: Int) {
            let d = k.device, pad = CartLook.padding
            let chevron = CartLook.chevronSize
            let titleX = k.titleX, titleWidth = k.titleWidth
            let headerTop = d.safeAreaTop + pad
            titleMaxLines = max(1, maxLines)
            let title = k.wrapped(text, k.font(CartLook.titleFont), width: titleWidth, maxLines: titleMaxLines)
            let content = max(chevron.height, title.height)
            chevronFrame = k.place(Rect(x: pad, y: headerTop + k.half(content - chevron.height), width: chevron.width, height: chevron.height))
            titleFrame = k.place(Rect(x: titleX, y: headerTop + k.half(content - title.height), width: titleWidth, height: title.height))
            bottom = headerTop + content + pad
        }
    }
}
