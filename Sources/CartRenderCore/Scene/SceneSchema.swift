/// The JSON Schema (draft 2020-12) of scene files, printed by `cartrender schema` so that
/// editors can complete and check scenes. `SceneDecoder` is the authority; this describes it.
/// Each screen describes its own section and its events (`Screen.schema`, `Screen.eventSchema`).
///
/// Everything the decoder checks that JSON Schema can say is here: types, enums (screens,
/// devices, colors, symbols, taps), patterns (locales, currency codes, prices, `#RRGGBB`, image
/// file names), numeric ranges, exactly one of `tap` and `swipe` in an event, and what each
/// screen requires and allows. Every property has a `description`, and a `default` when it may
/// be left out. What only the decoder can check, because it relates two values or looks outside
/// the file, is said in the descriptions: times after `duration`, frame counts (`duration` × `fps`),
/// canvases over 16384 px (size × scale), safe areas over a third of the height, unique cart item
/// ids, events on items that do not exist or were deleted, locales and currencies the platform
/// does not know, image files that do not exist or cannot be decoded, texts over 10000 UTF-8
/// bytes (`maxLength` counts characters), and the digits of a price given as a JSON number.
/// `SceneSchemaTests` runs a JSON Schema validator and the decoder over the bad-input corpus and
/// checks that they agree.
public enum SceneSchema {
    /// The schema's `$id`. A scene names the schema for editors with `"$schema"` (a path or URL to
    /// the output of `cartrender schema`), which cartrender accepts and ignores.
    public static let id = "urn:cartrender:scene:1"

    /// The JSON Schema (draft 2020-12) of scene files, with the defaults of `Scene()` and each
    /// screen's section (`Screen.schema`); what `cartrender schema` prints (docs/scene-file.md).
    public static var json: JSONValue {
        let F = SceneFields.self
        let device: JSONValue = .object([
            ("description", .string(F.device.help)),
            ("default", .string(Scene().device.name ?? "")),
            ("oneOf", .array([
                string("Device preset", enumValues: Device.presets.keys.sorted()),
                object([
                    (F.deviceWidth.key, F.deviceWidth.schema!),
                    (F.deviceHeight.key, F.deviceHeight.schema!),
                    (F.deviceScale.key, F.deviceScale.schema!),
                    ("safeArea", object([
                        ("top", number("Top inset (pt), at most a third of the height", min: 0, max: 3333.333334, default: 0)),
                        ("bottom", number("Bottom inset (pt), at most a third of the height", min: 0, max: 3333.333334, default: 0)),
                    ], description: "Safe-area insets", default: .object([("top", 0), ("bottom", 0)]))),
                ], required: [F.deviceWidth.key, F.deviceHeight.key], description: "A custom screen"),
            ])),
        ])
        // The members the table cannot describe by kind alone.
        let custom: [String: JSONValue] = [
            F.version.key: .object([("const", 1), ("description", .string(F.version.help)), ("default", F.version.defaultValue!)]),
            F.screen.key: string(F.screen.help, enumValues: Screens.all.map { $0.name }, default: .string(Screens.all[0].name)),
            F.device.key: device,
            F.locale.key: .object([("type", "string"), ("description", .string(F.locale.help)), ("default", F.locale.defaultValue!),
                                   ("examples", ["en_US", "de_DE"]), ("pattern", .string(SceneDecoder.localePattern))]),
            F.tint.key: .object([
                ("type", "string"), ("description", .string(F.tint.help)), ("default", F.tint.defaultValue!),
                ("examples", ["indigo", "#FF9500"]),
                ("anyOf", .array([.object([("enum", .array(Look.systemColors.keys.sorted().map { .string($0) }))]),
                                  .object([("pattern", "^#[0-9A-Fa-f]{6}$")])])),
            ]),
            F.fonts.key: .object([
                ("type", "array"), ("description", .string(F.fonts.help)),
                ("default", F.fonts.defaultValue!), ("maxItems", .int(SceneDecoder.maxFonts)),
                ("items", .object([("type", "string"), ("maxLength", 10_000),
                                   ("pattern", #"^[^\u0000]*\.([Tt][Tt][Ff]|[Oo][Tt][Ff])$"#)])),
            ]),
        ]
        var properties: [(String, JSONValue)] = [
            ("$schema", string("The schema of this file, for editors (a path or URL to the output of `cartrender schema`); ignored by cartrender")),
        ]
        properties += F.top.map { ($0.key, $0.schema ?? custom[$0.key]!) }
        properties += Screens.all.map { ($0.name, $0.schema) }
        properties.append(("events", .object([
            ("type", "array"),
            ("description", .string("User input, at most 10000 events, sorted by time (equal times keep their order). \(Screens.all.map { $0.tapHelp }.joined(separator: ". "))")),
            ("default", []),
            ("items", event), ("maxItems", 10_000),
        ])))
        let variantValues: [(String, JSONValue)] = [
            ("colorScheme", string(F.colorScheme.help, enumValues: ColorScheme.allCases.map(\.rawValue))),
            ("locale", .object([("type", "string"), ("description", "Locale"), ("pattern", .string(SceneDecoder.localePattern))])),
            ("dynamicTypeSize", string("Text size", enumValues: DynamicTypeSize.allCases.map(\.rawValue))), ("device", device),
            ("reduceMotion", .object([("type", "boolean"), ("description", "Reduce Motion")])),
        ]
        properties.append(("variants", object(SceneDecoder.variantKeys.map { key in
            (key, .object([("type", "array"), ("description", .string("The values of \(key) to render: every combination gets its own subdirectory")),
                           ("minItems", 1), ("items", variantValues.first { $0.0 == key }!.1)]))
        }, description: "Render every combination of these values, each into its own subdirectory")))
        return .object([
            ("$schema", "https://json-schema.org/draft/2020-12/schema"),
            ("$id", .string(id)),
            ("title", "cartrender scene"),
            ("description", "A scene file of cartrender (README.md, section Scene file): a screen, its content and the events on its timeline."),
            ("type", "object"),
            ("properties", .object(properties)),
            ("additionalProperties", false),
            ("allOf", .array(Screens.all.map(condition))),
            ("examples", .array(examples)),
        ])
    }

    /// An event as any screen may have it: `at`, `tap` (every screen's targets), the members
    /// the screens add (`Screen.eventMembers`), and exactly one of the screens' gestures
    /// (`Screens.eventGestures`). The screen's `eventSchema` narrows it (`condition`).
    static var event: JSONValue {
        let tap = string(Screens.all.map { $0.tapHelp }.joined(separator: ". "),
                         enumValues: Screens.all.flatMap { $0.tapTargets })
        let e = object([
            ("at", number("Seconds since the start; at most the duration", min: 0, max: SceneDecoder.maxTime)),
            ("tap", tap),
        ] + Screens.all.flatMap { $0.eventMembers }, required: ["at"],
          description: "An event: \(Screens.eventGestures.map { "a " + $0 }.joined(separator: " or ")) at a time")
        guard case .object(var m) = e else { return e }
        m.append(("oneOf", .array(Screens.eventGestures.map { .object([("required", .array([.string($0)]))]) })))
        return .object(m)
    }

    /// What a screen requires and allows: on `screen`, its section when it has no default
    /// content, and its events; elsewhere, not its section. The first screen is the one a scene
    /// without `"screen"` shows.
    static func condition(_ screen: any Screen.Type) -> JSONValue {
        let named: JSONValue = .object([("properties", .object([("screen", .object([("const", .string(screen.name))]))])), ("required", ["screen"])])
        let isScreen: JSONValue = screen.name == Screens.all[0].name
            ? .object([("anyOf", [.object([("not", .object([("required", ["screen"])]))]), named])])
            : named
        var then: [(String, JSONValue)] = [("properties", .object([("events", .object([("items", screen.eventSchema)]))]))]
        if screen.defaultContent == nil { then.append(("required", .array([.string(screen.name)]))) }
        return .object([
            ("if", isScreen),
            ("then", .object(then)),
            ("else", .object([("not", .object([("required", .array([.string(screen.name)]))]))])),
        ])
    }

    /// The embedded default scene and the screens' examples (`Screen.schemaExample`), as
    /// editors show them.
    static var examples: [JSONValue] {
        ([DefaultScene.json] + Screens.all.compactMap { $0.schemaExample }).compactMap { (try? JSONParser.parse(Array($0.utf8))).map(JSONValue.init) }
    }

    // MARK: - Pieces for the screens' sections

    /// An object with only the given properties.
    static func object(_ props: [(String, JSONValue)], required: [String] = [], description: String? = nil, default value: JSONValue? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [("type", "object")]
        if let d = description { m.append(("description", .string(d))) }
        if let value { m.append(("default", value)) }
        m.append(("properties", .object(props)))
        if !required.isEmpty { m.append(("required", .array(required.map { .string($0) }))) }
        m.append(("additionalProperties", false))
        return .object(m)
    }

    static func number(_ d: String, min: Double? = nil, max: Double? = nil, integer: Bool = false, default value: JSONValue? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [("type", integer ? "integer" : "number"), ("description", .string(d))]
        if let value { m.append(("default", value)) }
        if let min { m.append(("minimum", .num(min))) }
        if let max { m.append(("maximum", .num(max))) }
        return .object(m)
    }

    /// An integer property, bounds exact (a `Double` cannot hold `Int.max`).
    static func integer(_ d: String, in range: ClosedRange<Int>, default value: Int) -> JSONValue {
        .object([("type", "integer"), ("description", .string(d)), ("default", .int(value)),
                 ("minimum", .int(range.lowerBound)), ("maximum", .int(range.upperBound))])
    }

    /// A text as `SceneDecoder.string` reads it: no NUL (Pango takes C strings), at most 10000
    /// bytes (`maxLength` counts characters, so it admits more: the decoder refuses them).
    /// `nonEmpty`: something besides spaces and tabs.
    static func text(_ d: String, default value: String? = nil, nonEmpty: Bool = false) -> JSONValue {
        var m: [(String, JSONValue)] = [("type", "string"), ("description", .string(d))]
        if let value { m.append(("default", .string(value))) }
        m.append(("maxLength", 10_000))
        m.append(("pattern", nonEmpty ? #"^[^\u0000]*[^\u0000\t\u0020\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000][^\u0000]*$"# : #"^[^\u0000]*$"#))
        return .object(m)
    }

    static func string(_ d: String, enumValues: [String]? = nil, pattern: String? = nil, default value: JSONValue? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [("type", "string"), ("description", .string(d))]
        if let value { m.append(("default", value)) }
        if let e = enumValues { m.append(("enum", .array(e.map { .string($0) }))) }
        if let p = pattern { m.append(("pattern", .string(p))) }
        return .object(m)
    }

    /// A screen's `font`: `system`, `Jost` or the family of a file in `fonts` (the decoder
    /// checks the family, which the schema cannot see in the files).
    static func fontFamily(default value: FontFamily) -> JSONValue {
        .object([
            ("type", "string"),
            ("description", .string("Font family of the screen's text: \"system\" (Inter, standing in for SF Pro), \"Jost\", or the family of a file in fonts")),
            ("default", .string(value.text)),
            ("examples", .array(FontFamily.builtIn.map { .string($0.text) })),
            ("maxLength", 10_000), ("pattern", #"^[^\u0000]*[^\u0000\t\u0020][^\u0000]*$"#),
        ])
    }

    /// An image field: a known symbol, or a `.png`, `.jpg`, `.jpeg` or `.svg` file (any case)
    /// relative to the scene file, which must exist (the decoder checks).
    static func image(default value: ImageSource) -> JSONValue {
        let symbols = Symbols.names
        return .object([
            ("type", "string"),
            ("description", .string("\"symbol:NAME\" (\(symbols.joined(separator: ", "))) or a PNG, JPEG or SVG file relative to the scene file")),
            ("default", .string(value.text)),
            ("examples", ["symbol:backpack.fill", "images/product.png"]),
            ("anyOf", .array([
                .object([("enum", .array(symbols.map { .string("symbol:" + $0) }))]),
                .object([("maxLength", 10_000), ("pattern", #"^(?!symbol:)[^\u0000]*\.([Pp][Nn][Gg]|[Jj][Pp][Gg]|[Jj][Pp][Ee][Gg]|[Ss][Vv][Gg])$"#)]),
            ])),
        ])
    }
}
