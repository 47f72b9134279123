/// One member of a scene file that holds a single value (docs/scene-file.md): its key, JSON
/// type and range, default and help, written once. `SceneDecoder` reads the member with it,
/// `SceneSchema` describes it with it, `Scene.canonicalJSON` writes its key, and the command
/// line's overrides (`--fps`, `--scale`) take its range and help from it.
public struct SceneField: Sendable {
    /// The JSON value the member takes.
    public enum Kind: Sendable {
        /// A JSON integer in the range.
        case integer(ClosedRange<Int>)
        /// A JSON number in the range; `unit` (`s`, `pt`, or empty) follows the bounds in messages;
        /// `nullable`: `null` is accepted too (it means the default).
        case number(ClosedRange<Double>, unit: String, nullable: Bool)
        /// `true` or `false`.
        case boolean
        /// One of the strings, in the order messages and the schema list them; `suggests`: a
        /// wrong value gets the nearest one as a hint.
        case choice([String], suggests: Bool)
        /// A value the decoder reads with code of its own (a device, a locale, a screen's
        /// section): the table gives its key and its place among the members.
        case custom
    }

    /// The member's key in the scene file (`fps`).
    public let key: String
    /// Its JSON type and range.
    public let kind: Kind
    /// The schema's `description` of the member.
    public let help: String
    /// The schema's `default`, or nil when the schema gives none (the default depends on other
    /// members, or the member has none).
    public let defaultValue: JSONValue?

    /// A member with its key, kind, schema description and schema default.
    public init(_ key: String, _ kind: Kind, help: String, default value: JSONValue? = nil) {
        self.key = key; self.kind = kind; self.help = help; self.defaultValue = value
    }

    /// The range of an `.integer` member; a programming error for another kind.
    public var integerRange: ClosedRange<Int> {
        guard case .integer(let r) = kind else { preconditionFailure("\(key) is not an integer field") }
        return r
    }

    /// The range of a `.number` member; a programming error for another kind.
    public var numberRange: ClosedRange<Double> {
        guard case .number(let r, _, _) = kind else { preconditionFailure("\(key) is not a number field") }
        return r
    }

    /// The range as the command line's help writes it: `1…240`, `1…4`.
    public var rangeText: String {
        switch kind {
        case .integer(let r): return "\(r.lowerBound)…\(r.upperBound)"
        case .number(let r, _, _): return "\(JSONValue.format(r.lowerBound, decimals: 6))…\(JSONValue.format(r.upperBound, decimals: 6))"
        default: return ""
        }
    }

    /// The member's JSON Schema, or nil for a `.custom` member (`SceneSchema` writes those).
    var schema: JSONValue? {
        switch kind {
        case .integer(let r):
            return SceneSchema.number(help, min: Double(r.lowerBound), max: Double(r.upperBound), integer: true, default: defaultValue)
        case .number(let r, _, let nullable):
            guard nullable else { return SceneSchema.number(help, min: r.lowerBound, max: r.upperBound, default: defaultValue) }
            var m: [(String, JSONValue)] = [("type", .array(["number", "null"])), ("description", .string(help))]
            if let defaultValue { m.append(("default", defaultValue)) }
            m += [("minimum", .num(r.lowerBound)), ("maximum", .num(r.upperBound))]
            return .object(m)
        case .boolean:
            var m: [(String, JSONValue)] = [("type", "boolean"), ("description", .string(help))]
            if let defaultValue { m.append(("default", defaultValue)) }
            return .object(m)
        case .choice(let names, _):
            return SceneSchema.string(help, enumValues: names, default: defaultValue)
        case .custom:
            return nil
        }
    }
}

/// The members of a scene file's top level and of a custom `device`, in the order of the
/// scene file's keys, the schema's properties and the canonical scene.
public enum SceneFields {
    /// `"version"`: 1, the only scene format.
    public static let version = SceneField("version", .custom, help: "Scene file format version", default: .int(Scene().version))
    /// `"screen"`: which screen the scene shows.
    public static let screen = SceneField("screen", .custom, help: "Which screen the scene shows; its section (shop, cart) is allowed on that screen only")
    /// `"device"`: a preset name or a custom screen (`deviceWidth`… below).
    public static let device = SceneField("device", .custom, help: "A device preset, or a custom screen in points. Default: iphone-16 (393×852 pt @3x, safe area 59/34).")
    /// `"colorScheme"`: light or dark.
    public static let colorScheme = SceneField("colorScheme", .choice(ColorScheme.allCases.map(\.rawValue), suggests: false),
                                               help: "Appearance", default: .string(Scene().colorScheme.rawValue))
    /// `"reduceMotion"`: the system's Reduce Motion setting.
    public static let reduceMotion = SceneField("reduceMotion", .boolean, help: "Reduce Motion: taps count at once, no flights, no bumps",
                                                default: .bool(Scene().reduceMotion))
    /// `"systemChrome"`: the status bar and home indicator.
    public static let systemChrome = SceneField("systemChrome", .boolean,
                                                help: "Draw the iOS status bar (9:41, signal, Wi-Fi, battery) and home indicator above the app",
                                                default: .bool(Scene().systemChrome))
    /// `"locale"`: an ICU locale identifier.
    public static let locale = SceneField("locale", .custom, help: "Locale of numbers and prices, a known ICU locale (en_US, de_DE, ja_JP; - or _ between parts)",
                                          default: .string(Scene().locale))
    /// `"layoutDirection"`: left to right or right to left; its default is the locale's.
    public static let layoutDirection = SceneField("layoutDirection", .choice(LayoutDirection.allCases.map(\.rawValue), suggests: false),
                                                   help: "Stacks run from the left or from the right; default: the locale's script (ar, he, fa, ur… right to left)")
    /// `"dynamicTypeSize"`: the text size of every text style.
    public static let dynamicTypeSize = SceneField("dynamicTypeSize", .choice(DynamicTypeSize.allCases.map(\.rawValue), suggests: true),
                                                   help: "Text size of every text style", default: .string(DynamicTypeSize.large.rawValue))
    /// `"tint"`: a system color name or `#RRGGBB`.
    public static let tint = SceneField("tint", .custom, help: "A system color name (\(Look.systemColors.keys.sorted().joined(separator: ", "))) or #RRGGBB",
                                        default: .string(Scene().tint.text))
    /// `"fps"`: frames per second (also `--fps`).
    public static let fps = SceneField("fps", .integer(1...240), help: "Frames per second; with duration, at most \(SceneDecoder.maxFrames) frames",
                                       default: .int(Scene().fps))
    /// `"scale"`: pixels per point, replacing the device's (also `--scale`, and a custom
    /// device's `scale`).
    public static let scale = SceneField("scale", .number(1...4, unit: "", nullable: false), help: "Pixels per point; overrides the device's (default: the device's)")
    /// `"duration"` (s): the length of the render; null ends it after the last animation.
    public static let duration = SceneField("duration", .number(0...SceneDecoder.maxTime, unit: "s", nullable: true),
                                            help: "Seconds (events at or before it); null or left out ends the render 0.5 s after the last animation settles",
                                            default: .null)
    /// `"fonts"`: font files to register.
    public static let fonts = SceneField("fonts", .custom, help: "Font files to register, as an app's UIAppFonts: TrueType or OpenType files relative to the scene file, which must exist and be fonts (the decoder checks); the screens' font may then name their families",
                                         default: [])

    /// The top-level members before the screens' sections, in the scene file's order.
    public static let top: [SceneField] = [version, screen, device, colorScheme, reduceMotion, systemChrome, locale,
                                           layoutDirection, dynamicTypeSize, tint, fps, scale, duration, fonts]

    /// A custom device's `width` (pt).
    public static let deviceWidth = SceneField("width", .number(100...10_000, unit: "pt", nullable: false), help: "Screen width (pt)")
    /// A custom device's `height` (pt).
    public static let deviceHeight = SceneField("height", .number(100...10_000, unit: "pt", nullable: false),
                                                help: "Screen height (pt); with the scale, at most 16384 px a side")
    /// A custom device's `scale`, in `scale`'s range.
    public static let deviceScale = SceneField("scale", scale.kind, help: "Pixels per point", default: 3)
}
