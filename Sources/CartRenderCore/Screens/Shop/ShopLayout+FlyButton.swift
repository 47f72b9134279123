import Foundation

extension ShopLayout {
    /// The fly button: `VStack(spacing: 20) { image container (260 tall); button }` (seed 000).
    /// The button's label is `HStack(spacing: 7) { icon; title }` in the button's padding, shared
    /// as SwiftUI does (`HStackSizing`): the icon keeps its size, the title gets the rest and
    /// wraps in it, to as many lines as it needs (the button is in the scroll view); the button
    /// grows taller. The title's box is its lines' measured width, as a `Text`'s frame is its
    /// measured size, even a fraction of a point wider than the width they broke in. The label
    /// is centered in the button. Where the icon leaves the title less than its widest
    /// character, the title is not drawn.
    struct FlyButton {
        /// See `ShopLayout.imageContainerFrame`, `buttonFrame`, `buttonIconFrame`, `buttonTitleFrame`.
        let imageContainerFrame: Rect
        let buttonFrame: Rect
        let buttonIconFrame: Rect
        let buttonTitleFrame: Rect
        /// See `ShopLayout.buttonTitlePlacement`.
        let buttonTitlePlacement: ShopLayout.ButtonTitlePlacement?

        /// The fly button with its top at `top` (pt).
        init(_ k: Kit, title text: String, top: Double) {
            let pad = ShopLook.padding, measurer = k.measurer, contentWidth = k.contentWidth
            var y = top
            imageContainerFrame = k.px(Rect(x: pad, y: y, width: contentWidth, height: ShopLook.imageContainerHeight))
            y += ShopLook.imageContainerHeight + ShopLook.flyButtonSpacing
            let icon = ShopLayout.symbolSize(k.font(ShopLook.buttonFont), of: ShopLayout.buttonSymbol)
            let labelRoom = contentWidth - 2 * Look.buttonPaddingH
            // The title's lines are broken in its share, never in more than the icon leaves it
            // (HStackSizing's share of a wrapped text is its widest line, which may be wider);
            // its box is then the lines' measured size, as a `Text`'s frame is: a line Pango
            // shapes again after choosing its break, or one it ends with a space, may be a
            // fraction of a point wider than the width it was broken in, and a box clamped to
            // that width would leave the fraction outside.
            let titleShare = min(HStackSizing.widths([.fixed(icon.width), .text(text, font: k.font(ShopLook.buttonFont), measurer: measurer)],
                                                     spacing: Look.labelSpacing, proposal: labelRoom, measurer: measurer)[1],
                                 max(0, labelRoom - icon.width - Look.labelSpacing))
            let titleFits = titleShare > 0 && titleShare >= measurer.minimumWidth(text, font: k.font(ShopLook.buttonFont)) - 1e-9
            let labelTitle = titleFits
                ? measurer.measure(text, font: k.font(ShopLook.buttonFont), maxWidth: titleShare)
                : Size(width: 0, height: 0)
            // The icon is centered on the title's first line, as a Label aligns it: relative to the
            // title's top, the icon's top is half a line minus half the icon (above the title when
            // the icon is the taller). The pair is centered in the button.
            let firstLine = titleFits ? measurer.measure(text, font: k.font(ShopLook.buttonFont), maxWidth: nil).height : 0
            let iconTop = firstLine / 2 - icon.height / 2
            let groupTop = min(0, iconTop), groupBottom = max(labelTitle.height, iconTop + icon.height)
            let labelHeight = max(ShopLook.buttonMinLabelHeight, groupBottom - groupTop)
            buttonFrame = k.px(Rect(x: pad, y: y, width: contentWidth, height: labelHeight + 2 * Look.buttonPaddingV))
            let shownTitle = labelTitle.width
            let labelWidth = icon.width + (shownTitle > 0 ? Look.labelSpacing + shownTitle : 0)
            let labelX = buttonFrame.midX - labelWidth / 2
            let titleTop = buttonFrame.midY - (groupBottom - groupTop) / 2 - groupTop
            buttonIconFrame = k.place(Rect(x: labelX, y: titleTop + iconTop, width: icon.width, height: icon.height))
            buttonTitleFrame = k.place(Rect(x: labelX + icon.width + Look.labelSpacing, y: titleTop,
                                            width: shownTitle, height: labelTitle.height))
            // The title wraps in the width it was measured in, never in its pixel-rounded box:
            // that box, placed so that the lines fall in `buttonTitleFrame`. Wrapped, its lines
            // are leading-aligned in it (a multiline `Text`'s default `multilineTextAlignment`);
            // one line is centered in it. (A title with no ink, such as an empty one, has a
            // widest character of 0 pt and is placed, in no width, even where it has no share.)
            let wrapWidth = titleFits ? titleShare : 0
            if wrapWidth >= measurer.minimumWidth(text, font: k.font(ShopLook.buttonFont)) - 1e-9 {
                let wraps = measurer.measure(text, font: k.font(ShopLook.buttonFont), maxWidth: nil).width > wrapWidth + 1e-9
                let x = wraps ? (k.direction.isRightToLeft ? buttonTitleFrame.maxX - wrapWidth : buttonTitleFrame.x) : buttonTitleFrame.midX - wrapWidth / 2
                buttonTitlePlacement = ShopLayout.ButtonTitlePlacement(origin: Point(x: x, y: buttonTitleFrame.y), wrapWidth: wrapWidth,
                                                                       alignment: wraps ? .leading : .center)
            } else {
                buttonTitlePlacement = nil
            }
        }
    }
}
