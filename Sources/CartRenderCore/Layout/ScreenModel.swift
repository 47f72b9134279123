/// One screen of a scene, ready to produce frames: static layout done, motion simulated.
/// `frame(at:)` is a pure function of time, so frames can be made in any order and in parallel
/// (one model per worker: it holds that worker's text measurer).
public protocol ScreenModel {
    /// Taps, launches, landings, swipes, deletions… in time order (manifest `events`).
    var events: [TimelineEvent] { get }
    /// Time (s) by which every animation the events start has settled.
    var settleTime: Double { get }
    /// What the screen shows `t` seconds after the start: the display list to draw and the
    /// manifest's `state` object.
    func frame(at t: Double) -> (display: DisplayList, state: JSONValue)
}

/// Builds the screen model of a scene.
public enum Screens {
    /// The model for `scene.screen`, laid out with `measurer`'s text metrics.
    public static func model(for scene: Scene, measurer: any TextMeasuring) -> any ScreenModel {
        switch scene.screen {
        case .shop: return ShopScreen(scene: scene, measurer: measurer)
        case .cart: return CartScreen(scene: scene, measurer: measurer)
        }
    }
}

/// The fly-button demo screen: `ShopLayout` + `FlyTimeline`.
public struct ShopScreen: ScreenModel {
    public let layout: ShopLayout
    public let timeline: FlyTimeline

    public init(scene: Scene, measurer: any TextMeasuring) {
        layout = ShopLayout(scene: scene, measurer: measurer)
        timeline = layout.timeline()
    }

    public var events: [TimelineEvent] { timeline.events }
    public var settleTime: Double { timeline.settleTime }

    public func frame(at t: Double) -> (display: DisplayList, state: JSONValue) {
        let s = timeline.state(at: t)
        let state: JSONValue = .object([
            ("count", .int(s.count)),
            ("badgeScale", .num(s.badgeScale)),
            ("badgeText", s.count > 0 ? .string(layout.badgeText(s.count)) : .null),
            ("flights", .array(s.flights.map { f in
                .object([("id", .int(f.id)), ("progress", .num(f.progress)),
                         ("center", .object([("x", .num(f.center.x)), ("y", .num(f.center.y))])), ("scale", .num(f.scale))])
            })),
            ("buttonPressed", .bool(s.buttonPressed)),
            ("accessibility", layout.accessibility(for: s)),
        ])
        return (layout.displayList(for: s), state)
    }
}

/// The cart page of seed 003: `CartLayout` + `CartTimeline`.
///
/// Manifest `state` (SPEC.md §5), keys always present and in this order:
/// `{"rows": [{"id", "offset", "y", "height", "quantity", "open", "phase", "opacity"}], "total",
/// "totalAmount", "openRows", "pressed"}` — `offset` the row content's horizontal offset (pt),
/// `y` and `height` the row's slot on screen (pt; `height` shrinks to 0 while a deleted row
/// leaves), `open` the seed's `isSwiped`, `phase` `rest` / `drag` / `settle` / `delete`,
/// `opacity` the row's opacity; `total` the formatted total, `totalAmount` the same amount as
/// an exact decimal string (`"291.98"`); `openRows` the ids of open rows (the seed lets several
/// be open at once); `pressed` the buttons showing their pressed look (`"checkout"`,
/// `"plus:tek1"`).
public struct CartScreen: ScreenModel {
    public let layout: CartLayout
    public let timeline: CartTimeline

    public init(scene: Scene, measurer: any TextMeasuring) {
        layout = CartLayout(scene: scene, measurer: measurer)
        timeline = layout.timeline()
    }

    public var events: [TimelineEvent] { timeline.events }
    public var settleTime: Double { timeline.settleTime }

    public func frame(at t: Double) -> (display: DisplayList, state: JSONValue) {
        let s = timeline.state(at: t)
        return (layout.displayList(for: s), stateJSON(s))
    }

    /// The manifest `state` of a cart state.
    public func stateJSON(_ s: CartState) -> JSONValue {
        let slots = layout.slots(for: s)
        return .object([
            ("rows", .array(slots.map { slot in
                let r = slot.row
                return .object([
                    ("id", .string(r.id)), ("offset", .num(r.offset)), ("y", .num(slot.y)), ("height", .num(slot.height)),
                    ("quantity", .int(r.quantity)), ("open", .bool(r.open)), ("phase", .string(r.phase.rawValue)),
                    ("opacity", .num(1 - r.removal)),
                ])
            })),
            ("total", .string(layout.currency(s.total))),
            ("totalAmount", .string(Formatting.plainDecimal(s.total))),
            ("openRows", .array(s.rows.filter(\.open).map { .string($0.id) })),
            ("pressed", .array(s.pressed.map { p in .string(p.item.map { "\(p.button):\($0)" } ?? p.button) })),
        ])
    }
}
