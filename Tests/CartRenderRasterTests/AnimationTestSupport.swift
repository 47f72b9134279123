import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// The UI animation at half the 1x size (197 × 426 px): 60 frames at 60 fps, encoded once and
/// shared by the tests that only read it.
enum UIAnimationFixture {
    static let animation = SyntheticAnimation(scale: 0.5)
    static let frames: [RGBAImage] = (0..<animation.frameCount).map(animation.frame)

    /// - Parameter changedRows: with each frame, the rows handed as changed (`add(_:changedRows:)`); nil: `add(_:)`.
    static func encodeGIF(_ options: GIFOptions = GIFOptions(), frames: [RGBAImage] = frames, fps: Int = 60, jobs: Int = 1,
                          changedRows: [[Range<Int>]?]? = nil) throws -> (bytes: [UInt8], summary: GIFSummary) {
        let encoder = try GIFEncoder(width: frames[0].width, height: frames[0].height, fps: fps, options: options, jobs: jobs)
        for (i, frame) in frames.enumerated() {
            if let changedRows { try encoder.add(frame, changedRows: changedRows[i]) } else { try encoder.add(frame) }
        }
        let summary = try encoder.finish()
        return (encoder.encodedBytes, summary)
    }

    /// - Parameter changedRows: as for `encodeGIF`.
    static func encodeWebP(_ options: WebPOptions = WebPOptions(), frames: [RGBAImage] = frames, fps: Int = 60, jobs: Int = 1,
                           changedRows: [[Range<Int>]?]? = nil) throws -> (bytes: [UInt8], summary: WebPSummary) {
        let encoder = try WebPEncoder(width: frames[0].width, height: frames[0].height, fps: fps, options: options, jobs: jobs)
        for (i, frame) in frames.enumerated() {
            if let changedRows { try encoder.add(frame, changedRows: changedRows[i]) } else { try encoder.add(frame) }
        }
        let summary = try encoder.finish()
        return (encoder.encodedBytes, summary)
    }

    /// For each of `frames`, the rows (px, one range a row) that differ from the frame before
    /// (nil for the first), and the same rows grown by 3 px each way: two ways of handing
    /// `add(_:changedRows:)` what changed.
    static func changedRows(_ frames: [RGBAImage]) -> (exact: [[Range<Int>]?], grown: [[Range<Int>]?]) {
        let rowBytes = frames[0].width * 4, height = frames[0].height
        let exact: [[Range<Int>]?] = [nil] + zip(frames, frames.dropFirst()).map { before, frame in
            (0..<height).filter { y in frame.pixels[y * rowBytes..<(y + 1) * rowBytes] != before.pixels[y * rowBytes..<(y + 1) * rowBytes] }
                .map { $0..<$0 + 1 }
        }
        return (exact, exact.map { rows in rows.map { $0.map { max(0, $0.lowerBound - 3)..<$0.upperBound + 3 } } })
    }

    static let defaultGIF: Result<(bytes: [UInt8], summary: GIFSummary), Error> = Result { try encodeGIF() }
    static let perFramePaletteGIF: Result<(bytes: [UInt8], summary: GIFSummary), Error> = Result { try encodeGIF(GIFOptions(palette: .perFrame)) }
    static let sharedPaletteGIF: Result<(bytes: [UInt8], summary: GIFSummary), Error> = Result { try encodeGIF(GIFOptions(palette: .shared)) }
}

/// A `width × height` image filled with one color.
func solidImage(width: Int, height: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) -> RGBAImage {
    RGBAImage(width: width, height: height, pixels: Array((0..<(width * height)).map { _ in [r, g, b, a] }.joined()))
}

/// `image` with the pixel at (x, y) set.
func setting(_ image: RGBAImage, x: Int, y: Int, to color: [UInt8]) -> RGBAImage {
    var copy = image
    let o = (y * image.width + x) * 4
    copy.pixels.replaceSubrange(o..<(o + 4), with: color)
    return copy
}

/// Asserts that `decoded` is a faithful picture of `sources[index]`: mean SSIM at least `floor`,
/// and more similar to it than to any *different* source frame within `neighbourhood` frames
/// (neighbouring frames of the UI animation are 0.976 … 0.999 alike, so the floor alone could
/// not catch a frame shown at the wrong time).
func assertStandsFor(_ decoded: RGBAImage, sources: [RGBAImage], index: Int, floor: Double, neighbourhood: Int = 2,
                     _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    let own = ImageSimilarity.meanSSIM(decoded, sources[index])
    XCTAssertGreaterThanOrEqual(own, floor, "\(message): SSIM against source frame \(index)", file: file, line: line)
    for other in max(0, index - neighbourhood)...min(sources.count - 1, index + neighbourhood)
    where other != index && sources[other] != sources[index] {
        let theirs = ImageSimilarity.meanSSIM(decoded, sources[other])
        XCTAssertGreaterThan(own, theirs, "\(message): closer to source frame \(other) than to its own frame \(index)", file: file, line: line)
    }
}

/// A fresh empty directory under the system's temporary directory.
func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "cartrender-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
