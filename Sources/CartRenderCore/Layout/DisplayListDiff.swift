/// Where a display list can draw other pixels than the one drawn before it: its *damage*.
///
/// The raster layer keeps each worker's canvas from frame to frame and redraws only the damaged
/// rectangles, clipped, with every item that reaches them, in order. Pixels outside the damage
/// are left as the previous frame drew them; pixels inside are drawn exactly as a full redraw
/// draws them. So the damage must cover every pixel where the two lists can differ: it is
/// found from the items that differ, by their ``DisplayItem/bounds(measuring:)`` in both
/// lists, which are generous (text boxes grow by half the font size, strokes by their width).
public enum DisplayListDiff {
    /// The rectangles (pt, canvas coordinates, possibly overlapping) outside of which `new`
    /// draws exactly the pixels `old` drew; empty when the lists are equal; nil when the whole
    /// canvas must be redrawn (another canvas size or background).
    ///
    /// Items are matched by position after the longest common prefix and suffix of equal items.
    /// Where two matched groups differ only in their children (same transform, opacity and
    /// clip), the children are compared in turn, so a badge that bumps inside an unchanged
    /// screen damages the badge, not the screen. Everything else that differs damages its
    /// bounds in both lists.
    /// - Parameter measuring: sizes text boxes, as the raster layer lays them out.
    public static func damage(from old: DisplayList, to new: DisplayList, measuring: TextMeasuring) -> [Rect]? {
        guard old.size == new.size, old.background == new.background else { return nil }
        var rects: [Rect] = []
        compare(old.items[...], new.items[...], transform: .identity, measuring: measuring, into: &rects)
        return rects
    }

    private static func compare(_ a: ArraySlice<DisplayItem>, _ b: ArraySlice<DisplayItem>, transform: AffineTransform,
                                measuring: TextMeasuring, into rects: inout [Rect]) {
        var a = a, b = b
        while let x = a.first, let y = b.first, x == y { a.removeFirst(); b.removeFirst() }
        while let x = a.last, let y = b.last, x == y { a.removeLast(); b.removeLast() }
        func damage(_ item: DisplayItem) {
            if let r = item.bounds(measuring: measuring) { rects.append(r.applying(transform)) }
        }
        guard a.count == b.count else {
            a.forEach(damage); b.forEach(damage)
            return
        }
        for (x, y) in zip(a, b) where x != y {
            if case .group(let t, let o, let c, let children) = x, case .group(let u, let p, let d, let others) = y, t == u, o == p, c == d {
                compare(children[...], others[...], transform: t.followed(by: transform), measuring: measuring, into: &rects)
            } else {
                damage(x); damage(y)
            }
        }
    }
}

extension DisplayItem {
    /// A rectangle (pt, in the item's coordinates) that holds every pixel the item can touch,
    /// antialiasing aside (the raster layer adds a pixel or two): shapes by their bounds, strokes
    /// grown by their width, images by their frame (they are fitted into it or clipped to it),
    /// text by its layout box (at least `maxWidth` wide) grown by half the font size for glyphs
    /// that reach out of it, groups by their clip or their children, transformed, blurs by their
    /// children grown by 3σ. nil when the
    /// item draws nothing (an empty group, a group at opacity 0).
    public func bounds(measuring: TextMeasuring) -> Rect? {
        switch self {
        case .fill(let s, _): return s.bounds
        case .stroke(let s, _, let w): return s.bounds.insetBy(-w)
        case .text(let run):
            let size = measuring.measure(run.text, font: run.font, maxWidth: run.maxWidth, maxLines: run.maxLines)
            return Rect(x: run.origin.x, y: run.origin.y, width: max(size.width, run.maxWidth ?? 0), height: size.height).insetBy(-run.font.size / 2)
        case .image(let i): return i.frame
        case .group(let t, let opacity, let clip, let children):
            guard opacity > 0, let inner = clip?.bounds ?? children.bounds(measuring: measuring) else { return nil }
            return inner.applying(t)
        case .blur(let radius, let children):
            // A Gaussian spreads ink about 3σ past the sharp bounds (0.27 % of it further).
            return children.bounds(measuring: measuring)?.insetBy(-3 * max(radius, 0))
        }
    }
}

extension Array where Element == DisplayItem {
    /// The union of the items' ``DisplayItem/bounds(measuring:)`` (pt); nil when none draws.
    public func bounds(measuring: TextMeasuring) -> Rect? {
        var result: Rect?
        for item in self {
            guard let r = item.bounds(measuring: measuring) else { continue }
            result = result.map { $0.union(r) } ?? r
        }
        return result
    }
}
