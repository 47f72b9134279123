@testable import CartRenderRaster
import XCTest

/// The global palette's remapping threads: every image is counted once, and each thread's
/// libimagequant result is rebuilt from the palette alone, entry for entry.
final class GIFGlobalPaletteTests: XCTestCase {
    /// The changed rectangles of the UI animation, as the encoder would add them.
    private func images() -> [RGBAImage] { Array(UIAnimationFixture.frames.prefix(20)) }

    private func palette(threads: Int) throws -> GIFGlobalPalette {
        let palette = try GIFGlobalPalette(options: GIFOptions(), threads: threads)
        for (i, image) in images().enumerated() {
            palette.add(rgba: image.pixels, width: image.width, height: image.height, frameIndex: i)
        }
        XCTAssertTrue(try palette.quantize())
        return palette
    }

    /// Each thread gets a rebuilt result (no fallback to the palette's own result on one thread),
    /// and the same image comes out the same on every thread and with any thread count.
    func testEveryThreadRemapsToTheSameIndicesWithARebuiltResult() throws {
        let one = try palette(threads: 1)
        XCTAssertEqual(one.remappingThreads, 1)
        for threads in [2, 3] {
            let many = try palette(threads: threads)
            XCTAssertEqual(many.remappingThreads, threads, "libimagequant rebuilt the palette for every thread")
            XCTAssertEqual(many.colors, one.colors)
            XCTAssertEqual(many.transparentIndex, one.transparentIndex)
            for (i, image) in images().enumerated() where i % 5 == 3 {
                let reference = try one.remap(rgba: image.pixels, width: image.width, height: image.height, frameIndex: i)
                for thread in 0..<threads {
                    let remapped = try many.remap(rgba: image.pixels, width: image.width, height: image.height, frameIndex: i, thread: thread)
                    XCTAssertEqual(remapped.pixels, reference.pixels, "image \(i), thread \(thread) of \(threads)")
                    XCTAssertEqual(remapped.error, reference.error, "image \(i), thread \(thread) of \(threads)")
                }
            }
        }
    }

    /// Remapping dithers against the colors the file shows: an image made only of palette colors
    /// comes back exactly, index for index, with no error.
    func testAnImageOfPaletteColorsRemapsExactly() throws {
        let palette = try palette(threads: 2)
        let entries = (0..<palette.colors.count / 3).filter { $0 != palette.transparentIndex }
        XCTAssertGreaterThan(entries.count, 8)
        let width = 16, height = 8
        var pixels: [UInt8] = []
        var expected: [UInt8] = []
        for p in 0..<width * height {
            let entry = entries[(p * 7) % entries.count]
            pixels += palette.colors[entry * 3..<entry * 3 + 3] + [255]
            expected.append(UInt8(entry))
        }
        for thread in 0..<2 {
            let remapped = try palette.remap(rgba: pixels, width: width, height: height, frameIndex: 1, thread: thread)
            XCTAssertEqual(remapped.error, 0, "thread \(thread)")
            let shown = remapped.pixels.indices.map { Int($0) }.map { Array(palette.colors[$0 * 3..<$0 * 3 + 3]) }
            XCTAssertEqual(shown, expected.map { Array(palette.colors[Int($0) * 3..<Int($0) * 3 + 3]) }, "thread \(thread)")
        }
    }
}
