/// What one frame shows, as a flat description the raster layer draws in order (painter's
/// algorithm). All geometry is in screen points (pt); colors are sRGB with straight alpha.
/// Equal display lists draw equal pixels, so the pipeline can reuse a frame's bytes.
public struct DisplayList: Equatable, Sendable {
    /// Canvas size (pt).
    public var size: Size
    /// Fill of the whole canvas before any item is drawn.
    public var background: Color
    /// The drawing operations, back to front (later items paint over earlier ones).
    public var items: [DisplayItem]
    /// A display list of a `size` pt canvas filled with `background`, then `items` drawn in order.
    public init(size: Size, background: Color, items: [DisplayItem]) {
        self.size = size; self.background = background; self.items = items
    }
}

/// One drawing operation.
public indirect enum DisplayItem: Equatable, Sendable {
    /// Fill a shape.
    case fill(Shape, Paint)
    /// Stroke a shape's outline centered on its path; `lineWidth` in pt. (`strokeBorder` is a
    /// stroke of the shape inset by half the line width.)
    case stroke(Shape, Paint, lineWidth: Double)
    /// Draw text.
    case text(TextRun)
    /// Draw an image (symbol or file).
    case image(ImageDraw)
    /// Draw `items` transformed, with an opacity (0…1) applied to the group as a whole, and
    /// clipped to `clip` (in the group's coordinates) when given.
    case group(transform: AffineTransform, opacity: Double, clip: Shape?, items: [DisplayItem])
    /// Draw `items` blurred as a whole, as SwiftUI's `.blur(radius:)` does: the items are drawn
    /// on their own, convolved with a Gaussian, and composited where they are. `radius` is the
    /// Gaussian's standard deviation σ in pt of the items' coordinates (the σ of SVG's
    /// `feGaussianBlur stdDeviation` and of CSS `filter: blur()`); enclosing groups that scale
    /// scale it with them (by the square root of their determinant). Ink spreads about 3σ past
    /// the items' sharp bounds, and total coverage is kept. A radius of 0 or less draws the
    /// items unblurred; the clips of enclosing groups apply to the blurred result.
    case blur(radius: Double, items: [DisplayItem])
}

/// A closed shape in points.
public enum Shape: Equatable, Sendable {
    /// An axis-aligned rectangle: a view's background. Filled and clipped with hard edges — each
    /// pixel in or out by its center, no antialiasing — wherever the transform keeps it axis-aligned,
    /// as Core Animation draws layer edges, so that abutting rectangles at fractional positions
    /// (rows sliding up, a row's content over its backdrop) leave no blended seam.
    case rect(Rect)
    /// Rounded rectangle with circular corners of a radius (pt): `RoundedRectangle(cornerRadius:
    /// style: .circular)`, for system chrome drawn with circular arcs.
    case roundedRect(Rect, radius: Double)
    /// Rounded rectangle with continuous corners of a radius (pt), SwiftUI's default style for
    /// `.rect(cornerRadius:)`, `RoundedRectangle(cornerRadius:)` and `.cornerRadius(_:)`
    /// (`ContinuousCorners`: the corner reaches 1.528665 × the radius along each edge).
    case continuousRoundedRect(Rect, radius: Double)
    /// Stadium: corner radius half the shorter side.
    case capsule(Rect)
    /// Ellipse inscribed in the rectangle.
    case ellipse(Rect)

    /// The shape's bounding rectangle (pt).
    public var bounds: Rect {
        switch self {
        case .rect(let r), .roundedRect(let r, _), .continuousRoundedRect(let r, _), .capsule(let r), .ellipse(let r): return r
        }
    }
}

/// How an area is painted.
public enum Paint: Equatable, Sendable {
    /// A flat color (sRGB, straight alpha).
    case color(Color)
    /// A linear gradient from `start` to `end` (pt), colors evenly spaced.
    case linearGradient(start: Point, end: Point, colors: [Color])
}

/// A run of text laid out by the raster layer (Pango).
public struct TextRun: Equatable, Sendable {
    /// How lines align within `maxWidth`: `leading` and `trailing` follow `direction` (SwiftUI's
    /// `TextAlignment`); without `maxWidth`, relative to `origin`.
    public enum Alignment: String, Equatable, Sendable { case leading, center, trailing }
    /// The text, as shown (already localized and formatted); may hold newlines.
    public var text: String
    /// Family, size (pt) and weight (docs/motion-and-look.md, Text and fonts).
    public var font: FontSpec
    /// Text color (sRGB, straight alpha).
    public var color: Color
    /// Top-left of the layout box (pt); the first baseline sits `TextMeasuring.firstBaseline` below
    /// it, and each further line one line height (`FontSpec.lineHeight`, or the font's own) lower.
    public var origin: Point
    /// Wrapping width (pt); nil for a single line. With `alignment`, lines align within it.
    public var maxWidth: Double?
    /// How the lines align in `maxWidth`.
    public var alignment: Alignment
    /// At most this many lines (with `maxWidth`); the last one shown ends in "…" when the text
    /// needs more, as SwiftUI's Text does when its height is limited. nil: no limit.
    public var maxLines: Int?
    /// The paragraph's base direction: right to left, `.leading` lines align to the right edge
    /// of `maxWidth` and `.trailing` ones to the left, and runs of mixed scripts are ordered
    /// from the right (Unicode bidirectional algorithm with a right-to-left paragraph level).
    public var direction: LayoutDirection
    /// A text run; see each property for units. Defaults: one unbounded line, leading, left to right.
    public init(_ text: String, font: FontSpec, color: Color, origin: Point, maxWidth: Double? = nil, alignment: Alignment = .leading,
                maxLines: Int? = nil, direction: LayoutDirection = .leftToRight) {
        self.text = text; self.font = font; self.color = color; self.origin = origin; self.maxWidth = maxWidth; self.alignment = alignment
        self.maxLines = maxLines; self.direction = direction
    }
}

/// An image drawn into a frame.
public struct ImageDraw: Equatable, Sendable {
    /// How the image's aspect ratio meets `frame`: `fit` inside it (SwiftUI's `.scaledToFit()`),
    /// or `fill` it, cropped (`.scaledToFill()`).
    public enum ContentMode: String, Equatable, Sendable { case fit, fill }
    /// What to draw: an SF Symbol name or an image file.
    public var source: ImageSource
    /// The box the image is fitted into or fills (pt).
    public var frame: Rect
    /// Fit or fill `frame`, keeping the image's aspect ratio.
    public var contentMode: ContentMode
    /// For symbols: their color (SF Symbols take the foreground style). Ignored for files.
    public var tint: Color
    /// Clip to a rounded rectangle of `frame` with continuous corners of this radius (pt,
    /// `.cornerRadius(_:)`: `Shape.continuousRoundedRect`); 0 clips to `frame` in `.fill` mode and
    /// not at all in `.fit` mode.
    public var cornerRadius: Double
    /// Drawn mirrored about the frame's vertical center line: a directional symbol in a
    /// right-to-left layout (`Symbols.mirroredRightToLeft`).
    public var mirrored: Bool
    /// For symbols: the weight of the font they are set in, as SF Symbols take the weight of
    /// the text style (`.font(.system(size: 26, weight: .heavy))`). Heavier than regular, the
    /// symbol is emboldened by `Look.symbolOutlineWidth(_:)`. Ignored for files.
    public var weight: FontWeight
    /// An image draw; see each property for units. Defaults: fitted, unclipped, not mirrored, regular weight.
    public init(source: ImageSource, frame: Rect, contentMode: ContentMode = .fit, tint: Color, cornerRadius: Double = 0, mirrored: Bool = false,
                weight: FontWeight = .regular) {
        self.source = source; self.frame = frame; self.contentMode = contentMode; self.tint = tint; self.cornerRadius = cornerRadius
        self.mirrored = mirrored; self.weight = weight
    }
}

/// Text metrics, provided by the raster layer (Pango with the confined fonts), so that layout
/// can size badges and wrap text without knowing about Cairo.
public protocol TextMeasuring {
    /// The logical size (pt) of `text` in `font`, wrapped at `maxWidth` pt when given, and cut
    /// to `maxLines` lines (the last ending in "…") when given: the widest line's width (with
    /// the system font's tracking), and the number of lines times the font's line height.
    func measure(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?) -> Size
    /// The distance (pt) from the top of `text`'s layout box, laid out on one line in `font`, to
    /// its baseline: `font`'s, the same for every text — a fallback font that draws a script the
    /// font lacks (Noto Sans Arabic for Arabic-Indic digits in Inter) draws on that baseline
    /// (docs/motion-and-look.md, “Line height and tracking”).
    func firstBaseline(_ text: String, font: FontSpec) -> Double
}

extension TextMeasuring {
    /// The logical size (pt) of `text` in `font`, wrapped at `maxWidth` pt when given.
    public func measure(_ text: String, font: FontSpec, maxWidth: Double?) -> Size {
        measure(text, font: font, maxWidth: maxWidth, maxLines: nil)
    }

    /// The narrowest width (pt) `text` takes in `font` when it wraps: its widest line when it
    /// is broken at every opportunity and, inside a word, between characters — its widest
    /// character. This is the width SwiftUI's `Text` reports when proposed a width of 0.
    public func minimumWidth(_ text: String, font: FontSpec) -> Double {
        measure(text, font: font, maxWidth: 1.0 / 1024).width
    }
}
