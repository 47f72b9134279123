import Foundation

extension ShopLayout {
    /// The header: `HStack { title; Spacer; cart }.padding(.horizontal, 24).padding(.top, 8)`
    /// (seed 000). A long title wraps in the space the cart leaves (HStack spacing 8 pt), as Text
    /// does, to the lines that fit (`titleMaxLines`); none when the cart leaves it no room for its
    /// widest character.
    struct Header {
        /// See `ShopLayout.titleFrame`, `titleMaxLines`, `cartIconFrame`, `cartSymbolFrame`.
        let titleFrame: Rect
        let titleMaxLines: Int
        let cartIconFrame: Rect
        let cartSymbolFrame: Rect
        /// The cart icon's size (pt), its padding included.
        let cartSize: Size
        /// Bottom of the header (pt).
        let bottom: Double

        init(_ k: Kit, title text: String) {
            let d = k.device, pad = ShopLook.padding, measurer = k.measurer
            let symbol = ShopLayout.symbolSize(k.font(ShopLook.cartSymbolFont), of: ShopLayout.cartSymbol)
            cartSize = Size(width: symbol.width + 2 * ShopLook.cartIconPadding, height: symbol.height + 2 * ShopLook.cartIconPadding)
            let headerTop = d.safeAreaTop + ShopLook.headerTopPadding
            let titleWidth = max(0, k.contentWidth - cartSize.width - ShopLook.headerSpacing)
            let titleLine = measurer.measure("0", font: k.font(ShopLook.titleFont), maxWidth: nil).height
            titleMaxLines = max(1, Int((((d.height - d.safeAreaTop - d.safeAreaBottom) / 2 - ShopLook.headerTopPadding) / max(1, titleLine)).rounded(.down)))
            let title = titleWidth >= measurer.minimumWidth(text, font: k.font(ShopLook.titleFont)) - 1e-9
                ? measurer.measure(text, font: k.font(ShopLook.titleFont), maxWidth: titleWidth, maxLines: titleMaxLines)
                : Size(width: 0, height: 0)
            let headerHeight = max(title.height, cartSize.height)
            titleFrame = k.place(Rect(x: pad, y: headerTop + (headerHeight - title.height) / 2, width: titleWidth, height: title.height))
            cartIconFrame = k.place(Rect(x: d.width - pad - cartSize.width, y: headerTop + (headerHeight - cartSize.height) / 2,
                                         width: cartSize.width, height: cartSize.height))
            cartSymbolFrame = cartIconFrame.insetBy(ShopLook.cartIconPadding)
            bottom = headerTop + headerHeight
        }
    }
}
