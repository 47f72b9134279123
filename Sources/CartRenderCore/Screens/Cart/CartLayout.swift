import Foundation

/// Layout of the cart page of seed 003 (docs/motion-and-look.md, “The cart page”): a header with the back chevron and
/// the title, the scrolling list of rows, and the bottom area with the total and the "Check out"
/// button, on the asset color `gray`. Static frames are computed once per scene;
/// `displayList(for:)` then draws the rows of a `CartState`.
///
/// All frames are in screen points (pt). Structure, from the seed:
/// `VStack { HStack(spacing: 20) { chevron; title; Spacer }.padding(); ScrollView { LazyVStack(spacing: 0) { rows } };
/// VStack { HStack { "Total"; Spacer; total }.padding([.top, .horizontal]); checkout } }`, filling the
/// safe area, with SwiftUI's default spacing (`CartLook.stackSpacing`) between the three parts.
///
/// A row is a `ZStack`: the `lightblue → blue` gradient filling the row, the trash button
/// (90×50 pt) at its trailing edge, and the row content on `gray` — `HStack(spacing: 15)` of the
/// 130×130 pt image (corner radius 18, `.fill`) and `VStack(alignment: .leading, spacing: 10)` of
/// name, details and `HStack(spacing: 15)` of price, `Spacer`, minus, quantity, plus — padded 16 pt
/// and moved by the row's offset. List content taller than the scroll area is clipped to it.
///
/// Text wraps like SwiftUI's `Text`, which seed 003 gives no `lineLimit`, when it does not fit
/// its place: between words, and between characters inside a word (or an amount) too long for
/// a line. Names and details wrap within the text column to as many lines as they need, and the
/// row grows taller. The rows' `HStack { price; Spacer(minLength: 0); minus; quantity; plus }`
/// and the bottom area's `HStack { "Total"; Spacer(); total }` share their width as SwiftUI's
/// `HStack` does (`HStackSizing`): the symbols keep their size, then the least flexible text
/// (the quantity: one digit does not bend at all) takes its width, and the most flexible (the
/// price, the total) wraps in what is left; the controls and the total line grow taller. Only
/// height cuts a text, where SwiftUI truncates a `Text` proposed too little of it: the title,
/// "Total", the total and "Check out" to the lines that fit beside the list or on the screen,
/// the last ending in "…". A price left no room in its column by the stepper keeps its widest
/// character by reaching into the spacing beside the image (the `HStack` overflows, as
/// SwiftUI's does); a text whose box is narrower than its widest character even so, or would
/// cross the screen's edge (on a screen too narrow for the row), is not drawn. Nothing is
/// shrunk: every text keeps its font size.
///
/// Positions and sizes of boxes are rounded to whole points (text heights up), as SwiftUI rounds
/// layout to the pixel grid: rows, images and the quantity box then sit on pixel boundaries at
/// every integer scale; at a fractional scale (`--scale 2.5`) the placed frames are rounded to
/// its pixel grid as well (`Rect.roundedToPixels(scale:)`). Animated positions (a sliding or
/// swiped row) are not rounded: the raster layer draws their rectangles with hard edges
/// (`Shape.rect`), as Core Animation draws layer edges, so no backdrop shows at a row's edge.
///
/// Fonts scale with the scene's Dynamic Type size (`Scene.dynamicTypeSize`): the seed's Jost faces
/// as `Font.custom(_:size:)` does (relative to body), the price with its text style, the trash
/// symbol with `.title`; the chevron, the stepper symbols and the 130 pt images do not. Rows,
/// header and bottom area grow with their text.
///
/// Right to left (`Scene.layoutDirection`), every frame but the centered "Check out" button is
/// the mirror image of its left-to-right frame (`LayoutDirection.mirrored(_:in:)`, rows in
/// screen-wide row coordinates): the chevron (mirrored, pointing right) and the title from the
/// right, the image at a row's right, its stepper at the left (plus leftmost), the trash button
/// at the left, "Total" on the right and the total on the left; the gradients run from light blue
/// at the right (leading) edge; text is right-aligned. Row offsets are screen points, positive
/// when the content moves right (`CartTimeline`).
///
/// Deleted rows: a row being removed is drawn beneath the other rows at the top of its
/// collapsing slot, its whole `ZStack` (backdrop, trash button and content) faded by the removal
/// progress, while its content keeps its offset animation; the rows below it move up over it.
public struct CartLayout {
    /// The scene laid out (device, locale, Dynamic Type size, layout direction).
    public let scene: Scene
    /// The scene's `"cart"` section.
    public let cart: CartContent
    /// The cart's items, in list order (`cart.items`).
    public let items: [CartItem]
    /// "Total" and "Check out" in the scene's locale, or the scene's own texts.
    public let labels: CartLabels
    /// The back chevron's box.
    public let chevronFrame: Rect
    /// The title's text box; its width is the wrapping width.
    public let titleFrame: Rect
    /// The most lines the title may take: those that fit between the header's top and the
    /// bottom area.
    public let titleMaxLines: Int
    /// The scroll view: rows are laid out from its top and clipped to it. Shorter by the extra
    /// line of a "Total" that wraps in its share of the total line (see `totalLine(for:)`).
    public let listFrame: Rect
    /// Per item, in `items` order: where things sit inside a row whose top-left is (0, 0).
    public let rows: [RowMetrics]
    /// The "Total" line: the label's box on one line, at most its share of the line beside the
    /// cart's starting total; the value is right-aligned on the same line. Moves up when the
    /// label or the total wraps (see `totalLine(for:)`).
    public let totalLabelFrame: Rect
    /// Height of the total line (pt) when the total takes one line.
    public let totalLineHeight: Double
    /// The "Check out" button and its title's box.
    public let checkoutFrame: Rect
    /// The "Check out" title's text box (pt): the button's width when the title takes one line
    /// (centered in it), else its lines' width, centered in the button.
    public let checkoutTitleFrame: Rect
    /// The most lines the "Check out" title may take: those that fit the safe area below a
    /// one-line header and a one-line total line.
    public let checkoutMaxLines: Int

    private let measurer: any TextMeasuring
    /// Top of the total line (pt) when "Total" and the total each take one line.
    private let totalLineTop: Double
    /// The most lines "Total" and the total may show: those its share of the page's stack
    /// holds (`StackShares`).
    private let totalMaxLines: Int
    private let quantityLineHeight: Double
    /// The scene locale's digits, for the quantities (seed 003's `Text("\(item.quantity)")`).
    private let quantityDigits: Formatting.LocaleDigits

    /// The symbols the page draws besides product images: the back chevron, the trash button,
    /// minus and plus (seed 003).
    public static let symbols: [ImageSource] = ["chevron.left", "trash", "minus", "plus"].map { .symbol($0) }

    /// Lays out the static parts of the page.
    public init(scene: Scene, cart: CartContent, measurer: any TextMeasuring) {
        self.scene = scene
        self.cart = cart
        self.measurer = measurer
        items = cart.items
        let labels = cart.labels()
        self.labels = labels
        let k = Kit(scene: scene, cart: cart, measurer: measurer)
        let shares = StackShares(k, title: cart.title, cart: cart, labels: labels)
        totalMaxLines = shares.totalMaxLines
        let bottom = BottomArea(k, labels: labels, totalLabelShare: shares.totalLabelShare, checkoutMaxLines: shares.checkoutMaxLines)
        checkoutMaxLines = bottom.checkoutMaxLines
        checkoutFrame = bottom.checkoutFrame
        checkoutTitleFrame = bottom.checkoutTitleFrame
        totalLineHeight = bottom.totalLineHeight
        totalLineTop = bottom.totalLineTop
        totalLabelFrame = bottom.totalLabelFrame
        let header = Header(k, title: cart.title, maxLines: shares.titleMaxLines)
        chevronFrame = header.chevronFrame
        titleFrame = header.titleFrame
        titleMaxLines = header.titleMaxLines
        let listTop = header.bottom + CartLook.stackSpacing
        listFrame = Rect(x: 0, y: listTop, width: scene.device.width, height: max(0, bottom.top - CartLook.stackSpacing - listTop))
        let quantityLine = k.lineHeight(CartLook.quantityFont)
        quantityLineHeight = quantityLine
        let digits = Formatting.LocaleDigits(locale: scene.locale)
        quantityDigits = digits
        let most = Self.maximumQuantities(cart: cart, events: scene.events)
        rows = cart.items.enumerated().map { index, item in
            RowMetrics(k, item: item, currencyCode: cart.currencyCode, mostQuantity: most[index], digits: digits, quantityLineHeight: quantityLine)
        }
    }

    /// The motion of this page's events.
    public func timeline() -> CartTimeline { CartTimeline(scene: scene, cart: cart) }

    /// `amount` in the scene's currency and locale.
    public func currency(_ amount: Decimal) -> String {
        Formatting.currency(amount, code: cart.currencyCode, locale: scene.locale)
    }

    /// One row's place on screen.
    public struct Slot: Equatable, Sendable {
        /// The row's state at this moment (offset, quantity, phase).
        public var row: CartRowState
        /// Top of the row's slot (pt, screen coordinates; the list is not scrolled).
        public var y: Double
        /// Height of the slot (pt): the row's height, shrinking to 0 while it is removed.
        public var height: Double
        /// The row's full height (pt); a row being removed is drawn at this height.
        public var rowHeight: Double
    }

    /// The rows' slots, top to bottom: each starts where the slots above it end, so that rows
    /// below a deleted row move up as its slot collapses.
    public func slots(for state: CartState) -> [Slot] {
        var y = listFrame.minY
        return state.rows.map { r in
            let full = rows[r.item].height
            let h = full * (1 - min(max(r.removal, 0), 1))
            defer { y += h }
            return Slot(row: r, y: y, height: h, rowHeight: full)
        }
    }

    /// Everything the page shows in `state`, back to front.
    public func displayList(for state: CartState) -> DisplayList {
        let scheme = scene.colorScheme
        let text = CartLook.text.resolved(scheme)
        let size = Size(width: scene.device.width, height: scene.device.height)
        let direction = scene.layoutDirection
        var list: [DisplayItem] = []

        // Header.
        let chevron = ImageSource.symbol("chevron.left")
        list.append(.image(ImageDraw(source: chevron, frame: chevronFrame, contentMode: .fill, tint: text, mirrored: Symbols.isMirrored(chevron, in: direction),
                                      weight: CartLook.chevronWeight)))
        if titleFrame.height > 0 {  // else no room for its widest character (`TextRun.wrapped`)
            list.append(.text(TextRun(cart.title, font: font(CartLook.titleFont), color: text, origin: Point(x: titleFrame.x, y: titleFrame.y),
                                      maxWidth: titleFrame.width, maxLines: titleMaxLines, direction: direction)))
        }

        // Rows, clipped to the scroll view; rows being removed beneath the others.
        let totalLine = totalLine(for: state)
        let slots = slots(for: state).filter { $0.y < totalLine.list.maxY && $0.y + $0.rowHeight > totalLine.list.minY }
        let ordered = slots.filter { $0.row.phase == .delete } + slots.filter { $0.row.phase != .delete }
        if !ordered.isEmpty {
            list.append(.group(transform: .identity, opacity: 1, clip: .rect(totalLine.list), items: ordered.map { row($0, state: state) }))
        }

        // Bottom area.
        let secondary = CartLook.secondaryText.resolved(scheme)
        let totalFont = font(CartLook.totalFont)
        let labelWidth = measurer.measure(labels.total, font: totalFont, maxWidth: nil).width
        // Texts that fit their share are drawn at their place on one line, as they always were;
        // one that does not wraps in its box.
        if labelWidth <= totalLine.label.width {
            list.append(.text(TextRun(labels.total, font: totalFont, color: secondary, origin: Point(x: totalLabelFrame.x, y: totalLine.label.y),
                                      direction: direction)))
        } else if let label = TextRun.wrapped(labels.total, font: totalFont, color: secondary, origin: Point(x: totalLine.label.x, y: totalLine.label.y),
                                              width: totalLine.label.width, maxLines: totalLine.maxLines, direction: direction, measurer: measurer) {
            list.append(.text(label))
        }
        /// The total's text at its place in `line`: on one line when it fits its share, else
        /// wrapped in its box (its lines leading-aligned, as a multiline `Text`'s are).
        func totalValue(_ line: TotalLine) -> [DisplayItem] {
            let valueWidth = measurer.measure(line.text, font: totalFont, maxWidth: nil).width
            if valueWidth <= line.value.width {
                let x = direction.isRightToLeft ? line.value.x : line.value.maxX - valueWidth
                return [.text(TextRun(line.text, font: totalFont, color: text, origin: Point(x: x, y: line.value.y), direction: direction))]
            }
            return TextRun.wrapped(line.text, font: totalFont, color: text, origin: Point(x: line.value.x, y: line.value.y),
                                   width: line.value.width, maxLines: line.maxLines, direction: direction, measurer: measurer).map { [.text($0)] } ?? []
        }
        if let fade = totalTransition(in: state) {
            // A deletion changes the total inside its `withAnimation`: the Text's content
            // transition (`.opacity`, SwiftUI's default) fades the old amount out and the new in
            // with the deletion's curve and duration.
            var before = state
            before.total = fade.from
            list.append(.group(transform: .identity, opacity: 1 - fade.progress, clip: nil, items: totalValue(self.totalLine(for: before))))
            list.append(.group(transform: .identity, opacity: fade.progress, clip: nil, items: totalValue(totalLine)))
        } else {
            list += totalValue(totalLine)
        }
        var checkout: [DisplayItem] = [
            .fill(.continuousRoundedRect(checkoutFrame, radius: CartLook.checkoutCornerRadius), gradient(across: checkoutFrame)),
            .text(TextRun(labels.checkout, font: font(CartLook.checkoutFont), color: .white,
                          origin: Point(x: checkoutTitleFrame.x, y: checkoutTitleFrame.y), maxWidth: checkoutTitleFrame.width,
                          alignment: checkoutTitleFrame.width < checkoutFrame.width ? .leading : .center,
                          maxLines: checkoutMaxLines, direction: direction)),
        ]
        if state.isPressed(.checkout) {
            checkout = [.group(transform: .identity, opacity: Look.buttonPressedOpacity, clip: nil, items: checkout)]
        }
        list += checkout
        return DisplayList(size: size, background: CartLook.gray.resolved(scheme), items: list)
    }

    /// The total line in `state` (`totalLine(for:)`): the total as text, the boxes of the label
    /// and of the value, the most lines each may show, and the scroll view above them.
    public struct TotalLine: Equatable, Sendable {
        /// The total in the scene's currency and locale.
        public var text: String
        /// The label's box (pt): its share of the line, as tall as its lines.
        public var label: Rect
        /// The total's box (pt): its one-line width at the trailing end when it fits its share;
        /// else as wide as its wrapped lines, at the trailing end of the share.
        public var value: Rect
        /// The most lines the label and the total may show: those the bottom area's share of the
        /// page holds (SwiftUI truncates a `Text` proposed too little height).
        public var maxLines: Int
        /// The scroll view, shorter by what the line grew.
        public var list: Rect
    }

    /// The total line in `state`: `HStack { label; Spacer(); total }` (spacing 8 pt) across the
    /// width minus the padding, shared as SwiftUI does (`totalShares`).
    ///
    /// When both fit they keep their widths on one line (the static `totalLabelFrame` and
    /// `listFrame`). Else the less flexible keeps its width when it fits in half of the line,
    /// and the other wraps in the rest (between characters when the amount has no room on one
    /// line); a long label wraps too. The line is as tall as the taller of the two, which are
    /// centered on it (the stack's `.center` alignment); its extra lines grow the bottom area
    /// upwards and shrink the scroll view by as much.
    public func totalLine(for state: CartState) -> TotalLine {
        let text = currency(state.total)
        let pad = CartLook.padding
        let width = scene.device.width
        let f = font(CartLook.totalFont)
        let shares = Self.totalShares(label: labels.total, total: text, font: f, width: width, measurer: measurer)
        let oneLine = totalLabelFrame.height
        let maxLines = totalMaxLines
        let labelSize = measurer.measure(labels.total, font: f, maxWidth: max(1, shares.label), maxLines: maxLines)
        let labelHeight = max(oneLine, labelSize.height.rounded(.up))
        let natural = measurer.measure(text, font: f, maxWidth: nil)
        let value = natural.width <= shares.value ? natural : measurer.measure(text, font: f, maxWidth: max(1, shares.value), maxLines: maxLines)
        let lineHeight = max(totalLineHeight, labelHeight, value.height.rounded(.up))
        let rise = lineHeight - totalLineHeight
        let top = totalLineTop - rise
        let labelY = top + ((lineHeight - labelHeight) / 2).rounded(.down)
        let labelBox = scene.layoutDirection.isRightToLeft
            ? Rect(x: width - pad - shares.label, y: labelY, width: shares.label, height: labelHeight)
            : Rect(x: pad, y: labelY, width: shares.label, height: labelHeight)
        // One line: the share (the text right-aligned in it). Wrapped: the lines' width.
        let valueWidth = natural.width <= shares.value ? shares.value : min(shares.value, value.width)
        let valueX = scene.layoutDirection.isRightToLeft ? pad : width - pad - valueWidth
        let valueBox = Rect(x: valueX, y: top + (lineHeight - value.height) / 2, width: valueWidth, height: value.height)
        let list = Rect(x: listFrame.x, y: listFrame.y, width: listFrame.width, height: max(0, listFrame.height - rise))
        return TotalLine(text: text, label: labelBox, value: valueBox, maxLines: maxLines, list: list)
    }

    /// The total's content transition at `state`, while a deletion's animation runs: the amount
    /// before the latest deletion (its row's `price × quantity` added back to `state.total`) and
    /// the deletion's eased progress, 0…1 (seed 003: `deleteItem()` runs inside
    /// `withAnimation(.easeIn)` from the trash button, inside `withAnimation(.easeOut)` from a
    /// swipe past half the screen). Nil when no row is being removed.
    func totalTransition(in state: CartState) -> (from: Decimal, progress: Double)? {
        guard let latest = state.rows.filter({ $0.phase == .delete }).min(by: { $0.removal < $1.removal }) else { return nil }
        let item = cart.items[latest.item]
        return (state.total + item.price * Decimal(latest.quantity), latest.removal)
    }

    /// The widths (pt) of the label and of the total in `HStack { label; Spacer(); total }`
    /// (spacing 8 pt, `CartLook.stackSpacing`) across `width` minus twice the padding: each its
    /// one-line width when both fit, else shared by `HStackSizing` (the less flexible keeps its
    /// width when it has half, else the two split the room, each at least its widest
    /// character). Where the two minimums overflow the line, the one sized last (the more
    /// flexible) gets what the other leaves.
    static func totalShares(label: String, total: String, font: FontSpec, width: Double, measurer: any TextMeasuring) -> (label: Double, value: Double) {
        let children: [HStackSizing.Child] = [.text(label, font: font, measurer: measurer), .spacer(minLength: 0), .text(total, font: font, measurer: measurer)]
        let proposal = width - 2 * CartLook.padding
        let w = HStackSizing.widths(children, spacing: CartLook.stackSpacing, proposal: proposal, measurer: measurer)
        let room = max(0, proposal - 2 * CartLook.stackSpacing)
        guard w[0] + w[2] > room + 1e-9 else { return (w[0], w[2]) }
        func flexibility(_ c: HStackSizing.Child) -> Double {
            if case .wrapping(_, _, let lo, let hi) = c { return hi - lo }
            return 0
        }
        return flexibility(children[2]) >= flexibility(children[0])
            ? (w[0], max(0, room - w[0])) : (max(0, room - w[2]), w[2])
    }

    /// The seed's `LinearGradient([lightblue, blue], startPoint: .leading, endPoint: .trailing)` over `r`
    /// (from the right edge right to left).
    func gradient(across r: Rect) -> Paint {
        let scheme = scene.colorScheme
        let leading = scene.layoutDirection.isRightToLeft ? r.maxX : r.minX
        let trailing = scene.layoutDirection.isRightToLeft ? r.minX : r.maxX
        return .linearGradient(start: Point(x: leading, y: r.midY), end: Point(x: trailing, y: r.midY),
                               colors: [CartLook.lightBlue.resolved(scheme), CartLook.blue.resolved(scheme)])
    }

    /// One row: backdrop and trash button, then the content moved by the row's offset, all in
    /// a group placed at the slot's top and faded while the row is removed.
    func row(_ slot: Slot, state: CartState) -> DisplayItem {
        let scheme = scene.colorScheme
        let r = slot.row
        let m = rows[r.item]
        let item = items[r.item]
        let width = scene.device.width
        let frame = Rect(x: 0, y: 0, width: width, height: m.height)
        let text = CartLook.text.resolved(scheme)
        let direction = scene.layoutDirection
        var items: [DisplayItem] = []

        // The backdrop is hidden by the content while the row is at rest: skip it then, so that
        // no gradient bleeds through anti-aliased edges.
        if r.offset != 0 {
            items.append(.fill(.rect(frame), gradient(across: frame)))
            let side = font(CartLook.trashSymbolFont).size
            items.append(.image(ImageDraw(source: .symbol("trash"), frame: Rect(center: m.trashFrame.center, size: Size(width: side, height: side)), tint: .white)))
        }

        var content: [DisplayItem] = [.fill(.rect(frame), .color(CartLook.gray.resolved(scheme)))]
        content += productImage(item.image, frame: m.imageFrame)
        // Texts the layout found no room for (`TextRun.wrapped`) have no height: not drawn.
        if m.nameFrame.height > 0 {
            content.append(.text(TextRun(item.name, font: font(CartLook.nameFont), color: text, origin: Point(x: m.nameFrame.x, y: m.nameFrame.y),
                                         maxWidth: m.nameFrame.width, direction: direction)))
        }
        if m.detailsFrame.height > 0 {
            content.append(.text(TextRun(item.details, font: font(CartLook.detailsFont), color: CartLook.secondaryText.resolved(scheme),
                                         origin: Point(x: m.detailsFrame.x, y: m.detailsFrame.y), maxWidth: m.detailsFrame.width, direction: direction)))
        }
        if m.priceFrame.height > 0 {
            content.append(.text(TextRun(currency(item.price), font: font(CartLook.priceFont), color: CartLook.price.resolved(scheme),
                                         origin: Point(x: m.priceFrame.x, y: m.priceFrame.y), maxWidth: m.priceFrame.width, direction: direction)))
        }
        content += controls(r, metrics: m, state: state)
        items.append(r.offset == 0 ? .group(transform: .identity, opacity: 1, clip: nil, items: content)
                                   : .group(transform: .translation(Vector(dx: r.offset, dy: 0)), opacity: 1, clip: nil, items: content))

        return .group(transform: .translation(Vector(dx: 0, dy: slot.y)), opacity: 1 - min(max(r.removal, 0), 1), clip: nil, items: items)
    }

    /// The frames of the minus symbol, the quantity box and the plus symbol for a quantity,
    /// right-aligned in the controls (row coordinates, pt); right to left the mirror image:
    /// left-aligned, plus leftmost. The box is the quantity's width plus its padding, at most
    /// `RowMetrics.quantityWidth`, in which a wider quantity wraps (`quantityBox`).
    public func stepperFrames(quantity: Int, metrics m: RowMetrics) -> (minus: Rect, quantity: Rect, plus: Rect) {
        let side = CartLook.stepperSymbolSide
        func place(_ r: Rect) -> Rect { scene.layoutDirection.mirrored(r, in: scene.device.width) }
        let c = place(m.controlsFrame)  // the left-to-right frame
        func half(_ v: Double) -> Double { (v / 2).rounded(.down) }
        let plus = Rect(x: c.maxX - side, y: c.minY + half(c.height - side), width: side, height: side)
        let boxSize = Self.quantityBox(quantityText(quantity), share: m.quantityWidth, font: font(CartLook.quantityFont), lineHeight: quantityLineHeight,
                                       measurer: measurer)
        let box = Rect(x: plus.minX - CartLook.controlSpacing - boxSize.width, y: c.minY + half(c.height - boxSize.height), width: boxSize.width, height: boxSize.height)
        let minus = Rect(x: box.minX - CartLook.controlSpacing - side, y: c.minY + half(c.height - side), width: side, height: side)
        return (place(minus), place(box), place(plus))
    }

    /// A font of the page at the scene's Dynamic Type size, in the cart's family.
    func font(_ f: ScalableFont) -> FontSpec { CartLook.font(f, at: scene.dynamicTypeSize, cart: cart.font) }

    /// The largest quantity each item reaches in the scene (in `cart.items` order): its starting
    /// quantity plus its `plus` taps, at most `CartItem.maximumQuantity` — an upper bound the
    /// layout reserves room for, so that the stepper never grows into the price.
    static func maximumQuantities(cart: CartContent, events: [SceneEvent]) -> [Int] {
        var plus: [String: Int] = [:]
        for e in events { if case .tap(.row(.plus, let id))? = e.action as? CartAction { plus[id, default: 0] += 1 } }
        return cart.items.map { item in
            let taps = plus[item.id] ?? 0
            return item.quantity >= CartItem.maximumQuantity - taps ? max(item.quantity, CartItem.maximumQuantity) : item.quantity + taps
        }
    }

    /// A quantity as the seed's `Text("\(item.quantity)")` shows it: the locale's digits, no
    /// grouping (`Formatting.interpolated`).
    func quantityText(_ quantity: Int) -> String { quantityDigits.format(quantity) }

    /// Width of the quantity box (pt): the quantity's text in `digits` plus 10 pt on each side, rounded up.
    static func quantityBoxWidth(_ quantity: Int, digits: Formatting.LocaleDigits, font: FontSpec, measurer: any TextMeasuring) -> Double {
        (measurer.measure(digits.format(quantity), font: font, maxWidth: nil).width + 2 * CartLook.quantityPaddingH).rounded(.up)
    }

    /// The quantity box (pt) of `shown` when its share of the controls is `share` pt: the text
    /// on one line (`lineHeight` tall) plus 10 pt each side and 5 pt above and below, when that
    /// fits the share; else the text wrapped (between digits) in the share minus the padding,
    /// as wide as its lines and as tall as they are, plus the padding. Widths are rounded up.
    static func quantityBox(_ shown: String, share: Double, font: FontSpec, lineHeight: Double, measurer: any TextMeasuring) -> Size {
        let padH = 2 * CartLook.quantityPaddingH, padV = 2 * CartLook.quantityPaddingV
        let oneLine = (measurer.measure(shown, font: font, maxWidth: nil).width + padH).rounded(.up)
        if oneLine <= share + 1e-9 { return Size(width: oneLine, height: lineHeight + padV) }
        let lines = measurer.measure(shown, font: font, maxWidth: max(share - padH, 1.0 / 1024))
        return Size(width: (lines.width + padH).rounded(.up), height: lines.height.rounded(.up) + padV)
    }

    func controls(_ r: CartRowState, metrics m: RowMetrics, state: CartState) -> [DisplayItem] {
        let scheme = scene.colorScheme
        let text = CartLook.text.resolved(scheme)
        let f = stepperFrames(quantity: r.quantity, metrics: m)
        let shown = quantityText(r.quantity), quantityFont = font(CartLook.quantityFont)
        let label = measurer.measure(shown, font: quantityFont, maxWidth: nil)
        // On the box's baseline, the font's own (Jost's): digits of another script, drawn by a
        // fallback font with a taller line (Noto Sans Arabic's ١), sit where Latin ones do, as
        // every text sits on its font's baseline (`TextMeasuring.firstBaseline`).
        let top = f.quantity.minY + CartLook.quantityPaddingV
        // A quantity wider than its box's share wraps between its digits inside the box's padding.
        // On a screen too narrow for the stepper, a box past the screen's edge shows no text.
        let room = f.quantity.width - 2 * CartLook.quantityPaddingH
        let onScreen = f.quantity.minX >= 0 && f.quantity.maxX <= scene.device.width
        let quantity: [DisplayItem] = !onScreen ? [] : label.width <= room
            ? [.text(TextRun(shown, font: quantityFont, color: text, origin: Point(x: f.quantity.midX - label.width / 2, y: top)))]
            : [TextRun.wrapped(shown, font: quantityFont, color: text,
                                origin: Point(x: f.quantity.minX + CartLook.quantityPaddingH, y: top),
                                width: room, direction: .leftToRight, measurer: measurer)].compactMap { $0.map(DisplayItem.text) }
        func symbol(_ name: String, _ button: CartButton.Row, _ frame: Rect) -> DisplayItem {
            let image = DisplayItem.image(ImageDraw(source: .symbol(name), frame: frame, tint: text, weight: CartLook.stepperSymbolWeight))
            guard state.isPressed(.row(button, item: r.id)) else { return image }
            return .group(transform: .identity, opacity: Look.buttonPressedOpacity, clip: nil, items: [image])
        }
        return [
            symbol("minus", .minus, f.minus),
            .fill(.rect(f.quantity), .color(CartLook.quantityBackground.resolved(scheme))),
        ] + quantity + [
            symbol("plus", .plus, f.plus),
        ]
    }

    /// The product image: a file filling the 130 pt square with corner radius 18, or a symbol
    /// drawn in the tint on a rounded square of the tint at 14 %.
    func productImage(_ source: ImageSource, frame: Rect) -> [DisplayItem] {
        switch source {
        case .file:
            return [.image(ImageDraw(source: source, frame: frame, contentMode: .fill, tint: .clear, cornerRadius: CartLook.imageCornerRadius))]
        case .symbol:
            let tint = scene.tint.resolved(scene.colorScheme)
            return [
                .fill(.continuousRoundedRect(frame, radius: CartLook.imageCornerRadius), .color(tint.opacity(CartLook.symbolImageTintOpacity))),
                .image(ImageDraw(source: source, frame: frame.insetBy(CartLook.symbolImageInset), tint: tint)),
            ]
        }
    }
}
