/// Something that happens at a moment of the timeline, listed in the manifest's `events`
/// (SPEC.md §5): taps, launches, landings (`onAdd`), swipes, deletions.
public struct TimelineEvent: Equatable, Sendable {
    /// Seconds since the start of the render.
    public var time: Double
    /// `tap`, `launch`, `land`, `increment`, `swipe`, `open`, `close`, `delete`, `quantity`, `checkout`.
    public var kind: String
    /// Further fields, in a fixed order.
    public var fields: [(String, JSONValue)]

    public init(time: Double, kind: String, fields: [(String, JSONValue)] = []) {
        self.time = time; self.kind = kind; self.fields = fields
    }

    public static func == (a: TimelineEvent, b: TimelineEvent) -> Bool {
        a.time == b.time && a.kind == b.kind && JSONValue.object(a.fields) == JSONValue.object(b.fields)
    }

    /// The manifest form: `{"time", "kind", …fields}`.
    public var json: JSONValue { .object([("time", .num(time)), ("kind", .string(kind))] + fields) }
}

/// Time comparisons with the 1 µs tolerance of SPEC.md §1, so floating-point rounding never moves
/// an event by a frame.
public enum TimeTolerance {
    /// 1 µs.
    public static let epsilon = 1e-6
    /// Whether an event at `event` seconds has happened by time `t` seconds.
    @inline(__always) public static func hasHappened(_ event: Double, by t: Double) -> Bool { t >= event - epsilon }
}
