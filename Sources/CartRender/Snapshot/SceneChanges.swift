import CartRenderCore
import Foundation

/// How the scene a baseline was recorded from (its manifest's ``Manifest/canonicalScene``)
/// differs from the scene being verified, member by member (``ManifestComparison/changes(expected:actual:path:)``
/// over the two canonical scenes): `tint orange → teal`. A scene-wide change fails every frame
/// for one cause; `verify` names it once, before any frame line, and CI annotations point at the
/// first changed member's line in the scene file.
package struct SceneChanges: Equatable {
    /// The changed members, in the canonical scene's order.
    var changes: [ManifestComparison.Change]
    /// The 1-based line in the scene file of the first change's member (or of the nearest
    /// enclosing member the file spells out); nil without the file's bytes.
    var line: Int?

    /// Members named in ``line(for:)`` before "… and N more".
    static let maxNamed = 4

    /// The changes between `baseline` and `current` (canonical scenes), located in `source`,
    /// the scene file's bytes that `current` was decoded from (``VerifyOptions/sceneSource``);
    /// nil when they are the same.
    /// - Parameter reported: members said already elsewhere (`fps`, `device.scale`: the settings
    ///   that differ, ``SnapshotResult/settingMismatches``), left out so that a change is named once.
    static func compare(baseline: JSONValue, current: JSONValue, source: [UInt8]?, reported: Set<String> = []) -> SceneChanges? {
        let (baseline, current) = presetsWrittenOut(baseline, current)
        let changes = ManifestComparison.changes(expected: baseline, actual: current).filter { !reported.contains($0.path) }
        guard let first = changes.first else { return nil }
        var line: Int?
        if let source, let root = try? JSONParser.parse(source) {
            line = location(of: first.path, in: root).line
        }
        return SceneChanges(changes: changes, line: line)
    }

    /// The two canonical scenes with a preset's name (`"device": "iphone-16"`) written out as
    /// its members where the other scene writes its device out (a preset given another scale,
    /// `--scale`, is written so): the two devices are then compared member by member, and a
    /// scale said as a setting is not said again as the whole device changed.
    static func presetsWrittenOut(_ a: JSONValue, _ b: JSONValue) -> (JSONValue, JSONValue) {
        guard case .object(let am) = a, case .object(let bm) = b,
              let ai = am.firstIndex(where: { $0.0 == "device" }), let bi = bm.firstIndex(where: { $0.0 == "device" }) else { return (a, b) }
        func writtenOut(_ members: [(String, JSONValue)], at i: Int) -> JSONValue {
            guard case .string(let name) = members[i].1, let preset = Device.presets[name] else { return .object(members) }
            var m = members
            m[i].1 = preset.canonicalMembers
            return .object(m)
        }
        switch (am[ai].1, bm[bi].1) {
        case (.string, .object): return (writtenOut(am, at: ai), b)
        case (.object, .string): return (a, writtenOut(bm, at: bi))
        default: return (a, b)
        }
    }

    /// `scene changed: tint orange → teal, shop.count 0 → 2 (… and 3 more)`.
    package var summary: String {
        let named = changes.prefix(Self.maxNamed).map(Self.describe).joined(separator: ", ")
        let more = changes.count - min(changes.count, Self.maxNamed)
        return "scene changed: " + named + (more > 0 ? ", … and \(more) more" : "")
    }

    /// `tint orange → teal`: strings without quotes, an absent side as `none`.
    static func describe(_ change: ManifestComparison.Change) -> String {
        func text(_ value: JSONValue?) -> String {
            guard let value else { return "none" }
            if case .string(let s) = value { return s.count > 40 ? String(s.prefix(39)) + "…" : s }
            let s = value.serialized()
            return s.count > 40 ? String(s.prefix(39)) + "…" : s
        }
        return "\(change.path) \(text(change.expected)) → \(text(change.actual))"
    }

    /// `{"summary", "changes": [{"path", "expected", "actual"}], "line"}`, for `report.json`.
    var json: JSONValue {
        .object([("summary", .string(summary)), ("changes", .array(changes.map(\.json))), ("line", line.map(JSONValue.int) ?? .null)])
    }

    /// Where the member at `path` (`tint`, `shop.count`, `events[1].at`) is in `root`: its
    /// key's location, or the nearest enclosing member's (the whole document's first line
    /// when not even the first component is there).
    static func location(of path: String, in root: JSONNode) -> SourceLocation {
        var node = root
        var found = SourceLocation(line: 1, column: 1)
        for component in components(path) {
            switch (component, node.value) {
            case (.key(let k), .object(let members)):
                guard let m = members.last(where: { $0.key == k }) else { return found }
                found = m.keyLocation
                node = m.value
            case (.index(let i), .array(let items)):
                guard i < items.count else { return found }
                found = items[i].location
                node = items[i]
            default:
                return found
            }
        }
        return found
    }

    private enum Component { case key(String), index(Int) }

    /// `events[1].at` → key events, index 1, key at.
    private static func components(_ path: String) -> [Component] {
        var out: [Component] = []
        for part in path.split(separator: ".") {
            var rest = Substring(part)
            if let open = rest.firstIndex(of: "[") {
                if open > rest.startIndex { out.append(.key(String(rest[..<open]))) }
                rest = rest[open...]
                while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    if let i = Int(rest[rest.index(after: rest.startIndex)..<close]) { out.append(.index(i)) }
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                out.append(.key(String(rest)))
            }
        }
        return out
    }
}
