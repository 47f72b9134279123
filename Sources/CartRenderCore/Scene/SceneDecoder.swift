import Foundation

/// Values given on the command line that replace the scene's own (SPEC.md §5).
public struct SceneOverrides: Equatable, Sendable {
    public var fps: Int?
    /// Pixels per point (1…4).
    public var scale: Double?
    public var colorScheme: ColorScheme?
    public var reduceMotion: Bool?
    public init(fps: Int? = nil, scale: Double? = nil, colorScheme: ColorScheme? = nil, reduceMotion: Bool? = nil) {
        self.fps = fps; self.scale = scale; self.colorScheme = colorScheme; self.reduceMotion = reduceMotion
    }
}

/// Turns scene-file bytes into a validated `Scene` (SPEC.md §4, §7).
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
    /// Most items a cart may hold: every frame's manifest state lists every row, so the cost
    /// of a frame grows with the number of items (a choice: far more than a screen shows).
    public static let maxCartItems = 1000

    let file: String

    /// Decodes and validates a scene.
    /// - Parameters:
    ///   - data: UTF-8 JSON bytes.
    ///   - file: the file name used in messages.
    ///   - baseDirectory: where relative image paths are resolved.
    ///   - overrides: command-line values applied before range checks.
    /// - Throws: `SceneError`.
    public static func decode(_ data: [UInt8], file: String, baseDirectory: String, overrides: SceneOverrides = SceneOverrides()) throws -> Scene {
        let root: JSONNode
        do {
            root = try JSONParser.parse(data)
        } catch let e as JSONSyntaxError {
            throw SceneError(file: file, location: e.location, path: e.path, message: e.message)
        }
        var scene = try SceneDecoder(file: file).scene(root, baseDirectory: baseDirectory)
        if let fps = overrides.fps { scene.fps = fps }
        if let s = overrides.scale { scene.device.scale = s }
        if let c = overrides.colorScheme { scene.colorScheme = c }
        if let r = overrides.reduceMotion { scene.reduceMotion = r }
        try SceneDecoder(file: file).checkLimits(scene, root: root)
        return scene
    }

    /// Reads and decodes a scene file.
    /// - Throws: `SceneError` of kind `.unreadable` when the file is missing, a directory, not
    ///   a regular file or unreadable; `.invalid` otherwise (see `SceneFiles.readScene`).
    public static func load(path: String, overrides: SceneOverrides = SceneOverrides()) throws -> Scene {
        let data = try SceneFiles.readScene(path)
        let base = (URL(fileURLWithPath: path).deletingLastPathComponent().path)
        return try decode(data, file: path, baseDirectory: base, overrides: overrides)
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

    func object(_ node: JSONNode, _ path: String, keys: [String], required: [String] = []) throws -> Members {
        guard case .object(let members) = node.value else {
            throw error(node, path, "expected an object, got \(node.typeName)")
        }
        var values: [String: JSONNode] = [:]
        for m in members {
            guard keys.contains(m.key) else {
                let p = path.isEmpty ? m.key : path + "." + m.key
                let hint = nearestKey(to: m.key, in: keys).map { "; did you mean \"\($0)\"?" } ?? "; known keys: \(keys.joined(separator: ", "))"
                throw SceneError(file: file, location: m.keyLocation, path: p, message: "unknown key \"\(m.key)\"" + hint)
            }
            values[m.key] = m.value
        }
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
                throw error(node, path, "must be between \(JSONValue.format(range.lowerBound, decimals: 6)) and \(JSONValue.format(range.upperBound, decimals: 6))\(u), got \(text)")
            }
            if v < range.lowerBound {
                throw error(node, path, "must be ≥ \(JSONValue.format(range.lowerBound, decimals: 6))\(u), got \(text)")
            }
            throw error(node, path, "must be ≤ \(JSONValue.format(range.upperBound, decimals: 6))\(u), got \(text)")
        }
        return v
    }

    func integer(_ node: JSONNode, _ path: String, in range: ClosedRange<Int>) throws -> Int {
        guard case .number(let v, let text) = node.value else { throw error(node, path, "expected an integer, got \(node.typeName)") }
        guard let i = Int(text) ?? (v.rounded() == v && abs(v) < 9.0e15 ? Int(v) : nil) else {
            if v.rounded() == v { throw error(node, path, "must be between \(range.lowerBound) and \(range.upperBound), got \(text)") }
            throw error(node, path, "expected an integer, got \(text)")
        }
        guard range.contains(i) else { throw error(node, path, "must be between \(range.lowerBound) and \(range.upperBound), got \(text)") }
        return i
    }

    // MARK: - Scene

    static let topKeys = ["version", "screen", "device", "colorScheme", "reduceMotion", "locale", "tint", "fps",
                          "scale", "duration", "shop", "cart", "events"]

    func scene(_ root: JSONNode, baseDirectory: String) throws -> Scene {
        let m = try object(root, "", keys: Self.topKeys)
        var s = Scene()
        s.baseDirectory = baseDirectory
        if let n = m.values["version"] {
            s.version = try integer(n, "version", in: 1...Int.max)
            guard s.version == 1 else { throw error(n, "version", "this cartrender reads scene version 1, got \(s.version)") }
        }
        if let n = m.values["screen"] {
            let v = try string(n, "screen")
            guard let screen = Scene.Screen(rawValue: v) else {
                throw error(n, "screen", "must be \"shop\" or \"cart\", got \"\(v)\"")
            }
            s.screen = screen
        }
        if let n = m.values["device"] { s.device = try device(n, "device") }
        if let n = m.values["colorScheme"] {
            let v = try string(n, "colorScheme")
            guard let c = ColorScheme(rawValue: v) else { throw error(n, "colorScheme", "must be \"light\" or \"dark\", got \"\(v)\"") }
            s.colorScheme = c
        }
        if let n = m.values["reduceMotion"] { s.reduceMotion = try bool(n, "reduceMotion") }
        if let n = m.values["locale"] {
            let v = try string(n, "locale", nonEmpty: true)
            guard v.range(of: "^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$", options: .regularExpression) != nil else {
                throw error(n, "locale", "must be a locale identifier such as \"en_US\", got \"\(v)\"")
            }
            let identifier = v.replacingOccurrences(of: "-", with: "_")
            guard Locale.availableIdentifiers.contains(identifier) else {
                let hint = nearestKey(to: identifier, in: Locale.availableIdentifiers.sorted()).map { "; did you mean \"\($0)\"?" } ?? ""
                throw error(n, "locale", "unknown locale \"\(v)\"\(hint)")
            }
            s.locale = identifier
        }
        if let n = m.values["tint"] { s.tint = try tint(n, "tint") }
        if let n = m.values["fps"] { s.fps = try integer(n, "fps", in: 1...240) }
        if let n = m.values["scale"] { s.device.scale = try number(n, "scale", in: 1...4) }
        if let n = m.values["duration"] {
            if case .null = n.value { s.duration = nil } else {
                s.duration = try number(n, "duration", in: 0...Self.maxTime, unit: "s")
            }
        }
        if let n = m.values["shop"] {
            guard s.screen == .shop else { throw error(n, "shop", "is only allowed when \"screen\" is \"shop\"") }
            s.shop = try shop(n, "shop", baseDirectory: baseDirectory)
        }
        if let n = m.values["cart"] {
            guard s.screen == .cart else { throw error(n, "cart", "is only allowed when \"screen\" is \"cart\"") }
            s.cart = try cart(n, "cart", baseDirectory: baseDirectory)
        } else if s.screen == .cart {
            throw error(root, "cart", "is required when \"screen\" is \"cart\"")
        }
        if let n = m.values["events"] {
            s.events = try events(n, "events", scene: s)
            if s.screen == .cart { try checkCartEvents(s, eventsNode: n) }
        }
        s.imageFields = imageFields(root, s)
        return s
    }

    /// Runs the cart simulation (`CartTimeline`, a pure function of the scene) and turns the
    /// first event that cannot happen into an error at that event's JSON member: an event on an
    /// item an earlier event deleted (`events[N].item`, `events[N].swipe.item`), a trash tap on
    /// a row that is not open or is being dragged (`events[N].tap`), a swipe on a row that is
    /// still being dragged (`events[N].at`).
    func checkCartEvents(_ s: Scene, eventsNode: JSONNode) throws {
        guard let issue = CartTimeline(scene: s).issues.first else { return }
        var node: JSONNode? = nil
        if case .array(let list) = eventsNode.value, issue.eventIndex < list.count {
            node = list[issue.eventIndex]
            for key in issue.member {
                guard case .object(let members)? = node?.value, let next = members.first(where: { $0.key == key })?.value else { break }
                node = next
            }
        }
        throw error(node ?? eventsNode, issue.path, issue.message)
    }

    func device(_ node: JSONNode, _ path: String) throws -> Device {
        if case .string(let name) = node.value {
            guard let d = Device.presets[name] else {
                let hint = nearestKey(to: name, in: Device.presets.keys.sorted()).map { "; did you mean \"\($0)\"?" } ?? ""
                throw error(node, path, "unknown device \"\(name)\"\(hint) (presets: \(Device.presets.keys.sorted().joined(separator: ", ")); or give {\"width\", \"height\", \"scale\", \"safeArea\"})")
            }
            return d
        }
        let m = try object(node, path, keys: ["width", "height", "scale", "safeArea"], required: ["width", "height"])
        let w = try number(m.values["width"]!, m.child("width"), in: 100...10_000, unit: "pt")
        let h = try number(m.values["height"]!, m.child("height"), in: 100...10_000, unit: "pt")
        let scale = try m.values["scale"].map { try number($0, m.child("scale"), in: 1...4) } ?? 3
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
            guard hex.count == 6, let n = Int(hex, radix: 16) else {
                throw error(node, path, "must be a system color name or #RRGGBB, got \"\(v)\"")
            }
            return .rgb(Color(r8: (n >> 16) & 255, g8: (n >> 8) & 255, b8: n & 255))
        }
        guard Look.systemColors[v] != nil else {
            let names = Look.systemColors.keys.sorted()
            let hint = nearestKey(to: v, in: names).map { "; did you mean \"\($0)\"?" } ?? " (known: \(names.joined(separator: ", ")), or #RRGGBB)"
            throw error(node, path, "unknown color \"\(v)\"" + hint)
        }
        return .system(v)
    }

    func image(_ node: JSONNode, _ path: String, baseDirectory: String) throws -> ImageSource {
        let v = try string(node, path, nonEmpty: true)
        if v.hasPrefix("symbol:") {
            let name = String(v.dropFirst("symbol:".count))
            guard Symbols.bootstrapNames[name] != nil else {
                let known = Symbols.bootstrapNames.keys.sorted()
                let hint = nearestKey(to: name, in: known).map { "; did you mean \"symbol:\($0)\"?" } ?? " (known: \(known.joined(separator: ", ")))"
                throw error(node, path, "unknown symbol \"\(name)\"" + hint)
            }
            return .symbol(name)
        }
        let full = v.hasPrefix("/") ? v : URL(fileURLWithPath: baseDirectory).appendingPathComponent(v).standardizedFileURL.path
        let ext = (full as NSString).pathExtension.lowercased()
        guard ["png", "jpg", "jpeg", "svg"].contains(ext) else {
            throw error(node, path, "must be \"symbol:NAME\" or a .png, .jpg, .jpeg or .svg file, got \"\(v)\"")
        }
        if let problem = SceneFiles.imageProblem(full) { throw error(node, path, problem, kind: .unreadable) }
        return .file(full)
    }

    func shop(_ node: JSONNode, _ path: String, baseDirectory: String) throws -> ShopContent {
        let m = try object(node, path, keys: ["title", "productName", "productDescription", "image", "imageLabel",
                                             "buttonTitle", "count", "cartFrame"])
        var s = ShopContent()
        if let n = m.values["title"] { s.title = try string(n, m.child("title")) }
        if let n = m.values["productName"] { s.productName = try string(n, m.child("productName")) }
        if let n = m.values["productDescription"] { s.productDescription = try string(n, m.child("productDescription")) }
        if let n = m.values["image"] { s.image = try image(n, m.child("image"), baseDirectory: baseDirectory) }
        if let n = m.values["imageLabel"] { s.imageLabel = try string(n, m.child("imageLabel")) }
        if let n = m.values["buttonTitle"] { s.buttonTitle = try string(n, m.child("buttonTitle")) }
        if let n = m.values["count"] { s.count = try integer(n, m.child("count"), in: 0...Int.max) }
        if let n = m.values["cartFrame"] {
            switch n.value {
            case .null: s.cartFrame = .none
            case .string(let v):
                guard v == "measured" else { throw error(n, m.child("cartFrame"), "must be \"measured\", null or {\"x\", \"y\", \"width\", \"height\"}, got \"\(v)\"") }
                s.cartFrame = .measured
            default:
                let p = m.child("cartFrame")
                let r = try object(n, p, keys: ["x", "y", "width", "height"], required: ["x", "y", "width", "height"])
                let big = 100_000.0
                s.cartFrame = .rect(Rect(x: try number(r.values["x"]!, r.child("x"), in: -big...big, unit: "pt"),
                                         y: try number(r.values["y"]!, r.child("y"), in: -big...big, unit: "pt"),
                                         width: try number(r.values["width"]!, r.child("width"), in: 0...big, unit: "pt"),
                                         height: try number(r.values["height"]!, r.child("height"), in: 0...big, unit: "pt")))
            }
        }
        return s
    }

    func cart(_ node: JSONNode, _ path: String, baseDirectory: String) throws -> CartContent {
        let m = try object(node, path, keys: ["title", "currencyCode", "items"])
        var c = CartContent()
        if let n = m.values["title"] { c.title = try string(n, m.child("title")) }
        if let n = m.values["currencyCode"] {
            let v = try string(n, m.child("currencyCode"))
            guard v.count == 3, v.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                throw error(n, m.child("currencyCode"), "must be a three-letter ISO 4217 code such as \"USD\", got \"\(v)\"")
            }
            guard Locale.Currency.isoCurrencies.contains(where: { $0.identifier == v }) else {
                throw error(n, m.child("currencyCode"), "unknown ISO 4217 currency code \"\(v)\"")
            }
            c.currencyCode = v
        }
        if let n = m.values["items"] {
            guard case .array(let list) = n.value else { throw error(n, m.child("items"), "expected an array, got \(n.typeName)") }
            if list.count > Self.maxCartItems { throw error(n, m.child("items"), "has \(list.count) items; at most \(Self.maxCartItems) are allowed") }
            var seen: [String: Int] = [:]
            for (i, itemNode) in list.enumerated() {
                let p = "\(m.child("items"))[\(i)]"
                let im = try object(itemNode, p, keys: ["id", "name", "details", "image", "price", "quantity"],
                                    required: ["id", "name", "price"])
                let id = try string(im.values["id"]!, im.child("id"), nonEmpty: true)
                if let first = seen[id] {
                    throw error(im.values["id"]!, im.child("id"), "duplicate id \"\(id)\" (first used by \(m.child("items"))[\(first)])")
                }
                seen[id] = i
                let priceNode = im.values["price"]!
                let priceText: String
                switch priceNode.value {
                case .string(let s): priceText = s
                case .number(_, let text): priceText = text
                default: throw error(priceNode, im.child("price"), "expected a decimal string such as \"90.99\", got \(priceNode.typeName)")
                }
                guard priceText.range(of: #"^[0-9]{1,12}(\.[0-9]{1,6})?$"#, options: .regularExpression) != nil,
                      let price = Decimal(string: priceText, locale: Locale(identifier: "en_US_POSIX")) else {
                    // A well-formed decimal that is too long gets the limit it breaks.
                    var reason = "must be a non-negative decimal such as \"90.99\""
                    if priceText.range(of: #"^[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil {
                        let parts = priceText.split(separator: ".", omittingEmptySubsequences: false)
                        reason = parts[0].count > 12 ? "has \(parts[0].count) digits before the decimal point; at most 12"
                                                     : "has \(parts[1].count) digits after the decimal point; at most 6"
                    }
                    throw error(priceNode, im.child("price"), "\(reason), got \"\(priceText.prefix(40))\(priceText.count > 40 ? "…" : "")\"")
                }
                let item = CartItem(
                    id: id,
                    name: try string(im.values["name"]!, im.child("name")),
                    details: try im.values["details"].map { try string($0, im.child("details")) } ?? "",
                    image: try im.values["image"].map { try image($0, im.child("image"), baseDirectory: baseDirectory) } ?? .symbol("bag.fill"),
                    price: price,
                    quantity: try im.values["quantity"].map { try integer($0, im.child("quantity"), in: 1...1_000_000) } ?? 1)
                c.items.append(item)
            }
        }
        return c
    }

    func events(_ node: JSONNode, _ path: String, scene: Scene) throws -> [SceneEvent] {
        guard case .array(let list) = node.value else { throw error(node, path, "expected an array, got \(node.typeName)") }
        if list.count > 10_000 { throw error(node, path, "has \(list.count) events; at most 10000 are allowed") }
        var out: [SceneEvent] = []
        let itemIDs = Set(scene.cart?.items.map(\.id) ?? [])
        for (i, n) in list.enumerated() {
            let p = "\(path)[\(i)]"
            let m = try object(n, p, keys: ["at", "tap", "swipe", "item"], required: ["at"])
            let at = try number(m.values["at"]!, m.child("at"), in: 0...Self.maxTime, unit: "s")
            let action: SceneEvent.Action
            switch (m.values["tap"], m.values["swipe"]) {
            case (nil, nil): throw error(n, p, "needs \"tap\" or \"swipe\"")
            case (.some, .some): throw error(m.values["swipe"], m.child("swipe"), "an event is either a \"tap\" or a \"swipe\", not both")
            case (let tapNode?, nil):
                let target = try string(tapNode, m.child("tap"))
                switch (scene.screen, target) {
                case (.shop, "add"):
                    if let itemNode = m.values["item"] { throw error(itemNode, m.child("item"), "is not used by \"tap\": \"add\"") }
                    action = .tapAdd
                case (.cart, "checkout"):
                    if let itemNode = m.values["item"] { throw error(itemNode, m.child("item"), "is not used by \"tap\": \"checkout\"") }
                    action = .tapCheckout
                case (.cart, "plus"), (.cart, "minus"), (.cart, "delete"):
                    guard let itemNode = m.values["item"] else { throw error(n, m.child("item"), "is required for \"tap\": \"\(target)\"") }
                    let item = try string(itemNode, m.child("item"))
                    guard itemIDs.contains(item) else { throw unknownItem(itemNode, m.child("item"), item, itemIDs) }
                    action = .tapRow(button: SceneEvent.RowButton(rawValue: target)!, item: item)
                default:
                    let allowed = scene.screen == .shop ? ["add"] : ["plus", "minus", "delete", "checkout"]
                    throw error(tapNode, m.child("tap"), "on the \(scene.screen.rawValue) screen must be \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(target)\"")
                }
            case (nil, let swipeNode?):
                guard scene.screen == .cart else { throw error(swipeNode, m.child("swipe"), "swipes are only for the cart screen") }
                if let itemNode = m.values["item"] { throw error(itemNode, m.child("item"), "belongs inside \"swipe\"") }
                let sp = m.child("swipe")
                let sm = try object(swipeNode, sp, keys: ["item", "translation", "duration"], required: ["item", "translation"])
                let item = try string(sm.values["item"]!, sm.child("item"))
                guard itemIDs.contains(item) else { throw unknownItem(sm.values["item"]!, sm.child("item"), item, itemIDs) }
                let translation = try number(sm.values["translation"]!, sm.child("translation"), in: -10_000...10_000, unit: "pt")
                let d = try sm.values["duration"].map { try number($0, sm.child("duration"), in: 0...60, unit: "s") } ?? CartTimeline.defaultSwipeDuration
                action = .swipe(item: item, translation: translation, duration: d)
            }
            out.append(SceneEvent(at: at, action: action, index: i))
        }
        // Stable sort by time: equal times keep file order.
        return out.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    func unknownItem(_ node: JSONNode, _ path: String, _ id: String, _ ids: Set<String>) -> SceneError {
        let hint = nearestKey(to: id, in: ids.sorted()).map { "; did you mean \"\($0)\"?" } ?? ""
        return error(node, path, "no cart item has id \"\(id)\"\(hint)")
    }

    func checkLimits(_ s: Scene, root: JSONNode) throws {
        guard case .object(let members) = root.value else { return }
        func node(_ key: String) -> JSONNode? { members.first { $0.key == key }?.value }
        let fpsNode = node("fps"), deviceNode = node("device") ?? node("scale")
        guard (1...240).contains(s.fps) else { throw error(fpsNode, "fps", "must be between 1 and 240, got \(s.fps)") }
        guard (1...4).contains(s.device.scale) else { throw error(deviceNode, "device.scale", "must be between 1 and 4, got \(s.device.scale)") }
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
