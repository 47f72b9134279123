/// The shop screen's frames: `ShopLayout` + `FlyTimeline`.
public struct ShopModel: ScreenModel {
    /// The static layout (pt) of the scene's shop screen.
    public let layout: ShopLayout
    /// The taps' flights, count changes and bumps, as functions of time (s).
    public let timeline: FlyTimeline

    /// Lays out `shop` for `scene` with `measurer`'s text metrics and simulates its taps.
    public init(scene: Scene, shop: ShopContent, measurer: any TextMeasuring) {
        layout = ShopLayout(scene: scene, shop: shop, measurer: measurer)
        timeline = layout.timeline()
    }

    /// Taps, launches, landings and count increments, in time order (manifest `events`).
    public var events: [TimelineEvent] { timeline.events }
    /// Time (s) by which every flight has landed and every bump and roll has settled.
    public var settleTime: Double { timeline.settleTime }

    /// The display list and manifest state `t` seconds after the start of the render.
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
public struct ShopFrameState: FrameState, Decodable, Equatable {
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
    /// Labels and values VoiceOver reads (manifest `accessibility`).
    public var accessibility: Accessibility

    /// A frame state; see each property for units.
    public init(count: Int, badgeScale: Double, badgeText: String?, flights: [ShopState.FlightState], buttonPressed: Bool,
                accessibility: Accessibility) {
        self.count = count; self.badgeScale = badgeScale; self.badgeText = badgeText; self.flights = flights
        self.buttonPressed = buttonPressed; self.accessibility = accessibility
    }

    /// Accessibility labels and values of the screen's elements (seed 000; docs/motion-and-look.md,
    /// “The fly button”).
    public struct Accessibility: Codable, Equatable, Sendable {
        /// The cart button: label "Cart", value "1 item" or "N items" (seed 000).
        public var cart: Element
        /// The product image: the scene's `imageLabel`, else the product name.
        public var productImage: Element
        /// The add button: its title.
        public var addButton: Element
        /// The three elements of the shop screen.
        public init(cart: Element, productImage: Element, addButton: Element) {
            self.cart = cart; self.productImage = productImage; self.addButton = addButton
        }
    }

    /// One element: its label, and its value when it has one (left out otherwise).
    public struct Element: Codable, Equatable, Sendable {
        /// What VoiceOver reads as the element's name.
        public var label: String
        /// What VoiceOver reads after the label (the cart's count); nil, left out of the manifest, when
        /// the element has none.
        public var value: String?
        /// An element with a `label` and, optionally, a `value`.
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
