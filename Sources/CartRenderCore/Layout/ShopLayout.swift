import Foundation

/// Layout of the seed 000 demo screen (SPEC.md §2.1, §3): a header with the title and the cart
/// icon, then the fly button (product image container and add button), the product name and
/// its description. Static frames are computed once per scene; `displayList(for:)` then draws the
/// moving parts (flights, badge, bump) for a state.
///
/// All frames are in screen points. Vertical structure, from the seed:
/// `VStack(spacing: 0) { header.padding(.horizontal, 24).padding(.top, 8); ScrollView { VStack(spacing: 8) { flyButton.padding(.top, 48); name.padding(.top, 12); description }.padding(24) } }`.
public struct ShopLayout {
    public let scene: Scene
    /// The title "Shop" (largeTitle bold).
    public let titleFrame: Rect
    /// The cart icon with its 8 pt padding: the frame `"measured"` refers to.
    public let cartIconFrame: Rect
    /// The symbol inside the cart frame.
    public let cartSymbolFrame: Rect
    /// The product image container (260 pt tall, full width): the flights' source frame.
    public let imageContainerFrame: Rect
    /// The add button.
    public let buttonFrame: Rect
    public let buttonIconFrame: Rect
    public let buttonTitleFrame: Rect
    public let nameFrame: Rect
    public let descriptionFrame: Rect
    /// Line height of the badge digits (caption2 bold, pt).
    public let badgeLineHeight: Double
    /// Where flights land (pt), or nil for none.
    public let cartFrame: Rect?

    public static let titleFont = Look.largeTitle.weight(.bold)
    public static let cartSymbolFont = Look.title2
    public static let buttonFont = Look.headline
    public static let nameFont = Look.title2.weight(.bold)
    public static let descriptionFont = Look.body
    public static let badgeFont = Look.caption2.weight(.bold)
    /// Product image container height (pt), padding of the image inside it (pt), seed 000.
    public static let imageContainerHeight = 260.0
    public static let imagePadding = 36.0
    /// Flight circle diameter (pt) and image padding inside it (pt), seed 000.
    public static let flightDiameter = 84.0
    public static let flightImagePadding = 14.0

    private let measurer: any TextMeasuring

    /// Lays out the static parts of the screen.
    public init(scene: Scene, measurer: any TextMeasuring) {
        self.scene = scene
        self.measurer = measurer
        let d = scene.device
        let s = scene.shop
        let contentWidth = d.width - 48

        // Header: HStack { title; Spacer; cart } .padding(.horizontal, 24) .padding(.top, 8)
        let symbol = Self.symbolSize(Self.cartSymbolFont)
        let cartSize = Size(width: symbol.width + 16, height: symbol.height + 16)
        // A long title wraps in the space the cart leaves (HStack spacing 8 pt), as Text does.
        let title = measurer.measure(s.title, font: Self.titleFont, maxWidth: contentWidth - cartSize.width - 8)
        let headerTop = d.safeAreaTop + 8
        let headerHeight = max(title.height, cartSize.height)
        titleFrame = Rect(x: 24, y: headerTop + (headerHeight - title.height) / 2, width: contentWidth - cartSize.width - 8, height: title.height)
        cartIconFrame = Rect(x: d.width - 24 - cartSize.width, y: headerTop + (headerHeight - cartSize.height) / 2,
                             width: cartSize.width, height: cartSize.height)
        cartSymbolFrame = cartIconFrame.insetBy(8)

        // Scroll content: VStack(alignment: .leading, spacing: 8).padding(24); fly button .padding(.top, 48).
        var y = headerTop + headerHeight + 24 + 48
        // Fly button: VStack(spacing: 20) { image container (260 tall); button }
        imageContainerFrame = Rect(x: 24, y: y, width: contentWidth, height: Self.imageContainerHeight)
        y += Self.imageContainerHeight + 20
        let icon = Self.symbolSize(Self.buttonFont)
        // A long button title wraps inside the button, which grows taller.
        let labelTitle = measurer.measure(s.buttonTitle, font: Self.buttonFont,
                                          maxWidth: contentWidth - 2 * Look.buttonPaddingH - icon.width - Look.labelSpacing)
        let labelHeight = max(44, max(labelTitle.height, icon.height))
        buttonFrame = Rect(x: 24, y: y, width: contentWidth, height: labelHeight + 2 * Look.buttonPaddingV)
        let labelWidth = min(icon.width + Look.labelSpacing + labelTitle.width, contentWidth - 2 * Look.buttonPaddingH)
        let labelX = buttonFrame.midX - labelWidth / 2
        buttonIconFrame = Rect(x: labelX, y: buttonFrame.midY - icon.height / 2, width: icon.width, height: icon.height)
        buttonTitleFrame = Rect(x: labelX + icon.width + Look.labelSpacing, y: buttonFrame.midY - labelTitle.height / 2,
                                width: labelWidth - icon.width - Look.labelSpacing, height: labelTitle.height)
        y = buttonFrame.maxY + 8 + 12
        let name = measurer.measure(s.productName, font: Self.nameFont, maxWidth: contentWidth)
        nameFrame = Rect(x: 24, y: y, width: contentWidth, height: name.height)
        y = nameFrame.maxY + 8
        let desc = measurer.measure(s.productDescription, font: Self.descriptionFont, maxWidth: contentWidth)
        descriptionFrame = Rect(x: 24, y: y, width: contentWidth, height: desc.height)
        badgeLineHeight = measurer.measure("0", font: Self.badgeFont, maxWidth: nil).height

        switch s.cartFrame {
        case .measured: cartFrame = cartIconFrame
        case .none: cartFrame = nil
        case .rect(let r): cartFrame = r
        }
    }

    /// The box an SF Symbol occupies at a font (pt): Bootstrap Icons are square, SF Symbols such
    /// as `cart.fill` are wider than tall; see `Look.symbolWidthFactor`.
    public static func symbolSize(_ font: FontSpec) -> Size {
        Size(width: (font.size * Look.symbolWidthFactor).rounded(), height: (font.size * Look.symbolHeightFactor).rounded())
    }

    /// The motion of this screen's taps.
    public func timeline() -> FlyTimeline {
        FlyTimeline(scene: scene, sourceFrame: imageContainerFrame, cartFrame: cartFrame)
    }

    /// The badge text for a count (locale number format), as shown and listed in the manifest.
    public func badgeText(_ count: Int) -> String { Formatting.count(count, locale: scene.locale) }

    /// The badge capsule's width (pt) for a text: at least 18, else text width + 2 × 5 pt.
    public func badgeWidth(_ text: String) -> Double {
        max(Look.badgeMinSide, measurer.measure(text, font: Self.badgeFont, maxWidth: nil).width + 2 * Look.badgePaddingH)
    }

    /// Everything the screen shows in `state`, back to front; flights last, above everything.
    public func displayList(for state: ShopState) -> DisplayList {
        let scheme = scene.colorScheme
        let tint = scene.tint.resolved(scheme)
        let label = Look.label.resolved(scheme)
        let background = Look.background.resolved(scheme)
        let s = scene.shop
        var items: [DisplayItem] = []

        items.append(.text(TextRun(s.title, font: Self.titleFont, color: label, origin: Point(x: titleFrame.x, y: titleFrame.y), maxWidth: titleFrame.width)))

        // Cart icon and badge, scaled together about the cart frame's center.
        var cart: [DisplayItem] = [.image(ImageDraw(source: .symbol("cart.fill"), frame: cartSymbolFrame, tint: tint))]
        if state.count > 0 { cart += badge(state) }
        if state.badgeScale == 1 {
            items += cart
        } else {
            items.append(.group(transform: .scale(state.badgeScale, about: cartIconFrame.center), opacity: 1, clip: nil, items: cart))
        }

        // Product image container.
        items.append(.fill(.roundedRect(imageContainerFrame, radius: Look.imageContainerCornerRadius),
                           .color(tint.opacity(Look.imageContainerTintOpacity))))
        items.append(.image(ImageDraw(source: s.image, frame: imageContainerFrame.insetBy(Self.imagePadding), tint: tint)))

        // Add button (.borderedProminent), pressed look for 0.1 s after a tap.
        var button: [DisplayItem] = [
            .fill(.roundedRect(buttonFrame, radius: Look.buttonCornerRadius), .color(tint)),
            .image(ImageDraw(source: .symbol("cart.badge.plus"), frame: buttonIconFrame, tint: .white)),
            .text(TextRun(s.buttonTitle, font: Self.buttonFont, color: .white, origin: Point(x: buttonTitleFrame.x, y: buttonTitleFrame.y),
                          maxWidth: buttonTitleFrame.width, alignment: .center)),
        ]
        if state.buttonPressed { button = [.group(transform: .identity, opacity: Look.buttonPressedOpacity, clip: nil, items: button)] }
        items += button

        items.append(.text(TextRun(s.productName, font: Self.nameFont, color: label, origin: Point(x: nameFrame.x, y: nameFrame.y), maxWidth: nameFrame.width)))
        items.append(.text(TextRun(s.productDescription, font: Self.descriptionFont, color: Look.secondaryLabel.resolved(scheme),
                                   origin: Point(x: descriptionFrame.x, y: descriptionFrame.y), maxWidth: descriptionFrame.width)))

        // Flights: 84 pt circle of the background color, the image padded 14 pt, a 1 pt inner stroke.
        for f in state.flights {
            let circle = Rect(center: .zero, size: Size(width: Self.flightDiameter, height: Self.flightDiameter))
            let t = AffineTransform(a: f.scale, b: 0, c: 0, d: f.scale, tx: f.center.x, ty: f.center.y)
            items.append(.group(transform: t, opacity: 1, clip: nil, items: [
                .fill(.ellipse(circle), .color(background)),
                .image(ImageDraw(source: s.image, frame: circle.insetBy(Self.flightImagePadding), tint: tint)),
                .stroke(.ellipse(circle.insetBy(0.5)), .color(tint.opacity(Look.flightStrokeOpacity)), lineWidth: 1),
            ]))
        }
        return DisplayList(size: Size(width: scene.device.width, height: scene.device.height), background: background, items: items)
    }

    /// The red capsule with white digits at the cart frame's top-trailing corner; while the count
    /// changes, digits that changed roll vertically and the capsule's width follows the spring.
    func badge(_ state: ShopState) -> [DisplayItem] {
        let red = Look.systemRed.resolved(scene.colorScheme)
        let newText = badgeText(state.count)
        let height = max(Look.badgeMinSide, badgeLineHeight)
        var width = badgeWidth(newText)
        var glyphs: [DisplayItem] = []
        let textY = cartIconFrame.minY + (height - badgeLineHeight) / 2

        if let d = state.digits, d.from > 0, d.from != d.to {
            let oldText = badgeText(d.from)
            let p = d.progress
            let oldWidth = badgeWidth(oldText)
            width = oldWidth + (width - oldWidth) * p
            let right = cartIconFrame.maxX
            let center = right - width / 2
            let newChars = Array(newText), oldChars = Array(oldText)
            let newLeft = center - measurer.measure(newText, font: Self.badgeFont, maxWidth: nil).width / 2
            let oldLeft = center - measurer.measure(oldText, font: Self.badgeFont, maxWidth: nil).width / 2
            let rise = Look.digitRollFraction * badgeLineHeight * (d.to > d.from ? 1 : -1)
            // Align digits from the trailing end; positions that keep their character stay still.
            for k in 0..<max(newChars.count, oldChars.count) {
                let ni = newChars.count - 1 - k, oi = oldChars.count - 1 - k
                let n = ni >= 0 ? newChars[ni] : nil, o = oi >= 0 ? oldChars[oi] : nil
                if let n, n == o {
                    glyphs.append(.text(TextRun(String(n), font: Self.badgeFont, color: .white,
                                                origin: Point(x: newLeft + prefixWidth(newChars, ni), y: textY))))
                    continue
                }
                if let o {
                    glyphs.append(.group(transform: .translation(Vector(dx: 0, dy: -rise * p)), opacity: min(max(1 - p, 0), 1), clip: nil, items: [
                        .text(TextRun(String(o), font: Self.badgeFont, color: .white, origin: Point(x: oldLeft + prefixWidth(oldChars, oi), y: textY))),
                    ]))
                }
                if let n {
                    glyphs.append(.group(transform: .translation(Vector(dx: 0, dy: rise * (1 - p))), opacity: min(max(p, 0), 1), clip: nil, items: [
                        .text(TextRun(String(n), font: Self.badgeFont, color: .white, origin: Point(x: newLeft + prefixWidth(newChars, ni), y: textY))),
                    ]))
                }
            }
        } else {
            glyphs.append(.text(TextRun(newText, font: Self.badgeFont, color: .white,
                                        origin: Point(x: cartIconFrame.maxX - width, y: textY), maxWidth: width, alignment: .center)))
        }
        let capsule = Rect(x: cartIconFrame.maxX - width, y: cartIconFrame.minY, width: width, height: height)
        return [.fill(.capsule(capsule), .color(red))] + glyphs
    }

    private func prefixWidth(_ chars: [Character], _ end: Int) -> Double {
        end <= 0 ? 0 : measurer.measure(String(chars[0..<end]), font: Self.badgeFont, maxWidth: nil).width
    }

    /// Accessibility values of the frame (SPEC.md §2.1): the cart reads "Cart", "1 item" / "N items";
    /// the product image reads its `imageLabel`.
    public func accessibility(for state: ShopState) -> JSONValue {
        .object([
            ("cart", .object([("label", "Cart"), ("value", .string(state.count == 1 ? "1 item" : "\(state.count) items"))])),
            ("productImage", .object([("label", .string(scene.shop.imageLabel))])),
            ("addButton", .object([("label", .string(scene.shop.buttonTitle))])),
        ])
    }
}
