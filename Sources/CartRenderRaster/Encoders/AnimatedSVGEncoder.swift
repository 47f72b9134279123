import CartRenderCore
import CCairo
import Foundation


/// Settings of an animated SVG (`--loop`).
public struct AnimatedSVGOptions: Equatable, Sendable {
    /// How many times the animation plays; 0 = forever (the default).
    public var loopCount = 0
    /// Plays forever.
    public init() {}
}

/// One SVG document of a whole timeline (docs/documentation-outputs.md, “Animated SVG”): the
/// display lists of the frames, matched item by item, drawn once each and animated with CSS.
///
/// Each item of the display list becomes one element that keeps its identity from frame to
/// frame: an item is the same element in two frames when it has the same parent element, the
/// same kind and content (a group's kind is its clip's kind; a shape's content is its kind and
/// paint, not its size; a text's or an image's is what it draws, moved to its own origin), the
/// same rank among its siblings of that content, and the same order relative to its siblings.
/// Its transform, its opacity, its clip, a leaf's position and a shape's geometry (SVG 2's
/// geometry properties: `width`, `rx`, `d`…) are animated with step keyframes whose values are
/// the renderer's own at the first frame of each run of equal display lists
/// (`animation-timing-function: step-end`): paused at a frame's time, the document shows that
/// frame. An item that appears, disappears or changes its content (a digit) is an element of
/// its own, at opacity 0 outside the frames that have it. Text is glyph outlines, each glyph
/// one `<path>` in `<defs>` used by `<use>` (a colour glyph, an emoji, one `<image>` drawn by
/// Cairo); images are drawn once each by Cairo's SVG surface into `<defs>`, each distinct clip
/// path of theirs defined once and shared; a blur is an SVG `feGaussianBlur`. Without animations (`prefers-reduced-motion: reduce`, or a reader that does
/// not run them) every element shows its state in the last frame: the settled final frame.
///
/// The document holds no script, `foreignObject`, event attribute or reference outside itself,
/// and its bytes depend only on the frames (ids are numbered in order of first use).
public final class AnimatedSVGEncoder {
    /// The display list's transform (Foundation has a type of the same name).
    typealias Transform = CartRenderCore.AffineTransform
    private let rasterizer: FrameRasterizer
    private let scale: Double
    private let fps: Int
    private let escapedTitle: String
    private let options: AnimatedSVGOptions
    /// The distinct display lists in order, each with the position of its first frame.
    private var runs: [(display: DisplayList, start: Int)] = []
    private var frames = 0

    /// - Parameters:
    ///   - rasterizer: draws the images and lays out the text (one of this thread's).
    ///   - scale: pixels per point of the intrinsic size (`width`/`height`); the user unit is the point.
    ///   - fps: frames per second of the timeline (each frame lasts 1/fps s).
    ///   - escapedTitle: the `<title>`, already escaped for XML.
    public init(rasterizer: FrameRasterizer, scale: Double, fps: Int, escapedTitle: String, options: AnimatedSVGOptions) {
        self.rasterizer = rasterizer; self.scale = scale; self.fps = fps; self.escapedTitle = escapedTitle; self.options = options
    }

    /// Adds the next frame's display list (frames in order; a frame equal to the one before
    /// extends its run).
    public func add(_ display: DisplayList) {
        if runs.last?.display != display { runs.append((display, frames)) }
        frames += 1
    }

    /// The document (UTF-8) of the frames added.
    /// - Throws: `RasterError` when there are no frames or Cairo fails to draw an image.
    public func finish() throws -> [UInt8] {
        guard let first = runs.first else { throw RasterError(.library, "an animated SVG of no frames") }
        var defs = Definitions(rasterizer: rasterizer)
        let root = Element(ident: "", kind: .group(.none))
        for (r, run) in runs.enumerated() {
            let bg = DisplayItem.fill(.rect(Rect(origin: .zero, size: run.display.size)), .color(run.display.background))
            let nodes = try defs.nodes([bg] + run.display.items, ctm: .identity)
            Self.merge(nodes, into: root, run: r)
        }
        var writer = Writer(runs: runs.map(\.start), frames: frames)
        var body = ""
        for child in root.children { writer.emit(child, into: &body, defs: &defs) }
        let size = first.display.size
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"\(n(size.width * scale))\" height=\"\(n(size.height * scale))\" viewBox=\"0 0 \(n(size.width)) \(n(size.height))\">\n"
        out += "<title>\(escapedTitle)</title>\n"
        if !writer.keyframes.isEmpty {
            // Rounded down, as the keyframes' offsets are: paused at a frame's time, the
            // progress is at or just past its keyframe, never before it.
            let duration = JSONValue.format((Double(frames) / Double(fps) * 1e6).rounded(.down) / 1e6, decimals: 6)
            let count = options.loopCount == 0 ? "infinite" : String(options.loopCount)
            out += "<style>\n[class]{animation-duration:\(duration)s;animation-timing-function:step-end;animation-iteration-count:\(count);animation-fill-mode:both}\n"
            for (i, body) in writer.keyframes.enumerated() { out += ".k\(i){animation-name:k\(i)}@keyframes k\(i){\(body)}\n" }
            out += "@media (prefers-reduced-motion:reduce){[class]{animation:none!important}}\n</style>\n"
        }
        out += "<defs>\n" + defs.markup.joined(separator: "\n") + "\n</defs>\n" + body + "</svg>\n"
        return Array(out.utf8)
    }

    // MARK: - Elements

    /// What an element is.
    enum Kind: Equatable {
        /// A group: its clip (none, a rectangle that may move, or a fixed shape by its clipPath id).
        case group(Clip)
        /// A blurred group, by its filter's id.
        case blur(filter: String)
        /// A leaf drawn by `markup` at its origin.
        case leaf(markup: String)
        /// A filled or stroked shape at its origin: its tag and its attributes other than its
        /// geometry (paint, stroke), whose geometry is a value (it may change: a resized shape).
        case shape(tag: String, attributes: String)
    }

    /// A group's clip: none, a rectangle, or a shape by its tag (its place and geometry are values).
    enum Clip: Equatable { case none, rect(crisp: Bool), shape(tag: String) }

    /// An attribute of a shape's geometry (`width`, `rx`, `cx`, `d`…) and its value (a length in
    /// pt, or path data).
    struct Geometry: Equatable {
        var name: String
        var value: String
        /// The attribute (` name="value"`).
        var attribute: String { " \(name)=\"\(value)\"" }
        /// The CSS declaration that sets it (`width:33px`; `d:path("…")`): SVG 2 makes geometry
        /// properties, so CSS keyframes animate them like the transform.
        var css: String { name == "d" ? "d:path(\"\(value)\")" : "\(name):\(value)px" }
    }

    /// The animated values of an element in one frame.
    struct Value: Equatable {
        var transform: Transform = .identity
        var opacity: Double = 1
        var clip: Rect?
        /// A shape leaf's geometry, or a shape clip's.
        var geometry: [Geometry] = []
        /// Where a shape clip's shape goes (pt, in the group's coordinates).
        var clipOrigin = Point.zero
    }

    /// An element of one frame, before matching.
    struct FrameNode {
        var key: String
        var kind: Kind
        var value: Value
        var children: [FrameNode] = []
    }

    /// An element of the document: its values by run (absent: not in that run's frames).
    final class Element {
        let ident: String
        let kind: Kind
        var children: [Element] = []
        var values: [Int: Value] = [:]
        init(ident: String, kind: Kind) { self.ident = ident; self.kind = kind }
    }

    /// Matches the nodes of run `run` with `parent`'s children: the k-th node of a key is the
    /// first child of that key and rank after the previous node's element not yet used in this
    /// run, or a new element placed right after the previous node's.
    static func merge(_ nodes: [FrameNode], into parent: Element, run: Int) {
        var ranks: [String: Int] = [:]
        var last = -1
        for node in nodes {
            let rank = ranks[node.key, default: 0]
            ranks[node.key] = rank + 1
            let ident = node.key + "\u{0}\(rank)"
            var position = parent.children.indices.first { $0 > last && parent.children[$0].ident == ident && parent.children[$0].values[run] == nil }
            if position == nil {
                parent.children.insert(Element(ident: ident, kind: node.kind), at: last + 1)
                position = last + 1
            }
            let element = parent.children[position!]
            element.values[run] = node.value
            merge(node.children, into: element, run: run)
            last = position!
        }
    }

    // MARK: - Definitions

    /// What the elements refer to, each defined once in order of first use: glyph outlines,
    /// gradients, clip shapes, filters, images.
    struct Definitions {
        let rasterizer: FrameRasterizer
        var markup: [String] = []
        private var ids: [String: String] = [:]
        private var counters: [String: Int] = [:]
        /// The markup of each text run laid out (nil: it draws nothing), by the run at the origin.
        private var texts: [String: String?] = [:]

        init(rasterizer: FrameRasterizer) { self.rasterizer = rasterizer }

        /// The id of the definition `body(id)` under `key`, defined on first use with prefix `prefix`.
        mutating func id(_ prefix: String, key: String, _ body: (String) throws -> String) rethrows -> String {
            if let id = ids[prefix + "\u{0}" + key] { return id }
            let n = counters[prefix, default: 0]
            counters[prefix] = n + 1
            let id = prefix + String(n)
            ids[prefix + "\u{0}" + key] = id
            markup.append(try body(id))
            return id
        }

        /// ``id(_:key:_:)`` for a body that defines things of its own first (they come before
        /// it in `<defs>`): `body` gets the id and these definitions.
        mutating func define(_ prefix: String, key: String, _ body: (String, inout Definitions) throws -> String) rethrows -> String {
            if let id = ids[prefix + "\u{0}" + key] { return id }
            let n = counters[prefix, default: 0]
            counters[prefix] = n + 1
            let id = prefix + String(n)
            ids[prefix + "\u{0}" + key] = id
            let text = try body(id, &self)
            markup.append(text)
            return id
        }

        /// `drawn` (an image's markup from ``cairoImage(_:rasterizer:id:)``) without its
        /// `<clipPath>` elements: each is defined once in the document, an id `cN` shared by
        /// every image that clips to the same path (Cairo writes the clip of each drawing
        /// operation again, so the product images, clipped to the same rounded rectangle,
        /// repeated one 0.9 kB path 32 times on the cart page), and the references follow.
        mutating func sharingClips(_ drawn: String) -> String {
            let clipPattern = try! NSRegularExpression(pattern: #"<clipPath id="([^"]+)"([^>]*)>(.*?)</clipPath>\s*"#, options: .dotMatchesLineSeparators)
            let referencePattern = try! NSRegularExpression(pattern: #"#([A-Za-z0-9_-]+)"#)
            var renamed: [String: String] = [:]
            /// `text` with its references to the clips already shared renamed.
            func follow(_ text: String) -> String {
                let ns = text as NSString
                var out = "", last = 0
                for m in referencePattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                    guard let new = renamed[ns.substring(with: m.range(at: 1))] else { continue }
                    out += ns.substring(with: NSRange(location: last, length: m.range(at: 1).location - last)) + new
                    last = m.range(at: 1).location + m.range(at: 1).length
                }
                return out + ns.substring(from: last)
            }
            let ns = drawn as NSString
            var rest = "", last = 0
            for m in clipPattern.matches(in: drawn, range: NSRange(location: 0, length: ns.length)) {
                rest += ns.substring(with: NSRange(location: last, length: m.range.location - last))
                last = m.range.location + m.range.length
                // A clip may be clipped by an earlier one: its references first, then its key.
                let attributes = follow(ns.substring(with: m.range(at: 2)))
                let content = follow(ns.substring(with: m.range(at: 3))).trimmingCharacters(in: .whitespacesAndNewlines)
                renamed[ns.substring(with: m.range(at: 1))] = id("c", key: "cairo\u{0}" + attributes + "\u{0}" + content) {
                    "<clipPath id=\"\($0)\"\(attributes)>\(content)</clipPath>"
                }
            }
            rest += ns.substring(from: last)
            guard !renamed.isEmpty else { return drawn }
            return follow(rest).replacingOccurrences(of: #"<defs>\s*</defs>"#, with: "", options: .regularExpression)
        }

        /// The frame nodes of `items` drawn under `ctm` (the transform from their coordinates to the canvas).
        mutating func nodes(_ items: [DisplayItem], ctm: Transform) throws -> [FrameNode] {
            var out: [FrameNode] = []
            for item in items {
                switch item {
                case .group(let t, let opacity, let clip, let children):
                    guard opacity > 0 else { continue }  // FrameRasterizer draws nothing of it
                    let inner = t.followed(by: ctm)
                    var value = Value(transform: t, opacity: opacity)
                    let kind: Clip
                    switch clip {
                    case nil: kind = .none
                    case .rect(let r)?:
                        kind = .rect(crisp: inner.b == 0 && inner.c == 0)
                        value.clip = r
                    case let shape?:
                        let (tag, geometry, origin) = Self.geometry(shape)
                        kind = .shape(tag: tag)
                        value.geometry = geometry
                        value.clipOrigin = origin
                    }
                    out.append(FrameNode(key: "g\(kind)", kind: .group(kind), value: value, children: try nodes(children, ctm: inner)))
                case .blur(let radius, let children):
                    guard radius > 0 else { out += try nodes(children, ctm: ctm); continue }
                    let filter = id("f", key: n(radius)) {
                        "<filter id=\"\($0)\" filterUnits=\"userSpaceOnUse\" x=\"-10000\" y=\"-10000\" width=\"20000\" height=\"20000\" color-interpolation-filters=\"sRGB\"><feGaussianBlur stdDeviation=\"\(n(radius))\"/></filter>"
                    }
                    out.append(FrameNode(key: "b" + filter, kind: .blur(filter: filter), value: Value(), children: try nodes(children, ctm: ctm)))
                case .fill(let shape, let paint), .stroke(let shape, let paint, _):
                    guard shape.bounds.width > 0, shape.bounds.height > 0 else { continue }
                    let crisp: Bool = { if case .rect = shape, case .fill = item { return ctm.b == 0 && ctm.c == 0 } else { return false } }()
                    let (tag, geometry, origin) = Self.geometry(shape)
                    var attributes = crisp ? " shape-rendering=\"crispEdges\"" : ""
                    if case .stroke(_, _, let width) = item {
                        attributes += " fill=\"none\"" + self.paint(paint, origin: origin, attribute: "stroke") + " stroke-width=\"\(n(width))\""
                    } else {
                        attributes += self.paint(paint, origin: origin, attribute: "fill")
                    }
                    // The geometry is not part of the key: a resized shape stays one element.
                    let key = "s" + tag + geometry.map(\.name).joined(separator: ",") + attributes
                    out.append(FrameNode(key: key, kind: .shape(tag: tag, attributes: attributes),
                                         value: Value(transform: .translation(Vector(dx: origin.x, dy: origin.y)), geometry: geometry)))
                default:
                    guard let (markup, origin) = try leaf(item, ctm: ctm) else { continue }
                    out.append(FrameNode(key: "l" + markup, kind: .leaf(markup: markup), value: Value(transform: .translation(Vector(dx: origin.x, dy: origin.y)))))
                }
            }
            return out
        }

        /// A text's or an image's markup drawn at its own origin, and that origin (pt, in its
        /// parent's coordinates).
        mutating func leaf(_ item: DisplayItem, ctm: Transform) throws -> (String, Point)? {
            switch item {
            case .text(let run):
                var local = run
                local.origin = .zero
                let key = "\(local)"
                if let known = texts[key] { return known.map { ($0, run.origin) } }
                let glyphs = try rasterizer.text.glyphs(of: run)
                guard !glyphs.isEmpty else { texts[key] = .some(nil); return nil }
                var markup = "<g" + color(run.color, attribute: "fill") + ">"
                for g in glyphs {
                    let glyph: String
                    if let image = g.image {
                        // A colour glyph: its image (Cairo's drawing of it) placed on its ink box.
                        let url = "data:image/png;base64," + Data(image.png).base64EncodedString()
                        let box = "x=\"\(n(image.box.x))\" y=\"\(n(image.box.y))\" width=\"\(n(image.box.width))\" height=\"\(n(image.box.height))\""
                        glyph = id("e", key: box + url) { "<image id=\"\($0)\" \(box) href=\"\(url)\"/>" }
                    } else {
                        glyph = id("g", key: g.path) { "<path id=\"\($0)\" d=\"\(g.path)\"/>" }
                    }
                    markup += "<use href=\"#\(glyph)\" x=\"\(n(g.x))\" y=\"\(n(g.y))\"/>"
                }
                markup += "</g>"
                texts[key] = markup
                return (markup, run.origin)
            case .image(let image):
                var local = image
                local.frame = Rect(origin: .zero, size: image.frame.size)
                guard local.frame.width > 0, local.frame.height > 0 else { return nil }
                let rasterizer = self.rasterizer
                let drawn = try define("i", key: "\(local)") { id, defs in
                    defs.sharingClips(try Self.cairoImage(local, rasterizer: rasterizer, id: id))
                }
                return ("<use href=\"#\(drawn)\"/>", Point(x: image.frame.x, y: image.frame.y))
            default:
                return nil
            }
        }

        /// ` fill="#RRGGBB"` (and its opacity below 1) or a gradient's url, its points moved by −`origin`.
        mutating func paint(_ paint: Paint, origin: Point, attribute: String) -> String {
            switch paint {
            case .color(let c):
                return color(c, attribute: attribute)
            case .linearGradient(let start, let end, let colors):
                var stops = ""
                for (i, c) in colors.enumerated() {
                    let offset = colors.count > 1 ? Double(i) / Double(colors.count - 1) : 0
                    stops += "<stop offset=\"\(n(offset))\" stop-color=\"\(Self.hex(c))\"" + (c.alpha < 1 ? " stop-opacity=\"\(n(c.alpha))\"" : "") + "/>"
                }
                let geometry = "x1=\"\(n(start.x - origin.x))\" y1=\"\(n(start.y - origin.y))\" x2=\"\(n(end.x - origin.x))\" y2=\"\(n(end.y - origin.y))\""
                let gradient = id("l", key: geometry + stops) {
                    "<linearGradient id=\"\($0)\" gradientUnits=\"userSpaceOnUse\" \(geometry)>\(stops)</linearGradient>"
                }
                return " \(attribute)=\"url(#\(gradient))\""
            }
        }

        func color(_ c: Color, attribute: String) -> String {
            " \(attribute)=\"\(Self.hex(c))\"" + (c.alpha < 1 ? " \(attribute)-opacity=\"\(n(c.alpha))\"" : "")
        }

        static func hex(_ c: Color) -> String { Color(red: c.red, green: c.green, blue: c.blue).hex }

        /// A shape's element drawn at its bounds' origin: its tag, its geometry and that origin.
        /// (`.rect` fills keep hard edges, `crispEdges`, where the transform keeps them
        /// axis-aligned, as ``FrameRasterizer`` draws them: an attribute the caller adds.)
        static func geometry(_ shape: Shape) -> (tag: String, geometry: [Geometry], origin: Point) {
            let r = shape.bounds
            let origin = Point(x: r.x, y: r.y)
            func g(_ name: String, _ v: Double) -> Geometry { Geometry(name: name, value: n(v)) }
            switch shape {
            case .rect:
                return ("rect", [g("width", r.width), g("height", r.height)], origin)
            case .roundedRect(_, let radius):
                return ("rect", [g("width", r.width), g("height", r.height), g("rx", min(radius, r.width / 2, r.height / 2))], origin)
            case .continuousRoundedRect(_, let radius):
                // The same outline as FrameRasterizer's (ContinuousCorners), at the bounds' origin.
                let local = Rect(x: 0, y: 0, width: r.width, height: r.height)
                let d = ContinuousCorners.path(local, radius: radius).map { element -> String in
                    switch element {
                    case .move(let p): return "M\(n(p.x)) \(n(p.y))"
                    case .line(let p): return "L\(n(p.x)) \(n(p.y))"
                    case .curve(let c1, let c2, let p): return "C\(n(c1.x)) \(n(c1.y)) \(n(c2.x)) \(n(c2.y)) \(n(p.x)) \(n(p.y))"
                    case .close: return "Z"
                    }
                }.joined()
                return ("path", [Geometry(name: "d", value: d)], origin)
            case .capsule:
                return ("rect", [g("width", r.width), g("height", r.height), g("rx", min(r.width, r.height) / 2)], origin)
            case .ellipse:
                return ("ellipse", [g("cx", r.width / 2), g("cy", r.height / 2), g("rx", r.width / 2), g("ry", r.height / 2)], origin)
            }
        }

        /// `image` (at the origin) drawn by ``FrameRasterizer/drawImage(_:in:)`` on Cairo's SVG
        /// surface, as `<g id="ID">`, its own ids prefixed with `ID-`.
        static func cairoImage(_ image: ImageDraw, rasterizer: FrameRasterizer, id: String) throws -> String {
            let surface = try CairoSVGSurface(width: image.frame.width, height: image.frame.height)
            guard let cr = cairo_create(surface.pointer) else { throw RasterError(.library, "cairo_create failed") }
            try rasterizer.drawImage(image, in: cr)
            let status = cairo_status(cr)
            cairo_destroy(cr)
            guard status == CAIRO_STATUS_SUCCESS, surface.finish() == CAIRO_STATUS_SUCCESS else {
                throw RasterError(.library, "Cairo failed while drawing an image into an animated SVG")
            }
            let text = String(decoding: SVGIdentifiers.canonicalize(surface.bytes), as: UTF8.self)
            guard let open = text.range(of: "<svg"), let openEnd = text.range(of: ">", range: open.upperBound..<text.endIndex),
                  let close = text.range(of: "</svg>", options: .backwards) else {
                throw RasterError(.library, "Cairo's SVG surface wrote no document for an image")
            }
            var inner = String(text[openEnd.upperBound..<close.lowerBound])
            inner = inner.replacingOccurrences(of: ##"id="([^"]+)""##, with: "id=\"\(id)-$1\"", options: .regularExpression)
            inner = inner.replacingOccurrences(of: ##"(href="#|url\(#)"##, with: "$1\(id)-", options: .regularExpression)
            return "<g id=\"\(id)\">\(inner.trimmingCharacters(in: .whitespacesAndNewlines))</g>"
        }
    }

    // MARK: - Writing

    /// Writes elements and collects their keyframes (each distinct body once).
    struct Writer {
        /// The first frame of each run, and the number of frames.
        let runs: [Int]
        let frames: Int
        var keyframes: [String] = []
        private var keyframeIndex: [String: Int] = [:]

        init(runs: [Int], frames: Int) { self.runs = runs; self.frames = frames }

        /// Percent of the timeline where run `r` starts, rounded down to 1/10000 %, so that
        /// paused at its first frame's time the run shows.
        func percent(_ r: Int) -> String {
            JSONValue.format((Double(runs[r]) * 100 / Double(frames) * 10_000).rounded(.down) / 10_000, decimals: 4) + "%"
        }

        /// The class naming the keyframes of `steps` (one declaration list per run), or nil when constant.
        mutating func animation(_ steps: [String]) -> String? {
            guard Set(steps).count > 1 else { return nil }
            var body = "", previous: String?
            for (r, step) in steps.enumerated() where step != previous {
                body += "\(percent(r)){\(step)}"
                previous = step
            }
            if let i = keyframeIndex[body] { return "k\(i)" }
            keyframeIndex[body] = keyframes.count
            keyframes.append(body)
            return "k\(keyframes.count - 1)"
        }

        mutating func emit(_ e: Element, into out: inout String, defs: inout Definitions) {
            guard e.values.isEmpty == false else { return }
            let firstPresent = (0..<runs.count).first { e.values[$0] != nil }!
            // Absent runs keep the transform of the nearest run before (or the first) that has it.
            var filled: [Value] = []
            for r in 0..<runs.count {
                if let v = e.values[r] { filled.append(v) } else { filled.append(r < firstPresent ? e.values[firstPresent]! : filled[r - 1]) }
            }
            let opacities = (0..<runs.count).map { e.values[$0] == nil ? "0" : n(e.values[$0]!.opacity) }
            let transforms = filled.map { transform($0.transform, css: true) }
            let animatesTransform = Set(transforms).count > 1
            let animatesOpacity = Set(opacities).count > 1
            let steps = (0..<runs.count).map { r in
                [animatesTransform ? "transform:" + transforms[r] : nil, animatesOpacity ? "opacity:" + opacities[r] : nil].compactMap { $0 }.joined(separator: ";")
            }
            let final = filled[runs.count - 1]
            var attributes = ""
            if !final.transform.isIdentity { attributes += " transform=\"\(transform(final.transform, css: false))\"" }
            let finalOpacity = opacities[runs.count - 1]
            if finalOpacity != "1" { attributes += " opacity=\"\(finalOpacity)\"" }
            if let k = animation(steps) { attributes += " class=\"\(k)\"" }
            switch e.kind {
            case .group(let clip):
                switch clip {
                case .none: break
                case .shape(let tag):
                    // A clipPath holds shapes, not groups: the shape takes the translation.
                    let places = filled.map { "transform:" + transform(.translation(Vector(dx: $0.clipOrigin.x, dy: $0.clipOrigin.y)), css: true) }
                    let k = animation(Self.changing([places] + Self.geometrySteps(filled)))
                    let last = filled[runs.count - 1]
                    let clipBody = "<\(tag)" + Self.attributes(last.geometry) + " transform=\"translate(\(n(last.clipOrigin.x)),\(n(last.clipOrigin.y)))\""
                        + (k.map { " class=\"\($0)\"" } ?? "") + "/>"
                    // Each animated clip is its own; a fixed one is shared.
                    let id = defs.id("c", key: k == nil ? clipBody : "\(defs.markup.count)\u{0}" + clipBody) { "<clipPath id=\"\($0)\">\(clipBody)</clipPath>" }
                    attributes += " clip-path=\"url(#\(id))\""
                case .rect(let crisp):
                    let rects = filled.map { $0.clip ?? Rect(x: 0, y: 0, width: 0, height: 0) }
                    let unit = rects.map { Transform(a: $0.width, b: 0, c: 0, d: $0.height, tx: $0.x, ty: $0.y) }
                    let k = animation(unit.map { "transform:" + transform($0, css: true) })
                    let clipBody = "<rect width=\"1\" height=\"1\" transform=\"\(transform(unit[runs.count - 1], css: false))\"" + (k.map { " class=\"\($0)\"" } ?? "")
                        + (crisp ? " shape-rendering=\"crispEdges\"" : "") + "/>"
                    // Each animated clip is its own; a fixed one is shared.
                    let id = defs.id("c", key: k == nil ? clipBody : "\(defs.markup.count)\u{0}" + clipBody) { "<clipPath id=\"\($0)\">\(clipBody)</clipPath>" }
                    attributes += " clip-path=\"url(#\(id))\""
                }
                out += "<g\(attributes)>"
                for child in e.children { emit(child, into: &out, defs: &defs) }
                out += "</g>\n"
            case .blur(let filter):
                out += "<g\(attributes)><g filter=\"url(#\(filter))\">"
                for child in e.children { emit(child, into: &out, defs: &defs) }
                out += "</g></g>\n"
            case .leaf(let markup):
                out += attributes.isEmpty ? markup + "\n" : "<g\(attributes)>\(markup)</g>\n"
            case .shape(let tag, let shapeAttributes):
                // The geometry, when it changes, is animated on the shape itself (the group
                // animates its place and opacity).
                let k = animation(Self.changing(Self.geometrySteps(filled)))
                let markup = "<\(tag)" + Self.attributes(filled[runs.count - 1].geometry) + (k.map { " class=\"\($0)\"" } ?? "") + shapeAttributes + "/>"
                out += attributes.isEmpty ? markup + "\n" : "<g\(attributes)>\(markup)</g>\n"
            }
        }

        /// Each geometry property's CSS declaration in each run (`steps[property][run]`).
        static func geometrySteps(_ values: [Value]) -> [[String]] {
            guard let first = values.first else { return [] }
            return first.geometry.indices.map { i in values.map { $0.geometry.count > i ? $0.geometry[i].css : "" } }
        }

        /// The declarations of each run (joined by `;`) of the properties whose value changes
        /// from run to run: a keyframe sets only what moves.
        static func changing(_ steps: [[String]]) -> [String] {
            let moving = steps.filter { Set($0).count > 1 }
            guard let runs = moving.first?.count else { return [] }
            return (0..<runs).map { r in moving.map { $0[r] }.joined(separator: ";") }
        }

        /// A shape's geometry as attributes; a radius of 0 is left out.
        static func attributes(_ geometry: [Geometry]) -> String {
            geometry.filter { !($0.name == "rx" && $0.value == "0") }.map(\.attribute).joined()
        }

        /// A transform as a CSS value (`translate(1px,2px)`: a CSS translation needs units) or
        /// as an SVG attribute (`translate(1,2)`); `matrix(…)` otherwise, the same in both.
        func transform(_ t: Transform, css: Bool) -> String {
            let unit = css ? "px" : ""
            if t.a == 1, t.b == 0, t.c == 0, t.d == 1 { return "translate(\(n(t.tx))\(unit),\(n(t.ty))\(unit))" }
            return "matrix(\(n5(t.a)),\(n5(t.b)),\(n5(t.c)),\(n5(t.d)),\(n(t.tx)),\(n(t.ty)))"
        }
    }
}

/// A length or coordinate (pt) in the document: at most 3 decimals, trailing zeros dropped.
private func n(_ v: Double) -> String { JSONValue.format(v, decimals: 3) }
/// A matrix's scale or rotation entry: at most 5 decimals.
private func n5(_ v: Double) -> String { JSONValue.format(v, decimals: 5) }
