import CCairo
@testable import CartRenderRaster
import XCTest

final class CairoImageSurfaceTests: XCTestCase {
    func testASurfaceCairoCannotCreateNamesTheSizeAndTheCause() {
        let invalidSize = "invalid value (typically too big) for the size of the input (surface, pattern, etc.)"
        for (width, height) in [(40_000, 10), (-1, 10)] {
            XCTAssertThrowsError(try CairoImageSurface(width: width, height: height)) { error in
                XCTAssertEqual(error as? RasterError,
                               RasterError(.library, "Cairo cannot create a \(width)×\(height) px image surface: \(invalidSize)"))
            }
        }
    }

    func testAFailureWhileDrawingIsReported() throws {
        let surface = try CairoImageSurface(width: 4, height: 3)
        XCTAssertThrowsError(try surface.draw("drawing a test") { cr in cairo_restore(cr) }) { error in
            XCTAssertEqual(error as? RasterError, RasterError(.library,
                "Cairo failed while drawing a test on a 4×3 px image surface: cairo_restore() without matching cairo_save()"))
        }
        // A surface in an error state fails every later check.
        cairo_surface_finish(surface.pointer)
        cairo_surface_mark_dirty(surface.pointer)
        XCTAssertThrowsError(try surface.checkAfterDrawing("marking pixels")) { error in
            XCTAssertEqual(error as? RasterError, RasterError(.library,
                "Cairo failed while marking pixels on a 4×3 px image surface: the target surface has been finished"))
        }
    }

    func testDrawingAndCopyingPixels() throws {
        let surface = try CairoImageSurface(width: 3, height: 2)
        XCTAssertEqual(surface.image, RGBAImage(width: 3, height: 2), "a new surface is transparent")
        try surface.draw("filling") { cr in
            cairo_set_source_rgba(cr, 1, 0, 0, 0.5)
            cairo_paint(cr)
        }
        XCTAssertTrue(surface.image[2, 1] == (255, 0, 0, 128))

        // Straight RGBA in, premultiplied in the surface, the same straight RGBA out where opaque.
        let image = RGBAImage(width: 2, height: 1, pixels: [10, 20, 30, 255, 200, 100, 0, 255])
        XCTAssertEqual(try CairoImageSurface.copying(image).image, image)
    }
}
