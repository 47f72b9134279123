import Foundation

extension CartLayout {
    /// The bottom area, from the bottom of the safe area up: the "Check out" button, then the
    /// total line (padded 16 pt on top). The button's title wraps within it, and the button grows
    /// taller, at large text sizes, to the lines that fit below a header of one line and a total
    /// line of one line (the list may have no height left).
    struct BottomArea {
        /// See `CartLayout.checkoutMaxLines`, `checkoutFrame`, `checkoutTitleFrame`.
        let checkoutMaxLines: Int
        let checkoutFrame: Rect
        let checkoutTitleFrame: Rect
        /// See `CartLayout.totalLineHeight`, `totalLabelFrame`.
        let totalLineHeight: Double
        let totalLabelFrame: Rect
        /// Top of the total line (pt) when "Total" and the total each take one line.
        let totalLineTop: Double
        /// Top of the area (pt): the total line's top padding.
        let top: Double

        init(_ k: Kit, cart: CartContent, labels: CartLabels) {
            let d = k.device, pad = CartLook.padding, measurer = k.measurer
            let bottom = d.height - d.safeAreaBottom
            let checkoutWidth = max(0, d.width - CartLook.checkoutInset)
            let checkoutLine = k.lineHeight(CartLook.checkoutFont)
            let titleLine = k.lineHeight(CartLook.titleFont)
            let oneLineTotal = k.lineHeight(CartLook.totalFont)
            let oneLineHeader = d.safeAreaTop + pad + max(CartLook.chevronSize.height, titleLine) + pad
            let checkoutRoom = bottom - 2 * pad - CartLook.stackSpacing - oneLineTotal - pad - 2 * CartLook.stackSpacing - oneLineHeader
            checkoutMaxLines = max(1, Int((checkoutRoom / max(1, checkoutLine)).rounded(.down)))
            let checkoutTitle = k.up(measurer.measure(labels.checkout, font: k.font(CartLook.checkoutFont), maxWidth: max(1, checkoutWidth),
                                                      maxLines: checkoutMaxLines))
            let checkoutHeight = checkoutTitle.height + 2 * pad
            checkoutFrame = Rect(x: k.half(d.width - checkoutWidth), y: bottom - checkoutHeight, width: checkoutWidth, height: checkoutHeight)
            // One line: the button's width, the title centered in it. Wrapped: the lines' own box,
            // centered in the button (the seed's `.frame(width:)`), the lines leading-aligned in it
            // (a multiline `Text`'s default `multilineTextAlignment`).
            let checkoutWraps = measurer.measure(labels.checkout, font: k.font(CartLook.checkoutFont), maxWidth: nil).width > checkoutWidth
            let checkoutTitleWidth = checkoutWraps ? min(checkoutWidth, checkoutTitle.width) : checkoutWidth
            checkoutTitleFrame = Rect(x: checkoutFrame.x + (checkoutWidth - checkoutTitleWidth) / 2, y: checkoutFrame.minY + pad,
                                      width: checkoutTitleWidth, height: checkoutTitle.height)
            let totalLabel = k.up(measurer.measure(labels.total, font: k.font(CartLook.totalFont), maxWidth: nil))
            totalLineHeight = max(totalLabel.height, k.lineHeight(CartLook.totalFont))
            let totalY = checkoutFrame.minY - CartLook.stackSpacing - totalLineHeight
            totalLineTop = totalY
            let startTotal = Formatting.currency(cart.items.reduce(Decimal(0)) { $0 + $1.price * Decimal($1.quantity) }, code: cart.currencyCode, locale: k.locale)
            let labelShare = CartLayout.totalShares(label: labels.total, total: startTotal, font: k.font(CartLook.totalFont), width: d.width, measurer: measurer).label
            totalLabelFrame = k.place(Rect(x: pad, y: totalY + k.half(totalLineHeight - totalLabel.height), width: min(totalLabel.width, labelShare),
                                           height: totalLabel.height))
            top = totalY - pad
        }
    }
}
