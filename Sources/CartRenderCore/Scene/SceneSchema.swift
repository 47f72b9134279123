/// The JSON Schema (draft 2020-12) of scene files, printed by `cartrender schema` so that
/// editors can complete and check scenes. `SceneDecoder` is the authority; this describes it.
/// Each screen describes its own section (`Screen.schema`).
public enum SceneSchema {
    public static var json: JSONValue {
        let device: JSONValue = .object([("oneOf", .array([
            string("Device preset", enumValues: Device.presets.keys.sorted()),
            object([("width", number("Screen width (pt)", min: 100, max: 10000)), ("height", number("Screen height (pt)", min: 100, max: 10000)),
                    ("scale", number("Pixels per point", min: 1, max: 4)),
                    ("safeArea", object([("top", number("pt", min: 0)), ("bottom", number("pt", min: 0))]))], required: ["width", "height"]),
        ]))])
        let event = object([
            ("at", number("Seconds since the start", min: 0, max: SceneDecoder.maxTime)),
            ("tap", string(Screens.all.map { $0.tapHelp }.joined(separator: ". "), enumValues: Screens.all.flatMap { $0.tapTargets })),
            ("item", string("Cart item id (plus, minus, delete)")),
            ("swipe", object([("item", string("Cart item id")), ("translation", number("Horizontal finger travel (pt), negative = leftward", min: -10_000, max: 10_000)),
                              ("duration", number("Seconds the finger moves (default 0.25)", min: 0, max: 60))], required: ["item", "translation"])),
        ], required: ["at"])
        var properties: [(String, JSONValue)] = [
            ("version", .object([("const", 1)])),
            ("screen", string("Which screen", enumValues: Screens.all.map { $0.name })),
            ("device", device),
            ("colorScheme", string("Appearance", enumValues: ["light", "dark"])),
            ("reduceMotion", .object([("type", "boolean")])),
            ("locale", string("Locale for numbers and currency, e.g. en_US")),
            ("layoutDirection", string("Stacks run from the left or from the right; default: the locale's script (ar, he, fa, ur… right to left)",
                                       enumValues: LayoutDirection.allCases.map(\.rawValue))),
            ("dynamicTypeSize", string("Text size of every text style (default large)", enumValues: DynamicTypeSize.allCases.map(\.rawValue))),
            ("tint", string("System color name (\(Look.systemColors.keys.sorted().joined(separator: ", "))) or #RRGGBB")),
            ("fps", number("Frames per second", min: 1, max: 240, integer: true)),
            ("scale", number("Pixels per point (overrides the device's)", min: 1, max: 4)),
            ("duration", number("Seconds; omit to end 0.5 s after the last animation settles", min: 0, max: SceneDecoder.maxTime)),
        ]
        properties += Screens.all.map { ($0.name, $0.schema) }
        properties.append(("events", .object([("type", "array"), ("items", event), ("maxItems", 10_000)])))
        let variantValues: [(String, JSONValue)] = [
            ("colorScheme", string("Appearance", enumValues: ["light", "dark"])), ("locale", string("Locale")),
            ("dynamicTypeSize", string("Text size", enumValues: DynamicTypeSize.allCases.map(\.rawValue))), ("device", device),
            ("reduceMotion", .object([("type", "boolean")])),
        ]
        properties.append(("variants", object(SceneDecoder.variantKeys.map { key in
            (key, .object([("type", "array"), ("minItems", 1), ("items", variantValues.first { $0.0 == key }!.1)]))
        }, description: "Render every combination of these values, each into its own subdirectory")))
        // A required section is required on its screen and allowed nowhere else ("screen"
        // defaults to the first screen, whose section is optional).
        let conditions: [[(String, JSONValue)]] = Screens.all.filter { $0.defaultContent == nil }.map { screen in
            [("if", .object([("properties", .object([("screen", .object([("const", .string(screen.name))]))])), ("required", .array(["screen"]))])),
             ("then", .object([("required", .array([.string(screen.name)]))])),
             ("else", .object([("not", .object([("required", .array([.string(screen.name)]))]))]))]
        }
        return .object([
            ("$schema", "https://json-schema.org/draft/2020-12/schema"),
            ("title", "cartrender scene"),
            ("type", "object"),
            ("properties", .object(properties)),
            ("additionalProperties", false),
        ] + (conditions.count == 1 ? conditions[0] : conditions.isEmpty ? [] : [("allOf", .array(conditions.map { .object($0) }))]))
    }

    // MARK: - Pieces for the screens' sections

    /// An object with only the given properties.
    static func object(_ props: [(String, JSONValue)], required: [String] = [], description: String? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [("type", "object")]
        if let d = description { m.append(("description", .string(d))) }
        m.append(("properties", .object(props)))
        if !required.isEmpty { m.append(("required", .array(required.map { .string($0) }))) }
        m.append(("additionalProperties", false))
        return .object(m)
    }

    static func number(_ d: String, min: Double? = nil, max: Double? = nil, integer: Bool = false) -> JSONValue {
        var m: [(String, JSONValue)] = [("type", integer ? "integer" : "number"), ("description", .string(d))]
        if let min { m.append(("minimum", .num(min))) }
        if let max { m.append(("maximum", .num(max))) }
        return .object(m)
    }

    static func string(_ d: String, enumValues: [String]? = nil, pattern: String? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [("type", "string"), ("description", .string(d))]
        if let e = enumValues { m.append(("enum", .array(e.map { .string($0) }))) }
        if let p = pattern { m.append(("pattern", .string(p))) }
        return .object(m)
    }

    /// An image field: a symbol or an image file.
    static var image: JSONValue {
        string("\"symbol:NAME\" (\(Symbols.bootstrapNames.keys.sorted().joined(separator: ", "))) or a PNG, JPEG or SVG file relative to the scene file")
    }
}
