@testable import CartRenderCore
import CartRender
import CartRenderRaster
import Foundation
import XCTest

/// The badge's `.numericText` roll drawn with the real fonts (docs/motion-and-look.md, “The fly button”): continuous
/// at its start, unchanged characters in place, rolling characters clipped to the capsule.
final class BadgeRollTests: XCTestCase {
    private struct Screen {
        let layout: ShopLayout
        let rasterizer: FrameRasterizer
        let scale: Double
        func image(count: Int, from: Int? = nil, progress: Double = 0) throws -> RGBAImage {
            let digits = from.map { ShopState.DigitTransition(from: $0, to: count, progress: progress) }
            let state = ShopState(time: 0, count: count, badgeScale: 1, digits: digits, flights: [], buttonPressed: false)
            return try rasterizer.rasterize(layout.displayList(for: state), scale: scale)
        }
    }

    private func screen(scale: Double = 3, title: String = ShopContent().title, locale: String = "en_US") throws -> Screen {
        var shop = ShopContent()
        shop.title = title
        var scene = Scene()
        scene.locale = locale
        scene.layoutDirection = LayoutDirection(locale: locale)
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: shop.images))
        return Screen(layout: ShopLayout(scene: scene, shop: shop, measurer: rasterizer), rasterizer: rasterizer, scale: scale)
    }

    /// The ink of the badge's digits relative to its capsule, in pt: the capsule's red pixels'
    /// box and the light pixels inside it.
    private func inkOffset(_ image: RGBAImage, scale: Double, in region: (x: Range<Int>, y: Range<Int>)) -> (dx: Double, dy: Double, margin: Double)? {
        var capsule = (minX: Int.max, maxX: -1, minY: Int.max, maxY: -1)
        for y in region.y { for x in region.x {
            let p = image[x, y]
            if p.r > 200 && p.g < 120 && p.b < 120 {
                capsule = (min(capsule.minX, x), max(capsule.maxX, x), min(capsule.minY, y), max(capsule.maxY, y))
            }
        } }
        guard capsule.maxX >= 0 else { return nil }
        var ink = (minX: Int.max, maxX: -1, minY: Int.max, maxY: -1)
        for y in capsule.minY...capsule.maxY {
            let reds = (capsule.minX...capsule.maxX).filter { image[$0, y].r > 200 && image[$0, y].g < 120 }
            guard let first = reds.first, let last = reds.last else { continue }
            for x in first...last where image[x, y].g > 180 {
                ink = (min(ink.minX, x), max(ink.maxX, x), min(ink.minY, y), max(ink.maxY, y))
            }
        }
        guard ink.maxX >= 0 else { return nil }
        func mid(_ a: Int, _ b: Int) -> Double { Double(a + b + 1) / 2 }
        let margin = Double(min(ink.minY - capsule.minY, capsule.maxY - ink.maxY)) / scale
        return ((mid(ink.minX, ink.maxX) - mid(capsule.minX, capsule.maxX)) / scale,
                (mid(ink.minY, ink.maxY) - mid(capsule.minY, capsule.maxY)) / scale, margin)
    }

    /// Table: the badge's digits are centered in the capsule, within 0.5 pt, whatever font draws
    /// them — Inter's Latin digits and Noto Sans Arabic's Arabic-Indic ones (٣, ٩٩, ١٠٠ in ar_SA),
    /// which used to sit 4.9 pt low, cut by the capsule — and clear of its top and bottom.
    func testDigitsAreCenteredInTheCapsuleInEveryScript() throws {
        for (locale, counts) in [("en_US", [3, 99, 100]), ("ar_SA", [3, 99, 100])] {
            let s = try screen(locale: locale)
            let f = s.layout.cartIconFrame
            let region = (x: Int((f.minX - 20) * 3)..<Int((f.maxX + 20) * 3), y: max(0, Int((f.minY - 12) * 3))..<Int((f.maxY) * 3))
            for count in counts {
                guard let o = inkOffset(try s.image(count: count), scale: 3, in: region) else { XCTFail("\(locale) \(count): no badge"); continue }
                XCTAssertEqual(o.dx, 0, accuracy: 0.5, "\(locale) \(count) horizontally")
                XCTAssertEqual(o.dy, 0, accuracy: 0.5, "\(locale) \(count) vertically")
                XCTAssertGreaterThanOrEqual(o.margin, 2, "\(locale) \(count): clear of the capsule's edges")
            }
        }
    }

    private func differingPixels(_ a: RGBAImage, _ b: RGBAImage, rows: Range<Int>? = nil, columns: Range<Int>? = nil) -> Int {
        var n = 0
        for y in rows ?? 0..<a.height { for x in columns ?? 0..<a.width {
            let p = a[x, y], q = b[x, y]
            if p.r != q.r || p.g != q.g || p.b != q.b || p.a != q.a { n += 1 }
        } }
        return n
    }

    /// Table: at progress 0 the frame is the resting frame of the old count, pixel for pixel
    /// (so nothing jumps at the instant the count changes: not the left "1" of 10 → 11, not the
    /// comma of 9,999 → 10,000).
    func testProgressZeroIsTheRestingBadgeOfTheOldCount() throws {
        let s = try screen()
        for (from, to) in [(9, 10), (10, 11), (11, 10), (99, 100), (999, 1_000), (1_099, 1_100), (9_999, 10_000), (10_000, 9_999)] {
            let rest = try s.image(count: from)
            let start = try s.image(count: to, from: from, progress: 0)
            XCTAssertTrue(rest == start, "\(from) → \(to) at progress 0: \(differingPixels(rest, start)) pixels differ")
            let end = try s.image(count: to, from: from, progress: 1)
            let header = 0..<Int((s.layout.cartIconFrame.maxY + 10) * s.scale)
            XCTAssertLessThanOrEqual(differingPixels(try s.image(count: to), end, rows: header), 8, "\(from) → \(to) at progress 1 is the new resting badge")
        }
    }

    /// Mid-roll, rolling characters are clipped to the capsule: rows just above and below the
    /// capsule look as they do at rest.
    func testTheRollStaysInsideTheCapsule() throws {
        let s = try screen()
        let frame = s.layout.cartIconFrame
        let top = Int((frame.minY * s.scale).rounded(.down)) - 1
        let bottom = Int(((frame.minY + ShopLook.badgeMinSide) * s.scale).rounded(.up)) + 1
        let columns = Int(((frame.maxX - 60) * s.scale).rounded(.down))..<Int((frame.maxX * s.scale).rounded(.up))
        for (from, to) in [(9, 10), (1_099, 1_100), (10, 9)] {
            let rest = try s.image(count: from)
            for p in [0.2, 0.5, 0.8] {
                let rolling = try s.image(count: to, from: from, progress: p)
                XCTAssertEqual(differingPixels(rest, rolling, rows: (top - 12)..<top, columns: columns), 0, "\(from) → \(to) at \(p): nothing above the capsule")
                XCTAssertEqual(differingPixels(rest, rolling, rows: bottom..<(bottom + 12), columns: columns), 0, "\(from) → \(to) at \(p): nothing below it")
            }
        }
    }

    /// The roll is a roll, not a cross-fade in place: mid-way the white ink of the badge reaches
    /// higher (the old digit leaving upward) and lower (the new one rising from below) than at rest.
    func testChangedDigitsMoveVertically() throws {
        let s = try screen()
        let frame = s.layout.cartIconFrame
        // The middle columns of the 18 pt circle, between its top and bottom pixel rows: red
        // (green 59) or digits, white faded by up to half mid-roll.
        let mid = (frame.maxX - ShopLook.badgeMinSide / 2) * s.scale
        let middle = Int(mid - 2 * s.scale)..<Int(mid + 2 * s.scale)
        let capsuleRows = Int(frame.minY * s.scale) + 1..<Int((frame.minY + ShopLook.badgeMinSide) * s.scale) - 1
        func inkRows(_ image: RGBAImage) -> ClosedRange<Int>? {
            let rows = capsuleRows.filter { y in middle.contains { x in let p = image[x, y]; return p.g > 120 && p.b > 120 } }
            guard let first = rows.first, let last = rows.last else { return nil }
            return first...last
        }
        let rest = try XCTUnwrap(inkRows(try s.image(count: 9)))
        let rolling = try XCTUnwrap(inkRows(try s.image(count: 9, from: 8, progress: 0.5)))
        XCTAssertLessThan(rolling.lowerBound, rest.lowerBound - 3, "the old 8 leaves upward")
        XCTAssertGreaterThan(rolling.upperBound, rest.upperBound + 3, "the new 9 rises from below")
    }

    /// A huge count does not grow the badge over the title: it ends in "…" within the room the
    /// title leaves.
    func testAHugeCountStopsBeforeTheTitle() throws {
        let s = try screen(title: "Outdoor Gear")
        let layout = s.layout
        let state = ShopState(time: 0, count: Int.max, badgeScale: 1, digits: nil, flights: [], buttonPressed: false)
        let list = layout.displayList(for: state)
        guard let capsule = list.items.compactMap({ item -> Rect? in
            if case .fill(.capsule(let r), _) = item { return r }
            return nil
        }).first else { return XCTFail("a capsule") }
        let title = s.rasterizer.measure("Outdoor Gear", font: ShopLook.titleFont.resolved(.large), maxWidth: nil)
        XCTAssertGreaterThanOrEqual(capsule.minX, layout.titleFrame.minX + title.width + ShopLook.headerSpacing - 1e-9)
        XCTAssertLessThanOrEqual(capsule.width, layout.badgeMaxWidth)
        XCTAssertTrue(layout.badgeGlyphs(Int.max).glyphs.last?.character == "…")
    }

    // MARK: Goldens (the header at 3x, cropped: the badge is a few pixels at scale 1)

    /// The top-trailing 120 × 60 pt of the screen at `t` for a shop whose count starts at
    /// `count` and goes up by one at 0.3 s (no cart frame: the tap counts at once, no flight).
    private func header(count: Int, at t: Double) throws -> RGBAImage {
        let json = #"{"shop": {"count": "# + String(count) + #", "cartFrame": null}, "events": [{"at": 0.3, "tap": "add"}], "duration": 1}"#
        let scene = try SceneDecoder.decode(Array(json.utf8), file: "badge.json", baseDirectory: "/", overrides: SceneOverrides(scale: 3))
        let frame = try Renderer(scene: scene).makeWorker().image(at: t)
        let (x0, y0, w, h) = (Int((scene.device.width - 120) * 3), Int(scene.device.safeAreaTop * 3), 360, 180)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(w * h * 4)
        for y in y0..<(y0 + h) { pixels += frame.pixels[(y * frame.width + x0) * 4..<(y * frame.width + x0 + w) * 4] }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }

    /// 9 → 10 at the change (progress 0: the resting 9) and 0.1 s later (progress 0.388): the
    /// 9 leaving upward, shrinking, the 1 and 0 rising, the capsule widening.
    func testGoldenNineToTen() throws {
        try Golden.assertMatches(header(count: 9, at: 0.3), named: "badge-9-10-0.300")
        try Golden.assertMatches(header(count: 9, at: 0.4), named: "badge-9-10-0.400")
    }

    /// 1,099 → 1,100 mid-roll: "1," stays, the two 9s roll to 0s... and the 0 at the
    /// hundreds' place rolls to 1.
    func testGoldenThousandNinetyNineToThousandOneHundred() throws {
        try Golden.assertMatches(header(count: 1_099, at: 0.4), named: "badge-1099-1100-0.400")
    }
}
