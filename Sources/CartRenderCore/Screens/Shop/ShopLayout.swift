import Foundation

/// Layout of the seed 000 demo screen (docs/motion-and-look.md, “The fly button”): a header with the title and the cart
/// icon, then the fly button (product image container and add button), the product name and
/// its description. Static frames are computed once per scene; `displayList(for:)` then draws the
/// moving parts (flights, badge, bump) for a state.
///
/// Fonts are the seed's text styles at the scene's Dynamic Type size (`Scene.dynamicTypeSize`),
/// and so are the symbols drawn at a text style (the cart, the add button's icon): larger sizes
/// grow the header, the button and the text below, moving the flights' source down.
///
/// Right to left (`Scene.layoutDirection`), every frame is the mirror image of its left-to-right
/// frame (`LayoutDirection.mirrored(_:in:)`): the title on the right, the cart on the left with
/// its badge at its top-left (top-trailing) corner, the add button's icon to the right of its
/// title; text is right-aligned and the cart symbols are mirrored. A `cartFrame` given as a
/// rectangle stays where it is (screen points).
///
/// All frames are in screen points, their edges on the device's pixel grid (`Device.scale`,
/// `Rect.roundedToPixels(scale:)`), as SwiftUI rounds layout; animated positions (flights, the
/// bump, the badge's roll) are not rounded. Vertical structure, from the seed:
/// `VStack(spacing: 0) { header.padding(.horizontal, 24).padding(.top, 8); ScrollView { VStack(spacing: 8) { flyButton.padding(.top, 48); name.padding(.top, 12); description }.padding(24) } }`.
public struct ShopLayout {
    /// The scene laid out (device, locale, Dynamic Type size, layout direction).
    public let scene: Scene
    /// The scene's `"shop"` section.
    public let shop: ShopContent
    /// The title "Shop" (largeTitle bold).
    public let titleFrame: Rect
    /// The most lines the title may take: those that fit half the safe area's height, which
    /// the header's `VStack` offers it beside the scroll view (SwiftUI truncates a `Text`
    /// proposed too little height).
    public let titleMaxLines: Int
    /// The cart icon with its 8 pt padding: the frame `"measured"` refers to.
    public let cartIconFrame: Rect
    /// The symbol inside the cart frame.
    public let cartSymbolFrame: Rect
    /// The product image container (260 pt tall, full width): the flights' source frame.
    public let imageContainerFrame: Rect
    /// The add button.
    public let buttonFrame: Rect
    /// The add button's `cart.badge.plus` symbol (pt).
    public let buttonIconFrame: Rect
    /// The add button's title text box (pt): as wide as its widest line as measured (which may
    /// be a fraction of a point wider than `buttonTitlePlacement`'s wrap width), on the pixel grid.
    public let buttonTitleFrame: Rect
    /// Where the add button's title run goes, fixed at layout; nil when its share of the label
    /// is narrower than its widest character (the icon alone fills the button: no title drawn).
    public let buttonTitlePlacement: ButtonTitlePlacement?

    /// The add button's title run as laid out once: where it starts, the width it wraps in and
    /// how its lines align.
    public struct ButtonTitlePlacement: Equatable, Sendable {
        /// The run's origin (pt): its box's top-left corner.
        public let origin: Point
        /// The width (pt) the title was measured in and wraps in when drawn (its share of the
        /// label, not rounded): the lines drawn are the lines that sized the button.
        public let wrapWidth: Double
        /// `.leading` when the title wraps (a multiline `Text`'s default alignment), `.center`
        /// for one line.
        public let alignment: TextRun.Alignment
    }
    /// The product name's text box (`.title2.bold()`, pt).
    public let nameFrame: Rect
    /// The product description's text box (`.body`, pt).
    public let descriptionFrame: Rect
    /// Line height of the badge digits (caption2 bold, pt).
    public let badgeLineHeight: Double
    /// The widest the badge may grow (pt): from the cart frame's trailing edge to the title's
    /// text plus the header spacing, and at least the cart frame's width, so that a huge count
    /// never covers the title; a text that needs more ends in "…".
    public let badgeMaxWidth: Double
    /// Where flights land (pt), or nil for none.
    public let cartFrame: Rect?

    private let measurer: any TextMeasuring

    /// The symbols of the cart icon and of the add button (seed 000).
    public static let cartSymbol = ImageSource.symbol("cart.fill")
    /// The add button's symbol (seed 000).
    public static let buttonSymbol = ImageSource.symbol("cart.badge.plus")

    /// Lays out the static parts of the screen.
    public init(scene: Scene, shop: ShopContent, measurer: any TextMeasuring) {
        self.scene = scene
        self.shop = shop
        self.measurer = measurer
        let k = Kit(scene: scene, shop: shop, measurer: measurer)
        let pad = ShopLook.padding
        let header = Header(k, title: shop.title)
        titleFrame = header.titleFrame
        titleMaxLines = header.titleMaxLines
        cartIconFrame = header.cartIconFrame
        cartSymbolFrame = header.cartSymbolFrame
        // Scroll content: VStack(alignment: .leading, spacing: 8).padding(24); fly button .padding(.top, 48).
        let button = FlyButton(k, title: shop.buttonTitle, top: header.bottom + pad + ShopLook.flyButtonTopPadding)
        imageContainerFrame = button.imageContainerFrame
        buttonFrame = button.buttonFrame
        buttonIconFrame = button.buttonIconFrame
        buttonTitleFrame = button.buttonTitleFrame
        buttonTitlePlacement = button.buttonTitlePlacement
        // The product's name and description below the button.
        var y = buttonFrame.maxY + ShopLook.stackSpacing + ShopLook.nameTopPadding
        let name = measurer.measure(shop.productName, font: k.font(ShopLook.nameFont), maxWidth: k.contentWidth)
        nameFrame = k.px(Rect(x: pad, y: y, width: k.contentWidth, height: name.height))
        y = nameFrame.maxY + ShopLook.stackSpacing
        let desc = measurer.measure(shop.productDescription, font: k.font(ShopLook.descriptionFont), maxWidth: k.contentWidth)
        descriptionFrame = k.px(Rect(x: pad, y: y, width: k.contentWidth, height: desc.height))
        // The badge: its line, and the widest it may grow, from the cart's leading edge to the title's text.
        badgeLineHeight = measurer.measure("0", font: k.font(ShopLook.badgeFont), maxWidth: nil).height
        let titleText = min(titleFrame.width, measurer.measure(shop.title, font: k.font(ShopLook.titleFont), maxWidth: nil).width)
        badgeMaxWidth = max(header.cartSize.width, scene.device.width - pad - (pad + titleText + ShopLook.headerSpacing))

        switch shop.cartFrame {
        case .measured: cartFrame = cartIconFrame
        case .none: cartFrame = nil
        case .rect(let r): cartFrame = r
        }
    }

    /// The box (pt, rounded to whole points) a symbol occupies at a font: SF Symbols such as
    /// `cart.fill` are wider than tall (`Symbols.boxFactors`); its artwork is fitted inside.
    public static func symbolSize(_ font: FontSpec, of symbol: ImageSource) -> Size {
        guard case .symbol(let name) = symbol else { return Size(width: font.size, height: font.size) }
        let f = Symbols.boxFactors(name)
        return Size(width: (font.size * f.width).rounded(), height: (font.size * f.height).rounded())
    }

    /// The motion of this screen's taps.
    public func timeline() -> FlyTimeline {
        FlyTimeline(scene: scene, shop: shop, sourceFrame: imageContainerFrame, cartFrame: cartFrame)
    }

    /// The badge text for a count (locale number format), as shown and listed in the manifest.
    public func badgeText(_ count: Int) -> String { Formatting.count(count, locale: scene.locale) }

    /// The badge capsule's width (pt) for a text: at least 18, else text width + 2 × 5 pt.
    public func badgeWidth(_ text: String) -> Double {
        max(ShopLook.badgeMinSide, measurer.measure(text, font: font(ShopLook.badgeFont), maxWidth: nil).width + 2 * ShopLook.badgePaddingH)
    }

    /// Everything the screen shows in `state`, back to front; flights last, above everything.
    public func displayList(for state: ShopState) -> DisplayList {
        let scheme = scene.colorScheme
        let tint = scene.tint.resolved(scheme)
        let label = Look.label.resolved(scheme)
        let background = Look.background.resolved(scheme)
        let s = shop
        let direction = scene.layoutDirection
        var items: [DisplayItem] = []

        if let title = TextRun.wrapped(s.title, font: font(ShopLook.titleFont), color: label, origin: Point(x: titleFrame.x, y: titleFrame.y),
                                       width: titleFrame.width, maxLines: titleMaxLines, direction: direction, measurer: measurer) {
            items.append(.text(title))
        }

        // Cart icon and badge, scaled together about the cart frame's center.
        var cart: [DisplayItem] = [.image(ImageDraw(source: Self.cartSymbol, frame: cartSymbolFrame, tint: tint,
                                                    mirrored: Symbols.isMirrored(Self.cartSymbol, in: direction)))]
        if state.count > 0 { cart += badge(state) }
        if state.badgeScale == 1 {
            items += cart
        } else {
            items.append(.group(transform: .scale(state.badgeScale, about: cartIconFrame.center), opacity: 1, clip: nil, items: cart))
        }

        // Product image container.
        items.append(.fill(.continuousRoundedRect(imageContainerFrame, radius: ShopLook.imageContainerCornerRadius),
                           .color(tint.opacity(ShopLook.imageContainerTintOpacity))))
        items.append(.image(ImageDraw(source: s.image, frame: imageContainerFrame.insetBy(ShopLook.imagePadding), tint: tint)))

        // Add button (.borderedProminent), pressed look for 0.1 s after a tap.
        var button: [DisplayItem] = [
            .fill(.roundedRect(buttonFrame, radius: Look.buttonCornerRadius), .color(tint)),
            .image(ImageDraw(source: Self.buttonSymbol, frame: buttonIconFrame, tint: .white, mirrored: Symbols.isMirrored(Self.buttonSymbol, in: direction),
                             weight: font(ShopLook.buttonFont).weight)),
        ]
        if let p = buttonTitlePlacement {
            button.append(.text(TextRun(s.buttonTitle, font: font(ShopLook.buttonFont), color: .white, origin: p.origin, maxWidth: p.wrapWidth,
                                        alignment: p.alignment, direction: direction)))
        }
        if state.buttonPressed { button = [.group(transform: .identity, opacity: Look.buttonPressedOpacity, clip: nil, items: button)] }
        items += button

        items.append(.text(TextRun(s.productName, font: font(ShopLook.nameFont), color: label, origin: Point(x: nameFrame.x, y: nameFrame.y), maxWidth: nameFrame.width,
                                   direction: direction)))
        items.append(.text(TextRun(s.productDescription, font: font(ShopLook.descriptionFont), color: Look.secondaryLabel.resolved(scheme),
                                   origin: Point(x: descriptionFrame.x, y: descriptionFrame.y), maxWidth: descriptionFrame.width, direction: direction)))

        // Flights: 84 pt circle of the background color, the image padded 14 pt, a 1 pt inner stroke.
        for f in state.flights {
            let circle = Rect(center: .zero, size: Size(width: ShopLook.flightDiameter, height: ShopLook.flightDiameter))
            let t = AffineTransform(a: f.scale, b: 0, c: 0, d: f.scale, tx: f.center.x, ty: f.center.y)
            items.append(.group(transform: t, opacity: 1, clip: nil, items: [
                .fill(.ellipse(circle), .color(background)),
                .image(ImageDraw(source: s.image, frame: circle.insetBy(ShopLook.flightImagePadding), tint: tint)),
                .stroke(.ellipse(circle.insetBy(ShopLook.flightStrokeWidth / 2)), .color(tint.opacity(ShopLook.flightStrokeOpacity)), lineWidth: ShopLook.flightStrokeWidth),
            ]))
        }
        return DisplayList(size: Size(width: scene.device.width, height: scene.device.height), background: background, items: items)
    }

    /// The red capsule with white digits at the cart frame's top-trailing corner (top-left right
    /// to left, the capsule growing rightward), the digits clipped to the capsule. The digits keep
    /// their left-to-right order in both directions, as numbers do in Arabic and Hebrew text.
    ///
    /// Each character is drawn on its own at its place in the whole string (`badgeGlyphs`), at
    /// rest and while the count changes alike, so that at the change's first instant (progress 0)
    /// the badge is exactly the resting badge of the old count. While the count changes
    /// (`.contentTransition(.numericText())`), the old and new strings are matched from their
    /// trailing ends: a position that keeps its character (the left "1" of 10 → 11, the comma
    /// of 9,999 → 10,000) slides from its old place to its new one with the progress; a position
    /// whose character changes rolls — the old character leaves upward (downward for a decrease),
    /// shrinking, blurring and fading, while the new one rises from below, growing, sharpening
    /// and appearing (`ShopLook.digitRollFraction`, `ShopLook.digitRollMinimumScale`,
    /// `ShopLook.digitRollBlurFraction`). The capsule's width follows the same spring. Progress is
    /// the `.snappy` spring's and may overshoot 1 a little.
    func badge(_ state: ShopState) -> [DisplayItem] {
        let red = Look.systemRed.resolved(scene.colorScheme)
        let height = max(ShopLook.badgeMinSide, badgeLineHeight)
        let textY = cartIconFrame.minY + (height - badgeLineHeight) / 2  // every character on the font's baseline (`TextMeasuring.firstBaseline`), whatever font draws it
        let new = badgeGlyphs(state.count)
        var width = new.width
        var glyphs: [DisplayItem] = []

        if let d = state.digits, d.from > 0, d.from != d.to {
            let old = badgeGlyphs(d.from)
            let p = d.progress
            width = old.width + (new.width - old.width) * p
            let rise = ShopLook.digitRollFraction * badgeLineHeight * (d.to > d.from ? 1 : -1)
            let shrink = 1 - ShopLook.digitRollMinimumScale
            /// A character at `x` moved up by `dy` and scaled by `scale` about its center, faded to
            /// `opacity` and blurred the more the fainter it is (sharp at opacity 1).
            func glyph(_ g: (character: Character, x: Double, width: Double), dy: Double, scale: Double, opacity: Double) -> DisplayItem {
                let f = font(ShopLook.badgeFont)
                let run = DisplayItem.text(TextRun(String(g.character), font: f, color: .white, origin: Point(x: g.x, y: textY)))
                let center = Point(x: g.x + g.width / 2, y: textY + badgeLineHeight / 2)
                let t = AffineTransform(a: scale, b: 0, c: 0, d: scale, tx: center.x * (1 - scale), ty: center.y * (1 - scale) + dy)
                let o = min(max(opacity, 0), 1)
                let faded = DisplayItem.group(transform: t, opacity: o, clip: nil, items: [run])
                guard o > 0, o < 1 else { return faded }
                return .blur(radius: ShopLook.digitRollBlurFraction * f.size * (1 - o), items: [faded])
            }
            for k in 0..<max(new.glyphs.count, old.glyphs.count) {
                let ni = new.glyphs.count - 1 - k, oi = old.glyphs.count - 1 - k
                let n = ni >= 0 ? new.glyphs[ni] : nil, o = oi >= 0 ? old.glyphs[oi] : nil
                if let n, let o, n.character == o.character {
                    let x = o.x + (n.x - o.x) * p
                    glyphs.append(.text(TextRun(String(n.character), font: font(ShopLook.badgeFont), color: .white, origin: Point(x: x, y: textY))))
                    continue
                }
                if let o { glyphs.append(glyph(o, dy: -rise * p, scale: 1 - shrink * min(max(p, 0), 1), opacity: 1 - p)) }
                if let n { glyphs.append(glyph(n, dy: rise * (1 - p), scale: 1 - shrink * min(max(1 - p, 0), 1), opacity: p)) }
            }
        } else {
            glyphs = new.glyphs.map { .text(TextRun(String($0.character), font: font(ShopLook.badgeFont), color: .white, origin: Point(x: $0.x, y: textY))) }
        }
        let capsule = Rect(x: badgeX(width: width), y: cartIconFrame.minY, width: width, height: height)
        return [.fill(.capsule(capsule), .color(red)), .group(transform: .identity, opacity: 1, clip: .capsule(capsule), items: glyphs)]
    }

    /// The badge of a count at rest: its capsule's width (pt) and each character shown with its
    /// left edge (pt, screen) and advance (pt), left to right. The text is centered in the
    /// capsule; a text wider than `badgeMaxWidth` allows ends in "…" (SwiftUI's tail truncation)
    /// and the capsule takes that width. A character's left edge is the width of the string
    /// before it, so kerning and the string's own advances place it.
    func badgeGlyphs(_ count: Int) -> (width: Double, glyphs: [(character: Character, x: Double, width: Double)]) {
        var chars = Array(badgeText(count))
        var width = badgeWidth(String(chars))
        if width > badgeMaxWidth {
            chars.append("…")
            while chars.count > 1, badgeWidth(String(chars)) > badgeMaxWidth { chars.remove(at: chars.count - 2) }
            width = min(badgeMaxWidth, badgeWidth(String(chars)))
        }
        let f = font(ShopLook.badgeFont)
        let textWidth = measurer.measure(String(chars), font: f, maxWidth: nil).width
        let left = badgeX(width: width) + (width - textWidth) / 2
        var glyphs: [(character: Character, x: Double, width: Double)] = []
        for (i, c) in chars.enumerated() {
            let x = left + prefixWidth(chars, i)
            glyphs.append((c, x, measurer.measure(String(c), font: f, maxWidth: nil).width))
        }
        return (width, glyphs)
    }

    /// The badge capsule's left edge (pt) for a width: at the cart frame's trailing edge.
    private func badgeX(width: Double) -> Double {
        scene.layoutDirection.isRightToLeft ? cartIconFrame.minX : cartIconFrame.maxX - width
    }

    /// A font of the screen at the scene's Dynamic Type size.
    func font(_ f: ScalableFont) -> FontSpec { f.resolved(scene.dynamicTypeSize).family(shop.font) }

    private func prefixWidth(_ chars: [Character], _ end: Int) -> Double {
        end <= 0 ? 0 : measurer.measure(String(chars[0..<end]), font: font(ShopLook.badgeFont), maxWidth: nil).width
    }

    /// Accessibility values of the frame (docs/motion-and-look.md, “The fly button”): the cart reads "Cart", "1 item" / "N items";
    /// the product image reads its `imageLabel`, else the product name.
    public func accessibility(for state: ShopState) -> ShopFrameState.Accessibility {
        ShopFrameState.Accessibility(cart: .init(label: "Cart", value: state.count == 1 ? "1 item" : "\(state.count) items"),
                                     productImage: .init(label: shop.productImageLabel),
                                     addButton: .init(label: shop.buttonTitle))
    }
}
