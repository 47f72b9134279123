/// The direction a screen's horizontal stacks run in (SwiftUI's `LayoutDirection`): a scene's
/// `"layoutDirection"`, or the one its locale's script implies.
///
/// Right to left mirrors the layout as SwiftUI does: every stack runs from the right edge,
/// `.leading` is the right edge and `.trailing` the left, directional symbols are drawn mirrored
/// (`Image.flipsForRightToLeftLayoutDirection`), text is right-aligned and laid out with a
/// right-to-left base direction. Images, shapes that are symmetric (the "Check out" button) and
/// the digits of a number (numbers read left to right in Arabic and Hebrew text) are not
/// mirrored. Geometry stays in screen points, origin top-left: a layout places a right-to-left
/// frame at `mirrored(_:in:)` of its left-to-right frame.
public enum LayoutDirection: String, Sendable, CaseIterable {
    /// SwiftUI's `LayoutDirection` values (Apple documentation: *LayoutDirection*).
    case leftToRight, rightToLeft

    /// Languages written right to left (ISO 639 codes; `iw` is Hebrew's old code): Arabic,
    /// Aramaic, Central Kurdish, Dhivehi, Persian, Hebrew, Kashmiri, Pashto, Sindhi, Uyghur,
    /// Urdu, Yiddish. A fixed list rather than ICU's answer, so that renders do not depend on
    /// the ICU data a machine has.
    public static let rightToLeftLanguages: Set<String> = ["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ps", "sd", "ug", "ur", "yi"]

    /// The direction of a locale identifier's language (`ar_SA` → right to left).
    public init(locale: String) {
        let language = locale.split(whereSeparator: { $0 == "_" || $0 == "-" }).first.map { String($0).lowercased() } ?? ""
        self = Self.rightToLeftLanguages.contains(language) ? .rightToLeft : .leftToRight
    }

    /// Whether this is `.rightToLeft`.
    public var isRightToLeft: Bool { self == .rightToLeft }

    /// `r` (pt) in a container of `width` pt starting at x = 0: unchanged left to right, its
    /// mirror image about the container's vertical center line right to left. Mirroring twice
    /// gives `r` back.
    public func mirrored(_ r: Rect, in width: Double) -> Rect {
        guard isRightToLeft else { return r }
        return Rect(x: width - r.x - r.width, y: r.y, width: r.width, height: r.height)
    }

    /// +1 left to right, −1 right to left: the sign that turns a leftward length into one
    /// toward the trailing edge (pt).
    public var trailingSign: Double { isRightToLeft ? -1 : 1 }
}
