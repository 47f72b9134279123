/// An opaque 8-bit sRGB color used to paint a diff image.
public struct DiffColor: Equatable, Hashable, Sendable {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8

    /// The color of these 8-bit sRGB components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// (255, 0, 0): pixelmatch's default for differing pixels.
    public static let red = DiffColor(red: 255, green: 0, blue: 0)
    /// (255, 255, 0): pixelmatch's default for anti-aliased pixels.
    public static let yellow = DiffColor(red: 255, green: 255, blue: 0)
}

/// The options of pixelmatch 7.1, with its defaults and meanings.
public struct PixelmatchOptions: Equatable, Hashable, Sendable {
    /// Matching threshold, 0 … 1 (dimensionless; larger accepts more). Two pixels differ when their
    /// YIQ distance exceeds `35215 × threshold²` (35215 is black vs white). 0 = exact. Default 0.1.
    public var threshold: Double
    /// When `true`, anti-aliased pixels count as differences like any other (pixelmatch's
    /// `includeAA`); ``DiffResult/antialiasedPixels`` is then always 0. Default `false`.
    public var includeAA: Bool
    /// Opacity, 0 … 1, of the first image's luminance in the diff image's faded background. Default 0.1.
    public var alpha: Double
    /// Diff-image color of pixels that differ only by anti-aliasing. Default yellow (255, 255, 0).
    public var aaColor: DiffColor
    /// Diff-image color of differing pixels where the second image is not darker. Default red (255, 0, 0).
    public var diffColor: DiffColor
    /// Diff-image color of differing pixels where the second image is darker (its YIQ luma is lower);
    /// `nil` uses ``diffColor``. Default `nil`.
    public var diffColorAlt: DiffColor?
    /// Draw only the differing pixels over a transparent background (no faded image, no AA pixels).
    /// Default `false`.
    public var diffMask: Bool

    /// pixelmatch's options; the defaults are pixelmatch 7.1's (threshold 0.1, alpha 0.1, yellow AA, red differences).
    public init(
        threshold: Double = 0.1,
        includeAA: Bool = false,
        alpha: Double = 0.1,
        aaColor: DiffColor = .yellow,
        diffColor: DiffColor = .red,
        diffColorAlt: DiffColor? = nil,
        diffMask: Bool = false
    ) {
        self.threshold = threshold
        self.includeAA = includeAA
        self.alpha = alpha
        self.aaColor = aaColor
        self.diffColor = diffColor
        self.diffColorAlt = diffColorAlt
        self.diffMask = diffMask
    }
}
