import CartRenderCore

/// Which rows of a worker's canvas one draw changed, against what the canvas held after the
/// draw before it (``FrameRasterizer/withPixels(of:scale:_:)``). Rows outside `rows` hold the
/// same bytes as after draw `serial − 1`; an encoder that kept its output for that draw can
/// reuse it for them without reading the pixels (``PNGCanvasStripes``).
public struct CanvasDamage: Equatable, Sendable {
    /// The number of this draw into the canvas (1, 2, …), counted per rasterizer.
    public var serial: Int
    /// The rows (px) that may have changed, sorted and disjoint; every row when `whole`.
    public var rows: [Range<Int>]
    /// The whole canvas was drawn (first draw, another size, scale or background).
    public var whole: Bool

    /// The damage of draw `serial`: `rows` (px), or the whole canvas.
    public init(serial: Int, rows: [Range<Int>], whole: Bool) {
        self.serial = serial; self.rows = rows; self.whole = whole
    }

    /// Whether any row of `range` may have changed.
    public func touches(_ range: Range<Int>) -> Bool {
        whole || rows.contains { $0.overlaps(range) }
    }
}

/// The bands of whole rows (px) a draw redraws: damaged rectangles widened to the canvas's full
/// width, and grown to hold whole every image and gradient they reach.
///
/// Cairo's image backend (pixman) resamples images, gradients and blurs stepping from where a drawing
/// starts — along a span from its left end, from row to row from its top — and its vectorized
/// paths treat a span's last few pixels apart, so those pixels depend on where the drawing of
/// the item starts and ends. In full rows, with every image and gradient inside a band from its
/// first row to its last, each is drawn from where a full redraw draws it, so the pixels are
/// exactly the same (`DamageTrackingTests`). Flat fills, strokes, text and symbols (paths in
/// one color) are the same drawn in any band.
enum DamageBands {
    /// The row bands (px, sorted, disjoint) that cover `rects` (pt) at `scale` px per pt, each
    /// rounded out to whole pixels, grown by `margin` px and clipped to the canvas's `height` px;
    /// bands that overlap or touch are merged. Empty when nothing is damaged; nil when the bands
    /// cover so much of the canvas (over 3/4 of its rows) that drawing it whole is as cheap.
    static func covering(_ rects: [Rect], scale: Double, margin: Int, height: Int) -> [Range<Int>]? {
        var bands: [Range<Int>] = []
        for r in rects where r.y.isFinite && r.height.isFinite && r.x.isFinite && r.width.isFinite {
            // Clamp in floating point first: a huge rectangle must not overflow Int.
            func px(_ v: Double, _ rule: FloatingPointRoundingRule) -> Int {
                Int(min(max((v * scale).rounded(rule), Double(-margin - 1)), Double(height + margin + 1)))
            }
            let y0 = max(0, px(r.minY, .down) - margin), y1 = min(height, px(r.maxY, .up) + margin)
            if y1 > y0 { bands.append(y0..<y1) }
        }
        let merged = RowRanges.merged(bands)
        return isPartial(merged, height: height) ? merged : nil
    }

    /// Whether `bands` leave enough of a `height` px canvas alone (they cover at most 3/4 of
    /// its rows) for drawing only them to be cheaper than drawing it whole.
    static func isPartial(_ bands: [Range<Int>], height: Int) -> Bool {
        bands.reduce(0) { $0 + $1.count } * 4 <= height * 3
    }

    /// `bands` grown until every one of `wholes` (row ranges, px) that overlaps a band lies
    /// inside it; sorted, disjoint, merged where they overlap or touch.
    static func holding(_ bands: [Range<Int>], whole wholes: [Range<Int>]) -> [Range<Int>] {
        var bands = bands
        var changed = true
        while changed {
            changed = false
            for w in wholes where !w.isEmpty {
                for (i, b) in bands.enumerated() where b.overlaps(w) && (w.lowerBound < b.lowerBound || w.upperBound > b.upperBound) {
                    bands[i] = min(b.lowerBound, w.lowerBound)..<max(b.upperBound, w.upperBound)
                    changed = true
                }
            }
            bands = RowRanges.merged(bands)
        }
        return bands
    }

    /// The rows (px, grown by `margin` and clipped to the canvas) of every image file, gradient
    /// fill or stroke and blur of `list` drawn at `scale`: what a band must hold whole.
    static func resampledRows(of list: DisplayList, scale: Double, margin: Int, height: Int, measuring: TextMeasuring) -> [Range<Int>] {
        var rows: [Range<Int>] = []
        func add(_ r: Rect, _ t: AffineTransform) {
            let d = r.applying(t)
            guard d.minY.isFinite, d.maxY.isFinite else { return }
            let y0 = Int(max(min((d.minY * scale).rounded(.down), Double(height)), 0)) - margin
            let y1 = Int(max(min((d.maxY * scale).rounded(.up), Double(height)), 0)) + margin
            if min(height, y1) > max(0, y0) { rows.append(max(0, y0)..<min(height, y1)) }
        }
        func walk(_ items: [DisplayItem], _ t: AffineTransform) {
            for item in items {
                switch item {
                case .image(let i):
                    // Symbols are paths filled in one color: drawn the same in any band.
                    if case .symbol = i.source { continue }
                    add(i.frame, t)
                case .fill(let s, .linearGradient): add(s.bounds, t)
                case .blur(let radius, let children):
                    // Drawn into a surface of its own, cut to the drawing's extents, and convolved.
                    if let b = children.bounds(measuring: measuring) { add(b.insetBy(-3 * max(radius, 0) - 1), t) }
                case .stroke(let s, .linearGradient, let w): add(s.bounds.insetBy(-w), t)
                case .group(let u, let opacity, _, let children) where opacity > 0: walk(children, u.followed(by: t))
                default: break
                }
            }
        }
        walk(list.items, .identity)
        return rows
    }
}
