import Foundation

/// Values given on the command line that replace the scene's own (docs/command-line.md).
public struct SceneOverrides: Equatable, Sendable {
    /// Frames per second (`SceneFields.fps`'s range), `--fps`.
    public var fps: Int?
    /// Pixels per point (`SceneFields.scale`'s range), `--scale`.
    public var scale: Double?
    /// Light or dark, `--color-scheme`.
    public var colorScheme: ColorScheme?
    /// Reduce Motion on or off, `--reduce-motion`.
    public var reduceMotion: Bool?
    /// Overrides for the given values; nil keeps the scene's own.
    public init(fps: Int? = nil, scale: Double? = nil, colorScheme: ColorScheme? = nil, reduceMotion: Bool? = nil) {
        self.fps = fps; self.scale = scale; self.colorScheme = colorScheme; self.reduceMotion = reduceMotion
    }

    /// Replaces the scene's values with the given ones (before `checkLimits` checks their ranges).
    func apply(to scene: inout Scene) {
        if let fps { scene.fps = fps }
        if let scale { scene.device.scale = scale }
        if let colorScheme { scene.colorScheme = colorScheme }
        if let reduceMotion { scene.reduceMotion = reduceMotion }
    }
}

/// Turns scene-file bytes into a validated `Scene` (docs/scene-file.md; docs/bad-input.md).
///
/// Every problem becomes a `SceneError` naming the file, the line and column, and the JSON path:
/// malformed JSON, wrong types, unknown keys (with the nearest known key suggested), missing
/// required fields, non-finite or negative times, `fps` outside 1…240, scale outside 1…4,
/// canvases over 16384 px a side, more than 100 000 frames, unknown symbols, missing image files.
public struct SceneDecoder {
    /// Largest canvas side (px).
    public static let maxCanvasSide = 16384.0
    /// Most frames one render may have.
    public static let maxFrames = 100_000
    /// Longest scene time accepted (s); keeps frame arithmetic far from overflow.
    public static let maxTime = 3600.0

    let file: String
    /// Where the image files of the scene are named, as `image` reads them.
    private let imageLog = ImageLog()

    private final class ImageLog {
        var fields: [ImageField] = []
        /// Problems found so far, each of a member whose problem leaves the rest meaningful to
        /// check (``collecting(_:)``).
        var errors: [SceneError] = []
        /// Whether problems are kept (while ``SceneDecoder/scene(_:baseDirectory:replacing:)``
        /// runs, which throws them at its end); otherwise the first is thrown.
        var collects = false
        /// The scene's `fonts`, read before the screens' sections that name their families.
        var fonts: [SceneFont] = []
    }

    /// How the files the scene names are checked and read.
    let files: any SceneFileResolver

    init(file: String, files: any SceneFileResolver = NoSceneFiles()) { self.file = file; self.files = files }

    /// Most problems one decoding reports (as compilers stop after a screenful).
    public static let maxErrors = 20

    /// Runs `body`; a ``SceneError`` it throws is kept, and decoding goes on with the next
    /// member (a wrong type, an unknown key, a value out of range: what a later member means does
    /// not depend on it), until ``maxErrors``.
    /// - Throws: ``SceneErrors`` once ``maxErrors`` are kept.
    func collecting(_ body: () throws -> Void) throws {
        guard imageLog.collects else { return try body() }
        do { try body() } catch let e as SceneError {
            imageLog.errors.append(e)
            if imageLog.errors.count >= Self.maxErrors { try throwCollected() }
        }
    }

    /// Throws what was kept: the one ``SceneError`` (exactly as when decoding stopped at the
    /// first), or ``SceneErrors`` in file order.
    func throwCollected() throws {
        let errors = imageLog.errors
        guard let first = errors.first else { return }
        if errors.count == 1 { throw first }
        func key(_ e: SceneError) -> (Int, Int) { e.location.map { ($0.line, $0.column) } ?? (Int.max, Int.max) }
        // Stable: problems at one place keep the order they were found in.
        throw SceneErrors(errors.enumerated().sorted { key($0.element) != key($1.element) ? key($0.element) < key($1.element) : $0.offset < $1.offset }.map(\.element))
    }

    /// Decodes and validates a scene. A `"variants"` matrix is accepted and does not change the
    /// scene: its values are read and checked by `decodeVariants`.
    /// - Parameters:
    ///   - data: UTF-8 JSON bytes.
    ///   - file: the file name used in messages.
    ///   - baseDirectory: where relative image paths are resolved.
    ///   - overrides: command-line values applied before range checks.
    ///   - files: how the image and font files it names are checked and read (the core reads
    ///     none itself: `AssetFolder` in CartRenderFiles, or a test's own resolver).
    /// - Throws: `SceneError`.
    public static func decode(_ data: [UInt8], file: String, baseDirectory: String, overrides: SceneOverrides = SceneOverrides(),
                              files: any SceneFileResolver) throws -> Scene {
        let root: JSONNode
        do {
            root = try JSONParser.parse(data)
        } catch let e as JSONSyntaxError {
            throw SceneError(file: file, location: e.location, path: e.path, message: e.message)
        }
        var scene = try SceneDecoder(file: file, files: files).scene(root, baseDirectory: baseDirectory)
        overrides.apply(to: &scene)
        try SceneDecoder(file: file).checkLimits(scene, root: root)
        return scene
    }

    /// Decodes the variants of a scene file's `"variants"` matrix, each a validated scene with
    /// the overrides applied (docs/scene-file.md, “Variant matrix”), or nil when the file has no `"variants"`.
    /// - Throws: `SceneError`: for the base scene, for a value of the matrix (at its JSON path,
    ///   `variants.locale[1]`), for a value that makes the same variant as an earlier one (at the
    ///   later value: `variants.locale[2]: makes the same variant as variants.locale[0]
    ///   ("en_US"); list each value once`), or for a variant whose events cannot happen.
    public static func decodeVariants(_ data: [UInt8], file: String, baseDirectory: String,
                                      overrides: SceneOverrides = SceneOverrides(),
                                      files: any SceneFileResolver) throws -> [SceneVariant]? {
        let root: JSONNode
        do {
            root = try JSONParser.parse(data)
        } catch let e as JSONSyntaxError {
            throw SceneError(file: file, location: e.location, path: e.path, message: e.message)
        }
        _ = try decode(data, file: file, baseDirectory: baseDirectory, overrides: overrides, files: files)
        guard let combinations = try SceneDecoder(file: file).variantCombinations(root) else { return nil }
        var out: [SceneVariant] = []
        for combination in combinations {
            var scene = try SceneDecoder(file: file, files: files).scene(root, baseDirectory: baseDirectory, replacing: combination.replacing)
            // Named by the matrix's values, before the command line's overrides (which apply to all).
            let values = combination.keys.map { SceneVariant.Value(key: $0, text: SceneVariant.text(of: $0, in: scene, node: combination.replacing[$0]!.node)) }
            overrides.apply(to: &scene)
            try SceneDecoder(file: file).checkLimits(scene, root: root)
            out.append(SceneVariant(values: values, scene: scene))
        }
        // Two combinations with one name (a value listed twice, or two spellings of one value:
        // `en-US` and `en_US`) would write one directory: refused at the later value.
        var seen: [String: Int] = [:]
        for (i, v) in out.enumerated() {
            if let j = seen[v.name] {
                let later = combinations[i].replacing, earlier = combinations[j].replacing
                let key = combinations[i].keys.first { later[$0]!.path != earlier[$0]!.path } ?? combinations[i].keys[0]
                throw SceneDecoder(file: file).error(later[key]!.node, later[key]!.path,
                                                     "makes the same variant as \(earlier[key]!.path) (\(echoedQuoted(v.name))); list each value once")
            }
            seen[v.name] = i
        }
        return out
    }

    /// The keys a `"variants"` matrix may vary, in the schema's order.
    public static let variantKeys = ["colorScheme", "locale", "dynamicTypeSize", "device", "reduceMotion"]
    /// Most variants one matrix may make.
    public static let maxVariants = 256

    /// Every combination of the matrix's values, the first key varying slowest, as the
    /// top-level values each replaces; nil without `"variants"`.
    func variantCombinations(_ root: JSONNode) throws -> [(keys: [String], replacing: [String: (node: JSONNode, path: String)])]? {
        guard case .object(let members) = root.value, let node = members.first(where: { $0.key == "variants" })?.value else { return nil }
        _ = try object(node, "variants", keys: Self.variantKeys)
        guard case .object(let axes) = node.value, !axes.isEmpty else { throw error(node, "variants", "must name at least one of \(Self.variantKeys.joined(separator: ", "))") }
        var lists: [(key: String, values: [(node: JSONNode, path: String)])] = []
        var count = 1
        for axis in axes {
            let path = "variants." + axis.key
            guard case .array(let list) = axis.value.value else { throw error(axis.value, path, "expected an array of values, got \(axis.value.typeName)") }
            guard !list.isEmpty else { throw error(axis.value, path, "must list at least one value") }
            count *= list.count
            if count > Self.maxVariants { throw error(axis.value, path, "makes more than \(Self.maxVariants) variants") }
            lists.append((axis.key, list.enumerated().map { ($0.element, "\(path)[\($0.offset)]") }))
        }
        var combinations: [[String: (node: JSONNode, path: String)]] = [[:]]
        for axis in lists {
            combinations = combinations.flatMap { c in axis.values.map { v in c.merging([axis.key: v]) { $1 } } }
        }
        let keys = lists.map(\.key)
        return combinations.map { (keys, $0) }
    }

    // MARK: - Readers

    func error(_ node: JSONNode?, _ path: String, _ message: String, kind: SceneError.Kind = .invalid) -> SceneError {
        SceneError(kind: kind, file: file, location: node?.location, path: path, message: message)
    }

    /// An object's members, after checking that it is an object and has only known keys.
    struct Members {
        let node: JSONNode
        let path: String
        let values: [String: JSONNode]
        func child(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
    }

    /// - Parameter ignored: keys that are accepted and left out of `values` and of the list of
    ///   known keys in messages.
    func object(_ node: JSONNode, _ path: String, keys: [String], required: [String] = [], ignored: [String] = []) throws -> Members {
        guard case .object(let members) = node.value else {
            throw error(node, path, "expected an object, got \(node.typeName)")
        }
        var values: [String: JSONNode] = [:]
        var unknown = false
        for m in members where !ignored.contains(m.key) {
            guard keys.contains(m.key) else {
                let p = path.isEmpty ? echoed(m.key) : path + "." + echoed(m.key)
                let hint = nearestKey(to: m.key, in: keys).map { "; did you mean \"\($0)\"?" } ?? "; known keys: \(keys.joined(separator: ", "))"
                let problem = SceneError(file: file, location: m.keyLocation, path: p, message: "unknown key \(echoedQuoted(m.key))" + hint)
                guard imageLog.collects else { throw problem }
                // Kept, and the next key checked: every unknown key of the object is named.
                try collecting { throw problem }
                unknown = true
                continue
            }
            values[m.key] = m.value
        }
        // The scene's own members are independent; inside an object a misspelt key would
        // make its other checks speak of a missing member: the object's decoding stops here
        // (its last unknown key is what stops it).
        if unknown && !path.isEmpty, let last = imageLog.errors.popLast() { throw last }
        for r in required where values[r] == nil {
            throw error(node, path.isEmpty ? r : path + "." + r, "is required")
        }
        return Members(node: node, path: path, values: values)
    }

    func string(_ node: JSONNode, _ path: String, nonEmpty: Bool = false) throws -> String {
        guard case .string(let s) = node.value else { throw error(node, path, "expected a string, got \(node.typeName)") }
        if nonEmpty && s.trimmingCharacters(in: .whitespaces).isEmpty { throw error(node, path, "must not be empty") }
        if s.utf8.count > 10_000 { throw error(node, path, "is longer than 10000 bytes") }
        // Text reaches Pango as a C string, which would end at the NUL.
        if s.utf8.contains(0) { throw error(node, path, "contains a NUL character (\\u0000), which text cannot hold") }
        return s
    }

    func bool(_ node: JSONNode, _ path: String) throws -> Bool {
        guard case .bool(let b) = node.value else { throw error(node, path, "expected true or false, got \(node.typeName)") }
        return b
    }

    func number(_ node: JSONNode, _ path: String, in range: ClosedRange<Double>, unit: String = "") throws -> Double {
        guard case .number(let v, let text) = node.value else { throw error(node, path, "expected a number, got \(node.typeName)") }
        guard range.contains(v) else {
            let u = unit.isEmpty ? "" : " " + unit
            if range.upperBound - range.lowerBound <= 100 {
                throw error(node, path, "must be between \(JSONValue.format(range.lowerBound, decimals: 6)) and \(JSONValue.format(range.upperBound, decimals: 6))\(u), got \(echoed(text))")
            }
            if v < range.lowerBound {
                throw error(node, path, "must be ≥ \(JSONValue.format(range.lowerBound, decimals: 6))\(u), got \(echoed(text))")
            }
            throw error(node, path, "must be ≤ \(JSONValue.format(range.upperBound, decimals: 6))\(u), got \(echoed(text))")
        }
        return v
    }

    func integer(_ node: JSONNode, _ path: String, in range: ClosedRange<Int>) throws -> Int {
        guard case .number(let v, let text) = node.value else { throw error(node, path, "expected an integer, got \(node.typeName)") }
        guard let i = Int(text) ?? (v.rounded() == v && abs(v) < 9.0e15 ? Int(v) : nil) else {
            if v.rounded() == v { throw error(node, path, "must be between \(range.lowerBound) and \(range.upperBound), got \(echoed(text))") }
            throw error(node, path, "expected an integer, got \(echoed(text))")
        }
        guard range.contains(i) else { throw error(node, path, "must be between \(range.lowerBound) and \(range.upperBound), got \(echoed(text))") }
        return i
    }

    /// A `.choice` field's value: one of its names.
    /// - Throws: `SceneError`: `must be "light" or "dark", got "blue"` (with the nearest name as a
    ///   hint when the field `suggests`).
    func choice(_ field: SceneField, _ node: JSONNode, _ path: String) throws -> String {
        guard case .choice(let names, let suggests) = field.kind else { preconditionFailure("\(field.key) is not a choice field") }
        let v = try string(node, path)
        guard names.contains(v) else {
            let hint = suggests ? nearestKey(to: v, in: names).map { "; did you mean \"\($0)\"?" } ?? "" : ""
            throw error(node, path, "must be \(Self.alternatives(names)), got \(echoedQuoted(v))\(hint)")
        }
        return v
    }

    /// A `.number` field's value, in its range and unit.
    func number(_ field: SceneField, _ node: JSONNode, _ path: String) throws -> Double {
        guard case .number(let range, let unit, _) = field.kind else { preconditionFailure("\(field.key) is not a number field") }
        return try number(node, path, in: range, unit: unit)
    }

    // MARK: - Scene

    /// The keys of a scene file: the common ones, each screen's section, and `events`.
    static let topKeys = SceneFields.top.map(\.key) + Screens.all.map { $0.name } + ["events", "variants"]

    /// Most font files a scene may register.
    public static let maxFonts = 64

    /// The key that tells editors where the schema is (`"$schema": "scene.schema.json"`):
    /// a string, otherwise ignored.
    static let schemaKey = "$schema"

    /// What a `locale` looks like: a language code, then parts after `_` or `-` (`en_US`,
    /// `zh-Hant-TW`). It must also be a locale Foundation knows.
    public static let localePattern = "^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$"

    /// `identifier` in ICU's canonical form (`zh-CN` → `zh_CN`, `iw_IL` → `he_IL`, `in_ID` →
    /// `id_ID`) when Foundation knows the locale, else nil. Known: the canonical form is one of
    /// `Locale.availableIdentifiers`, or its language, script and region — the script ICU's
    /// likely subtags give the language and region when the identifier names none — are
    /// (`zh_CN` is `zh_Hans_CN`, `zh_TW` is `zh_Hant_TW`, `sr_RS` is `sr_Cyrl_RS`). An unknown
    /// language or region (`xx_YY`, `de_XX`) is not.
    public static func knownLocale(_ identifier: String) -> String? {
        let canonical = Locale.identifier(.icu, from: identifier)
        let available = Set(Locale.availableIdentifiers)
        if available.contains(canonical) { return canonical }
        let language = Locale(identifier: canonical).language
        guard let code = language.languageCode?.identifier, let script = language.script?.identifier else { return nil }
        let full = [code, script, language.region?.identifier].compactMap { $0 }.joined(separator: "_")
        return available.contains(full) ? canonical : nil
    }

    /// Reads a scene file's root object into a scene; `"variants"` is checked by `variants(_:baseDirectory:)`
    /// and does not change the scene.
    /// - Parameters:
    ///   - replacing: values that take the place of the file's own top-level values (a variant's),
    ///     with the JSON path their messages name (`variants.locale[1]`).
    /// - Throws: ``SceneError`` for one problem; ``SceneErrors`` for several (see
    ///   ``collecting(_:)``).
    func scene(_ root: JSONNode, baseDirectory: String, replacing: [String: (node: JSONNode, path: String)] = [:]) throws -> Scene {
        var scene: Scene?
        imageLog.collects = true
        defer { imageLog.collects = false }
        do { scene = try members(root, baseDirectory: baseDirectory, replacing: replacing) } catch let e as SceneError {
            imageLog.errors.append(e)
        }
        try throwCollected()
        return scene!
    }

    /// The scene's members (see ``scene(_:baseDirectory:replacing:)``), keeping the problems of
    /// members that later members do not depend on.
    private func members(_ root: JSONNode, baseDirectory: String, replacing: [String: (node: JSONNode, path: String)]) throws -> Scene {
        let top = try object(root, "", keys: Self.topKeys, ignored: [Self.schemaKey])
        if case .object(let members) = root.value, let n = members.first(where: { $0.key == Self.schemaKey })?.value {
            _ = try string(n, Self.schemaKey)
        }
        var values = top.values
        values["variants"] = nil
        for (key, v) in replacing { values[key] = v.node }
        let m = Members(node: top.node, path: "", values: values)
        func p(_ key: String) -> String { replacing[key]?.path ?? key }
        var s = Scene()
        s.baseDirectory = baseDirectory
        let F = SceneFields.self
        if let n = m.values[F.version.key] {
            s.version = try integer(n, F.version.key, in: 1...Int.max)
            guard s.version == 1 else { throw error(n, F.version.key, "this cartrender reads scene version 1, got \(s.version)") }
        }
        var screen = Screens.all[0]
        if let n = m.values[F.screen.key] {
            let v = try string(n, F.screen.key)
            guard let named = Screens.named(v) else {
                throw error(n, F.screen.key, "must be \(Self.alternatives(Screens.all.map { $0.name })), got \(echoedQuoted(v))")
            }
            screen = named
        }
        try collecting { if let n = m.values[F.device.key] { s.device = try device(n, p(F.device.key)) } }
        try collecting { if let n = m.values[F.colorScheme.key] { s.colorScheme = ColorScheme(rawValue: try choice(F.colorScheme, n, p(F.colorScheme.key)))! } }
        try collecting { if let n = m.values[F.reduceMotion.key] { s.reduceMotion = try bool(n, p(F.reduceMotion.key)) } }
        try collecting { if let n = m.values[F.systemChrome.key] { s.systemChrome = try bool(n, p(F.systemChrome.key)) } }
        try collecting {
            if let n = m.values[F.locale.key] {
                let v = try string(n, p("locale"), nonEmpty: true)
                guard v.range(of: Self.localePattern, options: .regularExpression) != nil else {
                    throw error(n, p("locale"), "must be a locale identifier such as \"en_US\", got \(echoedQuoted(v))")
                }
                guard let identifier = Self.knownLocale(v) else {
                    let guess = v.replacingOccurrences(of: "-", with: "_")
                    let hint = nearestKey(to: guess, in: Locale.availableIdentifiers.sorted()).map { "; did you mean \"\($0)\"?" } ?? ""
                    throw error(n, p("locale"), "unknown locale \(echoedQuoted(v))\(hint)")
                }
                s.locale = identifier
            }
        }
        s.layoutDirection = LayoutDirection(locale: s.locale)
        try collecting {
            if let n = m.values[F.layoutDirection.key] {
                s.layoutDirection = LayoutDirection(rawValue: try choice(F.layoutDirection, n, p(F.layoutDirection.key)))!
            }
        }
        try collecting {
            if let n = m.values[F.dynamicTypeSize.key] {
                s.dynamicTypeSize = DynamicTypeSize(rawValue: try choice(F.dynamicTypeSize, n, p(F.dynamicTypeSize.key)))!
            }
        }
        try collecting { if let n = m.values[F.tint.key] { s.tint = try tint(n, p(F.tint.key)) } }
        try collecting { if let n = m.values[F.fps.key] { s.fps = try integer(n, p(F.fps.key), in: F.fps.integerRange) } }
        try collecting { if let n = m.values[F.scale.key] { s.device.scale = try number(F.scale, n, p(F.scale.key)) } }
        try collecting {
            if let n = m.values[F.duration.key] {
                if case .null = n.value { s.duration = nil } else { s.duration = try number(F.duration, n, p(F.duration.key)) }
            }
        }
        if let n = m.values[F.fonts.key] { s.fonts = try fonts(n, p(F.fonts.key), baseDirectory: baseDirectory) }
        imageLog.fonts = s.fonts
        // Each screen's section is allowed only on that screen.
        var content: (any Screen)? = screen.defaultContent
        for other in Screens.all {
            guard let n = m.values[other.name] else { continue }
            guard other.name == screen.name else { throw error(n, other.name, "is only allowed when \"screen\" is \"\(other.name)\"") }
            content = try other.decode(n, at: other.name, with: self, baseDirectory: baseDirectory)
        }
        guard let content else { throw error(root, screen.name, "is required when \"screen\" is \"\(screen.name)\"") }
        s.content = content
        if let n = m.values["events"] {
            s.events = try content.decodeEvents(n, at: "events", scene: s, with: self)
        }
        s.imageFields = imageLog.fields
        if let key = [F.device.key, F.scale.key].first(where: { m.values[$0] != nil }) {
            s.canvasMember = SceneMember(file: file, path: p(key), location: m.values[key]!.location)
        }
        return s
    }

    /// `"a"`, `"a" or "b"`, `"a", "b" or "c"`.
    static func alternatives(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }

    /// Reads the members of `events` (an array of at most 10 000 objects with `at` and exactly one
    /// of the screens' gestures, `Screens.eventGestures`), leaving each event's action to
    /// `action` (the screen's), and sorts them by time, equal times in file order.
    func events(_ node: JSONNode, _ path: String, action: (Members) throws -> any SceneAction) throws -> [SceneEvent] {
        guard case .array(let list) = node.value else { throw error(node, path, "expected an array, got \(node.typeName)") }
        if list.count > 10_000 { throw error(node, path, "has \(list.count) events; at most 10000 are allowed") }
        var out: [SceneEvent] = []
        let gestures = Screens.eventGestures
        for (i, n) in list.enumerated() {
            let p = "\(path)[\(i)]"
            let m = try object(n, p, keys: Screens.eventKeys, required: ["at"])
            let at = try number(m.values["at"]!, m.child("at"), in: 0...Self.maxTime, unit: "s")
            let given = gestures.filter { m.values[$0] != nil }
            guard !given.isEmpty else { throw error(n, p, "needs \(gestures.map { "\"\($0)\"" }.joined(separator: " or "))") }
            guard given.count == 1 else {
                throw error(m.values[given[1]], m.child(given[1]), "an event is either \(gestures.map { "a \"\($0)\"" }.joined(separator: " or ")), not both")
            }
            out.append(SceneEvent(at: at, action: try action(m), index: i, location: n.location))
        }
        // Stable sort by time: equal times keep file order.
        return out.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    /// The error for a `tap` that `screen` does not have.
    func unknownTap(_ node: JSONNode, _ path: String, _ target: String, on screen: any Screen.Type) -> SceneError {
        error(node, path, "on the \(screen.name) screen must be \(screen.tapTargets.map { "\"\($0)\"" }.joined(separator: ", ")), got \(echoedQuoted(target))")
    }

    func device(_ node: JSONNode, _ path: String) throws -> Device {
        if case .string(let name) = node.value {
            guard let d = Device.presets[name] else {
                let hint = nearestKey(to: name, in: Device.presets.keys.sorted()).map { "; did you mean \"\($0)\"?" } ?? ""
                throw error(node, path, "unknown device \(echoedQuoted(name))\(hint) (presets: \(Device.presets.keys.sorted().joined(separator: ", ")); or give {\"width\", \"height\", \"scale\", \"safeArea\"})")
            }
            return d
        }
        let m = try object(node, path, keys: [SceneFields.deviceWidth.key, SceneFields.deviceHeight.key, SceneFields.deviceScale.key, "safeArea"],
                           required: [SceneFields.deviceWidth.key, SceneFields.deviceHeight.key])
        let F = SceneFields.self
        let w = try number(F.deviceWidth, m.values["width"]!, m.child("width"))
        let h = try number(F.deviceHeight, m.values["height"]!, m.child("height"))
        let scale = try m.values["scale"].map { try number(F.deviceScale, $0, m.child("scale")) } ?? 3
        var top = 0.0, bottom = 0.0
        if let sa = m.values["safeArea"] {
            let sm = try object(sa, m.child("safeArea"), keys: ["top", "bottom"])
            top = try sm.values["top"].map { try number($0, sm.child("top"), in: 0...(h / 3), unit: "pt") } ?? 0
            bottom = try sm.values["bottom"].map { try number($0, sm.child("bottom"), in: 0...(h / 3), unit: "pt") } ?? 0
        }
        return Device(name: nil, width: w, height: h, scale: scale, safeAreaTop: top, safeAreaBottom: bottom)
    }

    func tint(_ node: JSONNode, _ path: String) throws -> Tint {
        let v = try string(node, path)
        if v.hasPrefix("#") {
            let hex = v.dropFirst()
            guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let n = Int(hex, radix: 16) else {
                throw error(node, path, "must be a system color name or #RRGGBB, got \(echoedQuoted(v))")
            }
            return .rgb(Color(r8: (n >> 16) & 255, g8: (n >> 8) & 255, b8: n & 255))
        }
        guard Look.systemColors[v] != nil else {
            let names = Look.systemColors.keys.sorted()
            let hint = nearestKey(to: v, in: names).map { "; did you mean \"\($0)\"?" } ?? " (known: \(names.joined(separator: ", ")), or #RRGGBB)"
            throw error(node, path, "unknown color \(echoedQuoted(v))" + hint)
        }
        return .system(v)
    }

    /// An image field: `symbol:NAME` or a PNG, JPEG or SVG file relative to `baseDirectory`
    /// that exists and can be read. Files are recorded with their path and position for
    /// `Scene.imageFields`.
    func image(_ node: JSONNode, _ path: String, baseDirectory: String) throws -> ImageSource {
        let v = try string(node, path, nonEmpty: true)
        if v.hasPrefix("symbol:") {
            let name = String(v.dropFirst("symbol:".count))
            guard Symbols.isKnown(name) else {
                let known = Symbols.names
                let hint = nearestKey(to: name, in: known).map { "; did you mean \"symbol:\($0)\"?" } ?? " (known: \(known.joined(separator: ", ")))"
                throw error(node, path, "unknown symbol \(echoedQuoted(name))" + hint)
            }
            return .symbol(name)
        }
        let full = v.hasPrefix("/") ? v : URL(fileURLWithPath: baseDirectory).appendingPathComponent(v).standardizedFileURL.path
        let ext = (full as NSString).pathExtension.lowercased()
        guard ["png", "jpg", "jpeg", "svg"].contains(ext) else {
            throw error(node, path, "must be \"symbol:NAME\" or a .png, .jpg, .jpeg or .svg file, got \(echoedQuoted(v))")
        }
        if let problem = files.imageProblem(full) {
            throw error(node, path, "image file \(full) \(problem.reason)", kind: problem.unreadable ? .unreadable : .invalid)
        }
        imageLog.fields.append(ImageField(source: .file(full), path: path, location: node.location))
        return .file(full)
    }

    /// The `fonts` array: TrueType or OpenType files (`.ttf`, `.otf`, any case) relative to
    /// `baseDirectory` (or absolute), each read and its family taken from its `name` table.
    /// - Throws: `SceneError` at `fonts[i]`: kind `.unreadable` (exit 66) for a file that is
    ///   missing, not a regular file or unreadable; `.invalid` (65) for another extension, a
    ///   file over `SceneFont.maxBytes`, or one that is not a font.
    func fonts(_ node: JSONNode, _ path: String, baseDirectory: String) throws -> [SceneFont] {
        guard case .array(let list) = node.value else { throw error(node, path, "expected an array of font files, got \(node.typeName)") }
        if list.count > Self.maxFonts { throw error(node, path, "has \(list.count) fonts; at most \(Self.maxFonts) are allowed") }
        var out: [SceneFont] = []
        for (i, n) in list.enumerated() {
            let p = "\(path)[\(i)]"
            let v = try string(n, p, nonEmpty: true)
            let full = v.hasPrefix("/") ? v : URL(fileURLWithPath: baseDirectory).appendingPathComponent(v).standardizedFileURL.path
            guard ["ttf", "otf"].contains((full as NSString).pathExtension.lowercased()) else {
                throw error(n, p, "must be a TrueType or OpenType font file (.ttf or .otf), got \(echoedQuoted(v))")
            }
            let bytes: [UInt8]
            do { bytes = try files.readFont(full, limit: SceneFont.maxBytes) } catch let problem as SceneFileProblem {
                throw self.error(n, p, "font file \(full) \(problem.reason)", kind: problem.unreadable ? .unreadable : .invalid)
            }
            guard let family = SceneFont.family(ofFontData: bytes) else {
                throw error(n, p, "font file \(full) is not a TrueType or OpenType font with a family name")
            }
            out.append(SceneFont(file: full, family: family, path: p, location: n.location))
        }
        return out
    }

    /// A screen's `font`: `system`, `Jost`, or the family of a file in the scene's `fonts`.
    func fontFamily(_ node: JSONNode, _ path: String) throws -> FontFamily {
        let v = try string(node, path, nonEmpty: true)
        let known = FontFamily.builtIn + imageLog.fonts.map { .named($0.family) }
        if let f = known.first(where: { $0.text == v }) { return f }
        let names = known.map(\.text).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let hint = nearestKey(to: v, in: names).map { "; did you mean \"\($0)\"?" } ?? ""
        throw error(node, path, "unknown font family \(echoedQuoted(v))\(hint) (known: \(names.joined(separator: ", ")); a scene adds families with \"fonts\")")
    }

    func checkLimits(_ s: Scene, root: JSONNode) throws {
        guard case .object(let members) = root.value else { return }
        func node(_ key: String) -> JSONNode? { members.first { $0.key == key }?.value }
        let fpsNode = node("fps"), deviceNode = node("device") ?? node("scale")
        let fps = SceneFields.fps.integerRange, scale = SceneFields.scale.numberRange
        guard fps.contains(s.fps) else { throw error(fpsNode, "fps", "must be between \(fps.lowerBound) and \(fps.upperBound), got \(s.fps)") }
        guard scale.contains(s.device.scale) else {
            throw error(deviceNode, "device.scale", "must be between \(JSONValue.format(scale.lowerBound, decimals: 6)) and \(JSONValue.format(scale.upperBound, decimals: 6)), got \(s.device.scale)")
        }
        for (side, pt) in [("width", s.device.width), ("height", s.device.height)] where pt * s.device.scale > Self.maxCanvasSide {
            throw error(deviceNode, "device", "the canvas is \(Int((pt * s.device.scale).rounded())) px \(side == "width" ? "wide" : "tall") at scale \(JSONValue.format(s.device.scale, decimals: 3)); at most \(Int(Self.maxCanvasSide)) px a side")
        }
        if let d = s.duration {
            let frames = Int((d * Double(s.fps)).rounded()) + 1
            if frames > Self.maxFrames {
                throw error(node("duration"), "duration", "\(JSONValue.format(d, decimals: 6)) s at \(s.fps) fps is \(frames) frames; at most \(Self.maxFrames)")
            }
            if let late = s.events.last(where: { $0.at > d + 1e-6 }) {
                throw error(eventMember(node("events"), late.index, "at"), "events[\(late.index)].at",
                            "\(JSONValue.format(late.at, decimals: 6)) s is after the end of the render (duration \(JSONValue.format(d, decimals: 6)) s)")
            }
        }
        try checkOpenEndedLength(s, events: node("events"))
    }
}
