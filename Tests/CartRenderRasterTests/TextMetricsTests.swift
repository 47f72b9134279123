@testable import CartRenderRaster
import CartRenderCore
import Foundation
import XCTest

/// Text frames as iOS lays them out (docs/motion-and-look.md, “Line height and tracking”): a
/// text style's lines are the Human Interface Guidelines' line height apart and tall, in every
/// Dynamic Type size; the system font takes SF Pro's tracking for its size; Jost keeps its own
/// line; every line's baseline is at one place in its line, whatever fonts draw it.
final class TextMetricsTests: XCTestCase {
    /// Line heights (pt) read from the Human Interface Guidelines, *Typography*, "iOS, iPadOS
    /// Dynamic Type sizes" and "larger accessibility type sizes": style, size, line height.
    static let higLineHeights: [(TextStyle, DynamicTypeSize, Double)] = [
        (.body, .xSmall, 19), (.body, .large, 22), (.body, .xxxLarge, 29), (.body, .accessibility1, 34), (.body, .accessibility5, 62),
        (.title2, .xSmall, 24), (.title2, .large, 28), (.title2, .xLarge, 30), (.title2, .accessibility3, 52), (.title2, .accessibility5, 66),
        (.largeTitle, .large, 41), (.largeTitle, .xxxLarge, 48), (.largeTitle, .accessibility5, 70),
        (.headline, .medium, 21), (.caption2, .large, 13), (.caption2, .xLarge, 18), (.caption2, .accessibility4, 41),
        (.subheadline, .large, 20), (.footnote, .small, 16), (.callout, .accessibility2, 39),
    ]

    /// One line of a text style is its line height tall, two lines twice that (a line break
    /// and a wrapped paragraph alike), at every weight the screens use.
    func testTextStylesHaveTheGuidelinesLineHeight() throws {
        let engine = try TextEngine(fonts: FontEnvironment.shared())
        for (style, size, expected) in Self.higLineHeights {
            for weight in [style.weight, .bold] {
                let font = ScalableFont.style(style, weight).resolved(size)
                let label = "\(style) \(weight) at \(size)"
                XCTAssertEqual(engine.measure("Cart", font: font, maxWidth: nil).height, expected, accuracy: 1e-9, "\(label): one line")
                XCTAssertEqual(engine.measure("Cart\nGift box", font: font, maxWidth: nil).height, 2 * expected, accuracy: 1e-9,
                               "\(label): two lines")
                let words = "Twenty liters, water resistant and light enough for every day."
                let wrapped = engine.measure(words, font: font, maxWidth: 12 * font.size)
                let lines = (wrapped.height / expected).rounded()
                XCTAssertGreaterThan(lines, 1, "\(label): wraps")
                XCTAssertEqual(wrapped.height, lines * expected, accuracy: 1e-9, "\(label): a whole number of lines")
            }
        }
    }

    /// The size table and the line-height table agree with the Guidelines at every size.
    func testEveryStyleHasALineHeightPerSize() {
        for style in TextStyle.allCases {
            XCTAssertEqual(style.lineHeights.count, DynamicTypeSize.allCases.count, "\(style)")
            for (size, height) in zip(style.sizes, style.lineHeights) {
                XCTAssertGreaterThan(height / size, 1.15, "\(style) \(size) pt on \(height) pt")
                XCTAssertLessThan(height / size, 1.45, "\(style) \(size) pt on \(height) pt")
            }
        }
    }

    /// SF Pro's tracking (Human Interface Guidelines, *Typography*, "Tracking values", SF Pro):
    /// a string of n characters in the system family is (n − 1) × tracking wider than the same
    /// face without it (Inter named as a family, which takes no tracking), narrower where the
    /// tracking is negative: tracking goes between characters, none after a line's last.
    func testSystemFontTakesSFProTracking() throws {
        let engine = try TextEngine(fonts: FontEnvironment.shared())
        let text = "Add to Cart"
        let gaps = Double(text.count - 1)
        for (size, tracking) in [(11.0, 0.06), (12, 0), (13, -0.08), (15, -0.23), (17, -0.43), (20, -0.45), (22, -0.26), (28, 0.38),
                                 (34, 0.40), (53, 0.31), (60, 0.26)] {
            let system = FontSpec(size: size, weight: .semibold)
            XCTAssertEqual(system.tracking, tracking, accuracy: 1e-9, "\(size) pt")
            let plain = system.family(.named(system.familyName))
            let grown = engine.measure(text, font: system, maxWidth: nil).width - engine.measure(text, font: plain, maxWidth: nil).width
            XCTAssertEqual(grown, gaps * tracking, accuracy: 0.01, "\(size) pt: \(text) grows by \(Int(gaps)) × \(tracking) pt")
        }
        XCTAssertEqual(FontSpec(size: 28, family: .jost).tracking, 0, "Jost keeps its own spacing")
    }

    /// Jost, the cart page's font, keeps its own line: ascent + descent + line gap, 1.445 em.
    func testJostKeepsItsOwnLineHeight() throws {
        let engine = try TextEngine(fonts: FontEnvironment.shared())
        for size in [18.0, 28, 42.5] {
            let font = ScalableFont.custom(size: size, weight: .heavy).resolved(.large).family(.jost)
            XCTAssertNil(font.lineHeight)
            let one = engine.measure("Total", font: font, maxWidth: nil).height
            XCTAssertEqual(one / size, 1.445, accuracy: 0.001, "\(size) pt")
            XCTAssertEqual(engine.measure("Total\nCheck out", font: font, maxWidth: nil).height, 2 * one, accuracy: 1e-9)
        }
    }

    /// Every line's baseline sits at the font's place in its line, in every script: the first
    /// baseline does not depend on the text, and the ink of "H" on two lines ends on baselines
    /// one line height apart, as measured.
    func testBaselinesAreTheFontsWhateverDrawsThem() throws {
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        for font in [ScalableFont.style(.body).resolved(.large), ScalableFont.style(.caption2, .bold).resolved(.accessibility5),
                     ScalableFont.custom(size: 18, weight: .heavy).resolved(.large).family(.jost)] {
            let baseline = rasterizer.firstBaseline("0", font: font)
            for other in ["٣", "١٠٠", "3", "合计", "סה״כ", "🛒"] {
                XCTAssertEqual(rasterizer.firstBaseline(other, font: font), baseline, "\(other) at \(font.size) pt")
            }
            let line = rasterizer.measure("H", font: font, maxWidth: nil).height
            XCTAssertGreaterThan(baseline, line / 2)
            XCTAssertLessThan(baseline, line)
            let scale = 4.0, top = 3.0
            let run = TextRun("H\nH", font: font, color: .black, origin: Point(x: 2, y: top))
            let list = DisplayList(size: Size(width: 2 * font.size + 4, height: 2 * line + 6), background: .white, items: [.text(run)])
            let image = try rasterizer.rasterize(list, scale: scale)
            var inkedRows: [Int] = []
            for py in 0..<image.height where (0..<image.width).contains(where: { image.pixels[(py * image.width + $0) * 4] < 128 }) {
                inkedRows.append(py)
            }
            // The bottom of the ink of each "H": the last inked row before a gap.
            var bottoms: [Double] = []
            for (i, row) in inkedRows.enumerated() where i + 1 == inkedRows.count || inkedRows[i + 1] != row + 1 {
                bottoms.append(Double(row + 1) / scale)
            }
            XCTAssertEqual(bottoms.count, 2, "two lines of ink at \(font.size) pt")
            guard bottoms.count == 2 else { continue }
            XCTAssertEqual(bottoms[0], top + baseline, accuracy: 0.3, "first baseline at \(font.size) pt")
            XCTAssertEqual(bottoms[1] - bottoms[0], line, accuracy: 0.3, "one line height between baselines at \(font.size) pt")
        }
    }

    /// The shop's texts have iOS's frames: the product name (title2 bold) one line of 28 pt at
    /// large, the two-line description (body) 2 × 22 pt; at accessibility5 the name's two lines
    /// are 2 × 66 pt, the description's lines 62 pt.
    func testTheShopsTextFramesAreTheGuidelines() throws {
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        for (size, name, descriptionLine) in [(DynamicTypeSize.large, 28.0, 22.0), (.accessibility5, 2 * 66, 62)] {
            let json = #"{"screen": "shop", "dynamicTypeSize": "\#(size.rawValue)"}"#
            let scene = try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")
            let shop = try XCTUnwrap(scene.content as? ShopContent)
            let layout = ShopLayout(scene: scene, shop: shop, measurer: rasterizer)
            XCTAssertEqual(layout.nameFrame.height, name, "\(size): the name")
            let lines = (layout.descriptionFrame.height / descriptionLine).rounded()
            XCTAssertGreaterThanOrEqual(lines, 2, "\(size): the description wraps")
            XCTAssertEqual(layout.descriptionFrame.height, lines * descriptionLine, "\(size): the description")
        }
    }
}
