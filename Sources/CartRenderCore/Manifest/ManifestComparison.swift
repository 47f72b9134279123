/// How a render differs from a baseline's manifest (docs/snapshot-testing.md, “What changed: the
/// state divergence”): the
/// frames' `state`, the `events`, and the `software` that drew them.
///
/// Pure functions over the manifest's values: the state is compared as the JSON it is written
/// as, member by member, so a state field added to a screen is compared without new code.
public enum ManifestComparison {
    /// Two numbers are the same when they differ by at most this much of their unit (s, pt, a
    /// scale of 1): the manifest writes 6 fraction digits.
    public static let tolerance = 1e-6

    /// One difference between an expected and an actual JSON value.
    public struct Change: Equatable, Sendable {
        /// JSON path from the state's root: `flights[1].center.y`, `count`, `rows[0]`.
        public var path: String
        /// The value in the baseline and in this run; nil when the member or element is absent.
        public var expected: JSONValue?
        /// The value in this run; nil when absent.
        public var actual: JSONValue?

        /// A difference at `path`.
        public init(path: String, expected: JSONValue?, actual: JSONValue?) {
            self.path = path; self.expected = expected; self.actual = actual
        }

        /// `{"path", "expected", "actual"}`, an absent side as `null`.
        public var json: JSONValue {
            .object([("path", .string(path)), ("expected", expected ?? .null), ("actual", actual ?? .null)])
        }

        /// `flights[0].progress 0.97 → 0.81`; an absent side as `none`, objects and arrays as
        /// compact JSON cut at 40 characters.
        public var description: String { "\(path) \(Self.text(expected)) → \(Self.text(actual))" }

        static func text(_ value: JSONValue?) -> String {
            guard let value else { return "none" }
            let s = value.serialized()
            return s.count > 40 ? String(s.prefix(39)) + "…" : s
        }
    }

    /// The differences between `expected` and `actual`, in a fixed order: an object's members
    /// in the expected order, then those only `actual` has; arrays element by element, then the
    /// elements only one side has. Numbers differ when they are more than ``tolerance`` apart
    /// (after rounding both to the manifest's 6 fraction digits); other values differ when
    /// their JSON text does; values of different types differ as a whole.
    /// - Complexity: O(size of both values), plus O(m²) for objects of m members.
    public static func changes(expected: JSONValue, actual: JSONValue, path: String = "") -> [Change] {
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            var out: [Change] = []
            for (key, value) in e {
                let p = path.isEmpty ? key : path + "." + key
                if let other = a.first(where: { $0.0 == key }) {
                    out += changes(expected: value, actual: other.1, path: p)
                } else {
                    out.append(Change(path: p, expected: value, actual: nil))
                }
            }
            for (key, value) in a where !e.contains(where: { $0.0 == key }) {
                out.append(Change(path: path.isEmpty ? key : path + "." + key, expected: nil, actual: value))
            }
            return out
        case (.array(let e), .array(let a)):
            var out: [Change] = []
            for i in 0..<max(e.count, a.count) {
                let p = path + "[\(i)]"
                if i < e.count && i < a.count {
                    out += changes(expected: e[i], actual: a[i], path: p)
                } else {
                    out.append(Change(path: p, expected: i < e.count ? e[i] : nil, actual: i < a.count ? a[i] : nil))
                }
            }
            return out
        default:
            if let x = number(expected), let y = number(actual) {
                return abs(x - y) <= tolerance * (1 + 1e-9) ? [] : [Change(path: path, expected: expected, actual: actual)]
            }
            return expected.serialized() == actual.serialized() ? [] : [Change(path: path, expected: expected, actual: actual)]
        }
    }

    /// The value of a JSON number as the manifest writes it (6 fraction digits); nil for others.
    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let n): return Double(n)
        case .number(let v, let decimals): return Double(JSONValue.format(v, decimals: min(decimals, 6)))
        case .numberText(let t): return Double(t).map { Double(JSONValue.format($0, decimals: 6)) ?? $0 }
        default: return nil
        }
    }

    /// An event whose time differs between the baseline and this run, or that only one has.
    public struct MovedEvent: Equatable, Sendable {
        /// The event's `kind` and the members that tell it from others of its kind (`flight`,
        /// `item`, a `target` button), in the event's order.
        public var kind: String
        /// The members that identify the event among those of its kind.
        public var identity: [(String, JSONValue)]
        /// Its time (s) in the baseline and in this run; nil when that side has no such event.
        public var expected: Double?
        /// Its time in this run (s); nil when this run has no such event.
        public var actual: Double?
        /// Index in the scene file's `events` of the input that led to it in this run
        /// (``TimelineEvent/cause``); nil when this run has no such event or no input caused it.
        public var cause: Int?

        /// A moved event of `kind` with its identifying members, its times (s) in the baseline
        /// and in this run, and the index of the scene event that caused it in this run.
        public init(kind: String, identity: [(String, JSONValue)], expected: Double?, actual: Double?, cause: Int? = nil) {
            self.kind = kind; self.identity = identity; self.expected = expected; self.actual = actual; self.cause = cause
        }

        /// Equal when their JSON is (the cause is not part of it).
        public static func == (a: MovedEvent, b: MovedEvent) -> Bool { a.json == b.json }

        /// `{"kind", "flight"?, "item"?, "target"?, "expected", "actual"}`, times in s, an absent side as `null`.
        public var json: JSONValue {
            .object([("kind", .string(kind))] + identity + [("expected", expected.map(JSONValue.num) ?? .null),
                                                            ("actual", actual.map(JSONValue.num) ?? .null)])
        }

        /// `land of flight 1 at 0.95 s → 1 s`.
        public var description: String {
            let who = identity.map { "\($0.0) \($0.1.serialized())" }.joined(separator: ", ")
            func t(_ v: Double?) -> String { v.map { JSONValue.format($0, decimals: 6) + " s" } ?? "none" }
            return kind + (who.isEmpty ? "" : " (\(who))") + " at \(t(expected)) → \(t(actual))"
        }
    }

    /// The events of `actual` whose time moved from `expected` by more than ``tolerance``, and
    /// those only one side has. Events are matched by kind and identity (``MovedEvent/identity``),
    /// the k-th of a kind and identity in one list with the k-th in the other; the result is in
    /// the baseline's order, then the events only this run has, in its order.
    /// - Throws: what encoding an event throws (nothing for the events a timeline makes).
    public static func movedEvents(expected: [TimelineEvent], actual: [TimelineEvent]) throws -> [MovedEvent] {
        func keyed(_ events: [TimelineEvent]) throws -> [(key: String, kind: String, identity: [(String, JSONValue)], time: Double, cause: Int?)] {
            var seen: [String: Int] = [:]
            return try events.map { event in
                guard case .object(let members) = try JSONValue(encoding: event) else { return ("", "", [], event.time, event.cause) }
                let identity = members.filter { m in
                    ["flight", "item", "target"].contains(m.0) && { if case .string = m.1 { return true }; if case .int = m.1 { return true }; return false }()
                }
                let base = ([event.kind.name] + identity.map { $0.0 + "=" + $0.1.serialized() }).joined(separator: " ")
                let k = seen[base, default: 0]
                seen[base] = k + 1
                return (base + " #\(k)", event.kind.name, identity, event.time, event.cause)
            }
        }
        let e = try keyed(expected), a = try keyed(actual)
        var out: [MovedEvent] = []
        for x in e {
            let y = a.first { $0.key == x.key }
            if let y, abs(x.time - y.time) <= tolerance * (1 + 1e-9) { continue }
            out.append(MovedEvent(kind: x.kind, identity: x.identity, expected: x.time, actual: y?.time, cause: y?.cause))
        }
        for y in a where !e.contains(where: { $0.key == y.key }) {
            out.append(MovedEvent(kind: y.kind, identity: y.identity, expected: nil, actual: y.time, cause: y.cause))
        }
        return out
    }

    /// A program or font the baseline was drawn with that this run does not use in the same version.
    public struct SoftwareDifference: Equatable, Sendable {
        /// `cairo`, `pango`, … or `font Inter.ttc`.
        public var component: String
        /// The version (for a font: its Debian package) in the baseline and in this run; nil
        /// when that side has none.
        public var baseline: String?
        /// The version (for a font: its package) in this run; nil when it has none.
        public var current: String?

        /// `baseline recorded with cairo 1.18.0, this run uses 1.16.0: pixel differences may come
        /// from that`; for a font `… with font Inter.ttc from fonts-inter, this run does not use it: …`.
        public var message: String {
            let font = component.hasPrefix("font ")
            func version(_ v: String) -> String { font ? "from " + v : v }
            let recorded = baseline.map { "baseline recorded with \(component) \(version($0))" } ?? "baseline recorded without \(component)"
            let now = current.map { baseline == nil || font ? "this run uses it \(version($0))" : "this run uses \($0)" } ?? "this run does not use it"
            return "\(recorded), \(now): pixel differences may come from that"
        }

        /// `{"component", "baseline", "current", "message"}`.
        public var json: JSONValue {
            .object([("component", .string(component)), ("baseline", baseline.map { .string($0) } ?? .null),
                     ("current", current.map { .string($0) } ?? .null), ("message", .string(message))])
        }
    }

    /// What differs between the software of the baseline and `current`: each program whose
    /// version differs, in the manifest's order, then each font file by name (its package as
    /// its version) that only one side has or that comes from another package, in name order.
    public static func softwareDifferences(baseline: Manifest.Software, current: Manifest.Software) -> [SoftwareDifference] {
        var out: [SoftwareDifference] = []
        let programs: [(String, (Manifest.Software) -> String?)] = [
            ("cartrender", { $0.cartrender }), ("cairo", { $0.cairo }), ("pango", { $0.pango }), ("librsvg", { $0.librsvg }),
            ("libpng", { $0.libpng }), ("zlib", { $0.zlib }),
            ("freetype", { $0.freetype }), ("harfbuzz", { $0.harfbuzz }), ("pixman", { $0.pixman }), ("fontconfig", { $0.fontconfig }),
        ]
        // A library the baseline's manifest does not name (written before it was recorded) is
        // not a difference: nothing is known about it.
        for (name, version) in programs where version(baseline) != nil && version(baseline) != version(current) {
            out.append(SoftwareDifference(component: name, baseline: version(baseline), current: version(current)))
        }
        let names = Set(baseline.fonts.map(\.file) + current.fonts.map(\.file)).sorted()
        for name in names {
            let b = baseline.fonts.first { $0.file == name }?.package
            let c = current.fonts.first { $0.file == name }?.package
            if b != c { out.append(SoftwareDifference(component: "font " + name, baseline: b, current: c)) }
        }
        return out
    }
}
