/// How SwiftUI's `HStack` shares its width among its children, for the rows of the screens
/// whose texts may not all fit (the cart row's price and stepper, "Total" and the total, the
/// add button's `Label`).
///
/// The algorithm (Apple, "HStack" and `layoutPriority(_:)`; described step by step in *The SwiftUI
/// Field Guide*, "HStack"; steps 2 and 3 are `StackSharing`'s, which `VStackSizing` shares):
/// 1. The spacing between adjacent children is taken off the proposed width first.
/// 2. The children are ordered by flexibility — the difference between the widest and the
///    narrowest width a child can take (proposed ∞ and 0) — least flexible first, in their
///    order among equals. Fixed-size children (symbols, framed boxes) have flexibility 0 and so
///    come first.
/// 3. Each child in that order is offered the remaining width divided by the number of children
///    not yet sized, takes what it can of the offer (its minimum when offered less, its ideal
///    when offered more; a text offered less than its ideal wraps in the offer and takes its
///    widest line), and the remaining width shrinks by what it took.
///
/// So two texts that both fit take their ideal widths; of a long and a short text the short
/// keeps its width and the long one gets the rest, wrapping in it; two long texts split the
/// width equally; a fixed-size child keeps its width whatever the offer (and may overflow the
/// stack), and so does a text offered less than its widest character: a `Text` without a
/// `lineLimit` never truncates for lack of width, it wraps, between words and, when a word does
/// not fit on a line of its own, between characters. A one-character quantity is therefore as
/// inflexible as a symbol and always shows.
///
/// A `Spacer` is left out of the division: it takes its minimum length off the width first and,
/// at the end, whatever the other children left (never less than its minimum). This is what rows
/// such as `HStack { Text(title).lineLimit(1); Spacer(); Text(date) }` do on iOS: the title is
/// truncated only when the two texts do not fit together, not at a third of the row. Layout
/// priorities are not modelled (the seeds set none): every child has priority 0.
public enum HStackSizing {
    /// One child of the stack, by the widths it can take (pt).
    public enum Child: Equatable, Sendable {
        /// A child of one width whatever it is offered: a symbol, a box with a fixed frame.
        case fixed(Double)
        /// A child that takes its offer clamped to `minimum`…`ideal`: a view whose width
        /// follows the offer, such as the quantity box (a padded `Text`, sized by its screen).
        case flexible(minimum: Double, ideal: Double)
        /// A `Spacer(minLength:)`.
        case spacer(minLength: Double)
        /// A `Text` without a line limit, from `minimum` (its widest character) to `ideal` (its
        /// one-line width): offered less than its ideal it wraps in the offer and takes the
        /// width of its widest line, which may be less than the offer (or, broken between
        /// characters, a fraction of a glyph more) (`widths(_:spacing:proposal:measurer:)`).
        case wrapping(String, font: FontSpec, minimum: Double, ideal: Double)

        /// A `Text` without a line limit: it takes any width from its narrowest
        /// (`TextMeasuring.minimumWidth`: proposed a width of 0 it breaks between every
        /// character, so its widest character) to its one-line width, wrapping in between.
        public static func text(_ string: String, font: FontSpec, measurer: any TextMeasuring) -> Child {
            .wrapping(string, font: font, minimum: measurer.minimumWidth(string, font: font), ideal: measurer.measure(string, font: font, maxWidth: nil).width)
        }

        /// The narrowest and the widest width the child takes (pt).
        var range: (min: Double, max: Double) {
            switch self {
            case .fixed(let w): return (w, w)
            case .flexible(let lo, let hi), .wrapping(_, _, let lo, let hi): return (lo, max(lo, hi))
            case .spacer(let m): return (m, .infinity)
            }
        }
    }

    /// The width (pt) each child takes, in `children` order, when the stack is proposed
    /// `proposal` pt with `spacing` pt between adjacent children. `measurer` wraps the
    /// `.wrapping` texts offered less than their ideal width: each takes its widest line (at
    /// least its minimum); without it they take the offer.
    ///
    /// Example: `widths([.flexible(minimum: 10, ideal: 300), .flexible(minimum: 10, ideal: 40)],
    /// spacing: 10, proposal: 210)` is `[160, 40]`: the short text is offered 100, takes 40; the
    /// long one is offered the 160 left. When the children's minimums do not fit, the widths
    /// add up to more than the proposal: the stack overflows, as SwiftUI's does.
    /// - Complexity: O(n log n) in the number of children.
    public static func widths(_ children: [Child], spacing: Double, proposal: Double, measurer: (any TextMeasuring)? = nil) -> [Double] {
        guard !children.isEmpty else { return [] }
        var remaining = proposal - spacing * Double(children.count - 1)
        var spacers: [Int] = []
        var flexibilities: [Double?] = []
        for (i, c) in children.enumerated() {
            if case .spacer(let m) = c {
                spacers.append(i)
                remaining -= m
                flexibilities.append(nil)
            } else {
                flexibilities.append(c.range.max - c.range.min)
            }
        }
        var (widths, unshared) = StackSharing.share(flexibilities, length: remaining) { i, offer in
            let r = children[i].range
            var w = min(max(offer, r.min), r.max)
            if case .wrapping(let text, let font, _, _) = children[i], w < r.max, let measurer {
                // Its widest line, not clamped to the offer: a text broken between characters
                // may have a line a fraction of a glyph wider than the width it was broken at
                // (Pango finds the break from the unbroken text's glyphs, then shapes the line
                // anew), and a box of the offer would cut that fraction off.
                w = max(r.min, measurer.measure(text, font: font, maxWidth: w).width)
            }
            return w
        }
        // The spacers share what is left equally, each at least its minimum.
        let left = max(0, unshared)
        for i in spacers { widths[i] = children[i].range.min + left / Double(spacers.count) }
        return widths
    }
}

extension TextRun {
    /// `text` wrapped in a box `width` pt wide at `origin` (SwiftUI's `Text` without a
    /// `lineLimit`: between words, and between characters inside a word too long for a line),
    /// to at most `maxLines` lines, the last ending in "…" when the text needs more (nil: any
    /// number; a limit is only the lines that fit a height, as SwiftUI truncates a `Text`
    /// proposed too little height). `TextMeasuring.measure` with the same width and limit
    /// reports the size drawn. nil when the box is narrower than the text's widest character
    /// (`TextMeasuring.minimumWidth`), so that nothing is drawn past the box.
    static func wrapped(_ text: String, font: FontSpec, color: Color, origin: Point, width: Double, maxLines: Int? = nil,
                        alignment: Alignment = .leading, direction: LayoutDirection, measurer: any TextMeasuring) -> TextRun? {
        guard width >= measurer.minimumWidth(text, font: font) - 1e-9 else { return nil }
        return TextRun(text, font: font, color: color, origin: origin, maxWidth: width, alignment: alignment, maxLines: maxLines, direction: direction)
    }
}
