import CartRenderCore
import CartRenderRaster
import Foundation

/// Checks one frame: its display list, the pixels drawn for it, and its accessibility elements.
/// Not thread-safe (it owns a worker: a Pango context and librsvg handles); make one per thread.
///
/// **Contrast, and why it is exact.** For each text run the auditor draws the part of the
/// frame under the run twice with the frame's own rasterizer at the render's scale: once as the
/// frame is, once without that run. The region is the run's box grown by half its font size
/// (glyph overhang), clipped to the screen and the run's clips, on whole device pixels; it is
/// drawn by moving the display list by a whole number of pixels, so each pixel is the frame's
/// pixel at that place. The pixels where the two drawings differ are exactly the pixels the
/// glyphs reach (anti-aliased edges included; pixels a later opaque item covers are not), and the
/// second drawing gives what is behind each of them: fills, gradients, images, other text. At
/// each such pixel the text's colour is composited over that background (sRGB, as Cairo does)
/// and the WCAG ratio of the two is taken; the run's ratio is the lowest, so over a gradient the
/// worst place counts. Sampling background pixels around the glyphs instead would miss what is
/// only behind them, and reading the blended edge pixels would understate the text's contrast.
/// Items far from the run (bounds more than 2 pt away) are left out of the two drawings: they
/// cannot touch its pixels, and equal regions across frames are then drawn once (``cache``).
///
/// Text at a group opacity below 1 or under a blur is in a transition (digits rolling in the
/// badge, a deleted row fading out, a button's 0.1 s pressed look): its contrast is not checked
/// there, only in the frames where it is at rest. Text fully hidden (no pixel differs: covered by
/// what is drawn after it, or transparent) is not checked at all — neither its contrast nor its
/// truncation: only what someone can see is reported.
///
/// **Truncation.** A run with a line limit that needs more lines than it shows ends in "…":
/// `truncated`. A run whose box, as laid out (transforms of moving groups left out: a swipe
/// slides a row off screen on purpose), runs more than 0.5 pt past the screen's left or right
/// edge or a clip of its groups: `clipped`. Vertical overflow is left to scrolling.
final class FrameAuditor {
    let worker: FrameWorker
    private var scale: Double { worker.renderer.scale }
    /// Contrast results of regions drawn before: (the region's two display lists, the ratio).
    private var cache: [(with: DisplayList, without: DisplayList, ratio: Double?)] = []

    init(worker: FrameWorker) { self.worker = worker }

    /// The findings of a frame, for `level`'s contrast thresholds, in a fixed order: text runs
    /// in drawing order (contrast, truncation), then elements in reading order.
    /// - Throws: `RasterError` from drawing.
    func audit(_ display: DisplayList, state: any FrameState, level: AuditLevel) throws -> [AuditFinding] {
        var findings: [AuditFinding] = []
        let runs = Self.textRuns(in: display.items)
        let canvas = Rect(x: 0, y: 0, width: display.size.width, height: display.size.height)
        for placed in runs {
            let run = placed.run
            guard !run.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
            let size = worker.rasterizer.measure(run.text, font: run.font, maxWidth: run.maxWidth, maxLines: run.maxLines)
            let box = Self.textBox(run, size: size)
            let screenBox = placed.transform.boundingBox(of: box)
            // The pixels the run changes: none when it is invisible (transparent, or covered by
            // what is drawn after it, such as the checkout button over the last row's price).
            guard placed.opacity > 0, run.color.alpha > 0,
                  let ratio = try contrast(of: placed, box: screenBox, in: display, canvas: canvas) else { continue }
            if placed.opacity >= 1, !placed.blurred {
                let required = WCAGContrast.required(for: run.font, level: level)
                if ratio < required {
                    findings.append(AuditFinding(kind: .contrast, subject: run.text, rect: screenBox, measured: ratio, required: required,
                                                 detail: JSONValue.format(run.font.size, decimals: 2)))
                }
            }
            if let limit = run.maxLines {
                let full = worker.rasterizer.measure(run.text, font: run.font, maxWidth: run.maxWidth, maxLines: nil)
                let lineHeight = size.height / Double(max(1, limit))
                if full.height > size.height + 0.5 {
                    let needed = (full.height / max(lineHeight, 1)).rounded()
                    findings.append(AuditFinding(kind: .truncation, subject: run.text, rect: screenBox, measured: Double(limit),
                                                 required: max(needed, Double(limit) + 1), detail: "truncated"))
                    continue
                }
            }
            let left = max(0, placed.restClip?.minX ?? 0), right = min(canvas.maxX, placed.restClip?.maxX ?? canvas.maxX)
            if box.minX < left - 0.5 || box.maxX > right + 0.5 {
                findings.append(AuditFinding(kind: .truncation, subject: run.text, rect: screenBox, measured: nil, required: nil, detail: "clipped"))
            }
        }
        let elements = AccessibilityElement.elements(model: worker.model, state: state)
        for e in elements where e.isTouchTarget && (e.frame.width < Self.minimumTarget || e.frame.height < Self.minimumTarget) {
            findings.append(AuditFinding(kind: .touchTarget, subject: e.name, rect: e.frame, measured: nil, required: Self.minimumTarget,
                                         detail: e.role.rawValue))
        }
        for e in elements where !Self.hasLabel(e, runs: runs) {
            findings.append(AuditFinding(kind: .label, subject: e.name, rect: e.frame, measured: nil, required: nil, detail: e.role.rawValue))
        }
        return findings
    }

    /// Apple HIG, Accessibility: "a minimum tappable area of 44x44 pt for all controls" (pt).
    static let minimumTarget = 44.0

    /// Whether an element has a label: the scene's, or for a button the text drawn inside it.
    static func hasLabel(_ e: AccessibilityElement, runs: [PlacedText]) -> Bool {
        func blank(_ s: String) -> Bool { s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        if let label = e.label { return !blank(label) }
        guard e.role == .button else { return false }
        return runs.contains { r in
            !blank(r.run.text) && e.frame.insetBy(-0.5).contains(r.transform.apply(r.run.origin))
        }
    }

    // MARK: - Text runs

    /// A text run with what its groups do to it.
    struct PlacedText {
        var run: TextRun
        /// Indices from the display list's items down to the run.
        var path: [Int]
        /// Groups' transforms, composed (run coordinates → screen).
        var transform: CartRenderCore.AffineTransform
        /// Groups' opacities, multiplied.
        var opacity: Double
        /// Whether a `.blur` with a positive radius encloses the run.
        var blurred: Bool
        /// The groups' clips intersected, in the run's own coordinates with the groups'
        /// transforms left out (the layout's place, before any motion); nil without a clip.
        var restClip: Rect?
        /// The clips on screen (pt), for the contrast region.
        var screenClip: Rect?
    }

    /// Every text run of `items`, in drawing order.
    static func textRuns(in items: [DisplayItem]) -> [PlacedText] {
        var out: [PlacedText] = []
        func walk(_ items: [DisplayItem], path: [Int], transform: CartRenderCore.AffineTransform, opacity: Double, blurred: Bool, restClip: Rect?,
                  screenClip: Rect?) {
            for (i, item) in items.enumerated() {
                switch item {
                case .text(let run):
                    out.append(PlacedText(run: run, path: path + [i], transform: transform, opacity: opacity, blurred: blurred, restClip: restClip,
                                          screenClip: screenClip))
                case .group(let t, let o, let clip, let children):
                    let inner = transform.concatenating(t)
                    let rest = clip.map { c in restClip.map { $0.intersection(c.bounds) } ?? c.bounds } ?? restClip
                    let screen = clip.map { c in screenClip.map { $0.intersection(inner.boundingBox(of: c.bounds)) } ?? inner.boundingBox(of: c.bounds) } ?? screenClip
                    walk(children, path: path + [i], transform: inner, opacity: opacity * o, blurred: blurred, restClip: rest, screenClip: screen)
                case .blur(let radius, let children):
                    walk(children, path: path + [i], transform: transform, opacity: opacity, blurred: blurred || radius > 0, restClip: restClip,
                         screenClip: screenClip)
                default: continue
                }
            }
        }
        walk(items, path: [], transform: .identity, opacity: 1, blurred: false, restClip: nil, screenClip: nil)
        return out
    }

    /// The box (pt, run coordinates) the run's lines occupy: its measured size, placed in its
    /// wrapping width by its alignment and direction.
    static func textBox(_ run: TextRun, size: Size) -> Rect {
        let width = run.maxWidth ?? size.width
        let slack = max(0, width - size.width)
        let rtl = run.direction.isRightToLeft
        let dx: Double
        switch run.alignment {
        case .leading: dx = rtl ? slack : 0
        case .center: dx = slack / 2
        case .trailing: dx = rtl ? 0 : slack
        }
        return Rect(x: run.origin.x + dx, y: run.origin.y, width: size.width, height: size.height)
    }

    // MARK: - Contrast

    /// The lowest WCAG ratio of the run against the pixels behind its glyphs, or nil when none
    /// of its pixels shows.
    private func contrast(of placed: PlacedText, box: Rect, in display: DisplayList, canvas: Rect) throws -> Double? {
        var area = box.insetBy(-placed.run.font.size / 2).intersection(canvas)
        if let clip = placed.screenClip { area = area.intersection(clip) }
        let x0 = Int((area.minX * scale).rounded(.down)), y0 = Int((area.minY * scale).rounded(.down))
        let x1 = Int((area.maxX * scale).rounded(.up)), y1 = Int((area.maxY * scale).rounded(.up))
        guard x1 > x0, y1 > y0 else { return nil }
        let pixels = Rect(x: Double(x0) / scale, y: Double(y0) / scale, width: Double(x1 - x0) / scale, height: Double(y1 - y0) / scale)
        let near = pixels.insetBy(-2)
        let rasterizer = worker.rasterizer
        func bounds(_ items: [DisplayItem]) -> Rect? { items.bounds(measuring: rasterizer) }
        let with = region(of: display, at: pixels, items: Self.cull(display.items, to: near, transform: .identity, bounds: bounds))
        let without = region(of: display, at: pixels,
                             items: Self.cull(Self.removing(placed.path, from: display.items), to: near, transform: .identity, bounds: bounds))
        if let hit = cache.first(where: { $0.with == with && $0.without == without }) { return hit.ratio }
        let a = try worker.rasterize(with), b = try worker.rasterize(without)
        let ratio = Self.lowestRatio(text: placed.run.color, drawn: a, behind: b)
        cache.append((with, without, ratio))
        return ratio
    }

    /// The part of `display` at `rect` (pt, on whole device pixels) as a display list of that
    /// size: `items` moved by −rect.origin over the frame's background.
    private func region(of display: DisplayList, at rect: Rect, items: [DisplayItem]) -> DisplayList {
        DisplayList(size: rect.size, background: display.background,
                    items: [.group(transform: .translation(Vector(dx: -rect.x, dy: -rect.y)), opacity: 1, clip: nil, items: items)])
    }

    /// The lowest ratio of `text` composited over `behind` against `behind`, over the pixels
    /// where `drawn` and `behind` differ; nil when they are equal.
    static func lowestRatio(text: Color, drawn: RGBAImage, behind: RGBAImage) -> Double? {
        var lowest: Double?
        let a = text.alpha
        let tr = text.red * 255, tg = text.green * 255, tb = text.blue * 255
        var luminances: [UInt32: Double] = [:]
        func luminance(_ r: Double, _ g: Double, _ b: Double) -> Double { WCAGContrast.luminance(r: r, g: g, b: b) }
        drawn.pixels.withUnsafeBufferPointer { p in
            behind.pixels.withUnsafeBufferPointer { q in
                var i = 0
                while i < p.count {
                    if p[i] != q[i] || p[i + 1] != q[i + 1] || p[i + 2] != q[i + 2] || p[i + 3] != q[i + 3] {
                        let key = UInt32(q[i]) << 16 | UInt32(q[i + 1]) << 8 | UInt32(q[i + 2])
                        let br = Double(q[i]), bg = Double(q[i + 1]), bb = Double(q[i + 2])
                        let lb: Double
                        if let l = luminances[key] { lb = l } else { lb = luminance(br, bg, bb); luminances[key] = lb }
                        let lf = luminance(a * tr + (1 - a) * br, a * tg + (1 - a) * bg, a * tb + (1 - a) * bb)
                        let r = WCAGContrast.ratio(lf, lb)
                        if lowest == nil || r < lowest! { lowest = r }
                    }
                    i += 4
                }
            }
        }
        return lowest
    }

    /// `items` without the item at `path`.
    static func removing(_ path: [Int], from items: [DisplayItem]) -> [DisplayItem] {
        guard let first = path.first else { return items }
        var items = items
        if path.count == 1 { items.remove(at: first); return items }
        switch items[first] {
        case .group(let t, let o, let c, let children):
            items[first] = .group(transform: t, opacity: o, clip: c, items: removing(Array(path.dropFirst()), from: children))
        case .blur(let radius, let children):
            items[first] = .blur(radius: radius, items: removing(Array(path.dropFirst()), from: children))
        default: break
        }
        return items
    }

    /// `items` without those whose bounds (approximate, `bounds`) miss `rect` (screen pt);
    /// groups and blurs keep only their children that may touch it, and go when none does.
    static func cull(_ items: [DisplayItem], to rect: Rect, transform: CartRenderCore.AffineTransform,
                     bounds: ([DisplayItem]) -> Rect?) -> [DisplayItem] {
        items.compactMap { item in
            guard let b = bounds([item]), transform.boundingBox(of: b).intersects(rect) else { return nil }
            switch item {
            case .group(let t, let o, let c, let children):
                let kept = cull(children, to: rect, transform: transform.concatenating(t), bounds: bounds)
                return kept.isEmpty ? nil : .group(transform: t, opacity: o, clip: c, items: kept)
            case .blur(let radius, let children):
                // A blurred child spreads its ink 3σ (σ scaled to the screen): keep those that reach `rect`.
                let reach = 3 * max(radius, 0) * abs(transform.a * transform.d - transform.b * transform.c).squareRoot()
                let kept = cull(children, to: rect.insetBy(-reach), transform: transform, bounds: bounds)
                return kept.isEmpty ? nil : .blur(radius: radius, items: kept)
            default: return item
            }
        }
    }
}

extension CartRenderCore.AffineTransform {
    /// This transform after `inner`: `self.apply(inner.apply(p))` (a group's transform inside
    /// its parent's).
    func concatenating(_ inner: CartRenderCore.AffineTransform) -> CartRenderCore.AffineTransform {
        CartRenderCore.AffineTransform(a: a * inner.a + c * inner.b, b: b * inner.a + d * inner.b,
                        c: a * inner.c + c * inner.d, d: b * inner.c + d * inner.d,
                        tx: a * inner.tx + c * inner.ty + tx, ty: b * inner.tx + d * inner.ty + ty)
    }

    /// The smallest axis-aligned rectangle holding `r` mapped by this transform.
    func boundingBox(of r: Rect) -> Rect {
        if b == 0 && c == 0 && a == 1 && d == 1 { return Rect(x: r.x + tx, y: r.y + ty, width: r.width, height: r.height) }
        let ps = [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY), Point(x: r.minX, y: r.maxY), Point(x: r.maxX, y: r.maxY)].map(apply)
        let xs = ps.map(\.x), ys = ps.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

extension Rect {
    /// The overlap of two rectangles (zero-sized at the nearer edge when they do not overlap).
    func intersection(_ o: Rect) -> Rect {
        let x0 = max(minX, o.minX), y0 = max(minY, o.minY)
        return Rect(x: x0, y: y0, width: max(0, min(maxX, o.maxX) - x0), height: max(0, min(maxY, o.maxY) - y0))
    }
    func intersects(_ o: Rect) -> Bool { minX < o.maxX && o.minX < maxX && minY < o.maxY && o.minY < maxY }
    func contains(_ p: Point) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
}
