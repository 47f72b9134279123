/// The fly-button demo screen of seed 000 (docs/motion-and-look.md, “The fly button”): the
/// `"shop"` section of a scene file.
/// `ShopLayout` lays it out, `FlyTimeline` animates its taps, `ShopModel` makes its frames.
public struct ShopContent: Equatable, Sendable {
    /// The large title at the top (`"title"`, seed 000).
    public var title = "Shop"
    /// The product's name under the image (`"productName"`).
    public var productName = "Trail backpack"
    /// The product's description under its name (`"productDescription"`).
    public var productDescription = "Twenty liters, water resistant and light enough for every day."
    /// The product image (`"image"`): an SF Symbol or an image file; `backpack.fill` by default.
    public var image: ImageSource = .symbol("backpack.fill")
    /// What VoiceOver reads for the product image (`"imageLabel"`); nil when the scene gives
    /// none: the image is then labelled by `productName` (`productImageLabel`).
    public var imageLabel: String?
    /// The product image's accessibility label: `imageLabel`, else the product's name.
    public var productImageLabel: String { imageLabel ?? productName }
    /// The add button's title (`"buttonTitle"`, seed 000: "Add to Cart").
    public var buttonTitle = "Add to Cart"
    /// Items in the cart before the first frame (≥ 0).
    public var count = 0
    /// Where flights land (`"cartFrame"`): the measured cart icon by default.
    public var cartFrame: CartFrame = .measured
    /// The family of the screen's text (`"font"`): the system font, as in seed 000.
    public var font: FontFamily = .system
    /// The section's defaults: seed 000's demo product, no items, a measured cart frame.
    public init() {}

    /// Where flights go (seed 000's `cartFrame: CGRect?`).
    public enum CartFrame: Equatable, Sendable {
        /// The cart icon's laid-out frame.
        case measured
        /// No cart frame: taps never fly, they count at once.
        case none
        /// A fixed frame in screen points.
        case rect(Rect)
    }
}

extension ShopContent: Screen {
    /// `shop`: the value of `"screen"` and the key of the section.
    public static let name = "shop"
    /// The shop is the default screen: its section may be left out.
    public static let defaultContent: ShopContent? = ShopContent()
    /// The one tap target, the add button (`{"tap": "add"}`).
    public static let tapTargets = ["add"]
    /// How the schema describes the tap targets.
    public static let tapHelp = "Shop: add"
    /// `ShopEvent`: tap, launch, land and increment.
    public static var timelineEvents: any TimelineEventKind.Type { ShopEvent.self }
    /// `ShopFrameState`, the manifest `state` of this screen's frames.
    public static var frameStateType: any (FrameState & Decodable).Type { ShopFrameState.self }

    /// The JSON Schema of the `"shop"` section (docs/scene-file.md), with its defaults.
    public static var schema: JSONValue {
        let d = ShopContent()
        let big = cartFrameLimit
        let rect = SceneSchema.object([("x", SceneSchema.number("Left edge (pt), screen coordinates", min: -big, max: big)),
                                       ("y", SceneSchema.number("Top edge (pt), screen coordinates", min: -big, max: big)),
                                       ("width", SceneSchema.number("pt", min: 0, max: big)), ("height", SceneSchema.number("pt", min: 0, max: big))],
                                      required: ["x", "y", "width", "height"], description: "A fixed frame in screen points")
        return SceneSchema.object([
            ("title", SceneSchema.text("Header title", default: d.title)),
            ("productName", SceneSchema.text("Product name, under the image", default: d.productName)),
            ("productDescription", SceneSchema.text("Product description, under the name", default: d.productDescription)),
            ("image", SceneSchema.image(default: d.image)),
            ("imageLabel", SceneSchema.text("Accessibility label of the product image; default: the product name")),
            ("buttonTitle", SceneSchema.text("Title of the add button", default: d.buttonTitle)),
            ("font", SceneSchema.fontFamily(default: d.font)),
            ("count", SceneSchema.integer("Items in the cart at the start", in: 0...Int.max, default: d.count)),
            ("cartFrame", .object([
                ("description", "Where flights go: \"measured\" (the cart icon's frame), null (no cart frame: taps count at once, nothing flies) or a rectangle"),
                ("default", "measured"),
                ("oneOf", .array([.object([("const", "measured")]), .object([("type", "null")]), rect])),
            ])),
        ], description: "The fly-button screen (seed 000); every member may be left out", default: .object([]))
    }

    /// Taps on the add button only: no swipes, no item.
    public static var eventSchema: JSONValue {
        .object([("properties", .object([("tap", .object([("const", "add")])), ("swipe", false), ("item", false)]))])
    }

    /// Largest coordinate or size of a fixed `cartFrame` (pt).
    static let cartFrameLimit = 100_000.0

    /// Reads the `"shop"` section (docs/scene-file.md). Image fields go through `d`.
    /// - Throws: `SceneError` at the member that is wrong (an unknown key, a wrong type, a
    ///   negative count, a cart frame out of ±100 000 pt).
    public static func decode(_ node: JSONNode, at path: String, with d: SceneDecoder, baseDirectory: String) throws -> ShopContent {
        let m = try d.object(node, path, keys: ["title", "productName", "productDescription", "image", "imageLabel",
                                               "buttonTitle", "font", "count", "cartFrame"])
        var s = ShopContent()
        if let n = m.values["title"] { s.title = try d.string(n, m.child("title")) }
        if let n = m.values["productName"] { s.productName = try d.string(n, m.child("productName")) }
        if let n = m.values["productDescription"] { s.productDescription = try d.string(n, m.child("productDescription")) }
        if let n = m.values["image"] { s.image = try d.image(n, m.child("image"), baseDirectory: baseDirectory) }
        if let n = m.values["imageLabel"] { s.imageLabel = try d.string(n, m.child("imageLabel")) }
        if let n = m.values["buttonTitle"] { s.buttonTitle = try d.string(n, m.child("buttonTitle")) }
        if let n = m.values["font"] { s.font = try d.fontFamily(n, m.child("font")) }
        if let n = m.values["count"] { s.count = try d.integer(n, m.child("count"), in: 0...Int.max) }
        if let n = m.values["cartFrame"] {
            switch n.value {
            case .null: s.cartFrame = .none
            case .string(let v):
                guard v == "measured" else { throw d.error(n, m.child("cartFrame"), "must be \"measured\", null or {\"x\", \"y\", \"width\", \"height\"}, got \(echoedQuoted(v))") }
                s.cartFrame = .measured
            default:
                let p = m.child("cartFrame")
                let r = try d.object(n, p, keys: ["x", "y", "width", "height"], required: ["x", "y", "width", "height"])
                let big = Self.cartFrameLimit
                s.cartFrame = .rect(Rect(x: try d.number(r.values["x"]!, r.child("x"), in: -big...big, unit: "pt"),
                                         y: try d.number(r.values["y"]!, r.child("y"), in: -big...big, unit: "pt"),
                                         width: try d.number(r.values["width"]!, r.child("width"), in: 0...big, unit: "pt"),
                                         height: try d.number(r.values["height"]!, r.child("height"), in: 0...big, unit: "pt")))
            }
        }
        return s
    }

    /// Taps on the add button; the shop has nothing to swipe.
    public func decodeEvents(_ node: JSONNode, at path: String, scene: Scene, with d: SceneDecoder) throws -> [SceneEvent] {
        try d.events(node, path) { m in
            if let swipeNode = m.values["swipe"] { throw d.error(swipeNode, m.child("swipe"), "swipes are only for the cart screen") }
            let tapNode = m.values["tap"]!
            let target = try d.string(tapNode, m.child("tap"))
            guard target == "add" else { throw d.unknownTap(tapNode, m.child("tap"), target, on: Self.self) }
            if let itemNode = m.values["item"] { throw d.error(itemNode, m.child("item"), "is not used by \"tap\": \"add\"") }
            return ShopAction.tapAdd
        }
    }

    /// The section with every default written out, keys in a fixed order.
    public func canonicalJSON(image: (ImageSource) -> JSONValue) -> JSONValue {
        let frame: JSONValue
        switch cartFrame {
        case .measured: frame = "measured"
        case .none: frame = .null
        case .rect(let r): frame = .object([("x", .num(r.x)), ("y", .num(r.y)), ("width", .num(r.width)), ("height", .num(r.height))])
        }
        return .object([
            ("title", .string(title)), ("productName", .string(productName)),
            ("productDescription", .string(productDescription)), ("image", image(self.image)),
            ("imageLabel", .string(productImageLabel)), ("buttonTitle", .string(buttonTitle)),
        ] + (font == .system ? [] : [("font", .string(font.text))]) + [
            ("count", .int(count)), ("cartFrame", frame),
        ])
    }

    /// The product image, the cart icon's symbol and the add button's.
    public var images: [ImageSource] { [image, ShopLayout.cartSymbol, ShopLayout.buttonSymbol] }

    /// The screen laid out with `measurer`'s text metrics, its taps simulated (`ShopModel`).
    public func model(for scene: Scene, measurer: any TextMeasuring) -> any ScreenModel {
        ShopModel(scene: scene, shop: self, measurer: measurer)
    }
}
