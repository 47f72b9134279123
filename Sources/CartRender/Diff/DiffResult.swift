import CartRenderCore
import CartRenderRaster
/// The outcome of comparing two images of the same size.
///
/// Encoded as `{"differingPixels", "antialiasedPixels", "totalPixels", "identical"}` by the CLI
/// (`report.json`, docs/snapshot-testing.md, “The report”); the counts agree with pixelmatch 7.1's on the same inputs and options.
public struct DiffResult: Equatable, Hashable, Sendable {
    /// Pixels whose color distance exceeds the threshold, are not anti-aliasing (unless
    /// `includeAA`) and are outside every mask rectangle: pixelmatch's return value.
    public var differingPixels: Int
    /// Pixels over the threshold that were excused as anti-aliasing: the ones pixelmatch paints
    /// yellow. Always 0 with `includeAA`.
    public var antialiasedPixels: Int
    /// `width × height` of either image.
    public var totalPixels: Int

    /// Counts (px) as pixelmatch returns them.
    public init(differingPixels: Int, antialiasedPixels: Int, totalPixels: Int) {
        self.differingPixels = differingPixels
        self.antialiasedPixels = antialiasedPixels
        self.totalPixels = totalPixels
    }

    /// No pixel differs (anti-aliased pixels do not count).
    public var identical: Bool { differingPixels == 0 }
}

/// Why two images could not be compared.
public enum DiffError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// The images differ in size (px); a failure of its own (docs/snapshot-testing.md, `sizeMismatch`).
    case sizeMismatch(firstWidth: Int, firstHeight: Int, secondWidth: Int, secondHeight: Int)
    /// An option is out of range; the text names it and the accepted range.
    case invalidOption(String)

    /// `N of M px differ`, with the anti-aliased pixels ignored when there are any.
    public var description: String {
        switch self {
        case let .sizeMismatch(w1, h1, w2, h2):
            return "images differ in size: \(w1)×\(h1) px vs \(w2)×\(h2) px"
        case let .invalidOption(text):
            return text
        }
    }

    /// 64: both cases come from what the command line asked for.
    public var exitCode: ExitCode { .usage }
}
