import CartRenderCore
import CartRenderRaster
import Foundation

/// The outcome of one frame in `verify` and `diff` (docs/snapshot-testing.md, “When a frame
/// fails”), spelled as in their JSON.
public enum FrameStatus: String, Sendable, CaseIterable {
    /// The frames match within the tolerance (anti-aliasing and masked pixels never count).
    case pass
    /// More pixels differ than the tolerance allows.
    case fail
    /// There is no baseline frame for a rendered frame (or, for `diff A B`, a frame of B is not in A).
    case missing
    /// The baseline has a frame that the render does not make (for `diff A B`, a frame of A not in B).
    case extra
    /// The two frames differ in size (px); no pixel is compared.
    case sizeMismatch
}

/// A size in pixels.
public struct PixelSize: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Width (px).
    public var width: Int
    /// Height (px).
    public var height: Int
    /// A size of `width × height` px.
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    /// `width × height`.
    public var pixelCount: Int { width * height }
    /// `1179×2556`
    public var description: String { "\(width)×\(height)" }
}

/// How frames are compared and when a frame fails (docs/snapshot-testing.md, “When a frame fails”).
///
/// A pixel differs when its pixelmatch 7.1 YIQ distance exceeds `35215 · threshold²` and it is
/// neither anti-aliasing (unless ``includeAA``) nor inside a mask. A frame fails when its
/// differing pixels exceed ``maxDiffPixels``, or their share of all pixels exceeds
/// ``maxDiffRatio``.
public struct ComparisonOptions: Equatable, Sendable {
    /// Color distance threshold, 0 … 1 (0 = exact, 1 = black vs white); pixelmatch's and
    /// Playwright's scale. Default 0.1.
    public var threshold: Double
    /// Count anti-aliased pixels as differences (pixelmatch's `includeAA`). Default `false`.
    public var includeAA: Bool
    /// Most differing pixels (px) a frame may have and pass. `nil` means 0 unless
    /// ``maxDiffRatio`` is set, and no pixel limit when it is.
    public var maxDiffPixels: Int?
    /// Largest share (0 … 1) of the frame's pixels that may differ. `nil`: no ratio limit.
    public var maxDiffRatio: Double?
    /// Ignored regions in **pixels** of the compared images. Use ``pixelMasks(points:scale:)``
    /// to convert rectangles given in points.
    public var masks: [PixelRect]

    /// Options of a comparison; the defaults are pixelmatch's threshold 0.1, anti-aliasing detected, no limits, no masks.
    public init(threshold: Double = 0.1, includeAA: Bool = false, maxDiffPixels: Int? = nil,
                maxDiffRatio: Double? = nil, masks: [PixelRect] = []) {
        self.threshold = threshold
        self.includeAA = includeAA
        self.maxDiffPixels = maxDiffPixels
        self.maxDiffRatio = maxDiffRatio
        self.masks = masks
    }

    /// The pixelmatch options these stand for (default diff colors: red, yellow, faded gray).
    public var pixelmatch: PixelmatchOptions { PixelmatchOptions(threshold: threshold, includeAA: includeAA) }

    /// Checks the ranges.
    /// - Throws: ``DiffError/invalidOption(_:)`` naming the option.
    public func validate() throws {
        guard threshold.isFinite, (0...1).contains(threshold) else {
            throw DiffError.invalidOption("threshold must be from 0 to 1 (0 = exact, 1 = black vs white), not \(threshold)")
        }
        if let n = maxDiffPixels, n < 0 { throw DiffError.invalidOption("the most differing pixels must be ≥ 0, not \(n)") }
        if let r = maxDiffRatio, !(r.isFinite && (0...1).contains(r)) {
            throw DiffError.invalidOption("the largest differing ratio must be from 0 to 1, not \(r)")
        }
    }

    /// Whether a frame with these counts passes: differing pixels ≤ ``maxDiffPixels`` (0 when
    /// neither limit is set) and differing / total ≤ ``maxDiffRatio``. When both are set, both must hold.
    public func accepts(_ result: DiffResult) -> Bool {
        let pixelLimit = maxDiffPixels ?? (maxDiffRatio == nil ? 0 : Int.max)
        guard result.differingPixels <= pixelLimit else { return false }
        if let ratio = maxDiffRatio, result.totalPixels > 0 {
            return Double(result.differingPixels) / Double(result.totalPixels) <= ratio
        }
        return true
    }

    /// Converts rectangles in points to the pixel rectangles that cover them at `scale`
    /// (px per pt): edges are rounded outwards, so every pixel a rectangle touches is masked.
    public static func pixelMasks(points: [Rect], scale: Double) -> [PixelRect] {
        points.map { r in
            let x0 = Int((r.x * scale + 1e-9).rounded(.down))
            let y0 = Int((r.y * scale + 1e-9).rounded(.down))
            let x1 = Int(((r.x + r.width) * scale - 1e-9).rounded(.up))
            let y1 = Int(((r.y + r.height) * scale - 1e-9).rounded(.up))
            return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
        }
    }
}

/// The comparison of one expected (baseline) frame with one actual frame, as made by an
/// ``ImageDiffing`` (``ImageDiffing/pixelmatch(_:compression:)`` for `verify`, `diff` and the goldens).
public struct FrameComparison: Sendable {
    /// `pass`, `fail` or `sizeMismatch`.
    public var status: FrameStatus
    /// The counts; `nil` on a size mismatch.
    public var result: DiffResult?
    /// The two files had the same bytes and were not decoded.
    public var byteEqual: Bool
    /// Sizes of the expected and actual images (px).
    public var expectedSize: PixelSize
    /// Size of the actual image (px).
    public var actualSize: PixelSize
    /// For frames that did not pass, when asked for (for every frame with
    /// ``ImageDiffing/KeptImages/always``): the decoded images and pixelmatch's diff
    /// image (differing pixels red, anti-aliased yellow, the rest the expected image's luma
    /// faded to gray); `diff` is nil on a size mismatch.
    public var images: (expected: RGBAImage, actual: RGBAImage, diff: RGBAImage?)?

    /// A comparison's outcome, as an ``ImageDiffing`` makes it.
    public init(status: FrameStatus, result: DiffResult?, byteEqual: Bool, expectedSize: PixelSize, actualSize: PixelSize,
                images: (expected: RGBAImage, actual: RGBAImage, diff: RGBAImage?)?) {
        self.status = status
        self.result = result
        self.byteEqual = byteEqual
        self.expectedSize = expectedSize
        self.actualSize = actualSize
        self.images = images
    }

    /// The comparison without its images (the counts, sizes and status alone).
    var withoutImages: FrameComparison {
        var c = self
        c.images = nil
        return c
    }

    /// Compares the PNG bytes of an expected frame with an actual frame through
    /// ``ImageDiffing/pixelmatch(_:compression:)``: equal PNG bytes pass without decoding; else
    /// both are decoded, sizes are checked, equal pixels pass, and only then does pixelmatch run.
    ///
    /// - Parameters:
    ///   - expected: the baseline PNG file's bytes.
    ///   - actual: the actual frame's PNG bytes.
    ///   - actualImage: the actual frame's pixels when already at hand (a fresh render); decoded
    ///     from `actual` otherwise.
    ///   - options: threshold, anti-aliasing, limits and masks (px).
    ///   - keepImages: return the images and the diff image of a frame that does not pass.
    ///   - expectedPath, actualPath: file names for error messages.
    /// - Throws: ``ImageDecodingError`` naming the file when either PNG cannot be decoded.
    /// - Complexity: O(bytes) when the bytes are equal; O(width × height) otherwise.
    public static func compare(expected: [UInt8], actual: [UInt8], actualImage: RGBAImage? = nil,
                               options: ComparisonOptions, keepImages: Bool = false,
                               expectedPath: String? = nil, actualPath: String? = nil) throws -> FrameComparison {
        try ImageDiffing.pixelmatch(options).compare(expected: expected, actual: actual, actualImage: actualImage, keepImages: keepImages,
                                                     expectedPath: expectedPath, actualPath: actualPath)
    }

    /// Compares two decoded images (see ``compare(expected:actual:actualImage:options:keepImages:expectedPath:actualPath:)``).
    /// - Throws: ``DiffError/invalidOption(_:)`` for options out of range.
    public static func compare(_ expected: RGBAImage, _ actual: RGBAImage, options: ComparisonOptions,
                               keepImages: Bool = false) throws -> FrameComparison {
        try ImageDiffing.pixelmatch(options).compare(expected, actual, keepImages: keepImages)
    }
}

/// Reads a PNG's size from its `IHDR` chunk without decoding it.
enum PNGHeader {
    /// The width and height (px) of PNG data, or nil when it does not start like a PNG.
    static func size(of bytes: [UInt8]) -> PixelSize? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature,
              bytes[12] == 0x49, bytes[13] == 0x48, bytes[14] == 0x44, bytes[15] == 0x52 else { return nil }
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { ($0 << 8) | Int(bytes[at + $1]) } }
        return PixelSize(width: u32(16), height: u32(20))
    }
}

/// Byte equality through `memcmp`.
@inline(__always)
func bytesEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in
        a.isEmpty || memcmp(pa.baseAddress!, pb.baseAddress!, a.count) == 0
    } }
}
