import Foundation

extension CartLayout {
    /// The bottom area, from the bottom of the safe area up: the "Check out" button, then the
    /// total line (padded 16 pt on top). The button's title wraps within it, and the button grows
    /// taller, at large text sizes, to the lines its share of the bottom area holds
    /// (`StackShares`: SwiftUI's `VStack` sharing), the last ending in "…".
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

        /// The area with "Total" in its share of the total line, `totalLabelShare` pt, and
        /// "Check out" on at most `maxLines` lines (`StackShares`).
        init(_ k: Kit, labels: CartLabels, totalLabelShare labelShare: Double, checkoutMaxLines maxLines: Int) {
            let d = k.device, pad = CartLook.padding, measurer = k.measurer
            let bottom = d.height - d.safeAreaBottom
            let checkoutWidth = max(0, d.width - CartLook.checkoutInset)
            checkoutMaxLines = max(1, maxLines)
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
            totalLabelFrame = k.place(Rect(x: pad, y: totalY + k.half(totalLineHeight - totalLabel.height), width: min(totalLabel.width, labelShare),
                                           height: totalLabel.height))
            top = totalY - pad
        }
    }
}
