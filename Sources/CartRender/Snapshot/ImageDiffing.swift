import CartRenderRaster

/// How two images are compared and what a comparison that fails leaves behind: the one image
/// comparison of `verify`, `diff` and the golden tests, shaped like swift-snapshot-testing's
/// `Diffing<Value>` (to data, from data, diff, artifacts).
///
/// ``pixelmatch(_:)`` is the strategy they all use. Its comparison is swift-snapshot-testing's
/// image strategy: equal file bytes pass without decoding; else both images are decoded, sizes
/// are checked, equal pixels pass, and only then does pixelmatch run with the options' threshold,
/// anti-aliasing, limits and masks. A frame that fails leaves its diff image, a palette PNG
/// (``PNGEncoder/encodeIndexed(_:)``). ``panel(_:)`` puts `expected | diff | actual` side by side
/// in one image (as resvg's golden tests write) for outputs that are files alone; a report's
/// page shows the three images itself.
///
/// ```swift
/// let diffing = ImageDiffing.pixelmatch(ComparisonOptions(maxDiffRatio: 0.0005))
/// let comparison = try diffing.compare(expected: goldenPNG, actual: framePNG, keepImages: true)
/// for artifact in try diffing.artifacts(comparison) {
///     try write(artifact.bytes, to: "frame_0042" + artifact.suffix)   // .diff.png
/// }
/// ```
public struct ImageDiffing: Sendable {
    /// An image as file bytes (PNG).
    public var toData: @Sendable (RGBAImage) throws -> [UInt8]
    /// File bytes as an image; the path, when known, names the file in errors.
    public var fromData: @Sendable (_ bytes: [UInt8], _ path: String?) throws -> RGBAImage
    /// Compares two decoded images: status, counts and sizes, plus the images and the diff image
    /// that ``KeptImages`` asks for.
    public var diff: @Sendable (_ expected: RGBAImage, _ actual: RGBAImage, _ keeping: KeptImages) throws -> FrameComparison
    /// The files a comparison that did not pass leaves beside its frame; none for one that passed
    /// or that kept no images.
    public var artifacts: @Sendable (FrameComparison) throws -> [Artifact]

    /// A strategy of these four steps.
    public init(toData: @escaping @Sendable (RGBAImage) throws -> [UInt8],
                fromData: @escaping @Sendable (_ bytes: [UInt8], _ path: String?) throws -> RGBAImage,
                diff: @escaping @Sendable (_ expected: RGBAImage, _ actual: RGBAImage, _ keeping: KeptImages) throws -> FrameComparison,
                artifacts: @escaping @Sendable (FrameComparison) throws -> [Artifact]) {
        self.toData = toData
        self.fromData = fromData
        self.diff = diff
        self.artifacts = artifacts
    }

    /// Which images a comparison keeps in ``FrameComparison/images``.
    public enum KeptImages: Sendable {
        /// None: the status, counts and sizes only.
        case none
        /// The two images and the diff image of a comparison that does not pass.
        case whenFailing
        /// The two images and the diff image whatever the outcome, both files decoded even when
        /// their bytes are equal (`diff A.png B.png --out DIFF.png` always draws the diff image).
        case always
    }

    /// A file made by a failed comparison.
    public struct Artifact: Equatable, Sendable {
        /// Which image an artifact is.
        public enum Kind: String, Sendable, CaseIterable {
            /// pixelmatch's diff image: differing pixels red, anti-aliased ones yellow, the rest
            /// the expected image's luma faded to gray.
            case diff
            /// The actual image (``SnapshotStrategy/check(_:reference:artifactsDirectory:name:)``).
            case actual
            /// `expected | diff | actual` side by side (``SnapshotStrategy/panels``).
            case panel
        }
        /// Which image it is.
        public var kind: Kind
        /// PNG bytes.
        public var bytes: [UInt8]

        /// An artifact of `kind` with its PNG bytes.
        public init(kind: Kind, bytes: [UInt8]) { self.kind = kind; self.bytes = bytes }

        /// What a frame's file name stem gets: `.diff.png`, `.actual.png`, `.panel.png`.
        public var suffix: String { "." + kind.rawValue + ".png" }
    }
}

extension ImageDiffing {
    /// Compares the file bytes of an expected image with those of an actual one: equal bytes pass
    /// without decoding; otherwise both are decoded (`actualImage` stands for `actual` when it is
    /// at hand) and compared with ``diff``.
    ///
    /// - Parameters:
    ///   - expected: the expected (baseline, golden) file's bytes.
    ///   - actual: the actual image's file bytes.
    ///   - actualImage: the actual image's pixels when already at hand (a fresh render).
    ///   - keepImages: keep the images and the diff image of a comparison that does not pass.
    ///   - expectedPath, actualPath: file names for error messages.
    /// - Throws: what ``fromData`` throws (``ImageDecodingError`` naming the file for
    ///   ``pixelmatch(_:)``), and what ``diff`` throws.
    /// - Complexity: O(bytes) when the bytes are equal; O(width × height) otherwise.
    public func compare(expected: [UInt8], actual: [UInt8], actualImage: RGBAImage? = nil, keepImages: Bool = false,
                        expectedPath: String? = nil, actualPath: String? = nil) throws -> FrameComparison {
        try compare(expected: expected, actual: actual, actualImage: actualImage, keeping: keepImages ? .whenFailing : .none,
                    expectedPath: expectedPath, actualPath: actualPath)
    }

    /// Compares file bytes like ``compare(expected:actual:actualImage:keepImages:expectedPath:actualPath:)``,
    /// keeping the images `keeping` asks for; with ``KeptImages/always`` equal bytes are decoded
    /// and compared too.
    /// - Throws: as ``compare(expected:actual:actualImage:keepImages:expectedPath:actualPath:)``.
    public func compare(expected: [UInt8], actual: [UInt8], actualImage: RGBAImage? = nil, keeping: KeptImages,
                        expectedPath: String? = nil, actualPath: String? = nil) throws -> FrameComparison {
        if keeping != .always, bytesEqual(expected, actual), let size = PNGHeader.size(of: actual) ?? actualImage.map({ PixelSize(width: $0.width, height: $0.height) }) {
            return FrameComparison(status: .pass,
                                   result: DiffResult(differingPixels: 0, antialiasedPixels: 0, totalPixels: size.pixelCount),
                                   byteEqual: true, expectedSize: size, actualSize: size, images: nil)
        }
        let expectedImage = try fromData(expected, expectedPath)
        let actualImage = try actualImage ?? fromData(actual, actualPath)
        return try diff(expectedImage, actualImage, keeping)
    }

    /// Compares two decoded images with ``diff``.
    /// - Parameter keepImages: keep the images and the diff image of a comparison that does not pass.
    /// - Throws: what ``diff`` throws.
    public func compare(_ expected: RGBAImage, _ actual: RGBAImage, keepImages: Bool = false) throws -> FrameComparison {
        try diff(expected, actual, keepImages ? .whenFailing : .none)
    }

    /// The comparison of `verify`, `diff` and the goldens: PNG files (``PNGDecoder``; written
    /// with `compression`), pixelmatch 7.1 with `options` (docs/snapshot-testing.md), and a diff
    /// image, as a palette PNG, for a frame that fails with the same size on both sides (a size
    /// mismatch has no diff, hence no artifacts).
    /// - Parameters:
    ///   - options: threshold, anti-aliasing, limits and masks (px).
    ///   - compression: PNG setting of ``toData``. Default `.fast`: its images are written only
    ///     for failing frames and read by people.
    /// - Note: ``diff`` throws ``DiffError/invalidOption(_:)`` for options out of range.
    public static func pixelmatch(_ options: ComparisonOptions, compression: PNGEncoder.Compression = .fast) -> ImageDiffing {
        ImageDiffing(
            toData: { try PNGEncoder.encode($0, compression: compression) },
            fromData: { bytes, path in
                do { return try PNGDecoder.decode(bytes) } catch let e as ImageDecodingError {
                    throw ImageDecodingError(kind: e.kind, message: e.message, path: path ?? e.path)
                }
            },
            diff: { expected, actual, keeping in
                let es = PixelSize(width: expected.width, height: expected.height)
                let asz = PixelSize(width: actual.width, height: actual.height)
                guard es == asz else {
                    return FrameComparison(status: .sizeMismatch, result: nil, byteEqual: false, expectedSize: es, actualSize: asz,
                                           images: keeping != .none ? (expected, actual, nil) : nil)
                }
                if keeping != .always, bytesEqual(expected.pixels, actual.pixels) {
                    return FrameComparison(status: .pass, result: DiffResult(differingPixels: 0, antialiasedPixels: 0, totalPixels: es.pixelCount),
                                           byteEqual: false, expectedSize: es, actualSize: asz, images: nil)
                }
                // One pass that also draws the diff image: cheaper than counting first and drawing
                // again for the frames that fail, and the image is dropped when the frame passes.
                if keeping != .none {
                    let (result, diff) = try Pixelmatch.diff(expected, actual, options: options.pixelmatch, mask: options.masks)
                    let pass = options.accepts(result)
                    return FrameComparison(status: pass ? .pass : .fail, result: result, byteEqual: false, expectedSize: es, actualSize: asz,
                                           images: pass && keeping != .always ? nil : (expected, actual, diff))
                }
                let result = try Pixelmatch.compare(expected, actual, options: options.pixelmatch, mask: options.masks)
                return FrameComparison(status: options.accepts(result) ? .pass : .fail, result: result, byteEqual: false,
                                       expectedSize: es, actualSize: asz, images: nil)
            },
            artifacts: { comparison in
                guard comparison.status != .pass, let images = comparison.images, let diff = images.diff else { return [] }
                return [Artifact(kind: .diff, bytes: try PNGEncoder.encodeIndexed(diff))]
            }
        )
    }

    /// Images of one size side by side, left to right, without gaps: `images.count × width` px
    /// wide, as tall as they are. Pixels are copied as they are (straight alpha).
    /// - Precondition: at least one image; all of the same size.
    public static func panel(_ images: RGBAImage...) -> RGBAImage {
        precondition(!images.isEmpty, "ImageDiffing.panel: no images")
        let width = images[0].width, height = images[0].height
        precondition(images.allSatisfy { $0.width == width && $0.height == height },
                     "ImageDiffing.panel: images of different sizes cannot be put side by side")
        return panel(images, width: width, height: height)
    }

    /// Gray (RGBA), the colour of a slot of ``panel(_:width:height:gap:)`` without an image.
    public static let emptySlot: [UInt8] = [204, 204, 204, 255]

    /// Images side by side, left to right, each in a slot of `width × height` px (cut or padded
    /// with white at the right and bottom), `gap` px of white between slots; a nil image is a
    /// slot of ``emptySlot`` gray. `images.count × width + (images.count − 1) × gap` px wide,
    /// `height` px tall. Pixels are copied as they are (straight alpha).
    /// - Precondition: at least one slot; `width`, `height`, `gap` ≥ 0.
    public static func panel(_ images: [RGBAImage?], width: Int, height: Int, gap: Int = 0) -> RGBAImage {
        precondition(!images.isEmpty && width >= 0 && height >= 0 && gap >= 0, "ImageDiffing.panel: no slots, or a negative size")
        let total = images.count * width + (images.count - 1) * gap
        var pixels = [UInt8](repeating: 255, count: total * height * 4)
        for (p, image) in images.enumerated() {
            let left = p * (width + gap)
            for y in 0..<height {
                let row = (y * total + left) * 4
                guard let image else {
                    for x in 0..<width { pixels.replaceSubrange((row + x * 4)..<(row + x * 4 + 4), with: emptySlot) }
                    continue
                }
                guard y < image.height else { continue }
                let n = min(width, image.width) * 4
                pixels.replaceSubrange(row..<(row + n), with: image.pixels[(y * image.width * 4)..<(y * image.width * 4 + n)])
            }
        }
        return RGBAImage(width: total, height: height, pixels: pixels)
    }
}
