@testable import CartRenderCore
import Foundation
import XCTest

/// Text metrics that do not need fonts: every character is 0.55 em wide, a line is 1.25 em tall,
/// and text wraps at `maxWidth` by characters, to at most `maxLines` lines.
struct WrappingMetrics: TextMeasuring {
    /// Every character 0.55 em wide, lines 1.25 em; wrapped between any two characters, each
    /// line at least one character: the width is the widest line's.
    func measure(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?) -> Size {
        let char = 0.55 * font.size
        let width = char * Double(text.count)
        let line = 1.25 * font.size
        guard let w = maxWidth, width > w else { return Size(width: width, height: line) }
        let perLine = max(1, (w / char + 1e-9).rounded(.down))
        let lines = (Double(text.count) / perLine).rounded(.up)
        return Size(width: perLine * char, height: line * min(lines, Double(maxLines ?? .max)))
    }
    func firstBaseline(_ text: String, font: FontSpec) -> Double { font.size }
}

private extension Scene {
    /// The cart section, for tests that change it.
    var cart: CartContent {
        get { guard let c = content as? CartContent else { fatalError("a cart scene") }; return c }
        set { content = newValue }
    }
}

/// Layout of the cart page (seed 003) on an iPhone 16 (393×852 pt, safe area 59/34 pt).
final class CartLayoutTests: XCTestCase {
    private func scene(items count: Int = 3, events: [(Double, CartAction)] = [], scheme: ColorScheme = .light) -> Scene {
        var s = Scene()
        s.colorScheme = scheme
        var cart = CartContent()
        let prices = ["10.00", "90.99", "100.00", "50.00", "100.00"]
        cart.items = (0..<count).map { i in
            CartItem(id: "tek\(i + 1)", name: "Tek Product \(i + 1)", details: "Gift", image: .symbol("bag.fill"),
                     price: Decimal(string: prices[i % prices.count])!, quantity: 1)
        }
        s.content = cart
        s.events = events.enumerated().map { SceneEvent(at: $0.element.0, action: $0.element.1, index: $0.offset) }
        return s
    }

    private func layout(_ s: Scene) -> CartLayout { CartLayout(scene: s, cart: s.cart, measurer: WrappingMetrics()) }

    func testStaticFrames() {
        let l = layout(scene())
        // Header: 59 safe area + 16 padding; content height = title line (35 pt).
        XCTAssertEqual(l.chevronFrame, Rect(x: 16, y: 79, width: 15, height: 26))
        XCTAssertEqual(l.titleFrame.minX, 16 + 15 + 20)
        XCTAssertEqual(l.titleFrame.minY, 75)
        // Check out: 852 − 34 = 818 at the bottom; 35 + 2 × 16 tall; 393 − 30 wide, centered.
        XCTAssertEqual(l.checkoutFrame, Rect(x: 15, y: 751, width: 363, height: 67))
        // Total line 8 pt above the button.
        XCTAssertEqual(l.totalLabelFrame.minY, 708)
        // The scroll view between header (+8) and bottom area (16 padding, +8).
        XCTAssertEqual(l.listFrame, Rect(x: 0, y: 134, width: 393, height: 550))
    }

    /// The text runs of a frame, at any depth.
    private func runs(_ items: [DisplayItem]) -> [TextRun] {
        items.flatMap { item -> [TextRun] in
            switch item {
            case .text(let run): return [run]
            case .group(_, _, _, let children): return runs(children)
            default: return []
            }
        }
    }

    /// A title too long for its place wraps like SwiftUI's Text, and so do amounts (seed 003
    /// gives its texts no `lineLimit`): a price and a quantity share their row as SwiftUI's
    /// HStack does (the less flexible keeps its width when it fits in half of what the symbols
    /// leave, the other wraps in the rest and takes its lines' width), and so do "Total" and
    /// the total; the controls and the bottom area grow taller.
    func testLongTitleAndAmountsWrapInTheirShare() {
        var s = scene(items: 2)
        s.cart.title = String(repeating: "Holiday ", count: 5)            // 40 × 15.4 pt: two lines of 326 pt
        s.cart.items[0].price = Decimal(string: "999999999999.99")!     // "$999,999,999,999.99": 19 × 8.25 pt
        s.cart.items[1].quantity = 123
        let l = layout(s)
        XCTAssertEqual(l.titleFrame.width, 393 - 16 - 51)
        XCTAssertEqual(l.titleFrame.height, 70, "two 35 pt lines")
        XCTAssertEqual(l.chevronFrame.midY, l.titleFrame.midY, accuracy: 0.5, "chevron centered on both lines")

        for (i, m) in l.rows.enumerated() {
            let stepper = l.stepperFrames(quantity: s.cart.items[i].quantity, metrics: m)
            XCTAssertLessThanOrEqual(m.priceFrame.maxX + 2 * CartLook.controlSpacing, stepper.minus.minX + 1e-9, "row \(i): price clear of the stepper")
        }
        // 216 pt − 4 × 15 spacing − 2 × 15 symbols = 126 pt for price and quantity. Row 0: the
        // 30 pt box of "1" (no flexibility) keeps its width; the price is offered the other 96
        // and wraps there, eleven characters a line (90.75 pt, on the 1/3 pt grid 91): two lines.
        XCTAssertEqual(l.rows[0].quantityWidth, 30)
        XCTAssertEqual(l.rows[0].priceFrame.width, 91, accuracy: 1e-9)
        XCTAssertEqual(l.rows[0].priceFrame.height, 38, "two 18.75 pt lines")
        XCTAssertEqual(l.rows[0].controlsFrame.height, 38, "the controls grow with the price")
        XCTAssertEqual(l.rows[0].height, 162, "the text column is still shorter than the image")
        // Row 1: "$90.99" (49.5 pt) and the 50 pt box of "123" both fit: one line each.
        XCTAssertEqual(l.rows[1].priceFrame.width, 49.5, accuracy: 1.0 / 3)
        XCTAssertEqual(l.rows[1].priceFrame.height, 19)
        XCTAssertEqual(l.rows[1].quantityWidth, 50)
        XCTAssertEqual(l.rows[1].height, 162)
        let state = l.timeline().state(at: 0)
        let drawn = runs(l.displayList(for: state).items)
        let price = drawn.first { $0.text == "$999,999,999,999.99" }
        XCTAssertEqual(price?.maxWidth, l.rows[0].priceFrame.width)
        XCTAssertNil(price?.maxLines, "wrapped, never cut")

        // "Total" (77 pt) keeps its width; the 323.4 pt total is offered 393 − 32 − 16 − 77 = 268 pt
        // and wraps there, 17 characters a line (261.8 pt): two lines, at the trailing edge.
        let line = l.totalLine(for: state)
        XCTAssertEqual(line.text, "$1,000,000,011,191.76")
        XCTAssertEqual(line.value.width, 17 * 15.4, accuracy: 1e-9)
        XCTAssertEqual(line.value.maxX, 393 - 16, accuracy: 1e-9)
        XCTAssertEqual(line.value.height, 70)
        XCTAssertEqual(line.label.width, 77, accuracy: 1e-9)
        XCTAssertEqual(line.value.minY, 708 - 35, "the bottom area grows by a line")
        XCTAssertEqual(line.label.minY, 708 - 35 + 17, "the label centered on the line")
        XCTAssertEqual(line.list.height, l.listFrame.height - 35)
        let total = drawn.first { $0.text == line.text }
        XCTAssertEqual(total?.maxWidth, line.value.width)
        XCTAssertEqual(total?.origin.x, line.value.minX)
        let plain = layout(scene())
        let one = plain.totalLine(for: plain.timeline().state(at: 0))
        XCTAssertEqual(one.label.minY, plain.totalLabelFrame.minY, "one line: the static frames")
        XCTAssertEqual(one.list, plain.listFrame)
    }

    /// With no room at all, texts keep their font size: a price with no room in the column
    /// takes its widest character beside it (the stack overflows), the quantity box keeps its
    /// widest digit and the quantity wraps one digit a line, "Total" wraps in its half and the
    /// total in the rest (the bottom area grows), and no text runs past the screen.
    func testAmountsWiderThanTheScreenWrapNotShrink() {
        var s = scene(items: 1)
        s.device.width = 200                                             // text column 200 − 177 = 23 pt
        s.cart.items[0].price = Decimal(string: "999999999999.99")!
        s.cart.items[0].quantity = 1_000_000
        let l = layout(s)
        let m = l.rows[0]
        // The symbols and the box take all the column: the price keeps its widest character
        // (8.25 pt, 8.33 on the 1/3 pt grid) by reaching into the 15 pt beside the image.
        XCTAssertEqual(m.priceFrame.width, 25.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(m.priceFrame.maxX, 161, accuracy: 1e-9, "ends where the text column starts")
        XCTAssertGreaterThanOrEqual(m.priceFrame.minX, 16 + 130, "clear of the image")
        XCTAssertEqual(m.quantityWidth, 30, "the box keeps its widest digit (9.9 pt, rounded up) and its padding")
        let stepper = l.stepperFrames(quantity: 1_000_000, metrics: m)
        XCTAssertEqual(stepper.quantity.size, Size(width: 30, height: (7 * 22.5).rounded(.up) + 10), "seven lines of one digit")
        XCTAssertEqual(m.controlsFrame.height, (19 * 18.75).rounded(.up), "as tall as the price: 19 lines of one character")
        let state = l.timeline().state(at: 0)
        let drawn = runs(l.displayList(for: state).items)
        XCTAssertEqual(drawn.first { $0.text == "$999,999,999,999.99" }?.maxWidth, 25.0 / 3, "one character a line")
        XCTAssertEqual(drawn.first { $0.text == "1000000" }?.maxWidth, 10, "the quantity wraps inside the box's padding")
        XCTAssertTrue(drawn.allSatisfy { $0.font.size == 15 || $0.font.size == 18 || $0.font.size == 28 }, "no text is shrunk")
        let m8 = WrappingMetrics()
        for run in drawn {
            XCTAssertEqual(m8.measure(run.text, font: run.font, maxWidth: run.maxWidth, maxLines: run.maxLines),
                           m8.measure(run.text, font: run.font, maxWidth: run.maxWidth, maxLines: nil), "\(run.text): every line drawn")
        }

        // 200 − 48 = 152 pt: "Total" (77 pt) is offered 76 and wraps, four characters a line
        // (61.6 pt); the 27-character total gets the other 90.4: five a line, six lines.
        let line = l.totalLine(for: state)
        XCTAssertEqual(line.text.count, 27)
        XCTAssertEqual(line.label.width, 4 * 15.4, accuracy: 1e-9)
        XCTAssertEqual(line.label.height, 70, "two lines")
        XCTAssertEqual(line.value.width, 5 * 15.4, accuracy: 1e-9)
        XCTAssertEqual(line.value.height, 210, "six lines")
        XCTAssertEqual(line.value.maxX, 200 - 16, accuracy: 1e-9)
        XCTAssertEqual(line.value.minY, 708 - 175, "the bottom area grows by five lines")
        XCTAssertEqual(line.list.height, l.listFrame.height - 175)
        XCTAssertGreaterThanOrEqual(line.value.minY, l.titleFrame.maxY)
    }

    /// Names and details wrap to every line they need (seed 003 sets no `lineLimit`; they used
    /// to be cut at three): a 200-character name takes ten lines of 21 characters and its row
    /// grows to hold them; the rows below move down by as much.
    func testRowsGrowWithTheirNames() {
        var s = scene(items: 2)
        s.cart.items[0].name = String(repeating: "Tek Product ", count: 17).prefix(200).description
        s.cart.items[0].details = String(repeating: "Gift ", count: 20)   // 100 characters: five lines
        let l = layout(s)
        let m = l.rows[0]
        XCTAssertEqual(m.nameFrame.height, 225, "ten 22.5 pt lines")
        XCTAssertEqual(m.detailsFrame.height, 113, "five lines")
        XCTAssertEqual(m.height, 225 + 10 + 113 + 10 + 33 + 32)
        XCTAssertGreaterThan(m.height, l.rows[1].height)
        XCTAssertEqual(m.controlsFrame.maxY, m.height - 16, "the controls at the bottom of the taller stack")
        XCTAssertEqual(m.imageFrame.midY, m.height / 2, accuracy: 0.5, "the image centered on it")
        let slots = l.slots(for: l.timeline().state(at: 0))
        XCTAssertEqual(slots[1].y, slots[0].y + m.height)
        let drawn = runs(l.displayList(for: l.timeline().state(at: 0)).items)
        XCTAssertNil(drawn.first { $0.text == s.cart.items[0].name }?.maxLines, "no line limit")
    }

    /// The stepper's widest quantity is reserved from the start (its starting quantity plus its
    /// plus taps, at most 1,000,000), so that a plus tap never moves the price; a quantity wider
    /// than its share wraps between its digits inside its box, which grows taller.
    func testTheStepperReservesItsWidestQuantity() {
        var s = scene(items: 2)
        s.cart.items[0].price = 1                                      // "$1.00": 41.25 pt
        s.cart.items[0].quantity = 99_999                              // 5 digits: a 70 pt box
        s.cart.items[1].quantity = 1_000_000
        XCTAssertEqual(layout(s).rows[0].quantityWidth, 70, "both fit in the 126 pt")
        s.events = [SceneEvent(at: 0.5, action: CartAction.tap(.row(.plus, item: "tek1")), index: 0),
                    SceneEvent(at: 0.6, action: CartAction.tap(.row(.plus, item: "tek2")), index: 1)]
        XCTAssertEqual(CartLayout.maximumQuantities(cart: s.cart, events: s.events), [100_000, 1_000_000], "plus stops at the limit")
        let l = layout(s)
        // The prices (41.25 and 49.5 pt) are less flexible than the 80 and 90 pt boxes: they are
        // offered 63 and keep their widths; the boxes get the rest: row 0's 80 pt box fits its
        // 84.75 pt, row 1's 90 pt box wraps in 76.5 pt.
        XCTAssertEqual(l.rows.map(\.quantityWidth), [80, 126 - 49.5])
        // Row 0 on one line; row 1 six digits a line in 56.5 pt: a 70 pt box, two lines.
        for (i, m) in l.rows.enumerated() {
            let stepper = l.stepperFrames(quantity: [100_000, 1_000_000][i], metrics: m)
            XCTAssertEqual(stepper.quantity.size, Size(width: [80, 70][i], height: [33, 55][i]), "row \(i): the box in its share")
            XCTAssertLessThanOrEqual(m.priceFrame.maxX + 2 * CartLook.controlSpacing, stepper.minus.minX + 1.0 / 3, "row \(i): price beside the stepper (pixel rounding)")
            XCTAssertEqual(m.priceFrame.height, 19, "row \(i): one line")
            XCTAssertEqual(m.controlsFrame.height, [33, 55][i], "row \(i): as tall as the box")
        }
        let state = l.timeline().state(at: 1)
        let quantities = runs(l.displayList(for: state).items).filter { $0.text == "100000" || $0.text == "1000000" }
        XCTAssertEqual(quantities.map(\.maxLines), [nil, nil], "wrapped, not cut")
        XCTAssertEqual(quantities.map(\.maxWidth), [nil, 50])
    }

    /// A title too long for the screen takes the lines of its share of the page's `VStack`
    /// (`StackShares`), the last ending in "…", and never covers "Total" or the button.
    func testTitleTooLongForTheScreenIsCutWithAnEllipsis() {
        var s = scene(items: 1)
        s.cart.title = String(repeating: "Holiday ", count: 200)
        let l = layout(s)
        // The bottom area (the less flexible) takes its height first; the header, more flexible
        // than it and less than the scroll view, is offered half of what is left (759 − 16 − 160
        // = 583: 291.5 pt), 32 pt of padding and 7 lines of 35 pt.
        XCTAssertEqual(l.titleMaxLines, 7)
        XCTAssertEqual(l.titleFrame.height, 245)
        XCTAssertEqual(l.listFrame.minY, 75 + 245 + 16 + 8)
        XCTAssertEqual(l.listFrame.maxY, 692 - 8)
        let runs = l.displayList(for: l.timeline().state(at: 0)).items.compactMap { item -> TextRun? in
            if case .text(let run) = item, run.text == s.cart.title { return run }
            return nil
        }
        XCTAssertEqual(runs.map(\.maxLines), [7])
        XCTAssertEqual(layout(scene()).titleMaxLines, 1, "a short title takes its one line")
    }

    func testRowMetrics() {
        let l = layout(scene())
        let m = l.rows[0]
        XCTAssertEqual(m.height, 162, "130 pt image + 2 × 16 pt padding")
        XCTAssertEqual(m.imageFrame, Rect(x: 16, y: 16, width: 130, height: 130))
        // Text column: after the image and 15 pt; to 16 pt from the trailing edge.
        XCTAssertEqual(m.nameFrame.minX, 161)
        XCTAssertEqual(m.nameFrame.width, 216)
        // VStack (23 + 10 + 23 + 10 + 33 = 99 pt) centered on the image.
        XCTAssertEqual(m.nameFrame.minY, 31)
        XCTAssertEqual(m.detailsFrame.minY, 64)
        XCTAssertEqual(m.controlsFrame, Rect(x: 161, y: 97, width: 216, height: 33))
        XCTAssertEqual(m.trashFrame, Rect(x: 303, y: 56, width: 90, height: 50))
        let s = l.stepperFrames(quantity: 1, metrics: m)
        XCTAssertEqual(s.plus.maxX, 377)
        XCTAssertEqual(s.quantity.maxX, s.plus.minX - 15)
        XCTAssertEqual(s.minus.maxX, s.quantity.minX - 15)
        XCTAssertEqual(s.quantity.height, 33)
        // The quantity box grows with the digits; plus stays put.
        var roomy = m
        roomy.quantityWidth = .infinity                                // a row reserving room for 100
        let wide = l.stepperFrames(quantity: 100, metrics: roomy)
        XCTAssertEqual(wide.plus, s.plus)
        XCTAssertGreaterThan(wide.quantity.width, s.quantity.width)
    }

    func testRowsStackWithoutSpacing() {
        let l = layout(scene())
        let slots = l.slots(for: l.timeline().state(at: 0))
        XCTAssertEqual(slots.map(\.y), [134, 296, 458])
        XCTAssertEqual(slots.map(\.height), [162, 162, 162])
    }

    /// Rows below a deleted row move up as its slot collapses with the deletion's curve.
    func testRowsCloseTheGapAfterATrashDeletion() {
        let s = scene(events: [(0, .swipe(item: "tek2", translation: -80, duration: 0.2)), (1, .tap(.row(.delete, item: "tek2")))])
        let l = layout(s)
        let tl = l.timeline()
        for f in [0.0, 0.25, 0.5, 0.75] {
            let slots = l.slots(for: tl.state(at: 1 + 0.35 * f))
            let p = TimingCurve.easeIn.value(at: f)
            XCTAssertEqual(slots.map(\.row.id), ["tek1", "tek2", "tek3"])
            XCTAssertEqual(slots[1].y, 296)
            XCTAssertEqual(slots[1].height, 162 * (1 - p), accuracy: 1e-9)
            XCTAssertEqual(slots[2].y, 296 + 162 * (1 - p), accuracy: 1e-9)
        }
        let after = l.slots(for: tl.state(at: 1.35))
        XCTAssertEqual(after.map(\.row.id), ["tek1", "tek3"])
        XCTAssertEqual(after.map(\.y), [134, 296])
    }

    func testRowsCloseTheGapAfterAFullSwipe() {
        let s = scene(events: [(0, .swipe(item: "tek1", translation: -300, duration: 0.2))])
        let l = layout(s)
        let slots = l.slots(for: l.timeline().state(at: 0.2 + 0.175))
        let p = TimingCurve.easeOut.value(at: 0.5)
        XCTAssertEqual(slots[1].y, 134 + 162 * (1 - p), accuracy: 1e-9)
        XCTAssertEqual(slots[2].y, 134 + 162 * (1 - p) + 162, accuracy: 1e-9)
        XCTAssertEqual(l.slots(for: l.timeline().state(at: 0.55)).map(\.y), [134, 296])
    }

    /// The rows' groups inside the list's clip, in drawing order.
    private func rowGroups(_ list: DisplayList, clip: Rect) -> [(y: Double, opacity: Double, items: [DisplayItem])] {
        for item in list.items {
            guard case .group(_, _, .rect(let r)?, let rows) = item, r == clip else { continue }
            return rows.compactMap { row in
                guard case .group(let t, let opacity, nil, let items) = row else { return nil }
                return (t.ty, opacity, items)
            }
        }
        return []
    }

    func testRemovedRowIsDrawnBeneathTheOthersAndFades() {
        let s = scene(events: [(0, .swipe(item: "tek1", translation: -300, duration: 0.2))])
        let l = layout(s)
        let display = l.displayList(for: l.timeline().state(at: 0.2 + 0.175))
        let groups = rowGroups(display, clip: l.listFrame)
        XCTAssertEqual(groups.count, 3)
        XCTAssertEqual(groups[0].y, 134, "the removed row comes first, at its slot's top")
        XCTAssertEqual(groups[0].opacity, 1 - TimingCurve.easeOut.value(at: 0.5), accuracy: 1e-9)
        XCTAssertEqual(groups[1].opacity, 1)
        // Its backdrop (gradient + trash) shows, and its content is moved by the offset.
        guard case .fill(.rect, .linearGradient)? = groups[0].items.first else { return XCTFail("no backdrop: \(groups[0].items)") }
        guard case .group(let t, _, _, _)? = groups[0].items.last else { return XCTFail("no content group") }
        XCTAssertEqual(t.tx, -300 - 700 * TimingCurve.easeOut.value(at: 0.5), accuracy: 1e-9)
    }

    func testRowsAtRestDrawNoBackdrop() {
        let l = layout(scene())
        let groups = rowGroups(l.displayList(for: l.timeline().state(at: 0)), clip: l.listFrame)
        for g in groups {
            XCTAssertEqual(g.items.count, 1, "only the content: the gradient would bleed through anti-aliased edges")
        }
    }

    func testRowsOutsideTheScrollViewAreNotDrawn() {
        let l = layout(scene(items: 5))
        // 134 + 3 × 162 = 620 < 684 (list bottom) < 782: four rows visible, the fifth below.
        let groups = rowGroups(l.displayList(for: l.timeline().state(at: 0)), clip: l.listFrame)
        XCTAssertEqual(groups.map(\.y), [134, 296, 458, 620])
    }

    /// Dark mode draws what seed 003's code draws: its `.black` texts and `Color.black.opacity(0.06)`
    /// quantity box are not dynamic colors, and its asset colors have one appearance; only
    /// system colors (the prices' systemRed) change.
    func testDarkAppearanceKeepsTheSeedsFixedColors() {
        let light = layout(scene()), dark = layout(scene(scheme: .dark))
        let l = light.displayList(for: light.timeline().state(at: 0)), d = dark.displayList(for: dark.timeline().state(at: 0))
        XCTAssertEqual(d.background, Color(r8: 242, g8: 242, b8: 247))
        guard case .fill(_, .linearGradient(_, _, let colors))? = d.items.first(where: {
            if case .fill(.continuousRoundedRect, _) = $0 { return true }; return false
        }) else { return XCTFail("no checkout button") }
        XCTAssertEqual(colors, [Color(r8: 100, g8: 180, b8: 255), Color(r8: 0, g8: 88, b8: 220)])
        /// Every text run's text and color, depth first.
        func texts(_ items: [DisplayItem]) -> [String: Color] {
            var out: [String: Color] = [:]
            for item in items {
                switch item {
                case .text(let run): out[run.text] = run.color
                case .group(_, _, _, let inner), .blur(_, let inner): out.merge(texts(inner)) { a, _ in a }
                default: break
                }
            }
            return out
        }
        let lightTexts = texts(l.items), darkTexts = texts(d.items)
        for name in ["Tek Product 1", "1", "My cart"] where lightTexts[name] != nil {
            XCTAssertEqual(darkTexts[name], Color.black, name)
        }
        XCTAssertEqual(darkTexts["Tek Product 1"], Color.black)
        XCTAssertEqual(darkTexts["$10.00"], Look.systemRed.dark, "prices are systemRed, which adapts")
        XCTAssertEqual(lightTexts["$10.00"], Look.systemRed.light)
    }

    /// The quantity shows the locale's digits (seed 003's `Text("\(item.quantity)")`), in the box's place: every text sits on its font's
    /// baseline whatever font draws it (the text engine's contract, checked from the ink in
    /// TextMetricsTests), so "١" is laid out where "1" is.
    func testQuantityTakesTheLocalesDigitsOnTheBoxsBaseline() {
        /// The quantity runs ("1"/"١") of the first row and their tops.
        func quantities(_ locale: String) -> [(String, Double)] {
            var s = scene(items: 1)
            s.locale = locale
            let l = CartLayout(scene: s, cart: s.cart, measurer: WrappingMetrics())
            var out: [(String, Double)] = []
            func walk(_ items: [DisplayItem]) {
                for item in items {
                    switch item {
                    case .text(let run) where ["1", "١"].contains(run.text): out.append((run.text, run.origin.y))
                    case .group(_, _, _, let inner), .blur(_, let inner): walk(inner)
                    default: break
                    }
                }
            }
            walk(l.displayList(for: l.timeline().state(at: 0)).items)
            return out
        }
        let latin = quantities("en_US"), arabic = quantities("ar_SA")
        XCTAssertEqual(latin.map(\.0), ["1"])
        XCTAssertEqual(arabic.map(\.0), ["١"])
        XCTAssertEqual(arabic[0].1, latin[0].1, accuracy: 1e-9)
    }

    /// A deletion changes the total inside its animation: the old amount fades out and the new
    /// one in with the deletion's eased progress (the Text's `.opacity` content transition), and
    /// the total is drawn plainly before and after.
    func testTheTotalCrossFadesWhileARowIsDeleted() throws {
        let s = scene(events: [(0, .swipe(item: "tek2", translation: -80, duration: 0.2)), (1, .tap(.row(.delete, item: "tek2")))])
        let l = layout(s)
        let timeline = l.timeline()
        /// The total texts drawn at `t`, with the opacity of the group around each (1 for none).
        func totals(at t: Double) -> [(String, Double)] {
            l.displayList(for: timeline.state(at: t)).items.compactMap { item -> (String, Double)? in
                switch item {
                case .text(let run) where run.text.hasPrefix("$"): return (run.text, 1)
                case .group(_, let o, nil, let inner):
                    if case .text(let run)? = inner.first, run.text.hasPrefix("$") { return (run.text, o) }
                    return nil
                default: return nil
                }
            }
        }
        XCTAssertEqual(totals(at: 0.9).map(\.0), ["$200.99"])
        let mid = timeline.state(at: 1.175)
        let removal = try XCTUnwrap(mid.rows.first { $0.id == "tek2" }).removal
        XCTAssertTrue(removal > 0.2 && removal < 0.5, "easeIn, half way through its 0.35 s: behind linear (\(removal))")
        let fading = totals(at: 1.175)
        XCTAssertEqual(fading.map(\.0), ["$200.99", "$110.00"])
        XCTAssertEqual(fading[0].1, 1 - removal, accuracy: 1e-9)
        XCTAssertEqual(fading[1].1, removal, accuracy: 1e-9)
        XCTAssertEqual(totals(at: 1.5).map(\.0), ["$110.00"])
        XCTAssertEqual(totals(at: 1.5).map(\.1), [1])
    }

    func testManifestStateKeysAndValues() throws {
        let s = scene(events: [(0, .swipe(item: "tek2", translation: -80, duration: 0.2)), (1, .tap(.row(.plus, item: "tek1")))])
        let screen = CartModel(scene: s, cart: s.cart, measurer: WrappingMetrics())
        let state = screen.frame(at: 1.05).state
        XCTAssertEqual(try JSONValue(encoding: state).serialized(), #"{"rows":[{"id":"tek1","offset":0,"y":134,"height":162,"quantity":2,"open":false,"phase":"rest","opacity":1},{"id":"tek2","offset":-90,"y":296,"height":162,"quantity":1,"open":true,"phase":"rest","opacity":1},{"id":"tek3","offset":0,"y":458,"height":162,"quantity":1,"open":false,"phase":"rest","opacity":1}],"total":"$210.99","totalAmount":"210.99","openRows":["tek2"],"pressed":["plus:tek1"]}"#)
    }
}
