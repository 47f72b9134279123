import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// Rows at fractional positions leave no seam (docs/motion-and-look.md, “Pixel grid”): an open row sliding up
/// after a deletion shows none of its backdrop gradient along its top and bottom edges, where its
/// content covers the backdrop; rectangle edges are hard, as Core Animation draws layer edges.
final class RowSeamTests: XCTestCase {
    /// Three rows; "c" swiped open (offset −90) at 0.1 s, then "a" swiped away at 1.0 s: from
    /// 1.2 s to 1.55 s "b" and the open "c" slide up at fractional positions.
    static let json = #"""
    {"screen": "cart", "cart": {"items": [
      {"id": "a", "name": "A", "price": "1"}, {"id": "b", "name": "B", "price": "2"}, {"id": "c", "name": "C", "price": "3"}]},
     "events": [{"at": 0.1, "swipe": {"item": "c", "translation": -120, "duration": 0.2}},
                {"at": 1.0, "swipe": {"item": "a", "translation": -300, "duration": 0.2}}]}
    """#

    func testAnOpenRowSlidingUpShowsNoGradientAtItsEdges() throws {
        let scene = try SceneDecoder.decode(Array(Self.json.utf8), file: "seam.json", baseDirectory: "/")
        guard let cart = scene.content as? CartContent else { return XCTFail("a cart scene") }
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: cart.images))
        let layout = CartLayout(scene: scene, cart: cart, measurer: rasterizer)
        let timeline = layout.timeline()
        let scale = scene.device.scale
        var fractional = 0
        for t in stride(from: 1.25, through: 1.5, by: 0.05) {
            let state = timeline.state(at: t)
            guard let slot = layout.slots(for: state).first(where: { $0.row.id == "c" }) else { return XCTFail("c on screen at \(t)") }
            XCTAssertEqual(slot.row.offset, -90, accuracy: 1e-9, "c is open at \(t)")
            let image = try rasterizer.rasterize(layout.displayList(for: state), scale: scale)
            // Where the content covers the backdrop: x from 0 to the content's right edge (w − 90),
            // away from the symbol image's rounded corners.
            let columns = Int(160 * scale)..<Int((scene.device.width - 90 - 2) * scale)
            for edge in [slot.y, slot.y + slot.rowHeight] {
                if (edge * scale).rounded() != edge * scale { fractional += 1 }
                let row = Int((edge * scale).rounded(.down))
                for y in (row - 2)...(row + 2) {
                    for x in columns {
                        let p = image[x, y]
                        XCTAssertLessThanOrEqual(Int(p.b) - Int(p.r), 6, "t = \(t): pixel (\(x), \(y)) at c's edge \(edge) pt is tinted by the gradient: \(p)")
                        if Int(p.b) - Int(p.r) > 6 { return }
                    }
                }
            }
        }
        XCTAssertGreaterThan(fractional, 4, "the edges were at fractional pixel positions")
    }
}
