import CartRenderCore
import CCairo
import Foundation

/// SVG output: a display list drawn on Cairo's SVG surface, its element ids canonicalised.
extension FrameRasterizer {
    /// Draws `list` as an SVG document whose user unit is the point (`width`/`height` in px = pt).
    /// Element ids are renumbered in document order, so the bytes do not depend on what the
    /// process drew before (Cairo numbers some ids from a process-wide counter).
    public func svg(_ list: DisplayList) throws -> [UInt8] {
        let surface = try CairoSVGSurface(width: list.size.width, height: list.size.height)
        guard let cr = cairo_create(surface.pointer) else { throw RasterError(.library, "cairo_create failed") }
        defer { cairo_destroy(cr) }
        try draw(list, in: cr)
        try check(surface.finish(), "writing an SVG frame")
        return SVGIdentifiers.canonicalize(surface.bytes)
    }
}

/// Renumbers the element ids of a Cairo SVG document in order of appearance, per id prefix
/// (`glyph0`, `glyph1`, `surface0`, …), and rewrites every `#id` reference to match.
enum SVGIdentifiers {
    static func canonicalize(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let idPattern = try! NSRegularExpression(pattern: #"id="([A-Za-z_]+)([0-9][0-9-]*)""#)
        var mapping: [String: String] = [:]
        var counters: [String: Int] = [:]
        let ns = text as NSString
        for m in idPattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let prefix = ns.substring(with: m.range(at: 1))
            let old = prefix + ns.substring(with: m.range(at: 2))
            guard mapping[old] == nil else { continue }
            let n = counters[prefix, default: 0]
            counters[prefix] = n + 1
            mapping[old] = "\(prefix)\(n)"
        }
        guard !mapping.isEmpty else { return bytes }
        let refPattern = try! NSRegularExpression(pattern: #"(id="|#)([A-Za-z_]+[0-9][0-9-]*)"#)
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var last = 0
        for m in refPattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let name = ns.substring(with: m.range(at: 2))
            guard let new = mapping[name] else { continue }
            out += ns.substring(with: NSRange(location: last, length: m.range(at: 2).location - last))
            out += new
            last = m.range(at: 2).location + m.range(at: 2).length
        }
        out += ns.substring(from: last)
        return Array(out.utf8)
    }
}

/// A Cairo SVG surface that writes into memory (`cairo_svg_surface_create_for_stream`, the
/// document unit px, so 1 user unit = 1 pt): destroyed when the value goes away, on every path.
final class CairoSVGSurface {
    let pointer: OpaquePointer
    /// Where Cairo's stream callback appends; held here, so it lives as long as the surface.
    private final class Sink { var bytes: [UInt8] = [] }
    private let sink = Sink()
    /// What the surface wrote so far; the whole document after ``finish()``.
    var bytes: [UInt8] { sink.bytes }

    /// - Parameters: width, height: the document's size (pt).
    /// - Throws: `RasterError` when Cairo cannot create the surface.
    init(width: Double, height: Double) throws {
        let write: cairo_write_func_t = { closure, data, length in
            let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        guard let made = cairo_svg_surface_create_for_stream(write, Unmanaged.passUnretained(sink).toOpaque(), width, height) else {
            throw RasterError(.library, "cairo_svg_surface_create_for_stream failed")
        }
        pointer = made
        cairo_svg_surface_set_document_unit(made, CAIRO_SVG_UNIT_PX)
    }

    /// Finishes the document (Cairo writes its end) and returns the surface's status.
    func finish() -> cairo_status_t {
        cairo_surface_finish(pointer)
        return cairo_surface_status(pointer)
    }

    deinit { cairo_surface_destroy(pointer) }
}
