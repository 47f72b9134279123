/// The JSON Schema (draft 2020-12) of scene files, printed by `cartrender schema` so that
/// editors can complete and check scenes. `SceneDecoder` is the authority; this describes it.
public enum SceneSchema {
    public static var json: JSONValue {
        func obj(_ props: [(String, JSONValue)], required: [String] = [], description: String? = nil) -> JSONValue {
            var m: [(String, JSONValue)] = [("type", "object")]
            if let d = description { m.append(("description", .string(d))) }
            m.append(("properties", .object(props)))
            if !required.isEmpty { m.append(("required", .array(required.map { .string($0) }))) }
            m.append(("additionalProperties", false))
            return .object(m)
        }
        func num(_ d: String, min: Double? = nil, max: Double? = nil, integer: Bool = false) -> JSONValue {
            var m: [(String, JSONValue)] = [("type", integer ? "integer" : "number"), ("description", .string(d))]
            if let min { m.append(("minimum", .num(min))) }
            if let max { m.append(("maximum", .num(max))) }
            return .object(m)
        }
        func str(_ d: String, enumValues: [String]? = nil, pattern: String? = nil) -> JSONValue {
            var m: [(String, JSONValue)] = [("type", "string"), ("description", .string(d))]
            if let e = enumValues { m.append(("enum", .array(e.map { .string($0) }))) }
            if let p = pattern { m.append(("pattern", .string(p))) }
            return .object(m)
        }
        let image = str("\"symbol:NAME\" (\(Symbols.bootstrapNames.keys.sorted().joined(separator: ", "))) or a PNG, JPEG or SVG file relative to the scene file")
        let rect = obj([("x", num("pt")), ("y", num("pt")), ("width", num("pt", min: 0)), ("height", num("pt", min: 0))], required: ["x", "y", "width", "height"])
        let device: JSONValue = .object([("oneOf", .array([
            str("Device preset", enumValues: Device.presets.keys.sorted()),
            obj([("width", num("Screen width (pt)", min: 100, max: 10000)), ("height", num("Screen height (pt)", min: 100, max: 10000)),
                 ("scale", num("Pixels per point", min: 1, max: 4)),
                 ("safeArea", obj([("top", num("pt", min: 0)), ("bottom", num("pt", min: 0))]))], required: ["width", "height"]),
        ]))])
        let event = obj([
            ("at", num("Seconds since the start", min: 0, max: SceneDecoder.maxTime)),
            ("tap", str("Shop: add. Cart: plus, minus, delete (the revealed trash button), checkout", enumValues: ["add", "plus", "minus", "delete", "checkout"])),
            ("item", str("Cart item id (plus, minus, delete)")),
            ("swipe", obj([("item", str("Cart item id")), ("translation", num("Horizontal finger travel (pt), negative = leftward", min: -10_000, max: 10_000)),
                           ("duration", num("Seconds the finger moves (default 0.25)", min: 0, max: 60))], required: ["item", "translation"])),
        ], required: ["at"])
        return .object([
            ("$schema", "https://json-schema.org/draft/2020-12/schema"),
            ("title", "cartrender scene"),
            ("type", "object"),
            ("properties", .object([
                ("version", .object([("const", 1)])),
                ("screen", str("Which screen", enumValues: ["shop", "cart"])),
                ("device", device),
                ("colorScheme", str("Appearance", enumValues: ["light", "dark"])),
                ("reduceMotion", .object([("type", "boolean")])),
                ("locale", str("Locale for numbers and currency, e.g. en_US")),
                ("tint", str("System color name (\(Look.systemColors.keys.sorted().joined(separator: ", "))) or #RRGGBB")),
                ("fps", num("Frames per second", min: 1, max: 240, integer: true)),
                ("scale", num("Pixels per point (overrides the device's)", min: 1, max: 4)),
                ("duration", num("Seconds; omit to end 0.5 s after the last animation settles", min: 0, max: SceneDecoder.maxTime)),
                ("shop", obj([
                    ("title", str("Header title")), ("productName", str("Product name, under the image")),
                    ("productDescription", str("Product description, under the name")),
                    ("image", image), ("imageLabel", str("Accessibility label of the product image")),
                    ("buttonTitle", str("Title of the add button")), ("count", num("Items in the cart at the start", min: 0, integer: true)),
                    ("cartFrame", .object([("oneOf", .array([.object([("const", "measured")]), .object([("type", "null")]), rect]))])),
                ])),
                ("cart", obj([
                    ("title", str("Header title")), ("currencyCode", str("ISO 4217 code", pattern: "^[A-Z]{3}$")),
                    ("items", .object([("type", "array"), ("items", obj([
                        ("id", str("Unique id")), ("name", str("Product name")), ("details", str("Line under the name, e.g. \"Gift\"")), ("image", image),
                        ("price", .object([("type", .array(["string", "number"])), ("description", "Decimal unit price, e.g. \"90.99\""),
                                           ("pattern", "^[0-9]{1,12}(\\.[0-9]{1,6})?$")])),
                        ("quantity", num("Quantity at the start (default 1)", min: 1, max: 1_000_000, integer: true)),
                    ], required: ["id", "name", "price"])), ("maxItems", .int(SceneDecoder.maxCartItems))])),
                ])),
                ("events", .object([("type", "array"), ("items", event), ("maxItems", 10_000)])),
            ])),
            ("additionalProperties", false),
            // "cart" is required on the cart screen and allowed nowhere else ("screen" defaults to "shop").
            ("if", .object([("properties", .object([("screen", .object([("const", "cart")]))])), ("required", .array(["screen"]))])),
            ("then", .object([("required", .array(["cart"]))])),
            ("else", .object([("not", .object([("required", .array(["cart"]))]))])),
        ])
    }
}
