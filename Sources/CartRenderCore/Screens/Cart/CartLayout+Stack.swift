import Foundation

extension CartLayout {
    /// The page's root `VStack { header; ScrollView; bottom area }` sharing the safe area's
    /// height as SwiftUI's stack does (`VStackSizing`), and the bottom area's own
    /// `VStack { total line; "Check out" }` sharing what it gets: the lines each text may show.
    ///
    /// The header (its title's lines padded 16 pt + 16 pt, at least the chevron) and the bottom
    /// area (the total line's 16 pt top padding and lines, 8 pt, "Check out"'s lines padded
    /// 16 pt + 16 pt) are sized least flexible first, each offered its share of what is left;
    /// the scroll view, which takes any height, gets the rest. A text offered fewer lines than
    /// it needs shows those that fit, the last ending in "…" — at least one line, even when
    /// the list is left no height.
    struct StackShares {
        /// The most lines the title, the total line and "Check out" may show.
        let titleMaxLines: Int
        let totalMaxLines: Int
        let checkoutMaxLines: Int
        /// "Total"'s share (pt) of the total line beside the cart's starting total
        /// (`CartLayout.totalShares`), which the bottom area places it in.
        let totalLabelShare: Double

        init(_ k: Kit, title: String, cart: CartContent, labels: CartLabels) {
            let d = k.device, pad = CartLook.padding, m = k.measurer, spacing = CartLook.stackSpacing
            func lines(_ text: String, _ f: FontSpec, line: Double, width: Double) -> Int {
                max(1, Int((m.measure(text, font: f, maxWidth: max(1, width)).height / max(1e-9, line)).rounded()))
            }
            // Header: HStack { chevron; title; Spacer }.padding().
            let titleFont = k.font(CartLook.titleFont), titleLine = k.line(titleFont)
            let titleLines = lines(title, titleFont, line: titleLine, width: k.titleWidth)
            let header = VStackSizing.Child.lines(titleLines, of: titleLine, plus: 2 * pad, atLeast: CartLook.chevronSize.height + 2 * pad)
            // Bottom area: the total line (its texts in their shares of the line), "Check out".
            let totalFont = k.font(CartLook.totalFont), totalLine = k.line(totalFont)
            let startTotal = Formatting.currency(cart.items.reduce(Decimal(0)) { $0 + $1.price * Decimal($1.quantity) }, code: cart.currencyCode, locale: k.locale)
            let shares = CartLayout.totalShares(label: labels.total, total: startTotal, font: totalFont, width: d.width, measurer: m)
            totalLabelShare = shares.label
            let valueLines = m.measure(startTotal, font: totalFont, maxWidth: nil).width <= shares.value
                ? 1 : lines(startTotal, totalFont, line: totalLine, width: shares.value)
            let totalChild = VStackSizing.Child.lines(max(valueLines, lines(labels.total, totalFont, line: totalLine, width: shares.label)), of: totalLine, plus: pad)
            let checkoutFont = k.font(CartLook.checkoutFont), checkoutLine = k.line(checkoutFont)
            let checkoutChild = VStackSizing.Child.lines(lines(labels.checkout, checkoutFont, line: checkoutLine, width: d.width - CartLook.checkoutInset),
                                                         of: checkoutLine, plus: 2 * pad)
            func inner(_ offer: Double) -> [Double] { VStackSizing.heights([totalChild, checkoutChild], spacing: spacing, proposal: offer) }
            let bottom = VStackSizing.Child(minimum: totalChild.minimum + spacing + checkoutChild.minimum,
                                            ideal: totalChild.ideal + spacing + checkoutChild.ideal) { inner($0).reduce(spacing, +) }
            let root = VStackSizing.heights([header, .scrollView, bottom], spacing: spacing, proposal: d.height - d.safeAreaBottom - d.safeAreaTop)
            titleMaxLines = min(titleLines, VStackSizing.fittingLines(root[0] - 2 * pad, line: titleLine))
            let shared = inner(root[2])
            totalMaxLines = VStackSizing.fittingLines(shared[0] - pad, line: totalLine)
            checkoutMaxLines = VStackSizing.fittingLines(shared[1] - 2 * pad, line: checkoutLine)
        }
    }
}
