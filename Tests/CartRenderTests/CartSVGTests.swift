import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// SVG frames of the cart page must show what PNG frames show: each SVG frame is drawn back
/// through librsvg at scale 1 and compared with the PNG frame of the same moment. Text is left
/// out of both (glyph outlines in SVG anti-alias differently from Pango's own drawing), so the
/// comparison is of shapes, gradients, images and symbols, which must land on the same pixels.
final class CartSVGTests: XCTestCase {
    private func withoutText(_ items: [DisplayItem]) -> [DisplayItem] {
        items.compactMap { item in
            switch item {
            case .text: return nil
            case .group(let t, let o, let c, let children): return .group(transform: t, opacity: o, clip: c, items: withoutText(children))
            default: return item
            }
        }
    }

    private func compareSVGWithPNG(_ example: String, at t: Double, file: StaticString = #filePath, line: UInt = #line) throws -> DiffResult {
        let path = CartGoldenTests.examples.appendingPathComponent(example).path
        let scene = try SceneDecoder.load(path: path, overrides: SceneOverrides(scale: 1))
        let renderer = try Renderer(scene: scene)
        let worker = try renderer.makeWorker()
        var display = worker.frame(at: t).display
        display.items = withoutText(display.items)
        let png = try worker.rasterize(display)

        let svgURL = FileManager.default.temporaryDirectory.appendingPathComponent("cartrender-svg-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: svgURL) }
        try Data(worker.svg(display)).write(to: svgURL)
        let source = ImageSource.file(svgURL.path)
        let redraw = try FrameRasterizer(fonts: renderer.fonts, images: ImageLibrary(sources: [source]))
        let size = display.size
        let svg = try redraw.rasterize(DisplayList(size: size, background: .white, items: [
            .image(ImageDraw(source: source, frame: Rect(x: 0, y: 0, width: size.width, height: size.height), tint: .black)),
        ]), scale: 1)
        return try Pixelmatch.compare(png, svg)
    }

    /// Rows at rest, one open (content moved by −90 pt) and one fading out: every symbol (chevron,
    /// minus, plus, trash) must land where the PNG has it.
    func testSVGFramesMatchPNGFrames() throws {
        for (example, t) in [("cart-swipe.json", 0.0), ("cart-swipe.json", 1.0), ("cart-swipe.json", 2.25), ("cart-dark.json", 1.6)] {
            let result = try compareSVGWithPNG(example, at: t)
            XCTAssertLessThanOrEqual(result.differingPixels, 20, "\(example) at \(t) s")
        }
    }
}
