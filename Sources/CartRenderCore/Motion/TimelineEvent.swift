/// Something that happens at a moment of the timeline, listed in the manifest's `events`
/// (docs/command-line.md, “Outputs”): taps, launches, landings (`onAdd`), swipes, deletions.
///
/// Its manifest form is `{"time", "kind", …}`: the kind's members follow in a fixed order that
/// the screen's event type gives (`ShopEvent`, `CartEvent`); times and lengths have at most 6
/// fraction digits (µs, µpt).
public struct TimelineEvent: Equatable, Sendable {
    /// Seconds since the start of the render.
    public var time: Double
    /// What happened, with its data: a value of the event type of the screen whose timeline
    /// made it.
    public var kind: any TimelineEventKind
    /// Index in the scene file's `events` array of the input that led to this event (a tap, and
    /// the launch and landing it causes; a swipe and its release and deletion); nil when no
    /// input did (a manifest read back does not keep it). Not written to the manifest: `verify`
    /// uses it to point at the scene line of a moved event.
    public var cause: Int?

    /// An event at `time` seconds since the start of the render, of kind `kind`, caused by the
    /// scene file's `events[cause]` (nil: by none).
    public init(time: Double, _ kind: any TimelineEventKind, cause: Int? = nil) { self.time = time; self.kind = kind; self.cause = cause }

    /// Equal when the times are exactly equal (no tolerance) and the kinds are the same event of the
    /// same screen (the cause does not count: a manifest does not keep it).
    public static func == (a: TimelineEvent, b: TimelineEvent) -> Bool { a.time == b.time && a.kind.isEqual(to: b.kind) }
}

/// A screen's timeline events (`Screen.timelineEvents`): an enum, one case per manifest `kind`,
/// that writes and reads its members of the manifest's event object.
public protocol TimelineEventKind: Equatable, Sendable {
    /// The manifest's `kind` (`tap`, `launch`, `swipe`, …).
    var name: String { get }
    /// Writes the members after `time` and `kind`, in their fixed order.
    func encodeMembers(to container: inout KeyedEncodingContainer<TimelineEventKey>) throws
    /// Reads an event of kind `kind` as `encodeMembers(to:)` writes it; nil when the kind is
    /// not one of this screen's.
    /// - Throws: `NotThisScreen` when the kind is this screen's but a member says the event is
    ///   not (a tap on a target it does not have: another screen may have it); `DecodingError`
    ///   for a missing or mistyped member or a value the kind cannot have.
    static func decode(kind: String, from container: KeyedDecodingContainer<TimelineEventKey>) throws -> Self?
}

extension TimelineEventKind {
    /// Whether `other` is the same event of the same screen.
    public func isEqual(to other: any TimelineEventKind) -> Bool { (other as? Self) == self }
}

/// What a screen's `TimelineEventKind.decode(kind:from:)` throws for an event of one of its
/// kinds that another screen may read (a tap on a target it does not have): `error` is reported
/// when no screen reads the event.
public struct NotThisScreen: Error {
    /// Why the member did not read: the error reported when no screen reads the event.
    public var error: DecodingError
    /// Wraps the decoding error reported when no other screen reads the event.
    public init(_ error: DecodingError) { self.error = error }
}

/// A member of a manifest event (`time`, `kind`, `item`, …).
public struct TimelineEventKey: CodingKey, Hashable, ExpressibleByStringLiteral {
    /// The member's name as it appears in the manifest JSON.
    public let stringValue: String
    /// The member named `name`.
    public init(_ name: String) { stringValue = name }
    /// The member named by a string literal, e.g. `"item"`.
    public init(stringLiteral name: String) { stringValue = name }
    /// The member named `stringValue` (`CodingKey`); never nil.
    public init?(stringValue: String) { self.stringValue = stringValue }
    /// Always nil: manifest events are JSON objects, never arrays.
    public var intValue: Int? { nil }
    /// Always nil: manifest events have no integer keys.
    public init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == TimelineEventKey {
    /// The string member `key`, which must be `value`.
    /// - Throws: `DecodingError` when it is missing, not a string or another string.
    public func expect(_ key: TimelineEventKey, _ value: String) throws {
        let found = try decode(String.self, forKey: key)
        guard found == value else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "must be \"\(value)\", got \"\(found)\"")
        }
    }
}

extension TimelineEvent: Codable {
    /// Writes `{"time", "kind", …}`: the time in seconds, the kind's name, then its members in
    /// their fixed order (docs/command-line.md, “Outputs”).
    /// - Throws: the encoder's errors; `JSONValueEncoder`, which writes manifests, throws none.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: TimelineEventKey.self)
        try c.encode(time, forKey: "time")
        try c.encode(kind.name, forKey: "kind")
        try kind.encodeMembers(to: &c)
    }

    /// Reads an event as `encode(to:)` writes it: the first screen (in `Screens.all` order)
    /// whose event type reads its `kind` makes it.
    /// - Throws: `DecodingError` for an unknown `kind` or tap target (the first screen's
    ///   `NotThisScreen`), and the error of the screen whose event it is (a missing or mistyped
    ///   member, a `hook` or `animation` other than the one the kind has).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: TimelineEventKey.self)
        time = try c.decode(Double.self, forKey: "time")
        let name = try c.decode(String.self, forKey: "kind")
        var unclaimed: DecodingError?
        for screen in Screens.all {
            do {
                if let kind = try screen.timelineEvents.decode(kind: name, from: c) { self.kind = kind; return }
            } catch let e as NotThisScreen {
                if unclaimed == nil { unclaimed = e.error }
            }
        }
        throw unclaimed ?? DecodingError.dataCorruptedError(forKey: "kind", in: c, debugDescription: "unknown event kind \"\(name)\"")
    }
}

/// Time comparisons with the 1 µs tolerance of docs/motion-and-look.md, “Time and frames”, so floating-point rounding never moves
/// an event by a frame.
public enum TimeTolerance {
    /// 1 µs.
    public static let epsilon = 1e-6
    /// Whether an event at `event` seconds has happened by time `t` seconds.
    @inline(__always) public static func hasHappened(_ event: Double, by t: Double) -> Bool { t >= event - epsilon }
}
