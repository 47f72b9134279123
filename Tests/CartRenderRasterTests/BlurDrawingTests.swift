import CartRenderCore
@testable import CartRenderRaster
import Foundation
import XCTest

/// `DisplayItem.blur`: a Gaussian of standard deviation `radius` pt, drawn with pixman's
/// separable convolution into PNG frames and as an embedded image into SVG frames.
final class BlurDrawingTests: XCTestCase {
    private let square = Rect(x: 20, y: 20, width: 10, height: 10)
    private func rasterizer() throws -> FrameRasterizer { try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: [])) }
    private func list(_ items: [DisplayItem], background: Color = .clear) -> DisplayList {
        DisplayList(size: Size(width: 50, height: 50), background: background, items: items)
    }
    private func blurredSquare(_ radius: Double) -> DisplayItem { .blur(radius: radius, items: [.fill(.rect(square), .color(.black))]) }

    /// Σ alpha / 255 over the pixels whose centers satisfy `inside` (px).
    private func coverage(_ image: RGBAImage, where inside: (Int, Int) -> Bool = { _, _ in true }) -> Double {
        var sum = 0
        for y in 0..<image.height { for x in 0..<image.width where inside(x, y) { sum += Int(image[x, y].a) } }
        return Double(sum) / 255
    }

    /// A blurred square spreads ink past its sharp edges, up to 3σ, and keeps its coverage.
    func testABlurSpreadsInkBeyondTheSharpBoundsAndKeepsCoverage() throws {
        let scale = 2.0, r = try rasterizer()
        let sharp = try r.rasterize(list([.fill(.rect(square), .color(.black))]), scale: scale)
        let blurred = try r.rasterize(list([blurredSquare(2)]), scale: scale)
        let (x0, x1) = (Int(square.minX * scale), Int(square.maxX * scale))  // 40 ..< 60 px
        func outside(_ margin: Int) -> (Int, Int) -> Bool {
            { x, y in x < x0 - margin || x >= x1 + margin || y < x0 - margin || y >= x1 + margin }
        }
        XCTAssertEqual(coverage(sharp, where: outside(0)), 0)
        XCTAssertGreaterThan(coverage(blurred, where: outside(0)), 40, "ink beyond the sharp square")
        XCTAssertGreaterThan(blurred[x0 - 4, 50].a, 10, "1σ (4 px) outside the left edge")
        XCTAssertEqual(coverage(blurred, where: outside(12 + 1)), 0, "nothing past 3σ (12 px) and the kernel's rounding")
        XCTAssertLessThan(blurred[50, 50].a, 255, "the square's middle is not opaque any more")
        XCTAssertEqual(coverage(blurred), coverage(sharp), accuracy: coverage(sharp) * 0.01, "total coverage is kept")
    }

    /// Same list, same bytes: whatever was drawn before, and with another rasterizer.
    func testBlurredFramesAreDeterministic() throws {
        let r = try rasterizer()
        let items: [DisplayItem] = [
            .fill(.rect(Rect(x: 0, y: 0, width: 50, height: 25)), .color(Color(r8: 255, g8: 59, b8: 48))),
            .group(transform: .scale(0.8, about: Point(x: 25, y: 25)), opacity: 0.6, clip: .capsule(Rect(x: 5, y: 10, width: 40, height: 30)),
                   items: [.blur(radius: 1.3, items: [.text(TextRun("10", font: FontSpec(size: 11, weight: .bold), color: .white, origin: Point(x: 15, y: 15)))])]),
        ]
        let first = try r.rasterize(list(items, background: .white), scale: 3)
        _ = try r.rasterize(list([blurredSquare(3)]), scale: 3)
        XCTAssertTrue(first == (try r.rasterize(list(items, background: .white), scale: 3)))
        XCTAssertTrue(first == (try rasterizer().rasterize(list(items, background: .white), scale: 3)))
        XCTAssertEqual(try r.svg(list(items)), try rasterizer().svg(list(items)))
    }

    /// A radius of 0 (or less) draws the items as they are.
    func testAZeroRadiusIsNoBlur() throws {
        let r = try rasterizer()
        let sharp = try r.rasterize(list([.fill(.ellipse(square), .color(.black))]), scale: 3)
        for radius in [0.0, -1] {
            XCTAssertTrue(sharp == (try r.rasterize(list([.blur(radius: radius, items: [.fill(.ellipse(square), .color(.black))])]), scale: 3)))
        }
    }

    /// The blur spreads in the item's own points: a group that scales by 2 doubles it, and the
    /// enclosing group's clip cuts the blurred ink.
    func testEnclosingGroupsScaleTheRadiusAndClipTheResult() throws {
        let r = try rasterizer()
        let direct = try r.rasterize(list([blurredSquare(2)]), scale: 2)
        let scaled = try r.rasterize(list([.group(transform: .scale(0.5, about: .zero), opacity: 1, clip: nil, items: [
            .blur(radius: 4, items: [.fill(.rect(Rect(x: 40, y: 40, width: 20, height: 20)), .color(.black))]),
        ])]), scale: 2)
        var largest = 0
        for i in stride(from: 0, to: direct.pixels.count, by: 4) { largest = max(largest, abs(Int(direct.pixels[i + 3]) - Int(scaled.pixels[i + 3]))) }
        XCTAssertLessThanOrEqual(largest, 2, "σ 4 pt at half scale is σ 2 pt")
        let clipped = try r.rasterize(list([.group(transform: .identity, opacity: 1, clip: .rect(square), items: [blurredSquare(2)])]), scale: 2)
        XCTAssertEqual(coverage(clipped) { x, y in x < 40 || x >= 60 || y < 40 || y >= 60 }, 0)
    }

    /// `bounds(measuring:)` grows a blur's items by 3σ, for culling and damage.
    func testBoundsGrowByThreeSigma() throws {
        let b = try XCTUnwrap([blurredSquare(2)].bounds(measuring: try rasterizer()))
        XCTAssertEqual(b, square.insetBy(-6))
    }

    /// SVG frames draw the blur as an embedded image at `svgBlurPixelsPerPoint`: drawn back
    /// through librsvg, the SVG's blurred square matches the PNG's.
    func testSVGFramesDrawTheBlur() throws {
        let r = try rasterizer()
        let display = list([blurredSquare(2)], background: .white)
        let svg = try r.svg(display)
        XCTAssertTrue(String(decoding: svg, as: UTF8.self).contains("<image"), "an embedded image")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cartrender-blur-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(svg).write(to: url)
        let source = ImageSource.file(url.path)
        let redraw = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: [source]))
        let back = try redraw.rasterize(DisplayList(size: display.size, background: .white, items: [
            .image(ImageDraw(source: source, frame: Rect(x: 0, y: 0, width: 50, height: 50), tint: .black)),
        ]), scale: 3)
        let png = try r.rasterize(display, scale: 3)
        var largest = 0
        for i in stride(from: 0, to: png.pixels.count, by: 4) { largest = max(largest, abs(Int(png.pixels[i]) - Int(back.pixels[i]))) }
        XCTAssertLessThanOrEqual(largest, 8, "the SVG's blur is the PNG's")
        XCTAssertLessThan(back[Int((square.minX - 2) * 3), 75].r, 250, "ink 1σ outside the square in the SVG")
    }

    /// The kernel: odd, symmetric, ⌈3σ⌉ taps each side, summing to exactly 1.0 in 16.16.
    func testGaussianKernelSumsToOne() {
        for sigma in [0.2, 1, 1.65, 4.5] {
            let k = FrameRasterizer.gaussianKernel(sigma: sigma)
            XCTAssertEqual(k.count, 2 * Int((3 * sigma).rounded(.up)) + 1)
            XCTAssertEqual(k.reduce(0, +), 65536)
            XCTAssertEqual(k, k.reversed())
        }
    }
}
