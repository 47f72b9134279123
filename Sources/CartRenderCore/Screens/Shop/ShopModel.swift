/// The shop screen's frames: `ShopLayout` + `FlyTimeline`.
public struct ShopModel: ScreenModel {
    public let layout: ShopLayout
    public let timeline: FlyTimeline

    public init(scene: Scene, shop: ShopContent, measurer: any TextMeasuring) {
        layout = ShopLayout(scene: scene, shop: shop, measurer: measurer)
        timeline = layout.timeline()
    }

    public var events: [TimelineEvent] { timeline.events }
    public var settleTime: Double { timeline.settleTime }

    public func frame(at t: Double) -> (display: DisplayList, state: ShopFrameState) {
        let s = timeline.state(at: t)
        let state = ShopFrameState(count: s.count, badgeScale: s.badgeScale, badgeText: s.count > 0 ? layout.badgeText(s.count) : nil,
                                   flights: s.flights, buttonPressed: s.buttonPressed, accessibility: layout.accessibility(for: s))
        return (layout.displayList(for: s), state)
    }
}

/// The shop screen's manifest `state` (docs/command-line.md, “Outputs”):
/// `{"count", "badgeScale", "badgeText", "flights": [{"id", "progress", "center": {"x", "y"}, "scale"}],
/// "buttonPressed", "accessibility": {"cart": {"label", "value"}, "productImage": {"label"}, "addButton": {"label"}}}`.
public struct ShopFrameState: FrameState, Equatable {
    /// Items in the cart.
    public var count: Int
    /// Scale of the cart icon and badge (1 = at rest).
    public var badgeScale: Double
    /// The badge's text in the locale's number format; nil (`null`) while the count is 0 and no
    /// badge shows.
    public var badgeText: String?
    /// Flights in the air, in launch order; centers in screen points.
    public var flights: [ShopState.FlightState]
    /// Whether the add button shows its pressed look.
    public var buttonPressed: Bool
    public var accessibility: Accessibility

    public init(count: Int, badgeScale: Double, badgeText: String?, flights: [ShopState.FlightState], buttonPressed: Bool,
                accessibility: Accessibility) {
        self.count = count; self.badgeScale = badgeScale; self.badgeText = badgeText; self.flights = flights
        self.buttonPressed = buttonPressed; self.accessibility = accessibility
    }

    /// Accessibility labels and values of the screen's elements (seed 000; docs/motion-and-look.md,
    /// “The fly button”).
    public struct Accessibility: Encodable, Equatable, Sendable {
        public var cart: Element
        public var productImage: Element
        public var addButton: Element
        public init(cart: Element, productImage: Element, addButton: Element) {
            self.cart = cart; self.productImage = productImage; self.addButton = addButton
        }
    }

    /// One element: its label, and its value when it has one (left out otherwise).
    public struct Element: Encodable, Equatable, Sendable {
        public var label: String
        public var value: String?
        public init(label: String, value: String? = nil) { self.label = label; self.value = value }
    }

    private enum CodingKeys: String, CodingKey { case count, badgeScale, badgeText, flights, buttonPressed, accessibility }

    /// `badgeText` is always present: `null` without a badge.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(count, forKey: .count)
        try c.encode(badgeScale, forKey: .badgeScale)
        if let badgeText { try c.encode(badgeText, forKey: .badgeText) } else { try c.encodeNil(forKey: .badgeText) }
        try c.encode(flights, forKey: .flights)
        try c.encode(buttonPressed, forKey: .buttonPressed)
        try c.encode(accessibility, forKey: .accessibility)
    }
}
