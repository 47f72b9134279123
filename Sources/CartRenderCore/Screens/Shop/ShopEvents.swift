/// What a scene file's events do on the shop screen (`ShopContent.decodeEvents`): taps on the
/// add button.
public enum ShopAction: SceneAction {
    /// `{"tap": "add"}`: tap the fly button's add button.
    case tapAdd

    /// The event's members besides `at`, as the canonical scene writes them: `{"tap": "add"}`.
    public var canonicalMembers: [(String, JSONValue)] {
        switch self {
        case .tapAdd: return [("tap", "add")]
        }
    }
}

/// What happens on the shop screen's timeline (`FlyTimeline.events`), as the manifest's
/// `events` list it (docs/command-line.md, “Outputs”).
public enum ShopEvent: TimelineEventKind {
    /// A tap on the add button: `{"target": "add"}`.
    case tap
    /// A flight leaves the product image toward the cart: `{"flight", "destination": {"x", "y"}}`,
    /// `flight` its 1-based launch order, `destination` cart center − source center (pt).
    case launch(flight: Int, destination: Vector)
    /// A flight lands: the count becomes `count` and `onAdd` fires: `{"flight", "count", "hook": "onAdd"}`.
    case land(flight: Int, count: Int)
    /// A tap counts at once, without a flight: `{"count", "reason", "hook": "onAdd"}`.
    case increment(count: Int, reason: IncrementReason)

    /// Why a tap counted at once instead of launching a flight (seed 000; docs/motion-and-look.md,
    /// “The fly button”).
    public enum IncrementReason: String, Equatable, Sendable, Codable, CaseIterable {
        /// Reduce Motion is on; the shop has no cart frame (`"cartFrame": null`); or
        /// `FlyTimeline.maximumFlights` (6) flights are already in the air.
        case reduceMotion, noCartFrame, maximumFlights
    }

    /// The hook a landing or an increment fires (seed 000).
    public static let addHook = "onAdd"
    /// The `target` of a tap on the add button (the scene file's `"tap": "add"`).
    public static let addTarget = "add"

    /// The manifest's `kind`: `tap`, `launch`, `land`, `increment`.
    public var name: String {
        switch self {
        case .tap: return "tap"
        case .launch: return "launch"
        case .land: return "land"
        case .increment: return "increment"
        }
    }

    /// Writes the members after `time` and `kind` in their fixed order (docs/command-line.md,
    /// “Outputs”): times in s and lengths in pt with at most 6 fraction digits.
    /// - Throws: the encoder's errors; `JSONValueEncoder`, which writes manifests, throws none.
    public func encodeMembers(to c: inout KeyedEncodingContainer<TimelineEventKey>) throws {
        switch self {
        case .tap:
            try c.encode(Self.addTarget, forKey: "target")
        case .launch(let flight, let d):
            try c.encode(flight, forKey: "flight")
            var v = c.nestedContainer(keyedBy: TimelineEventKey.self, forKey: "destination")
            try v.encode(d.dx, forKey: "x")
            try v.encode(d.dy, forKey: "y")
        case .land(let flight, let count):
            try c.encode(flight, forKey: "flight")
            try c.encode(count, forKey: "count")
            try c.encode(Self.addHook, forKey: "hook")
        case .increment(let count, let reason):
            try c.encode(count, forKey: "count")
            try c.encode(reason, forKey: "reason")
            try c.encode(Self.addHook, forKey: "hook")
        }
    }

    /// Reads `tap` (target `add` only), `launch`, `land` and `increment`.
    /// - Throws: `NotThisScreen` for a tap whose target is not `add` (the cart's taps are
    ///   `CartEvent`'s); `DecodingError` for a missing or mistyped member, or a `hook` other
    ///   than `onAdd`.
    public static func decode(kind: String, from c: KeyedDecodingContainer<TimelineEventKey>) throws -> ShopEvent? {
        switch kind {
        case "tap":
            let target = try c.decode(String.self, forKey: "target")
            guard target == addTarget else {
                throw NotThisScreen(DecodingError.dataCorruptedError(forKey: "target", in: c, debugDescription: "unknown tap target \"\(target)\""))
            }
            return .tap
        case "launch":
            let d = try c.nestedContainer(keyedBy: TimelineEventKey.self, forKey: "destination")
            return .launch(flight: try c.decode(Int.self, forKey: "flight"),
                           destination: Vector(dx: try d.decode(Double.self, forKey: "x"), dy: try d.decode(Double.self, forKey: "y")))
        case "land":
            let event = ShopEvent.land(flight: try c.decode(Int.self, forKey: "flight"), count: try c.decode(Int.self, forKey: "count"))
            try c.expect("hook", addHook)
            return event
        case "increment":
            let event = ShopEvent.increment(count: try c.decode(Int.self, forKey: "count"), reason: try c.decode(IncrementReason.self, forKey: "reason"))
            try c.expect("hook", addHook)
            return event
        default:
            return nil
        }
    }
}
