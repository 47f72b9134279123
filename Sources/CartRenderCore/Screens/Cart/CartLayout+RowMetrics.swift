import Foundation

extension CartLayout {
    /// Where the parts of one row sit, in row coordinates (pt; the row's top-left is (0, 0)).
    public struct RowMetrics: Equatable, Sendable {
        /// Row height: content plus 2 × 16 pt padding.
        public var height: Double
        /// The product image's square (130 pt at large, seed 003), row coordinates (pt).
        public var imageFrame: Rect
        /// The name's text box (row coordinates, pt).
        public var nameFrame: Rect
        /// The details' text box (row coordinates, pt).
        public var detailsFrame: Rect
        /// The `HStack` of price, minus, quantity and plus (full text-column width); the minus,
        /// quantity and plus buttons are vertically centered in it.
        public var controlsFrame: Rect
        /// The price's text box, vertically centered in the controls: its width is the price's
        /// share of the controls (`HStackSizing`), in which it wraps when it is narrower than
        /// the price; zero wide when not even its widest character fits.
        public var priceFrame: Rect
        /// The widest the quantity box may be (pt): its share of the controls at the row's
        /// widest quantity; a quantity wider than that wraps inside the box, which grows taller.
        public var quantityWidth: Double
        /// The trash button (90×50 pt at the trailing edge, vertically centered).
        public var trashFrame: Rect
    }
}

extension CartLayout.RowMetrics {
    /// One item's row: `HStack(spacing: 15) { image; VStack(alignment: .leading, spacing: 10)
    /// { name; details; controls } }.padding()`, with the trash button at the trailing edge.
    init(_ k: CartLayout.Kit, item: CartItem, currencyCode: String, mostQuantity: Int, digits: Formatting.LocaleDigits, quantityLineHeight quantityLine: Double) {
        let d = k.device, pad = CartLook.padding, measurer = k.measurer
        let textX = pad + CartLook.imageSide + CartLook.rowSpacing
        let textWidth = max(0, d.width - pad - textX)
        let name = k.wrapped(item.name, k.font(CartLook.nameFont), width: textWidth, maxLines: nil)
        let details = k.wrapped(item.details, k.font(CartLook.detailsFont), width: textWidth, maxLines: nil)
        // HStack(spacing: 15) { price; Spacer(minLength: 0); minus; quantity; plus }, shared as
        // SwiftUI does (`HStackSizing`), the quantity at the row's widest: the symbols keep their
        // size, the quantity box (its text padded) takes its width when it fits in half of
        // what is left, else at least its widest digit, and the price takes the rest, wrapping
        // in it. Where the minimums overflow the column (the stack overflows its proposal, as
        // SwiftUI's does), the price keeps its widest character by reaching into the row's
        // spacing beside the image, at most that far; with less room still it is not drawn.
        let side = CartLook.stepperSymbolSide
        let priceText = Formatting.currency(item.price, code: currencyCode, locale: k.locale)
        let priceFont = k.font(CartLook.priceFont), quantityFont = k.font(CartLook.quantityFont)
        let widest = digits.format(mostQuantity)
        let quantityChild = HStackSizing.Child.flexible(
            minimum: (measurer.minimumWidth(widest, font: quantityFont) + 2 * CartLook.quantityPaddingH).rounded(.up),
            ideal: CartLayout.quantityBoxWidth(mostQuantity, digits: digits, font: quantityFont, measurer: measurer))
        let shares = HStackSizing.widths([.text(priceText, font: priceFont, measurer: measurer), .spacer(minLength: 0), .fixed(side),
                                          quantityChild, .fixed(side)],
                                         spacing: CartLook.controlSpacing, proposal: textWidth, measurer: measurer)
        let column = max(0, textWidth - 4 * CartLook.controlSpacing - 2 * side - shares[3])
        let priceRoom = min(shares[0], column + CartLook.rowSpacing)
        // On whole pixels, so that right to left the mirrored box's edges stay on the grid.
        let priceWidth = (priceRoom * d.scale - 1e-9).rounded(.up) / d.scale
        let priceOverflow = shares[0] > column + 1e-9 ? max(0, ((priceWidth - column) * d.scale - 1e-9).rounded(.up) / d.scale) : 0
        // Not drawn past the screen's edge either (a screen narrower than the image and the stepper).
        let priceOnScreen = textX - priceOverflow >= 0 && textX - priceOverflow + priceWidth <= d.width + 1e-9
        let price = priceOnScreen ? k.wrapped(priceText, priceFont, width: priceWidth, maxLines: nil) : Size(width: 0, height: 0)
        let quantityBox = CartLayout.quantityBox(widest, share: shares[3], font: quantityFont, lineHeight: quantityLine, measurer: measurer)
        let controlsHeight = max(price.height, max(CartLook.stepperSymbolSide, quantityBox.height))
        let stack = name.height + CartLook.textSpacing + details.height + CartLook.textSpacing + controlsHeight
        let content = max(CartLook.imageSide, stack)
        let height = content + 2 * pad
        let stackTop = pad + k.half(content - stack)
        let controls = Rect(x: textX, y: stackTop + name.height + details.height + 2 * CartLook.textSpacing, width: textWidth, height: controlsHeight)
        let priceY = controls.minY + k.half(controls.height - price.height)
        let trash = CartLook.trashSize
        self.init(
            height: height,
            imageFrame: k.place(Rect(x: pad, y: pad + k.half(content - CartLook.imageSide), width: CartLook.imageSide, height: CartLook.imageSide)),
            nameFrame: k.place(Rect(x: textX, y: stackTop, width: textWidth, height: name.height)),
            detailsFrame: k.place(Rect(x: textX, y: stackTop + name.height + CartLook.textSpacing, width: textWidth, height: details.height)),
            controlsFrame: k.place(controls),
            priceFrame: k.place(Rect(x: textX - (price.height > 0 ? priceOverflow : 0), y: priceY, width: price.height > 0 ? priceWidth : 0,
                                     height: price.height)),
            quantityWidth: shares[3],
            trashFrame: k.place(Rect(x: d.width - trash.width, y: k.half(height - trash.height), width: trash.width, height: trash.height)))
    }
}
