/// A button of the cart page that events tap: a row's plus, minus or revealed trash button, or
/// "Check out".
public enum CartButton: Equatable, Sendable {
    /// A row's button; `item` is the row's item id.
    case row(Row, item: String)
    /// "Check out".
    case checkout

    /// The buttons of a row; the raw value is the scene file's `"tap"` and the manifest's `target`.
    public enum Row: String, Equatable, Sendable, CaseIterable { case plus, minus, delete }

    /// The button's name in scene files (`"tap"`) and in the manifest's `target`: `plus`,
    /// `minus`, `delete`, `checkout`.
    public var name: String {
        switch self {
        case .row(let b, _): return b.rawValue
        case .checkout: return "checkout"
        }
    }

    /// The row's item id; nil for "Check out".
    public var item: String? {
        switch self {
        case .row(_, let item): return item
        case .checkout: return nil
        }
    }

    /// How the manifest state's `pressed` lists it: `plus:tek1`, `checkout`.
    public var pressedName: String { item.map { "\(name):\($0)" } ?? name }
}

/// What a scene file's events do on the cart page (`CartContent.decodeEvents`).
public enum CartAction: SceneAction {
    /// A finger drag on a cart row: `translation` in pt (negative = leftward), moving linearly
    /// over `duration` seconds, then lifting: `{"swipe": {"item", "translation", "duration"}}`.
    case swipe(item: String, translation: Double, duration: Double)
    /// A tap on a button: `{"tap": "checkout"}`, or `{"tap", "item"}` for a row's. A trash tap
    /// (`delete`) needs the row to be swiped open at that moment (and not under a finger);
    /// `CartContent` rejects it otherwise, as it rejects any event on an item an earlier event
    /// deleted.
    case tap(CartButton)

    /// The event's members besides `at`, as the canonical scene writes them (`{"tap": "plus", "item":
    /// "tek1"}`, `{"swipe": {…}}`).
    public var canonicalMembers: [(String, JSONValue)] {
        switch self {
        case .tap(.checkout): return [("tap", "checkout")]
        case .tap(.row(let b, let item)): return [("tap", .string(b.rawValue)), ("item", .string(item))]
        case .swipe(let item, let tr, let d):
            return [("swipe", .object([("item", .string(item)), ("translation", .num(tr)), ("duration", .num(d))]))]
        }
    }
}

/// What happens on the cart page's timeline (`CartTimeline.events`), as the manifest's `events`
/// list it (docs/command-line.md, “Outputs”).
public enum CartEvent: TimelineEventKind {
    /// A tap on a button: `{"target"}`, plus `"item"` for a row's button.
    case tap(CartButton)
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
    case delete(item: String, reason: DeletionReason, total: String)
    /// A row's quantity changes: `{"item", "from", "to", "total"}`.
    case quantity(item: String, from: Int, to: Int, total: String)
    /// "Check out" is tapped with this formatted total: `{"total"}`.
    case checkout(total: String)

    /// Why a row was deleted: swiped past the delete threshold, or its trash button tapped.
    public enum DeletionReason: String, Equatable, Sendable, CaseIterable {
        /// `swipe`: released past the delete threshold; `trash`: its revealed trash button tapped.
        case swipe, trash
        /// The animation the deletion runs, as the manifest names it: `easeOut` after a swipe,
        /// `easeIn` after a trash tap (seed 003).
        public var animation: String { self == .swipe ? "easeOut" : "easeIn" }
    }

    /// The manifest's `kind`: `tap`, `swipe`, `release`, `open`, `close`, `delete`, `quantity`,
    /// `checkout`.
    public var name: String {
        switch self {
        case .tap: return "tap"
        case .swipe: return "swipe"
        case .release: return "release"
        case .open: return "open"
        case .close: return "close"
        case .delete: return "delete"
        case .quantity: return "quantity"
        case .checkout: return "checkout"
        }
    }

    /// Writes the members after `time` and `kind` in their fixed order (docs/command-line.md,
    /// “Outputs”): times in s, offsets in pt, totals formatted, at most 6 fraction digits.
    /// - Throws: the encoder's errors; `JSONValueEncoder`, which writes manifests, throws none.
    public func encodeMembers(to c: inout KeyedEncodingContainer<TimelineEventKey>) throws {
        switch self {
        case .tap(let button):
            try c.encode(button.name, forKey: "target")
            if let item = button.item { try c.encode(item, forKey: "item") }
        case .swipe(let item, let translation, let duration, let offset):
            try c.encode(item, forKey: "item")
            try c.encode(translation, forKey: "translation")
            try c.encode(duration, forKey: "duration")
            try c.encode(offset, forKey: "offset")
        case .release(let item, let translation, let offset, let target):
            try c.encode(item, forKey: "item")
            try c.encode(translation, forKey: "translation")
            try c.encode(offset, forKey: "offset")
            try c.encode(target, forKey: "target")
        case .open(let item), .close(let item):
            try c.encode(item, forKey: "item")
        case .delete(let item, let reason, let total):
            try c.encode(item, forKey: "item")
            try c.encode(reason.rawValue, forKey: "reason")
            try c.encode(reason.animation, forKey: "animation")
            try c.encode(total, forKey: "total")
        case .quantity(let item, let from, let to, let total):
            try c.encode(item, forKey: "item")
            try c.encode(from, forKey: "from")
            try c.encode(to, forKey: "to")
            try c.encode(total, forKey: "total")
        case .checkout(let total):
            try c.encode(total, forKey: "total")
        }
    }

    /// Reads the cart's kinds; a `tap` whose target is a row button also reads its `item`.
    /// - Throws: `NotThisScreen` for a tap target that is not the cart's; `DecodingError` for an
    ///   unknown deletion reason, an `animation` other than the reason's, or a missing or
    ///   mistyped member.
    public static func decode(kind: String, from c: KeyedDecodingContainer<TimelineEventKey>) throws -> CartEvent? {
        func string(_ key: TimelineEventKey) throws -> String { try c.decode(String.self, forKey: key) }
        func double(_ key: TimelineEventKey) throws -> Double { try c.decode(Double.self, forKey: key) }
        func int(_ key: TimelineEventKey) throws -> Int { try c.decode(Int.self, forKey: key) }
        switch kind {
        case "tap":
            let target = try string("target")
            if target == "checkout" { return .tap(.checkout) }
            guard let button = CartButton.Row(rawValue: target) else {
                throw NotThisScreen(DecodingError.dataCorruptedError(forKey: "target", in: c, debugDescription: "unknown tap target \"\(target)\""))
            }
            return .tap(.row(button, item: try string("item")))
        case "swipe":
            return .swipe(item: try string("item"), translation: try double("translation"), duration: try double("duration"), offset: try double("offset"))
        case "release":
            return .release(item: try string("item"), translation: try double("translation"), offset: try double("offset"), target: try double("target"))
        case "open": return .open(item: try string("item"))
        case "close": return .close(item: try string("item"))
        case "delete":
            let reasonText = try string("reason")
            guard let reason = DeletionReason(rawValue: reasonText) else {
                throw DecodingError.dataCorruptedError(forKey: "reason", in: c, debugDescription: "unknown deletion reason \"\(reasonText)\"")
            }
            try c.expect("animation", reason.animation)
            return .delete(item: try string("item"), reason: reason, total: try string("total"))
        case "quantity":
            return .quantity(item: try string("item"), from: try int("from"), to: try int("to"), total: try string("total"))
        case "checkout": return .checkout(total: try string("total"))
        default: return nil
        }
    }
}
