import CartRenderCore
import CartRenderRaster
import XCTest

/// How the raster layer draws right-to-left display lists: text aligned to the right edge of
/// its width with a right-to-left paragraph, and mirrored symbols.
final class RightToLeftDrawingTests: XCTestCase {
    private func draw(_ items: [DisplayItem], width: Double = 200, height: Double = 40, images: [ImageSource] = []) throws -> RGBAImage {
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: images))
        return try rasterizer.rasterize(DisplayList(size: Size(width: width, height: height), background: .white, items: items), scale: 1)
    }

    /// The leftmost and rightmost columns with ink (any pixel darker than 128).
    private func inkColumns(_ image: RGBAImage) -> ClosedRange<Int>? {
        var columns: [Int] = []
        for x in 0..<image.width where (0..<image.height).contains(where: { image[x, $0].r < 128 }) { columns.append(x) }
        guard let first = columns.first, let last = columns.last else { return nil }
        return first...last
    }

    private func run(_ text: String, _ alignment: TextRun.Alignment, _ direction: LayoutDirection) -> DisplayItem {
        .text(TextRun(text, font: FontSpec(size: 17), color: .black, origin: Point(x: 0, y: 5), maxWidth: 200, alignment: alignment, direction: direction))
    }

    func testLeadingIsTheRightEdgeRightToLeft() throws {
        for text in ["Total", "שלום", "سلة"] {
            let rtl = try XCTUnwrap(inkColumns(draw([run(text, .leading, .rightToLeft)])), text)
            XCTAssertGreaterThan(rtl.lowerBound, 100, "\(text): right-aligned")
            XCTAssertGreaterThanOrEqual(rtl.upperBound, 195, text)
            let trailing = try XCTUnwrap(inkColumns(draw([run(text, .trailing, .rightToLeft)])), text)
            XCTAssertLessThan(trailing.upperBound, 100, "\(text): trailing is the left edge")
        }
        // Left to right, leading stays the left edge.
        let ltr = try XCTUnwrap(inkColumns(draw([run("Total", .leading, .leftToRight)])))
        XCTAssertLessThan(ltr.upperBound, 100)
    }

    /// A right-to-left paragraph orders mixed runs from the right: the Latin word of
    /// "שלום    abc" (four spaces), last in reading order, is drawn at the left end. The
    /// paragraph's direction is natural, its first strong character's: "abc    שלום" is a
    /// left-to-right paragraph in either layout, "abc" at the left end. (Words are told apart by
    /// their ink widths.)
    func testMixedTextIsOrderedFromTheRight() throws {
        let abc = try XCTUnwrap(inkColumns(draw([run("abc", .leading, .leftToRight)]))).count
        let shalom = try XCTUnwrap(inkColumns(draw([run("שלום", .leading, .leftToRight)]))).count
        XCTAssertGreaterThan(abs(abc - shalom), 4, "words of different widths")
        let rtl = try words(draw([run("שלום    abc", .leading, .rightToLeft)]))
        XCTAssertEqual(rtl.count, 2)
        XCTAssertEqual(Double(rtl[0]), Double(abc), accuracy: 2, "right to left: \"abc\" at the left")
        XCTAssertEqual(Double(rtl[1]), Double(shalom), accuracy: 2, "right to left: the Hebrew word at the right")
        let natural = try words(draw([run("abc    שלום", .leading, .rightToLeft)]))
        XCTAssertEqual(natural.count, 2)
        XCTAssertEqual(Double(natural[0]), Double(abc), accuracy: 2, "a Latin first word: a left-to-right paragraph")
        let ltr = try words(draw([run("abc    שלום", .leading, .leftToRight)]))
        XCTAssertEqual(ltr.count, 2)
        XCTAssertEqual(Double(ltr[0]), Double(abc), accuracy: 2, "left to right: \"abc\" at the left")
    }

    /// The ink widths (px) of the words of a one-line image, left to right: runs of columns with
    /// ink separated by more than 8 empty columns.
    private func words(_ image: RGBAImage) -> [Int] {
        var widths: [Int] = []
        var start: Int?, last = -10
        for x in 0..<image.width where (0..<image.height).contains(where: { image[x, $0].r < 128 }) {
            if x - last > 9 {
                if let s = start { widths.append(last - s + 1) }
                start = x
            }
            last = x
        }
        if let s = start { widths.append(last - s + 1) }
        return widths
    }

    /// A mirrored symbol is the mirror image of the symbol, column for column.
    func testAMirroredSymbolIsTheMirrorImage() throws {
        let chevron = ImageSource.symbol("chevron.left")
        func image(_ mirrored: Bool) throws -> RGBAImage {
            try draw([.image(ImageDraw(source: chevron, frame: Rect(x: 10, y: 5, width: 20, height: 30), contentMode: .fill, tint: .black, mirrored: mirrored))],
                     width: 40, height: 40, images: [chevron])
        }
        let plain = try image(false), mirrored = try image(true)
        XCTAssertNotEqual(plain, mirrored)
        var worst = 0
        for y in 0..<40 {
            for x in 0..<40 { worst = max(worst, abs(Int(mirrored[x, y].r) - Int(plain[39 - x, y].r))) }
        }
        // Anti-aliased edges differ by a few levels: librsvg's coverage is not exactly symmetric.
        XCTAssertLessThanOrEqual(worst, 16)
        // Its ink spans the mirrored columns.
        let tip = try XCTUnwrap(inkColumns(plain)), mirroredTip = try XCTUnwrap(inkColumns(mirrored))
        XCTAssertEqual(mirroredTip, (39 - tip.upperBound)...(39 - tip.lowerBound))
    }
}
