import Foundation

/// The cart page of seed 003 (docs/motion-and-look.md, “The cart page”): the `"cart"` section of
/// a scene file.
/// `CartLayout` lays it out, `CartTimeline` animates its swipes and taps, `CartModel` makes its
/// frames.
public struct CartContent: Equatable, Sendable {
    /// The page title (`"title"`, seed 003: "My cart").
    public var title = "My cart"
    /// ISO 4217 currency code (`USD`, `EUR`, `JPY`).
    public var currencyCode = "USD"
    /// The rows, top to bottom (`"items"`: at most `maximumItems`, ids unique; none by default).
    public var items: [CartItem] = []
    /// The family of the page's text (`"font"`): Jost, as in seed 003.
    public var font: FontFamily = .jost
    /// The scene's `totalLabel` and `checkoutTitle`, the app's translations of the seed's
    /// "Total" and "Check out" (`CartLabels`); nil shows the seed's English.
    public var totalLabel: String?
    /// The scene's `"checkoutTitle"`, or nil for the locale's built-in "Check out".
    public var checkoutTitle: String?
    /// An empty cart in USD, titled "My cart", in Jost (the section itself is required).
    public init() {}

    /// The page's fixed texts: the scene's own where it gives them, else the seed's English.
    public func labels() -> CartLabels {
        CartLabels(total: totalLabel ?? CartLabels.english.total, checkout: checkoutTitle ?? CartLabels.english.checkout)
    }
}

/// One row of the cart page. `price` is a decimal, never binary floating point.
public struct CartItem: Equatable, Sendable {
    /// The item's id, unique in the cart: what events name (`"item": "tek1"`).
    public var id: String
    /// The product name, at the top of the row's text column.
    public var name: String
    /// The details line under the name (size, color…).
    public var details: String
    /// The product image: an SF Symbol or an image file (`bag.fill` when the scene names none).
    public var image: ImageSource
    /// Unit price in the scene's currency.
    public var price: Decimal
    /// Quantity (1…`maximumQuantity`).
    public var quantity: Int
    /// The largest quantity a scene may give and a `plus` tap may reach.
    public static let maximumQuantity = 1_000_000
    /// An item; `price` in the scene's currency, `quantity` in 1…`maximumQuantity`.
    public init(id: String, name: String, details: String, image: ImageSource, price: Decimal, quantity: Int) {
        self.id = id; self.name = name; self.details = details; self.image = image; self.price = price; self.quantity = quantity
    }
}

extension CartContent: Screen {
    /// `cart`: the value of `"screen"` and the key of the section.
    public static let name = "cart"
    /// A cart scene must list its items.
    public static let defaultContent: CartContent? = nil
    /// The tap targets (`{"tap": "plus", "item": "tek1"}`; `checkout` takes no item).
    public static let tapTargets = ["plus", "minus", "delete", "checkout"]
    /// How the schema describes the tap targets.
    public static let tapHelp = "Cart: plus, minus, delete (the revealed trash button), checkout"
    /// A tap on a button, or a swipe on a row.
    public static let gestures = ["tap", "swipe"]
    /// Most items a cart may hold: every frame's manifest state lists every row, so the cost
    /// of a frame grows with the number of items (a choice: far more than a screen shows).
    public static let maximumItems = 1000
    /// `CartEvent`: swipe, release, open, close, delete, tap, quantity and checkout.
    public static var timelineEvents: any TimelineEventKind.Type { CartEvent.self }
    /// `CartFrameState`, the manifest `state` of this screen's frames.
    public static var frameStateType: any (FrameState & Decodable).Type { CartFrameState.self }
    /// The image of an item that names none.
    public static let defaultItemImage = ImageSource.symbol("bag.fill")

    /// The JSON Schema of the `"cart"` section (docs/scene-file.md), with its defaults.
    public static var schema: JSONValue {
        let d = CartContent()
        let price: JSONValue = .object([
            ("description", "Unit price in the currency: a decimal string (\"90.99\"), or a JSON number read by its digits; at most 12 digits before the point and 6 after"),
            ("examples", ["90.99", "10"]),
            ("anyOf", .array([
                .object([("type", "string"), ("pattern", .string(pricePattern))]),
                // A number's digits are not visible to a schema: only its range is.
                .object([("type", "number"), ("minimum", 0), ("exclusiveMaximum", 1_000_000_000_000)]),
            ])),
        ])
        let item = SceneSchema.object([
            ("id", SceneSchema.text("Unique id, named by events", nonEmpty: true)),
            ("name", SceneSchema.text("Product name")),
            ("details", SceneSchema.text("Line under the name, e.g. \"Gift\"", default: "")),
            ("image", SceneSchema.image(default: defaultItemImage)),
            ("price", price),
            ("quantity", SceneSchema.integer("Quantity at the start; plus taps stop at the same limit", in: 1...CartItem.maximumQuantity, default: 1)),
        ], required: ["id", "name", "price"], description: "A row of the cart")
        return SceneSchema.object([
            ("title", SceneSchema.text("Header title", default: d.title)),
            ("font", SceneSchema.fontFamily(default: d.font)),
            ("currencyCode", .object([("type", "string"), ("description", "ISO 4217 currency code known to the platform"),
                                      ("default", .string(d.currencyCode)), ("examples", ["USD", "EUR", "JPY"]), ("pattern", "^[A-Z]{3}$")])),
            ("totalLabel", SceneSchema.text("The label beside the total, as the app translates the seed's \"Total\" (default: \"Total\")")),
            ("checkoutTitle", SceneSchema.text("The checkout button's title, as the app translates the seed's \"Check out\" (default: \"Check out\")")),
            ("items", .object([("type", "array"), ("description", .string("The rows, top to bottom; at most \(maximumItems), ids unique")),
                               ("default", []), ("items", item), ("maxItems", .int(maximumItems))])),
        ], description: "The cart page (seed 003); required on the cart screen")
    }

    /// Swipes without a top-level `item`; `plus`, `minus` and `delete` taps with one, `checkout`
    /// without.
    /// A cart with two items, a swipe, a trash tap and a plus tap.
    public static var schemaExample: String? {
        """
        {"screen": "cart", "locale": "en_US",
         "cart": {"title": "My cart", "currencyCode": "USD", "items": [
           {"id": "tek1", "name": "Trail backpack", "details": "Gift", "image": "symbol:backpack.fill", "price": "90.99", "quantity": 2},
           {"id": "tek2", "name": "Travel bag", "image": "symbol:bag.fill", "price": "10.00"}]},
         "events": [{"at": 0.3, "swipe": {"item": "tek2", "translation": -120, "duration": 0.25}},
                    {"at": 1.2, "tap": "delete", "item": "tek2"}, {"at": 2.0, "tap": "plus", "item": "tek1"}]}
        """
    }

    /// A row button's `item`, and `swipe`.
    public static var eventMembers: [(String, JSONValue)] {
        let swipe = SceneSchema.object([
            ("item", SceneSchema.string("The id of the cart item whose row is dragged")),
            ("translation", SceneSchema.number("Horizontal finger travel (pt), negative = leftward", min: -10_000, max: 10_000)),
            ("duration", SceneSchema.number("Seconds the finger moves before it lifts", min: 0, max: 60, default: .num(CartTimeline.defaultSwipeDuration))),
        ], required: ["item", "translation"], description: "A drag on a cart row: the finger moves linearly, then lifts")
        return [
            ("item", SceneSchema.string("The id of the cart item whose button is tapped (plus, minus, delete)")),
            ("swipe", swipe),
        ]
    }

    /// What a cart event must also satisfy: `plus`, `minus` and `delete` taps and swipes name an
    /// `item`; `checkout` names none (docs/scene-file.md).
    public static var eventSchema: JSONValue {
        func tap(_ targets: [String]) -> JSONValue {
            .object([("properties", .object([("tap", .object([("enum", .array(targets.map { .string($0) }))]))])), ("required", ["tap"])])
        }
        return .object([
            ("properties", .object([("tap", .object([("enum", .array(tapTargets.map { .string($0) }))]))])),
            ("dependentSchemas", .object([("swipe", .object([("properties", .object([("item", false)]))]))])),
            ("allOf", .array([
                .object([("if", tap(["plus", "minus", "delete"])), ("then", .object([("required", ["item"])]))]),
                .object([("if", tap(["checkout"])), ("then", .object([("properties", .object([("item", false)]))]))]),
            ])),
        ])
    }

    /// What a price looks like as a string, or as a JSON number's text.
    static let pricePattern = #"^[0-9]{1,12}(\.[0-9]{1,6})?$"#

    /// Reads the `"cart"` section (docs/scene-file.md). Image fields go through `d`.
    /// - Throws: `SceneError` at the member that is wrong (an unknown key, a wrong type, a
    ///   duplicate id, a price or quantity out of range, too many items).
    public static func decode(_ node: JSONNode, at path: String, with d: SceneDecoder, baseDirectory: String) throws -> CartContent {
        let m = try d.object(node, path, keys: ["title", "font", "currencyCode", "totalLabel", "checkoutTitle", "items"])
        var c = CartContent()
        if let n = m.values["title"] { c.title = try d.string(n, m.child("title")) }
        if let n = m.values["font"] { c.font = try d.fontFamily(n, m.child("font")) }
        if let n = m.values["totalLabel"] { c.totalLabel = try d.string(n, m.child("totalLabel")) }
        if let n = m.values["checkoutTitle"] { c.checkoutTitle = try d.string(n, m.child("checkoutTitle")) }
        if let n = m.values["currencyCode"] {
            let v = try d.string(n, m.child("currencyCode"))
            guard v.count == 3, v.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                throw d.error(n, m.child("currencyCode"), "must be a three-letter ISO 4217 code such as \"USD\", got \(echoedQuoted(v))")
            }
            guard Locale.Currency.isoCurrencies.contains(where: { $0.identifier == v }) else {
                throw d.error(n, m.child("currencyCode"), "unknown ISO 4217 currency code \(echoedQuoted(v))")
            }
            c.currencyCode = v
        }
        if let n = m.values["items"] {
            guard case .array(let list) = n.value else { throw d.error(n, m.child("items"), "expected an array, got \(n.typeName)") }
            if list.count > maximumItems {
                throw d.error(n, m.child("items"), "has \(list.count) items; at most \(maximumItems) are allowed")
            }
            var seen: [String: Int] = [:]
            for (i, itemNode) in list.enumerated() {
                let p = "\(m.child("items"))[\(i)]"
                let im = try d.object(itemNode, p, keys: ["id", "name", "details", "image", "price", "quantity"],
                                      required: ["id", "name", "price"])
                let id = try d.string(im.values["id"]!, im.child("id"), nonEmpty: true)
                if let first = seen[id] {
                    throw d.error(im.values["id"]!, im.child("id"), "duplicate id \(echoedQuoted(id)) (first used by \(m.child("items"))[\(first)])")
                }
                seen[id] = i
                let item = CartItem(
                    id: id,
                    name: try d.string(im.values["name"]!, im.child("name")),
                    details: try im.values["details"].map { try d.string($0, im.child("details")) } ?? "",
                    image: try im.values["image"].map { try d.image($0, im.child("image"), baseDirectory: baseDirectory) } ?? defaultItemImage,
                    price: try price(im.values["price"]!, im.child("price"), with: d),
                    quantity: try im.values["quantity"].map { try d.integer($0, im.child("quantity"), in: 1...CartItem.maximumQuantity) } ?? 1)
                c.items.append(item)
            }
        }
        return c
    }

    /// A price: a decimal string or number of at most 12 digits before the point and 6 after.
    static func price(_ node: JSONNode, _ path: String, with d: SceneDecoder) throws -> Decimal {
        let text: String
        switch node.value {
        case .string(let s): text = s
        case .number(_, let t): text = t
        default: throw d.error(node, path, "expected a decimal string such as \"90.99\", got \(node.typeName)")
        }
        guard text.range(of: pricePattern, options: .regularExpression) != nil,
              let price = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            // A well-formed decimal that is too long gets the limit it breaks.
            var reason = "must be a non-negative decimal such as \"90.99\""
            if text.range(of: #"^[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil {
                let parts = text.split(separator: ".", omittingEmptySubsequences: false)
                reason = parts[0].count > 12 ? "has \(parts[0].count) digits before the decimal point; at most 12"
                                             : "has \(parts[1].count) digits after the decimal point; at most 6"
            }
            throw d.error(node, path, "\(reason), got \(echoedQuoted(text))")
        }
        return price
    }

    /// Swipes on rows and taps on their plus, minus and revealed trash buttons and on "Check
    /// out", each naming an item of the cart; then the cart simulation (`CartTimeline`) turns the
    /// first event that cannot happen into an error at that event's member: an event on an item
    /// an earlier event deleted (`events[N].item`, `events[N].swipe.item`), a trash tap on a row
    /// that is not open or is being dragged (`events[N].tap`), a swipe on a row that is still
    /// being dragged (`events[N].at`).
    public func decodeEvents(_ node: JSONNode, at path: String, scene: Scene, with d: SceneDecoder) throws -> [SceneEvent] {
        let ids = Set(items.map(\.id))
        func unknownItem(_ node: JSONNode, _ path: String, _ id: String) -> SceneError {
            let hint = nearestKey(to: id, in: ids.sorted()).map { "; did you mean \"\($0)\"?" } ?? ""
            return d.error(node, path, "no cart item has id \(echoedQuoted(id))\(hint)")
        }
        let events = try d.events(node, path) { m in
            if let swipeNode = m.values["swipe"] {
                if let itemNode = m.values["item"] { throw d.error(itemNode, m.child("item"), "belongs inside \"swipe\"") }
                let sp = m.child("swipe")
                let sm = try d.object(swipeNode, sp, keys: ["item", "translation", "duration"], required: ["item", "translation"])
                let item = try d.string(sm.values["item"]!, sm.child("item"))
                guard ids.contains(item) else { throw unknownItem(sm.values["item"]!, sm.child("item"), item) }
                let translation = try d.number(sm.values["translation"]!, sm.child("translation"), in: -10_000...10_000, unit: "pt")
                let duration = try sm.values["duration"].map { try d.number($0, sm.child("duration"), in: 0...60, unit: "s") } ?? CartTimeline.defaultSwipeDuration
                return CartAction.swipe(item: item, translation: translation, duration: duration)
            }
            let tapNode = m.values["tap"]!
            let target = try d.string(tapNode, m.child("tap"))
            switch target {
            case "checkout":
                if let itemNode = m.values["item"] { throw d.error(itemNode, m.child("item"), "is not used by \"tap\": \"checkout\"") }
                return CartAction.tap(.checkout)
            case "plus", "minus", "delete":
                guard let itemNode = m.values["item"] else { throw d.error(m.node, m.child("item"), "is required for \"tap\": \"\(target)\"") }
                let item = try d.string(itemNode, m.child("item"))
                guard ids.contains(item) else { throw unknownItem(itemNode, m.child("item"), item) }
                return CartAction.tap(.row(CartButton.Row(rawValue: target)!, item: item))
            default:
                throw d.unknownTap(tapNode, m.child("tap"), target, on: Self.self)
            }
        }
        var simulated = scene
        simulated.events = events
        guard let issue = CartTimeline(scene: simulated, cart: self).issues.first else { return events }
        var culprit: JSONNode? = nil
        if case .array(let list) = node.value, issue.eventIndex < list.count {
            culprit = list[issue.eventIndex]
            for key in issue.member {
                guard case .object(let members)? = culprit?.value, let next = members.first(where: { $0.key == key })?.value else { break }
                culprit = next
            }
        }
        throw d.error(culprit ?? node, issue.path, issue.message)
    }

    /// `font` (when it is not Jost), `totalLabel` and `checkoutTitle` are written only when the
    /// scene gives them, so that the scenes written before they existed keep their hash.
    public func canonicalJSON(image: (ImageSource) -> JSONValue) -> JSONValue {
        var members: [(String, JSONValue)] = [("title", .string(title))]
        if font != .jost { members.append(("font", .string(font.text))) }
        members.append(("currencyCode", .string(currencyCode)))
        if let totalLabel { members.append(("totalLabel", .string(totalLabel))) }
        if let checkoutTitle { members.append(("checkoutTitle", .string(checkoutTitle))) }
        return .object(members + [
            ("items", .array(items.map { item in
                .object([("id", .string(item.id)), ("name", .string(item.name)), ("details", .string(item.details)),
                         ("image", image(item.image)), ("price", .string("\(item.price)")), ("quantity", .int(item.quantity))])
            })),
        ])
    }

    /// The items' images and the symbols of the page (chevron, trash, minus, plus).
    public var images: [ImageSource] { items.map(\.image) + CartLayout.symbols }

    /// The page laid out with `measurer`'s text metrics, its events simulated (`CartModel`).
    public func model(for scene: Scene, measurer: any TextMeasuring) -> any ScreenModel {
        CartModel(scene: scene, cart: self, measurer: measurer)
    }
}
