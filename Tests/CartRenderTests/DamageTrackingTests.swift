@testable import CartRender
import CartRenderCore
@testable import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// Collects each frame's PNG bytes by index.
private final class PNGCollector: FrameSink, @unchecked Sendable {
    let needs: FrameNeeds = [.png]
    private let lock = NSLock()
    private(set) var bytes: [Int: [UInt8]] = [:]
    func write(_ frame: RenderedFrame) throws -> [Manifest.File] {
        let png = frame.png!.bytes
        lock.withLock { bytes[frame.index] = png }
        return []
    }
    func consume(_ frame: RenderedFrame) throws {}
    func finish(earlier: [Manifest.File]) throws -> SinkOutput { SinkOutput() }
}

/// Collects each frame's pixels and changed rows, in frame order (as an animation sink takes them).
private final class PixelCollector: FrameSink, @unchecked Sendable {
    let needs: FrameNeeds = [.canvas, .pixels, .inOrder]
    /// Each frame's pixels as drawn, copied whole from the canvas in the first stage.
    private let drawn = LockedValue<[Int: RGBAImage]>([:])
    /// The sink's own copy of the frame, brought up to date in its changed rows only.
    private var updated: RGBAImage?
    private(set) var frames: [(index: Int, pixels: RGBAImage, updated: RGBAImage, changedRows: [Range<Int>]?)] = []
    func write(_ frame: RenderedFrame) throws -> [Manifest.File] {
        let pixels = try frame.pixels()
        drawn.withLock { $0[frame.index] = pixels }
        return []
    }
    func consume(_ frame: RenderedFrame) throws {
        try frame.updatePixels(&updated)
        let pixels = try XCTUnwrap(drawn.withLock { $0.removeValue(forKey: frame.index) })
        frames.append((frame.index, pixels, updated!, frame.changedRows))
    }
    func finish(earlier: [Manifest.File]) throws -> SinkOutput { SinkOutput() }
}

/// Damage tracking: a worker redraws only what changed between the frames it draws, and the PNG
/// encoder takes untouched stripes from the canvas's previous frame. The bytes must be exactly
/// those of drawing and encoding every frame in full.
private struct Fixed: TextMeasuring {
    func measure(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?) -> Size { Size(width: 10, height: 5) }
    func firstBaseline(_ text: String, font: FontSpec) -> Double { 4 }
}

final class DamageTrackingTests: XCTestCase {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    private func renderer(_ example: String?, scale: Double, fps: Int = 30) throws -> Renderer {
        let overrides = SceneOverrides(fps: fps, scale: scale)
        guard let example else { return try Renderer(scene: DefaultScene.scene(overrides: overrides, baseDirectory: "/")) }
        return try Renderer(scene: SceneDecoder.load(path: Self.examples.appendingPathComponent(example).path, overrides: overrides))
    }

    private func pngs(_ r: Renderer, jobs: Int, tracksDamage: Bool) throws -> [Int: [UInt8]] {
        let collector = PNGCollector()
        let stream = FrameStream(renderer: r, frames: try r.plan([.all]), jobs: jobs)
        stream.damageTracking = tracksDamage
        try stream.run([collector])
        return collector.bytes
    }

    /// Every frame of the shop and cart examples (light, dark, right to left, extremes, system
    /// chrome, emoji), through the frame loop on one and on two workers: the PNG bytes of each
    /// frame equal those of a full redraw.
    func testEveryFrameEqualsAFullRedraw() throws {
        for example in TestSweep.sample([nil, "dark.json", "rtl-ar.json", "thousands.json", "chrome-shop.json", "cart-swipe.json", "cart-dark.json",
                                         "cart-rtl-he.json", "cart-emoji.json", "cart-extremes.json", "chrome-cart-dark.json"]) {
            let r = try renderer(example, scale: 2)
            let full = try pngs(r, jobs: 1, tracksDamage: false)
            XCTAssertEqual(full.count, r.frameCount)
            for jobs in [1, 2] {
                let damaged = try pngs(r, jobs: jobs, tracksDamage: true)
                let differing = full.keys.sorted().filter { full[$0] != damaged[$0] }
                XCTAssertEqual(differing, [], "\(example ?? "default scene"), jobs \(jobs): frames whose bytes differ from a full redraw")
            }
        }
    }

    /// The rows a frame hands the animation sinks as changed hold every row whose pixels differ
    /// from the frame before it, on one and two workers; and they are known for most frames.
    func testChangedRowsHoldEveryRowThatDiffersFromTheFrameBefore() throws {
        for example in TestSweep.sample([nil, "rtl-ar.json", "chrome-shop.json", "cart-swipe.json", "cart-emoji.json", "cart-extremes.json"]) {
            let r = try renderer(example, scale: 1)
            for jobs in [1, 2] {
                let collector = PixelCollector()
                try FrameStream(renderer: r, frames: try r.plan([.all]), jobs: jobs).run([collector])
                let frames = collector.frames
                XCTAssertEqual(frames.map(\.index), Array(0..<r.frameCount))
                XCTAssertNil(frames.first?.changedRows, "nothing comes before the first frame")
                let rowBytes = frames[0].pixels.width * 4
                var known = 0
                for (before, frame) in zip(frames, frames.dropFirst()) {
                    guard let rows = frame.changedRows else { continue }
                    known += 1
                    let differing = frame.pixels.pixels.withUnsafeBytes { a in
                        before.pixels.pixels.withUnsafeBytes { b in
                            (0..<frame.pixels.height).filter { y in memcmp(a.baseAddress! + y * rowBytes, b.baseAddress! + y * rowBytes, rowBytes) != 0 }
                        }
                    }
                    let missed = differing.filter { y in !rows.contains { $0.contains(y) } }
                    XCTAssertEqual(missed, [], "\(example ?? "default scene"), jobs \(jobs), frame \(frame.index): rows that differ but are not listed")
                }
                for frame in frames where frame.updated != frame.pixels {
                    XCTFail("\(example ?? "default scene"), jobs \(jobs), frame \(frame.index): updating the frame before in the changed rows does not give the frame")
                }
                XCTAssertGreaterThan(known * 10, (frames.count - 1) * 9, "\(example ?? "default scene"): changed rows known for most frames")
            }
        }
    }

    /// A worker that jumps about the timeline (frames out of order, the same frame twice, a
    /// frame of another size in between) still draws each frame as a full redraw does.
    func testAWorkerThatJumpsDrawsEachFrameExactly() throws {
        let r = try renderer(nil, scale: 3, fps: 60)
        let damaged = try r.makeWorker(), full = try r.makeWorker()
        full.damageTracking = false
        var generator = SystemRandomNumberGenerator()
        var order = Array(0..<r.frameCount).shuffled(using: &generator).prefix(30) + [5, 5, 100, 101, 102]
        order.insert(-1, at: 10)
        for i in order {
            if i < 0 {
                // Another canvas size in between: the next draw starts from scratch.
                _ = try damaged.rasterize(damaged.frame(at: 0).display, scale: 1)
                continue
            }
            let display = damaged.frame(at: r.time(ofFrame: i)).display
            let a = try damaged.rasterize(display), b = try full.rasterize(display)
            XCTAssertTrue(a.pixels == b.pixels, "frame \(i) differs from a full redraw (order \(order))")
        }
    }

    /// While only the badge bumps (after the flight lands), a frame's damage is a small part of
    /// the canvas, the stripes outside it are taken without being read, and an equal frame
    /// damages nothing.
    func testABadgeBumpDamagesOnlyTheBadge() throws {
        let r = try renderer(nil, scale: 3, fps: 60)
        let worker = try r.makeWorker()
        // Find two consecutive frames whose only difference is the badge: the flights landed.
        let states = (0..<r.frameCount).map { worker.frame(at: r.time(ofFrame: $0)) }
        let bump = try XCTUnwrap((1..<r.frameCount).first { i in
            guard let a = states[i - 1].state as? ShopFrameState, let b = states[i].state as? ShopFrameState else { return false }
            return a.flights.isEmpty && b.flights.isEmpty && !a.buttonPressed && !b.buttonPressed && a.badgeScale != b.badgeScale
        }, "a frame where only the badge moves")
        let canvas = PNGCanvasStripes()
        var rowsChanged = 0
        for i in [bump - 1, bump, bump] {
            _ = try worker.withPixels(states[i].display) { rows, damage in
                rowsChanged = damage.rows.reduce(0) { $0 + $1.count }
                if i == bump { XCTAssertFalse(damage.whole) }
                return try PNGEncoder.encode(rows, canvas: canvas, damage: damage)
            }
        }
        XCTAssertEqual(rowsChanged, 0, "drawing the same frame again damages nothing")
        let h = r.pixelSize.height
        _ = try worker.withPixels(states[bump - 1].display) { rows, damage in
            XCTAssertFalse(damage.whole)
            XCTAssertLessThan(damage.rows.reduce(0) { $0 + $1.count }, h / 10, "the badge spans a tenth of the rows at most")
            return try PNGEncoder.encode(rows, canvas: canvas, damage: damage)
        }
        XCTAssertGreaterThan(canvas.untouchedReused, 2 * (h / PNGEncoder.stripeRows) - 20, "stripes outside the badge were reused unread")
    }

    func testTheDiffFindsWhatChanged() {
        let size = Size(width: 100, height: 200)
        let red = Paint.color(Color(red: 1, green: 0, blue: 0, alpha: 1))
        let a = DisplayItem.fill(.rect(Rect(x: 0, y: 0, width: 10, height: 10)), red)
        let b = DisplayItem.fill(.rect(Rect(x: 50, y: 50, width: 10, height: 10)), red)
        let c = DisplayItem.fill(.ellipse(Rect(x: 20, y: 100, width: 10, height: 10)), red)
        let list = DisplayList(size: size, background: .white, items: [a, b])
        XCTAssertEqual(DisplayListDiff.damage(from: list, to: list, measuring: Fixed()), [])
        XCTAssertNil(DisplayListDiff.damage(from: list, to: DisplayList(size: Size(width: 100, height: 201), background: .white, items: [a, b]),
                                            measuring: Fixed()), "another size: redraw everything")
        XCTAssertNil(DisplayListDiff.damage(from: list, to: DisplayList(size: size, background: .black, items: [a, b]), measuring: Fixed()))
        // b replaced by c: both places.
        XCTAssertEqual(DisplayListDiff.damage(from: list, to: DisplayList(size: size, background: .white, items: [a, c]), measuring: Fixed()),
                       [b.bounds(measuring: Fixed())!, c.bounds(measuring: Fixed())!])
        // An item inserted in the middle: only it.
        XCTAssertEqual(DisplayListDiff.damage(from: list, to: DisplayList(size: size, background: .white, items: [a, c, b]), measuring: Fixed()),
                       [Rect(x: 20, y: 100, width: 10, height: 10)])
        // A child moved inside an unchanged, translated group: the child's old and new places, translated.
        let t = AffineTransform.translation(Vector(dx: 5, dy: 7))
        let g1 = DisplayList(size: size, background: .white, items: [.group(transform: t, opacity: 1, clip: nil, items: [a, b])])
        let g2 = DisplayList(size: size, background: .white, items: [.group(transform: t, opacity: 1, clip: nil, items: [a, c])])
        XCTAssertEqual(DisplayListDiff.damage(from: g1, to: g2, measuring: Fixed()),
                       [Rect(x: 55, y: 57, width: 10, height: 10), Rect(x: 25, y: 107, width: 10, height: 10)])
        // The group's transform changed: all of it, before and after.
        let g3 = DisplayList(size: size, background: .white, items: [.group(transform: .identity, opacity: 1, clip: nil, items: [a, b])])
        XCTAssertEqual(DisplayListDiff.damage(from: g1, to: g3, measuring: Fixed()),
                       [Rect(x: 5, y: 7, width: 60, height: 60), Rect(x: 0, y: 0, width: 60, height: 60)])
    }

    func testDamageBandsAreWholeRowsInsideTheCanvas() {
        // 0.5…1.5 pt → 1.5…4.5 px rounds out to 1…5 (−2/+2 margin: 0…7); an overlapping one merges; off-canvas clips.
        let bands = DamageBands.covering([Rect(x: 0.5, y: 0.5, width: 1, height: 1), Rect(x: 50, y: 1, width: 2, height: 1),
                                          Rect(x: 90, y: 95, width: 50, height: 12)], scale: 3, margin: 2, height: 300)
        XCTAssertEqual(bands, [0..<8, 283..<300])
        XCTAssertEqual(DamageBands.covering([Rect(x: 0, y: 10, width: 1, height: 1), Rect(x: 0, y: 11.5, width: 1, height: 1)],
                                            scale: 1, margin: 2, height: 300), [8..<15], "touching bands merge")
        XCTAssertEqual(DamageBands.covering([], scale: 3, margin: 2, height: 300), [])
        XCTAssertNil(DamageBands.covering([Rect(x: 0, y: 0, width: 1, height: 90)], scale: 3, margin: 2, height: 300),
                     "most of the rows: a full redraw")
        XCTAssertEqual(DamageBands.covering([Rect(x: 0, y: .infinity, width: 1, height: 1), Rect(x: 0, y: -1e300, width: 1, height: 1),
                                             Rect(x: 0, y: 400, width: 1, height: 1)], scale: 3, margin: 2, height: 300), [])
    }

    /// A band that reaches an image or a gradient grows to hold it whole, and so to hold the
    /// others that the grown band reaches; bands apart from them stay as they are.
    func testBandsHoldImagesAndGradientsWhole() {
        XCTAssertEqual(DamageBands.holding([10..<20, 200..<210], whole: [15..<40, 35..<60, 100..<120]), [10..<60, 200..<210])
        XCTAssertEqual(DamageBands.holding([10..<20, 50..<55], whole: [15..<52]), [10..<55], "bands that come to overlap merge")
        XCTAssertEqual(DamageBands.holding([], whole: [0..<10]), [])
        let gradient = Paint.linearGradient(start: Point(x: 0, y: 0), end: Point(x: 0, y: 10), colors: [.white, .black])
        let list = DisplayList(size: Size(width: 100, height: 100), background: .white, items: [
            .fill(.rect(Rect(x: 0, y: 10, width: 10, height: 10)), .color(.black)),
            .fill(.rect(Rect(x: 0, y: 30, width: 10, height: 10)), gradient),
            .group(transform: .translation(Vector(dx: 0, dy: 50)), opacity: 1, clip: nil, items: [
                .image(ImageDraw(source: .file("/images/product.png"), frame: Rect(x: 0, y: 0, width: 5, height: 5), tint: .black)),
                .image(ImageDraw(source: .symbol("cart"), frame: Rect(x: 0, y: 20, width: 5, height: 5), tint: .black))]),
            .group(transform: .identity, opacity: 0, clip: nil, items: [.fill(.rect(Rect(x: 0, y: 0, width: 10, height: 10)), gradient)]),
        ])
        XCTAssertEqual(DamageBands.resampledRows(of: list, scale: 2, margin: 2, height: 200, measuring: Fixed()), [58..<82, 98..<112],
                       "the gradient at 30…40 pt and the image at 50…55 pt, at 2 px/pt, grown by 2 px; not the flat fill, the symbol or what is invisible")
    }
}
