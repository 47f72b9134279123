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
        case .cart: return CartScreenPlaceholder(scene: scene)
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

/// Stand-in until the cart page has its layout: a blank screen.
struct CartScreenPlaceholder: ScreenModel {
    let scene: Scene
    var events: [TimelineEvent] { [] }
    var settleTime: Double { scene.events.last?.at ?? 0 }
    func frame(at t: Double) -> (display: DisplayList, state: JSONValue) {
        (DisplayList(size: Size(width: scene.device.width, height: scene.device.height),
                     background: Look.background.resolved(scene.colorScheme), items: []), .object([]))
    }
}
