import CartRender
import CartRenderCore
import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// The bench's naive route writes the same pixels as the pipeline, through Cairo's PNG writer.
final class CairoPNGBaselineTests: XCTestCase {
    func testCairoWritesTheFramePixels() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(scale: 1), baseDirectory: "/")
        let worker = try Renderer(scene: scene).makeWorker()
        let dir = tempDir()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/frame.png"
        let display = worker.frame(at: 0.6).display
        try worker.drawAndWriteWithCairoPNG(display, to: path)
        // Cairo divides by alpha with the same rounding as cr_rows_to_rgba.
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: path), try worker.rasterize(display))
        XCTAssertThrowsError(try worker.drawAndWriteWithCairoPNG(display, to: dir + "/no/such/dir/frame.png")) { error in
            XCTAssertEqual((error as? RasterError)?.message,
                           "cairo_surface_write_to_png failed for \(dir)/no/such/dir/frame.png: error while writing to output stream")
        }
    }
}
