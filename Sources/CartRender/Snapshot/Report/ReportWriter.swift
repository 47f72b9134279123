import CartRenderCore
import CartRenderRaster
import Foundation

/// Writes a report directory: the per-frame images while the run goes, then `report.json`,
/// `junit.xml` and `index.html`.
///
/// Everything goes to a staging directory inside the report directory first (`StagingArea`) and
/// is moved into place together by `finish`, the report files last; frame images an earlier
/// report listed and this one did not rewrite are removed then. A run that fails or is
/// interrupted calls `discard`: the report directory stays as it was, never a mix of two runs.
package final class ReportWriter {
    static let jsonName = "report.json"
    package static let junitName = "junit.xml"
    package static let htmlName = "index.html"

    let directory: OutputDirectory
    private let staging: StagingArea
    private let earlier: [String]
    /// When the run began (the writer is made before the first frame), for `junit.xml`'s
    /// `timestamp`, and on the monotonic clock, for its `time`.
    private let startDate = Date()
    private let start = DispatchTime.now()

    /// Creates the report directory when needed and a staging directory inside it.
    /// - Parameter cancellation: stops `finish` while it waits for the directory lock.
    /// - Throws: `OutputError` when either cannot be created.
    init(path: String, cancellation: RenderCancellation? = nil) throws {
        directory = try OutputDirectory(path: path)
        earlier = Self.filesOfEarlierReport(directory)
        do { staging = try StagingArea(in: directory, cancellation: cancellation) } catch {
            directory.removeCreatedDirectories()
            throw error
        }
    }

    /// Names of the images staged so far: each content is written once.
    private let stored = LockedValue(Set<String>())

    /// Stages the image `name` unless it is staged already; `bytes` is called only then.
    /// Thread-safe: of threads storing one name, one writes it.
    /// - Returns: `name`.
    /// - Throws: what `bytes` throws; `OutputError`.
    @discardableResult
    func store(_ name: String, _ bytes: () throws -> [UInt8]) throws -> String {
        if stored.withLock({ $0.insert(name).inserted }) { try staging.write(try bytes(), to: name) }
        return name
    }

    /// The bytes of the staged image `name` (an expected or actual frame stored by this run).
    /// - Throws: `FileReadError` when it cannot be read.
    func readStored(_ name: String) throws -> [UInt8] {
        try RegularFile.read(name, limit: PNGDecoder.maxFileBytes, in: staging.staging.fd, naming: staging.url(name))
    }

    /// Stages a frame's PNG (an expected or an actual image) under its content's name
    /// (``ReportImage/frame(sha256:)``): byte-identical frames are one file.
    /// - Parameter sha256: the SHA-256 of `bytes` when known (hex).
    /// - Returns: the file's name.
    /// - Throws: `OutputError`.
    func storeFrame(_ bytes: [UInt8], sha256: String? = nil) throws -> String {
        try store(ReportImage.frame(sha256: sha256 ?? Checksum.sha256(bytes))) { bytes }
    }

    /// Stages the failure artifacts of `comparison` (``SnapshotStrategy/artifacts(of:)``: the
    /// diff image) under their content's names (``ReportImage/diff(sha256:)``) and names them in
    /// `frame`. Thread-safe as ``store(_:_:)``.
    /// - Throws: what the artifacts closure throws; `OutputError`.
    func storeArtifacts(of comparison: FrameComparison, using strategy: SnapshotStrategy, to frame: inout FrameResult) throws {
        for artifact in try strategy.artifacts(of: comparison) {
            try store(artifact, to: &frame)
            // The filmstrip's picture of a failing frame: its diff image downscaled, every block
            // with a differing pixel drawn in that pixel's color (a one-pixel difference stays
            // visible), named by the diff image's content like the diff itself.
            if artifact.kind == .diff, let diff = comparison.images?.diff {
                frame.thumbnailFile = try store(ReportThumbnail.fileName(sha256: Checksum.sha256(artifact.bytes))) {
                    try ReportThumbnail.png(marking: diff)
                }
            }
        }
    }

    /// Stages one failure artifact under its content's name and names it in `frame`. A panel is
    /// not stored: the report's page shows the three images itself.
    /// - Throws: `OutputError`.
    func store(_ artifact: ImageDiffing.Artifact, to frame: inout FrameResult) throws {
        switch artifact.kind {
        case .diff: frame.diffFile = try store(ReportImage.diff(sha256: Checksum.sha256(artifact.bytes))) { artifact.bytes }
        case .actual: frame.actualFile = try storeFrame(artifact.bytes)
        case .panel: break
        }
    }

    /// Stages the report files and moves everything into place.
    /// - Parameter lock: the exclusive lock on the report directory when the caller holds it
    ///   already (`verify` with its report inside the baseline directory); nil to take it.
    /// - Throws: `OutputError`; `RenderCancelled` when cancelled while waiting for the lock.
    func finish(_ result: SnapshotResult, holding lock: DirectoryLock? = nil) throws {
        try staging.write(Array(result.json.serialized(pretty: true).utf8), to: Self.jsonName)
        let run = JUnitReport.Run(timestamp: startDate, seconds: FrameResult.seconds(since: start))
        try staging.write(Array(JUnitReport.xml(for: result, run: run).utf8), to: Self.junitName)
        let expected = HTMLReport.relativeDirectory(from: directory.path, to: result.baseline)
        try staging.write(Array(HTMLReport.html(for: result, expectedDirectory: expected).utf8), to: Self.htmlName)
        let images = Self.images(of: result)
        let written = Set(images)
        try staging.moveIntoPlace(images + [Self.jsonName, Self.junitName, Self.htmlName],
                                  removing: earlier.filter { !written.contains($0) }, holding: lock)
    }

    /// The images a result's frames name (expected, actual, diff, thumbnail), each once, in
    /// frame order, then its motion diff (``MotionDiff``).
    static func images(of result: SnapshotResult) -> [String] {
        var seen = Set<String>()
        return (result.frames.flatMap { [$0.expectedFile, $0.actualFile, $0.diffFile, $0.thumbnailFile].compactMap { $0 } }
            + [result.motionDiff?.file].compactMap { $0 })
            .filter { seen.insert($0).inserted }
    }

    /// Rewrites `report.json`, `junit.xml` and `index.html` of the report at `path` from
    /// `result`, whose images are there already, and removes the images `earlier` named that
    /// `result` no longer names, as one commit (`review` accepting one frame: an image another
    /// frame shares stays). `junit.xml`'s times are those of this rewrite (0 s).
    /// - Throws: `OutputError` as ``finish(_:holding:)``; the directory is then as it was.
    package static func rewriteFiles(of result: SnapshotResult, in path: String, replacing earlier: SnapshotResult) throws {
        let kept = Set(images(of: result))
        let removing = images(of: earlier).filter { !kept.contains($0) }
        let directory = try OutputDirectory(path: path)
        let staging = try StagingArea(in: directory)
        do {
            try staging.write(Array(result.json.serialized(pretty: true).utf8), to: jsonName)
            try staging.write(Array(JUnitReport.xml(for: result, run: JUnitReport.Run(timestamp: Date(), seconds: 0)).utf8), to: junitName)
            let expected = HTMLReport.relativeDirectory(from: directory.path, to: result.baseline)
            try staging.write(Array(HTMLReport.html(for: result, expectedDirectory: expected).utf8), to: htmlName)
            try staging.moveIntoPlace([jsonName, junitName, htmlName], removing: removing.filter(isReportImage))
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Removes what this run staged, and the report directory when this run created it.
    func discard() {
        staging.discard()
        directory.removeCreatedDirectories()
    }

    /// Whether `name` is a per-frame image this program writes into reports (also as earlier
    /// versions named them: `frame_NNNN.expected.png`, `.actual`, `.diff`, `.panel`).
    static func isReportImage(_ name: String) -> Bool {
        if ReportThumbnail.isFileName(name) || ReportImage.isFileName(name) || MotionDiff.isFileName(name) { return true }
        guard name.hasPrefix("frame_"), !name.contains("/") else { return false }
        return [".expected.png", ".actual.png", ".diff.png", ".panel.png"].contains { suffix in
            name.hasSuffix(suffix) && FrameResult.index(ofFileName: String(name.dropLast(suffix.count)) + ".png") != nil
        }
    }

    /// Largest earlier `report.json` read to find the images it lists (bytes).
    static let maxEarlierReportBytes = 256 << 20

    /// The frame images listed by a `report.json` already in `directory` (an earlier run's); none
    /// when there is no such regular file (a FIFO is not waited on) or it cannot be parsed.
    static func filesOfEarlierReport(_ directory: OutputDirectory) -> [String] {
        guard let data = try? RegularFile.read(directory.url(jsonName), limit: maxEarlierReportBytes) else { return [] }
        return filesListed(inReport: data) ?? []
    }

    /// The frame images a report's JSON lists (its frames' `files`, its `motionDiff`), when it reads as a report
    /// of cartrender (`"version": 1`, `"command": "verify"` or `"diff"`); nil otherwise.
    static func filesListed(inReport data: [UInt8]) -> [String]? {
        guard let root = try? JSONParser.parse(data), case .object(let top) = root.value,
              top.contains(where: { m in if m.key == "version", case .number(1, _) = m.value.value { return true }; return false }),
              top.contains(where: { m in if m.key == "command", case .string(let c) = m.value.value { return c == "verify" || c == "diff" }; return false })
        else { return nil }
        var names: [String] = []
        func collect(_ node: JSONNode) {
            switch node.value {
            case .object(let members):
                for m in members {
                    if m.key == "motionDiff", case .object(let diff) = m.value.value {
                        for f in diff where f.key == "file" { if case .string(let s) = f.value.value { names.append(s) } }
                    } else if m.key == "files", case .object(let files) = m.value.value {
                        for f in files { if case .string(let s) = f.value.value { names.append(s) } }
                    } else {
                        collect(m.value)
                    }
                }
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        collect(root)
        return names.filter(isReportImage)
    }
}

/// The names of a report's full-size images, from the SHA-256 of their PNG bytes: a frame (an
/// expected or an actual image) is `img_0123456789abcdef.png`, a diff image
/// `diff_0123456789abcdef.png` (16 hex digits, the hash's first 64 bits). The same bytes, one
/// file, however many frames show them; no name is ever a baseline frame's (`frame_NNNN.png`).
enum ReportImage {
    static func frame(sha256: String) -> String { "img_" + sha256.prefix(16) + ".png" }
    static func diff(sha256: String) -> String { "diff_" + sha256.prefix(16) + ".png" }

    static func isFileName(_ name: String) -> Bool {
        for prefix in ["img_", "diff_"] where name.hasPrefix(prefix) && name.hasSuffix(".png") {
            let hex = name.dropFirst(prefix.count).dropLast(4)
            return hex.count == 16 && hex.allSatisfy { $0.isHexDigit && !$0.isUppercase }
        }
        return false
    }
}

/// The thumbnails of a report: a frame downscaled by a whole factor (the mean of each block of
/// pixels, straight alpha weighted by alpha) to at most ``maxWidth`` px wide, as a PNG named by
/// the SHA-256 of the frame's PNG bytes (`thumb_0123456789abcdef.png`): the same frame, the same
/// file and bytes.
enum ReportThumbnail {
    static let maxWidth = 200

    /// The whole factor (≥ 1) that brings an image `width` px wide to at most `maxWidth` px.
    static func factor(width: Int, maxWidth: Int = maxWidth) -> Int { max(1, (width + maxWidth - 1) / maxWidth) }

    static func fileName(sha256: String) -> String { "thumb_" + sha256.prefix(16) + ".png" }

    static func isFileName(_ name: String) -> Bool {
        name.hasPrefix("thumb_") && name.hasSuffix(".png") && name.count == 6 + 16 + 4
            && name.dropFirst(6).dropLast(4).allSatisfy { $0.isHexDigit }
    }

    static func png(of image: RGBAImage) throws -> [UInt8] {
        try PNGEncoder.encode(downscaled(image), compression: .default)
    }

    /// A thumbnail of a diff image (``Pixelmatch``'s: differing and anti-aliased pixels in
    /// color, the rest gray): downscaled as ``downscaled(_:)``, except that a block holding a
    /// colored pixel (red, green or blue not all equal) takes the most saturated one's color, so
    /// that a difference of one pixel still shows. A palette PNG (``PNGEncoder/encodeIndexed(_:)``).
    static func png(marking diff: RGBAImage) throws -> [UInt8] {
        try PNGEncoder.encodeIndexed(downscaledKeepingMarks(diff))
    }

    /// `image` downscaled by the whole factor that makes it at most ``maxWidth`` px wide, in one
    /// pass over the pixels as 32-bit words: a block holding a colored pixel
    /// (red, green and blue not all equal) takes the color of its most saturated one, and a gray
    /// block the mean of its gray (opaque, as a diff image is). The
    /// last column and row of blocks reach the image's edges, so no pixel is left out.
    static func downscaledKeepingMarks(_ image: RGBAImage) -> RGBAImage {
        downscaledKeepingMarks(image, by: factor(width: image.width))
    }

    /// ``downscaledKeepingMarks(_:)`` by the whole factor `f` (≥ 1; 1 returns `image`). The
    /// rows are read once, in order, into one accumulator per block of the row of blocks.
    static func downscaledKeepingMarks(_ image: RGBAImage, by f: Int) -> RGBAImage {
        guard f > 1 else { return image }
        let w = image.width / f, h = image.height / f
        guard w > 0, h > 0 else { return RGBAImage(width: w, height: h, pixels: []) }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        // Per block of the current row of blocks: the sum of the gray, the most saturated
        // colored pixel (its word; -1: none) and its saturation.
        var gray = [Int](repeating: 0, count: w), best = [Int64](repeating: -1, count: w), bestSaturation = [Int](repeating: 0, count: w)
        image.pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            out.withUnsafeMutableBufferPointer { out in
                gray.withUnsafeMutableBufferPointer { gray in
                    best.withUnsafeMutableBufferPointer { best in
                        bestSaturation.withUnsafeMutableBufferPointer { bestSaturation in
                            for y in 0..<h {
                                for x in 0..<w { gray[x] = 0; best[x] = -1; bestSaturation[x] = 0 }
                                let rowEnd = y == h - 1 ? image.height : y * f + f
                                for yy in (y * f)..<rowEnd {
                                    let start = yy * image.width
                                    for x in 0..<w {
                                        let columnEnd = x == w - 1 ? image.width : x * f + f
                                        var g = 0, b = best[x], bs = bestSaturation[x]
                                        for i in (start + x * f)..<(start + columnEnd) {
                                            let v = UInt32(littleEndian: words[i])
                                            g &+= Int(v & 0xFF)
                                            // r == g == b exactly when the word xor itself shifted by a byte
                                            // has its two low bytes zero.
                                            guard (v ^ (v >> 8)) & 0xFFFF != 0 else { continue }
                                            let r = Int(v & 0xFF), gg = Int((v >> 8) & 0xFF), bb = Int((v >> 16) & 0xFF)
                                            let saturation = max(r, gg, bb) - min(r, gg, bb)
                                            if saturation > bs { bs = saturation; b = Int64(v) }
                                        }
                                        gray[x] &+= g; best[x] = b; bestSaturation[x] = bs
                                    }
                                }
                                for x in 0..<w {
                                    let o = (y * w + x) * 4
                                    if best[x] >= 0 {
                                        let v = UInt32(truncatingIfNeeded: best[x])
                                        out[o] = UInt8(v & 0xFF); out[o + 1] = UInt8((v >> 8) & 0xFF)
                                        out[o + 2] = UInt8((v >> 16) & 0xFF); out[o + 3] = UInt8(v >> 24)
                                    } else {
                                        let n = (rowEnd - y * f) * ((x == w - 1 ? image.width : x * f + f) - x * f)
                                        let mean = UInt8((gray[x] + n / 2) / n)
                                        out[o] = mean; out[o + 1] = mean; out[o + 2] = mean; out[o + 3] = 255
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }

    static func downscaled(_ image: RGBAImage) -> RGBAImage {
        downscaled(image, by: factor(width: image.width))
    }

    /// `image` downscaled by the whole factor `f` (≥ 1; 1 returns `image`): each `f × f` block
    /// becomes its mean, straight alpha weighted by alpha; the columns and rows past the last
    /// whole block are left out. The rows are read once, in order, into one accumulator per
    /// block of the row of blocks.
    static func downscaled(_ image: RGBAImage, by f: Int) -> RGBAImage {
        guard f > 1 else { return image }
        let w = image.width / f, h = image.height / f
        guard w > 0, h > 0 else { return RGBAImage(width: w, height: h, pixels: []) }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        // r, g, b (weighted by alpha) and alpha sums of each block of the row of blocks.
        var sums = [Int](repeating: 0, count: w * 4)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { out in
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in 0..<h {
                        for k in 0..<(w * 4) { sums[k] = 0 }
                        for yy in (y * f)..<(y * f + f) {
                            var i = yy * image.width * 4
                            for x in 0..<w {
                                var r = 0, g = 0, b = 0, a = 0
                                for _ in 0..<f {
                                    let alpha = Int(src[i + 3])
                                    r += Int(src[i]) * alpha; g += Int(src[i + 1]) * alpha; b += Int(src[i + 2]) * alpha; a += alpha
                                    i += 4
                                }
                                sums[x * 4] += r; sums[x * 4 + 1] += g; sums[x * 4 + 2] += b; sums[x * 4 + 3] += a
                            }
                        }
                        for x in 0..<w {
                            let o = (y * w + x) * 4, a = sums[x * 4 + 3]
                            if a > 0 {
                                out[o] = UInt8((sums[x * 4] + a / 2) / a); out[o + 1] = UInt8((sums[x * 4 + 1] + a / 2) / a)
                                out[o + 2] = UInt8((sums[x * 4 + 2] + a / 2) / a)
                                out[o + 3] = UInt8((a + f * f / 2) / (f * f))
                            }
                        }
                    }
                }
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }
}
