@testable import CartRenderRaster
import CartRenderCore
import XCTest

/// The add button's title is drawn whole at every text size: the lines the raster layer draws
/// for it are the lines that sized the button (one measurement for layout and drawing), so
/// every word of "Add to Cart" is drawn, inside the button (seed 000's `Label` has no line limit).
final class AddButtonTitleTests: XCTestCase {
    /// Every Dynamic Type size, the three devices at 2x and 3x, and a 1400 pt wide screen: the
    /// drawn lines hold the title's words in order, and there are no more of them than the
    /// title's box is tall (a line more would be drawn below it, white on the page).
    func testEveryWordOfTheTitleIsDrawnInsideTheButton() throws {
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        let wide = Device(name: nil, width: 1400, height: 900, scale: 2, safeAreaTop: 20, safeAreaBottom: 20)
        for device in [Device.iPhone16, .iPhone16ProMax, .iPhoneSE, wide] {
            for scale in [2.0, 3.0] {
                for size in DynamicTypeSize.allCases {
                    let json = #"{"screen": "shop", "dynamicTypeSize": "\#(size.rawValue)"}"#
                    var scene = try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/")
                    scene.device = Device(name: device.name, width: device.width, height: device.height, scale: scale,
                                          safeAreaTop: device.safeAreaTop, safeAreaBottom: device.safeAreaBottom)
                    let shop = try XCTUnwrap(scene.content as? ShopContent)
                    let layout = ShopLayout(scene: scene, shop: shop, measurer: rasterizer)
                    let runs = textRuns(layout.displayList(for: layout.timeline().state(at: 0)).items).filter { $0.text == shop.buttonTitle }
                    let what = "\(device.name ?? "1400 pt") @\(Int(scale))x \(size.rawValue)"
                    let run = try XCTUnwrap(runs.first, "\(what): the title is drawn")
                    let lines = rasterizer.text.drawnLines(run).map(\.text)
                    let drawnWords = lines.flatMap { $0.split(separator: " ").map(String.init) }
                    XCTAssertEqual(drawnWords, shop.buttonTitle.split(separator: " ").map(String.init), "\(what): \(lines)")
                    let lineHeight = rasterizer.measure("A", font: run.font, maxWidth: nil).height
                    XCTAssertLessThanOrEqual(Double(lines.count) * lineHeight, layout.buttonTitleFrame.height + 1e-6, "\(what): \(lines) in the box")
                    XCTAssertLessThanOrEqual(layout.buttonTitleFrame.maxY, layout.buttonFrame.maxY + 1e-6, "\(what): in the button")
                }
            }
        }
    }
}

/// Every text run of `items`, groups included, back to front.
func textRuns(_ items: [DisplayItem]) -> [TextRun] {
    items.flatMap { item -> [TextRun] in
        switch item {
        case .text(let run): return [run]
        case .group(_, _, _, let children): return textRuns(children)
        default: return []
        }
    }
}
