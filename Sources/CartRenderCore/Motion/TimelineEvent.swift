/// Something that happens at a moment of the timeline, listed in the manifest's `events`
/// (docs/command-line.md, “Outputs”): taps, launches, landings (`onAdd`), swipes, deletions.
///
/// Its manifest form is `{"time", "kind", …}` with the members of its kind in a fixed order
/// (`Kind` lists them); times and lengths have at most 6 fraction digits (µs, µpt).
public struct TimelineEvent: Equatable, Sendable {
    /// Seconds since the start of the render.
    public var time: Double
    public var kind: Kind

    public init(time: Double, _ kind: Kind) { self.time = time; self.kind = kind }

    /// What happened, with its data.
    public enum Kind: Equatable, Sendable {
        /// A tap on a button: `{"target"}`, plus `"item"` for a row's button.
        case tap(TapTarget)
        /// A flight leaves the product image toward the cart: `{"flight", "destination": {"x", "y"}}`,
        /// `flight` its 1-based launch order, `destination` cart center − source center (pt).
        case launch(flight: Int, destination: Vector)
        /// A flight lands: the count becomes `count` and `onAdd` fires: `{"flight", "count", "hook": "onAdd"}`.
        case land(flight: Int, count: Int)
        /// A tap counts at once, without a flight: `{"count", "reason", "hook": "onAdd"}`.
        case increment(count: Int, reason: IncrementReason)
        /// A finger lands on a row and moves `translation` pt over `duration` s from the row's
        /// `offset` (pt): `{"item", "translation", "duration", "offset"}`.
        case swipe(item: String, translation: Double, duration: Double, offset: Double)
        /// The finger lifts; the row animates from `offset` to `target` (pt):
        /// `{"item", "translation", "offset", "target"}`.
        case release(item: String, translation: Double, offset: Double, target: Double)
        /// A released row stays open, its trash button revealed: `{"item"}`.
        case open(item: String)
        /// A released row goes back to rest: `{"item"}`.
        case close(item: String)
        /// An item leaves the cart, the formatted total after it:
        /// `{"item", "reason", "animation", "total"}` (`easeOut` after a swipe, `easeIn` after a trash tap).
        case delete(item: String, reason: CartTimeline.DeletionReason, total: String)
        /// A row's quantity changes: `{"item", "from", "to", "total"}`.
        case quantity(item: String, from: Int, to: Int, total: String)
        /// "Check out" is tapped with this formatted total: `{"total"}`.
        case checkout(total: String)

        /// The manifest's `kind`: `tap`, `launch`, `land`, `increment`, `swipe`, `release`,
        /// `open`, `close`, `delete`, `quantity`, `checkout`.
        public var name: String {
            switch self {
            case .tap: return "tap"
            case .launch: return "launch"
            case .land: return "land"
            case .increment: return "increment"
            case .swipe: return "swipe"
            case .release: return "release"
            case .open: return "open"
            case .close: return "close"
            case .delete: return "delete"
            case .quantity: return "quantity"
            case .checkout: return "checkout"
            }
        }
    }

    /// The button of a `tap`.
    public enum TapTarget: Equatable, Sendable {
        /// The shop's add button.
        case add
        /// A cart row's plus, minus or revealed trash button.
        case row(SceneEvent.RowButton, item: String)
        /// The cart page's "Check out".
        case checkout
    }

    /// Why a tap counted at once instead of launching a flight (seed 000; docs/motion-and-look.md,
    /// “The fly button”).
    public enum IncrementReason: String, Equatable, Sendable, Codable {
        case reduceMotion, noCartFrame, maximumFlights
    }

    /// The hook a landing or an increment fires (seed 000).
    public static let addHook = "onAdd"
}

extension TimelineEvent: Codable {
    private enum Key: String, CodingKey {
        case time, kind, target, item, flight, destination, count, reason, hook, translation, duration, offset, animation, from, to, total
        case x, y
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(time, forKey: .time)
        try c.encode(kind.name, forKey: .kind)
        switch kind {
        case .tap(let target):
            switch target {
            case .add: try c.encode("add", forKey: .target)
            case .checkout: try c.encode("checkout", forKey: .target)
            case .row(let button, let item):
                try c.encode(button.rawValue, forKey: .target)
                try c.encode(item, forKey: .item)
            }
        case .launch(let flight, let d):
            try c.encode(flight, forKey: .flight)
            var v = c.nestedContainer(keyedBy: Key.self, forKey: .destination)
            try v.encode(d.dx, forKey: .x)
            try v.encode(d.dy, forKey: .y)
        case .land(let flight, let count):
            try c.encode(flight, forKey: .flight)
            try c.encode(count, forKey: .count)
            try c.encode(Self.addHook, forKey: .hook)
        case .increment(let count, let reason):
            try c.encode(count, forKey: .count)
            try c.encode(reason, forKey: .reason)
            try c.encode(Self.addHook, forKey: .hook)
        case .swipe(let item, let translation, let duration, let offset):
            try c.encode(item, forKey: .item)
            try c.encode(translation, forKey: .translation)
            try c.encode(duration, forKey: .duration)
            try c.encode(offset, forKey: .offset)
        case .release(let item, let translation, let offset, let target):
            try c.encode(item, forKey: .item)
            try c.encode(translation, forKey: .translation)
            try c.encode(offset, forKey: .offset)
            try c.encode(target, forKey: .target)
        case .open(let item), .close(let item):
            try c.encode(item, forKey: .item)
        case .delete(let item, let reason, let total):
            try c.encode(item, forKey: .item)
            try c.encode(reason.rawValue, forKey: .reason)
            try c.encode(Self.animation(of: reason), forKey: .animation)
            try c.encode(total, forKey: .total)
        case .quantity(let item, let from, let to, let total):
            try c.encode(item, forKey: .item)
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
            try c.encode(total, forKey: .total)
        case .checkout(let total):
            try c.encode(total, forKey: .total)
        }
    }

    /// Reads an event as `encode(to:)` writes it.
    /// - Throws: `DecodingError` for an unknown `kind`, a missing or mistyped member, or a
    ///   `hook` or `animation` other than the one the kind has.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        time = try c.decode(Double.self, forKey: .time)
        func string(_ key: Key) throws -> String { try c.decode(String.self, forKey: key) }
        func double(_ key: Key) throws -> Double { try c.decode(Double.self, forKey: key) }
        func int(_ key: Key) throws -> Int { try c.decode(Int.self, forKey: key) }
        func expect(_ key: Key, _ value: String) throws {
            let found = try string(key)
            guard found == value else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "must be \"\(value)\", got \"\(found)\"")
            }
        }
        let name = try string(.kind)
        switch name {
        case "tap":
            let target = try string(.target)
            switch target {
            case "add": kind = .tap(.add)
            case "checkout": kind = .tap(.checkout)
            default:
                guard let button = SceneEvent.RowButton(rawValue: target) else {
                    throw DecodingError.dataCorruptedError(forKey: .target, in: c, debugDescription: "unknown tap target \"\(target)\"")
                }
                kind = .tap(.row(button, item: try string(.item)))
            }
        case "launch":
            let d = try c.nestedContainer(keyedBy: Key.self, forKey: .destination)
            kind = .launch(flight: try int(.flight), destination: Vector(dx: try d.decode(Double.self, forKey: .x), dy: try d.decode(Double.self, forKey: .y)))
        case "land":
            kind = .land(flight: try int(.flight), count: try int(.count))
            try expect(.hook, Self.addHook)
        case "increment":
            kind = .increment(count: try int(.count), reason: try c.decode(IncrementReason.self, forKey: .reason))
            try expect(.hook, Self.addHook)
        case "swipe":
            kind = .swipe(item: try string(.item), translation: try double(.translation), duration: try double(.duration), offset: try double(.offset))
        case "release":
            kind = .release(item: try string(.item), translation: try double(.translation), offset: try double(.offset), target: try double(.target))
        case "open": kind = .open(item: try string(.item))
        case "close": kind = .close(item: try string(.item))
        case "delete":
            let reasonText = try string(.reason)
            guard let reason = CartTimeline.DeletionReason(rawValue: reasonText) else {
                throw DecodingError.dataCorruptedError(forKey: .reason, in: c, debugDescription: "unknown deletion reason \"\(reasonText)\"")
            }
            try expect(.animation, Self.animation(of: reason))
            kind = .delete(item: try string(.item), reason: reason, total: try string(.total))
        case "quantity":
            kind = .quantity(item: try string(.item), from: try int(.from), to: try int(.to), total: try string(.total))
        case "checkout": kind = .checkout(total: try string(.total))
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown event kind \"\(name)\"")
        }
    }

    /// The animation a deletion runs: `.easeOut` after a swipe, `.easeIn` after a trash tap (seed 003).
    static func animation(of reason: CartTimeline.DeletionReason) -> String { reason == .swipe ? "easeOut" : "easeIn" }
}

/// Time comparisons with the 1 µs tolerance of docs/motion-and-look.md, “Time and frames”, so floating-point rounding never moves
/// an event by a frame.
public enum TimeTolerance {
    /// 1 µs.
    public static let epsilon = 1e-6
    /// Whether an event at `event` seconds has happened by time `t` seconds.
    @inline(__always) public static func hasHappened(_ event: Double, by t: Double) -> Bool { t >= event - epsilon }
}
