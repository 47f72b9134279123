import CartRenderCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Fixed limits on the work an SVG image a scene names may ask of librsvg, checked on its XML
/// before it is drawn (docs/bad-input.md, “SVG images”): numbers, never a clock, so a scene
/// passes or fails the same way on every machine.
///
/// The walk reads the document with Foundation's `XMLParser` (libxml2; internal entities are
/// expanded as librsvg expands them, external ones are not loaded, entity loops refused) and
/// follows every reference librsvg would load — `href`/`xlink:href` on any element, `url(…)` in
/// attributes, `style` and `<style>`, `@import` — that is a `data:` URI or a file in the SVG's
/// folder and below (librsvg loads nothing else): an embedded or referenced raster image is
/// measured from its header (PNG `IHDR`, JPEG start-of-frame) and counts against
/// ``ImageLibrary/maxImageSide`` and ``maxImagePixels``; a referenced SVG or style sheet is
/// walked in turn. A referenced file reached through a symbolic link is refused.
public enum SVGLimits {
    /// Most elements in an SVG image and the documents it references, together.
    public static let maxElements = 50_000
    /// Deepest element nesting.
    public static let maxDepth = 100
    /// Most filter primitives (`fe…` elements), together.
    public static let maxFilterPrimitives = 200
    /// Largest `numOctaves` of `<feTurbulence>` (its cost grows with each octave for every pixel).
    public static let maxOctaves = 10
    /// Largest `order` of `<feConvolveMatrix>` (each side of the kernel).
    public static let maxConvolveOrder = 9
    /// Filter elements and attributes refused outright: their cost grows with the square of a
    /// length in the SVG's own units, which a `viewBox` or `transform` can make any number of
    /// pixels (a `<feMorphology radius="0.5">` in a 1-unit `viewBox` took 5 s, a
    /// `kernelUnitLength="0.0001"` 39 s and 850 MB).
    public static let refusedElements = ["feMorphology"]
    /// See ``refusedElements``.
    public static let refusedAttributes = ["kernelUnitLength", "filterRes"]
    /// Largest filter region, as a multiple of the filtered element's bounding box
    /// (`width="1000%"` or `width="10"` with the default `filterUnits`).
    public static let maxFilterRegion = 10.0
    /// Most documents (the SVG itself and the SVG, CSS and image files or `data:` URIs it
    /// references, at any depth).
    public static let maxDocuments = 32
    /// Most levels of references (an SVG referencing an SVG referencing…).
    public static let maxReferenceDepth = 4
    /// Most pixels of all raster images one SVG image embeds or references, together
    /// (8192 × 8192: 256 MiB decoded).
    public static let maxImagePixels = 8192 * 8192

    /// Why an SVG image is refused: the end of a sentence that starts with "image file PATH".
    struct Refusal: Error, Equatable {
        var why: String
    }

    /// Checks the SVG `bytes` of the file at `path` and everything it references (files in the
    /// SVG's own folder and below, as librsvg loads them).
    /// - Returns: the pixels of the raster images it embeds or references, together.
    /// - Throws: ``Refusal``.
    @discardableResult
    static func check(_ bytes: [UInt8], path: String) throws(Refusal) -> Int {
        var walk = Walk(folder: AssetFolder(directory: (path as NSString).deletingLastPathComponent))
        try walk.document(bytes, path: path, shown: "", level: 0)
        return walk.pixels
    }

    struct Walk {
        let folder: AssetFolder
        var elements = 0
        var filterPrimitives = 0
        var documents = 0
        var pixels = 0
        var visited: Set<String> = []

        /// Walks one XML document (the SVG, or a referenced SVG/XML file), then what it references.
        /// - Parameter shown: how a refusal names a referenced document (`references F, which `);
        ///   empty for the SVG itself.
        mutating func document(_ bytes: [UInt8], path: String, shown: String, level: Int) throws(Refusal) {
            documents += 1
            guard documents <= maxDocuments else { throw Refusal(why: "references more than \(maxDocuments) images, SVG documents or style sheets") }
            let reader = Reader(budget: maxElements - elements, filterBudget: maxFilterPrimitives - filterPrimitives)
            let parser = XMLParser(data: Data(bytes))
            parser.shouldResolveExternalEntities = false
            parser.delegate = reader
            let ok = parser.parse()
            elements += reader.elements
            filterPrimitives += reader.filterPrimitives
            if let refusal = reader.refusal { throw Refusal(why: shown + refusal) }
            guard ok else {
                let line = parser.lineNumber
                throw Refusal(why: shown + "cannot be checked: its XML is not well-formed (line \(line))")
            }
            for ref in reader.references { try reference(ref.href, image: ref.image, from: path, level: level) }
        }

        /// Walks a style sheet's `url(…)` and `@import` references.
        mutating func styleSheet(_ bytes: [UInt8], path: String, level: Int) throws(Refusal) {
            documents += 1
            guard documents <= maxDocuments else { throw Refusal(why: "references more than \(maxDocuments) images, SVG documents or style sheets") }
            for ref in Reader.cssReferences(String(decoding: bytes, as: UTF8.self)) { try reference(ref, image: false, from: path, level: level) }
        }

        /// Follows one reference: a `data:` URI or a file librsvg would load; `image` for the
        /// `href` of `<image>` and `<feImage>` (decoded by gdk-pixbuf), false for documents.
        mutating func reference(_ ref: String, image: Bool, from path: String, level: Int) throws(Refusal) {
            let href = ref.trimmingCharacters(in: .whitespacesAndNewlines)
            if href.isEmpty || href.hasPrefix("#") { return }
            guard level < maxReferenceDepth else { throw Refusal(why: "nests references more than \(maxReferenceDepth) levels deep") }
            if href.lowercased().hasPrefix("data:") {
                try content(Self.dataURIBytes(href), image: image, name: "an image embedded as a data: URI", shown: "embeds a document as a data: URI, which ",
                            path: path, level: level)
                return
            }
            let base = URL(fileURLWithPath: path)
            guard let url = URL(string: href, relativeTo: base) else {
                throw Refusal(why: "has a reference cartrender cannot check (\(echoedQuoted(String(href.prefix(40)))))")
            }
            // librsvg loads only file: URLs in the SVG's folder and below.
            guard url.scheme?.lowercased() == "file" || url.scheme == nil else { return }
            let target = url.standardizedFileURL.path
            guard folder.contains(target), !visited.contains(target) else { return }
            visited.insert(target)
            let bytes: [UInt8]
            do { bytes = try folder.read(target, limit: ImageLibrary.maxRasterBytes) } catch {
                switch error {
                case .outside: return  // librsvg loads nothing
                case .read(let e) where e.problem == .missing: return
                case .link: throw Refusal(why: "references \(FileSystemPath.display(target)) through a symbolic link")
                case .read(let e): throw Refusal(why: "references \(FileSystemPath.display(target)), which \(e.reason(notA: "an image"))")
                }
            }
            try content(bytes, image: image, name: "the file \(FileSystemPath.display(target))",
                        shown: "references \(FileSystemPath.display(target)), which ", path: target, level: level)
        }

        /// Measures a raster image, or walks an SVG or style sheet, from its first bytes. Only
        /// PNG, JPEG and SVG may be drawn as images (`image`): nothing else reaches gdk-pixbuf.
        /// `name` names it as an image, `shown` as a document (``document(_:path:shown:level:)``).
        mutating func content(_ bytes: [UInt8], image: Bool, name: String, shown: String, path: String, level: Int) throws(Refusal) {
            func addPixels(_ w: Int, _ h: Int) throws(Refusal) {
                guard w <= ImageLibrary.maxImageSide, h <= ImageLibrary.maxImageSide else {
                    throw Refusal(why: "draws \(name), which is \(w)×\(h) px; at most \(ImageLibrary.maxImageSide) px a side")
                }
                pixels += w * h
                guard pixels <= maxImagePixels else {
                    throw Refusal(why: "draws images of more than \(maxImagePixels / 1_000_000) million px together (\(name) is \(w)×\(h) px)")
                }
            }
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
                guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
                    throw Refusal(why: "draws \(name), a PNG image without its IHDR header")
                }
                let be = { (o: Int) in bytes[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
                try addPixels(be(16), be(20))
                return
            }
            if bytes.starts(with: [0xFF, 0xD8]) {
                do {
                    let jpeg = try JPEGStructure.parse(bytes)
                    try addPixels(jpeg.width, jpeg.height)
                } catch let r as Refusal { throw r } catch {
                    throw Refusal(why: "draws \(name), which is not a complete JPEG image")
                }
                return
            }
            var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
            if start < bytes.count, bytes[start] == UInt8(ascii: "<") {
                try document(bytes, path: path, shown: shown, level: level + 1)
                return
            }
            guard !image else { throw Refusal(why: "draws \(name), which is not a PNG, JPEG or SVG image") }
            try styleSheet(bytes, path: path, level: level + 1)
        }

        /// The payload of a `data:` URI (base64 or percent-encoded).
        static func dataURIBytes(_ uri: String) -> [UInt8] {
            guard let comma = uri.firstIndex(of: ",") else { return [] }
            let meta = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma].lowercased()
            let payload = String(uri[uri.index(after: comma)...])
            if meta.hasSuffix(";base64") {
                let text = payload.removingPercentEncoding ?? payload
                return Data(base64Encoded: text, options: .ignoreUnknownCharacters).map { Array($0) } ?? []
            }
            return Array((payload.removingPercentEncoding ?? payload).utf8)
        }
    }

    /// The SAX reader of one document: counts and checks elements, collects references.
    final class Reader: NSObject, XMLParserDelegate {
        let budget: Int
        let filterBudget: Int
        var elements = 0
        var depth = 0
        var filterPrimitives = 0
        var refusal: String?
        /// `href`s and `url(…)`s, `image` for those of `<image>` and `<feImage>`.
        var references: [(href: String, image: Bool)] = []
        var styleText: String?

        init(budget: Int, filterBudget: Int) { self.budget = budget; self.filterBudget = filterBudget }

        func refuse(_ parser: XMLParser, _ why: String) {
            if refusal == nil { refusal = why }
            parser.abortParsing()
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            guard refusal == nil else { return }
            elements += 1
            depth += 1
            let line = parser.lineNumber
            if elements > budget { return refuse(parser, "has more than \(maxElements) elements") }
            if depth > maxDepth { return refuse(parser, "nests elements more than \(maxDepth) deep (line \(line))") }
            let name = elementName.split(separator: ":").last.map(String.init) ?? elementName
            if name.hasPrefix("fe"), !name.hasPrefix("feFunc"), name != "feMergeNode", !name.hasSuffix("Light") {
                filterPrimitives += 1
                if filterPrimitives > filterBudget { return refuse(parser, "has more than \(maxFilterPrimitives) filter primitives") }
            }
            func number(_ key: String) -> Double? {
                attributes[key].flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
            if refusedElements.contains(name) {
                return refuse(parser, "has <\(name)> (line \(line)), which cartrender does not draw in scene images: its cost grows with the square of its radius")
            }
            if let key = refusedAttributes.first(where: { attributes[$0] != nil }) {
                return refuse(parser, "has \(key)=\"\(attributes[key]!)\" on <\(name)> (line \(line)), which cartrender does not draw in scene images: its cost grows with the square of 1 / \(key)")
            }
            switch name {
            case "feTurbulence":
                if let n = number("numOctaves"), !(n <= Double(maxOctaves)) {
                    return refuse(parser, "has <feTurbulence numOctaves=\"\(attributes["numOctaves"]!)\"> (line \(line)); at most \(maxOctaves) octaves")
                }
            case "feConvolveMatrix":
                let parts = (attributes["order"] ?? "").split(whereSeparator: { $0 == " " || $0 == "," || $0.isNewline || $0 == "\t" })
                if parts.contains(where: { Double($0).map { !($0 <= Double(maxConvolveOrder)) } ?? false }) {
                    return refuse(parser, "has <feConvolveMatrix order=\"\(attributes["order"]!)\"> (line \(line)); at most \(maxConvolveOrder)")
                }
            case "filter":
                let userSpace = attributes["filterUnits"]?.trimmingCharacters(in: .whitespaces) == "userSpaceOnUse"
                for key in ["x", "y", "width", "height"] {
                    guard let text = attributes[key]?.trimmingCharacters(in: .whitespacesAndNewlines) else { continue }
                    let value: Double?
                    if text.hasSuffix("%") { value = Double(text.dropLast()).map { $0 / 100 } } else { value = userSpace ? nil : Double(text) }
                    if let v = value, !(abs(v) <= maxFilterRegion) {
                        return refuse(parser, "has a filter region \(key)=\"\(text)\" (line \(line)); at most \(Int(maxFilterRegion * 100))% of the element")
                    }
                }
            default: break
            }
            for (key, value) in attributes {
                // `<a>` links and scripts are not loaded by librsvg.
                if key == "href" || key.hasSuffix(":href"), name != "a", name != "script" {
                    references.append((value, name == "image" || name == "feImage"))
                }
                references += Self.cssReferences(value, imports: false).map { ($0, false) }
            }
            if name == "style" { styleText = "" }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
            if let text = styleText {
                references += Self.cssReferences(text).map { ($0, false) }
                styleText = nil
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            styleText? += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            styleText? += String(decoding: CDATABlock, as: UTF8.self)
        }

        /// The targets of `url(…)` and (in style sheets) `@import "…"` in CSS text.
        static func cssReferences(_ text: String, imports: Bool = true) -> [String] {
            guard text.contains("url(") || (imports && text.contains("@import")) else { return [] }
            var out: [String] = []
            func unquoted(_ s: Substring) -> String {
                var t = s.trimmingCharacters(in: .whitespacesAndNewlines)
                if let f = t.first, (f == "\"" || f == "'"), t.count >= 2, t.last == f { t = String(t.dropFirst().dropLast()) }
                return t
            }
            var rest = Substring(text)
            while let r = rest.range(of: "url(") {
                let after = rest[r.upperBound...]
                guard let close = after.firstIndex(of: ")") else { out.append(unquoted(after)); break }
                out.append(unquoted(after[..<close]))
                rest = after[after.index(after: close)...]
            }
            if imports {
                rest = Substring(text)
                while let r = rest.range(of: "@import") {
                    let after = rest[r.upperBound...].drop(while: { $0 == " " || $0 == "\t" || $0.isNewline })
                    if let q = after.first, q == "\"" || q == "'" {
                        let body = after.dropFirst()
                        if let end = body.firstIndex(of: q) { out.append(String(body[..<end])) }
                    }
                    rest = after
                }
            }
            return out
        }
    }
}
