import CartRender
import CartRenderCore
@testable import CartRenderRaster
import XCTest

/// SVG frames, drawn by another renderer (librsvg), look like the PNG frames.
final class SVGFrameTests: XCTestCase {
    func testSVGFramesMatchPNGFramesWhenRenderedByLibrsvg() throws {
        for (scheme, t) in [(ColorScheme.light, 0.6), (.light, 1.2), (.dark, 0.75)] {
            let scene = try DefaultScene.scene(overrides: SceneOverrides(scale: 2, colorScheme: scheme), baseDirectory: "/")
            let r = try Renderer(scene: scene)
            let w = try r.makeWorker()
            let display = w.frame(at: t).display
            let png = try w.rasterize(display)
            let svg = try SVGDocument.rasterize(try w.svg(display), width: png.width, height: png.height, scale: 2)
            let result = try Pixelmatch.compare(png, svg)
            // Glyph edges are anti-aliased differently (outlines vs FreeType); everything else matches.
            XCTAssertLessThan(Double(result.differingPixels) / Double(result.totalPixels), 0.002, "\(scheme) at \(t) s: \(result)")
        }
    }
}
