import Foundation

/// The cart page's frames: `CartLayout` + `CartTimeline`.
public struct CartModel: ScreenModel {
    /// The static layout (pt) of the scene's cart page.
    public let layout: CartLayout
    /// The rows' swipes, deletions, quantity changes and presses, as functions of time (s).
    public let timeline: CartTimeline

    /// Lays out `cart` for `scene` with `measurer`'s text metrics and simulates its events.
    public init(scene: Scene, cart: CartContent, measurer: any TextMeasuring) {
        layout = CartLayout(scene: scene, cart: cart, measurer: measurer)
        timeline = layout.timeline()
    }

    /// Swipes, releases, opens, closes, deletions, taps, quantity changes and checkouts, in time
    /// order (manifest `events`).
    public var events: [TimelineEvent] { timeline.events }
    /// Time (s) by which every release, deletion and press has settled.
    public var settleTime: Double { timeline.settleTime }

    /// The display list and manifest state `t` seconds after the start of the render.
    public func frame(at t: Double) -> (display: DisplayList, state: CartFrameState) {
        let s = timeline.state(at: t)
        return (layout.displayList(for: s), frameState(s))
    }

    /// The manifest `state` of a cart state.
    public func frameState(_ s: CartState) -> CartFrameState {
        CartFrameState(
            rows: layout.slots(for: s).map { slot in
                let r = slot.row
                return CartFrameState.Row(id: r.id, offset: r.offset, y: slot.y, height: slot.height, quantity: r.quantity,
                                          open: r.open, phase: r.phase, opacity: 1 - r.removal)
            },
            total: layout.currency(s.total),
            totalAmount: Formatting.plainDecimal(s.total),
            openRows: s.rows.filter(\.open).map(\.id),
            pressed: s.pressed.map(\.button.pressedName))
    }
}

/// The cart page's manifest `state` (docs/command-line.md, “Outputs”), keys always present and in this order:
/// `{"rows": [{"id", "offset", "y", "height", "quantity", "open", "phase", "opacity"}], "total",
/// "totalAmount", "openRows", "pressed"}`.
public struct CartFrameState: FrameState, Decodable, Equatable {
    /// Rows on screen, top to bottom, those still leaving after a deletion included.
    public var rows: [Row]
    /// The formatted total (`"$291.98"`).
    public var total: String
    /// The same amount as an exact decimal string (`"291.98"`).
    public var totalAmount: String
    /// Ids of the open rows (the seed lets several be open at once).
    public var openRows: [String]
    /// The buttons showing their pressed look (`"checkout"`, `"plus:tek1"`).
    public var pressed: [String]

    /// A frame state; see each property for units.
    public init(rows: [Row], total: String, totalAmount: String, openRows: [String], pressed: [String]) {
        self.rows = rows; self.total = total; self.totalAmount = totalAmount; self.openRows = openRows; self.pressed = pressed
    }

    /// One row on screen, as the manifest lists it: `{"id", "offset", "y", "height", "quantity",
    /// "open", "phase", "opacity"}`.
    public struct Row: Codable, Equatable, Sendable {
        /// The item's id (`cart.items[].id`).
        public var id: String
        /// The row content's horizontal offset (pt).
        public var offset: Double
        /// The row's slot on screen (pt); `height` shrinks to 0 while a deleted row leaves.
        public var y: Double
        /// The slot's height (pt); shrinks to 0 while a deleted row leaves.
        public var height: Double
        /// The row's quantity at this moment (1…`CartItem.maximumQuantity`).
        public var quantity: Int
        /// The seed's `isSwiped`.
        public var open: Bool
        /// `rest`, `drag`, `settle` or `delete`.
        public var phase: CartRowState.Phase
        /// The row's opacity, 0…1.
        public var opacity: Double

        /// A row; offsets, positions and heights in pt, opacity 0…1.
        public init(id: String, offset: Double, y: Double, height: Double, quantity: Int, open: Bool, phase: CartRowState.Phase, opacity: Double) {
            self.id = id; self.offset = offset; self.y = y; self.height = height; self.quantity = quantity
            self.open = open; self.phase = phase; self.opacity = opacity
        }
    }
}
