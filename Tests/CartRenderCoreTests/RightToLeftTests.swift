@testable import CartRenderCore
import Foundation
import XCTest

/// Right-to-left layout and motion (docs/motion-and-look.md, “Right to left”): the direction a scene takes from its locale or
/// `layoutDirection`, mirrored frames of both screens, mirrored flights and swipes.
final class RightToLeftTests: XCTestCase {
    private func decode(_ json: String) throws -> Scene {
        try SceneDecoder.decode(Array(json.utf8), file: "scene.json", baseDirectory: "/")
    }

    // MARK: Scene

    func testTheLocaleDecidesTheDirection() throws {
        let table: [(String, LayoutDirection)] = [
            ("en_US", .leftToRight), ("de_DE", .leftToRight), ("ar_SA", .rightToLeft), ("he_IL", .rightToLeft),
            ("fa_IR", .rightToLeft), ("ur_PK", .rightToLeft), ("ar", .rightToLeft), ("arn_CL", .leftToRight),
        ]
        for (locale, direction) in table {
            XCTAssertEqual(LayoutDirection(locale: locale), direction, locale)
        }
        XCTAssertEqual(try decode(#"{"locale": "ar_SA"}"#).layoutDirection, .rightToLeft)
        XCTAssertEqual(try decode(#"{"locale": "he-IL"}"#).layoutDirection, .rightToLeft)
        XCTAssertEqual(try decode(#"{}"#).layoutDirection, .leftToRight)
    }

    func testTheSceneKeyOverridesTheLocale() throws {
        XCTAssertEqual(try decode(#"{"layoutDirection": "rightToLeft"}"#).layoutDirection, .rightToLeft)
        XCTAssertEqual(try decode(#"{"layoutDirection": "leftToRight", "locale": "ar_SA"}"#).layoutDirection, .leftToRight)
        XCTAssertEqual(try decode(#"{"locale": "ar_SA", "layoutDirection": "leftToRight"}"#).layoutDirection, .leftToRight)
    }

    func testABadDirectionIsAnErrorAtItsValue() {
        XCTAssertThrowsError(try decode("{\n  \"layoutDirection\": \"rtl\"\n}")) { e in
            XCTAssertEqual((e as? SceneError)?.description,
                           #"scene.json:2:22: layoutDirection: must be "leftToRight" or "rightToLeft", got "rtl""#)
        }
        XCTAssertThrowsError(try decode(#"{"layoutDirecton": "rightToLeft"}"#)) { e in
            XCTAssertTrue((e as? SceneError)?.description.hasSuffix(#"did you mean "layoutDirection"?"#) ?? false, "\(e)")
        }
    }

    /// The canonical scene names the direction only when it is not the locale's, so left-to-right
    /// scenes keep their identity and the two spellings of one right-to-left scene are one scene.
    func testCanonicalFormNamesOnlyADirectionTheLocaleDoesNotImply() throws {
        func keys(_ s: Scene) -> [String] {
            guard case .object(let m) = s.canonicalJSON else { return [] }
            return m.map(\.0)
        }
        XCTAssertFalse(keys(try decode("{}")).contains("layoutDirection"))
        XCTAssertFalse(keys(try decode(#"{"locale": "ar_SA"}"#)).contains("layoutDirection"))
        XCTAssertEqual(try decode(#"{"locale": "ar_SA"}"#), try decode(#"{"locale": "ar_SA", "layoutDirection": "rightToLeft"}"#))
        let forced = try decode(#"{"locale": "en_US", "layoutDirection": "rightToLeft"}"#)
        XCTAssertEqual(Array(keys(forced).prefix(8)), ["version", "screen", "device", "colorScheme", "reduceMotion", "locale", "layoutDirection", "tint"])
        XCTAssertNotEqual(forced, try decode("{}"))
        // The canonical form decodes to the same scene.
        for s in [forced, try decode(#"{"locale": "ar_SA", "layoutDirection": "leftToRight"}"#)] {
            let again = try decode(s.canonicalJSON.serialized())
            XCTAssertEqual(again.layoutDirection, s.layoutDirection)
        }
    }

    // MARK: Shop

    private func shop(_ direction: LayoutDirection, count: Int = 0) -> ShopLayout {
        var s = Scene()
        s.layoutDirection = direction
        var shop = ShopContent()
        shop.count = count
        s.content = shop
        return ShopLayout(scene: s, shop: shop, measurer: FixedMetrics())
    }

    private func mirror(_ r: Rect, _ width: Double = 393) -> Rect { Rect(x: width - r.maxX, y: r.y, width: r.width, height: r.height) }

    func testShopFramesAreMirrored() {
        let ltr = shop(.leftToRight), rtl = shop(.rightToLeft)
        XCTAssertEqual(rtl.cartIconFrame, mirror(ltr.cartIconFrame))
        XCTAssertEqual(rtl.cartIconFrame.minX, 24, "the cart at the left padding")
        XCTAssertEqual(rtl.titleFrame.maxX, 393 - 24, "the title ends at the right padding")
        XCTAssertEqual(rtl.buttonIconFrame, mirror(ltr.buttonIconFrame))
        XCTAssertGreaterThan(rtl.buttonIconFrame.minX, rtl.buttonTitleFrame.maxX, "the button's icon right of its title")
        XCTAssertEqual(rtl.imageContainerFrame, ltr.imageContainerFrame)
    }

    func testShopTextIsRightToLeftAndTheCartSymbolMirrored() {
        let list = shop(.rightToLeft, count: 3).displayList(for: shop(.rightToLeft).timeline().state(at: 0))
        var runs: [TextRun] = [], images: [ImageDraw] = []
        func walk(_ items: [DisplayItem]) {
            for i in items {
                switch i {
                case .text(let r): runs.append(r)
                case .image(let d): images.append(d)
                case .group(_, _, _, let inner): walk(inner)
                default: break
                }
            }
        }
        walk(list.items)
        XCTAssertEqual(runs.filter { $0.maxWidth != nil }.map(\.direction), Array(repeating: .rightToLeft, count: 4), "title, button, name, description")
        XCTAssertEqual(images.filter(\.mirrored).map(\.source), [ShopLayout.cartSymbol, ShopLayout.buttonSymbol])
        XCTAssertFalse(images.contains { $0.source == ShopContent().image && $0.mirrored }, "the product image is not mirrored")
    }

    /// The badge sits at the cart's top-left (trailing) corner and grows rightward.
    func testBadgeAtTheTopLeftCorner() {
        let l = shop(.rightToLeft, count: 1000)
        let badge = l.badge(ShopState(time: 0, count: 1000, badgeScale: 1, digits: nil, flights: [], buttonPressed: false))
        guard case .fill(.capsule(let capsule), _) = badge.first else { return XCTFail("a capsule first") }
        XCTAssertEqual(capsule.minX, l.cartIconFrame.minX)
        XCTAssertEqual(capsule.width, l.badgeWidth("1,000"))
        let ltr = shop(.leftToRight, count: 1000)
        guard case .fill(.capsule(let other), _) = ltr.badge(ShopState(time: 0, count: 1000, badgeScale: 1, digits: nil, flights: [], buttonPressed: false)).first
        else { return XCTFail("a capsule first") }
        XCTAssertEqual(other.maxX, ltr.cartIconFrame.maxX)
    }

    /// The flight arc of docs/motion-and-look.md (The fly button) on the mirrored frames: the
    /// destination and the arc are mirrored images of the left-to-right ones (the source is
    /// centered), the vertical motion is the same.
    func testFlightHeadsToTheCartOnTheLeft() {
        let ltr = shop(.leftToRight).timeline(), rtl = shop(.rightToLeft).timeline()
        let d = try! XCTUnwrap(rtl.destination), e = try! XCTUnwrap(ltr.destination)
        XCTAssertLessThan(d.dx, 0)
        XCTAssertEqual(d.dx, -e.dx, accuracy: 1e-9)
        XCTAssertEqual(d.dy, e.dy)
        XCTAssertEqual(rtl.sourceCenter.x, 393.0 / 2)
        for p in [0.25, 0.5, 0.75, 1] {
            let a = FlyTimeline.arcOffset(progress: p, destination: d), b = FlyTimeline.arcOffset(progress: p, destination: e)
            XCTAssertEqual(a.dx, -b.dx, accuracy: 1e-9, "progress \(p)")
            XCTAssertEqual(a.dy, b.dy, accuracy: 1e-9, "progress \(p)")
        }
        // Half-way: the control point (0.35·dx, min(dy, 0) − 120) mirrored.
        let mid = FlyTimeline.arcOffset(progress: 0.5, destination: d)
        XCTAssertEqual(mid.dx, 2 * 0.25 * 0.35 * d.dx + 0.25 * d.dx, accuracy: 1e-9)
        XCTAssertEqual(mid.dy, 2 * 0.25 * (min(d.dy, 0) - 120) + 0.25 * d.dy, accuracy: 1e-9)
    }

    /// A cart frame given in screen points stays where the scene puts it.
    func testAnExplicitCartFrameIsNotMirrored() {
        var s = Scene()
        s.layoutDirection = .rightToLeft
        var content = ShopContent()
        content.cartFrame = .rect(Rect(x: 300, y: 80, width: 40, height: 40))
        s.content = content
        XCTAssertEqual(ShopLayout(scene: s, shop: content, measurer: FixedMetrics()).cartFrame, Rect(x: 300, y: 80, width: 40, height: 40))
    }

    // MARK: Cart

    private func cartScene(_ direction: LayoutDirection) -> (Scene, CartContent) {
        var s = Scene()
        s.layoutDirection = direction
        var cart = CartContent()
        cart.items = [CartItem(id: "a", name: "A", details: "Gift", image: .symbol("bag.fill"), price: Decimal(string: "10.00")!, quantity: 1)]
        s.content = cart
        return (s, cart)
    }

    func testCartFramesAreMirrored() {
        let (ls, lc) = cartScene(.leftToRight), (rs, rc) = cartScene(.rightToLeft)
        let ltr = CartLayout(scene: ls, cart: lc, measurer: WrappingMetrics()), rtl = CartLayout(scene: rs, cart: rc, measurer: WrappingMetrics())
        XCTAssertEqual(rtl.chevronFrame, mirror(ltr.chevronFrame))
        XCTAssertEqual(rtl.chevronFrame.maxX, 393 - 16)
        XCTAssertEqual(rtl.titleFrame, mirror(ltr.titleFrame))
        XCTAssertEqual(rtl.totalLabelFrame, mirror(ltr.totalLabelFrame))
        XCTAssertEqual(rtl.checkoutFrame, ltr.checkoutFrame, "centered")
        let l = ltr.rows[0], r = rtl.rows[0]
        XCTAssertEqual(r.trashFrame, Rect(x: 0, y: l.trashFrame.y, width: 90, height: 50), "the trash button at the left edge")
        XCTAssertEqual(r.imageFrame.maxX, 393 - 16)
        for (a, b) in [(l.nameFrame, r.nameFrame), (l.detailsFrame, r.detailsFrame), (l.priceFrame, r.priceFrame), (l.controlsFrame, r.controlsFrame)] {
            XCTAssertEqual(b, mirror(a))
        }
        let ls1 = ltr.stepperFrames(quantity: 12, metrics: l), rs1 = rtl.stepperFrames(quantity: 12, metrics: r)
        XCTAssertEqual(rs1.plus.minX, r.controlsFrame.minX, "plus leftmost")
        XCTAssertEqual([rs1.minus, rs1.quantity, rs1.plus], [mirror(ls1.minus), mirror(ls1.quantity), mirror(ls1.plus)])
        let lt = ltr.totalLine(for: ltr.timeline().state(at: 0)), rt = rtl.totalLine(for: rtl.timeline().state(at: 0))
        XCTAssertEqual(rt.value.minX, 16, "the total at the left padding")
        XCTAssertEqual(rt.value.maxX, 393 - lt.value.minX, accuracy: 1e-9)
        XCTAssertEqual(rt.value.y, lt.value.y)
    }

    /// The seed's `chevron.left` keeps pointing left right to left (only `chevron.backward`
    /// follows the reading direction); the carts are mirrored.
    func testCartChevronKeepsItsDirectionAndGradientFromTheRight() {
        let (rs, rc) = cartScene(.rightToLeft)
        let list = CartLayout(scene: rs, cart: rc, measurer: WrappingMetrics()).displayList(for: CartTimeline(scene: rs, cart: rc).state(at: 0))
        guard case .image(let chevron) = list.items.first else { return XCTFail("the chevron first") }
        XCTAssertFalse(chevron.mirrored)
        XCTAssertEqual(chevron.source, .symbol("chevron.left"))
        XCTAssertTrue(Symbols.isMirrored(.symbol("chevron.backward"), in: .rightToLeft))
        XCTAssertTrue(Symbols.isMirrored(.symbol("cart.badge.plus"), in: .rightToLeft))
        XCTAssertFalse(Symbols.isMirrored(.symbol("chevron.backward"), in: .leftToRight))
        let gradients = list.items.compactMap { item -> (Point, Point)? in
            if case .fill(_, .linearGradient(let s, let e, _)) = item { return (s, e) }
            return nil
        }
        XCTAssertEqual(gradients.count, 1, "the checkout button")
        XCTAssertGreaterThan(gradients[0].0.x, gradients[0].1.x, "light blue at the right (leading) edge")
        let (ls, lc) = cartScene(.leftToRight)
        guard case .image(let ltrChevron) = CartLayout(scene: ls, cart: lc, measurer: WrappingMetrics()).displayList(for: CartTimeline(scene: ls, cart: lc).state(at: 0)).items.first
        else { return XCTFail("the chevron first") }
        XCTAssertFalse(ltrChevron.mirrored)
    }

    // MARK: Cart motion

    private func timeline(_ actions: [(Double, CartAction)], width: Double = 393) -> CartTimeline {
        let (_, cart) = cartScene(.rightToLeft)
        let events = actions.enumerated().map { SceneEvent(at: $0.element.0, action: $0.element.1, index: $0.offset) }
        return CartTimeline(items: cart.items, events: events, screenWidth: width, layoutDirection: .rightToLeft)
    }

    /// On the 393 pt wide iPhone 16 half the width is 196.5 pt: a rightward swipe of 196 pt opens
    /// the row at +90, one of 197 pt deletes it toward +1000.
    func testRightwardSwipeThresholdsAtHalfTheWidth() {
        let open = timeline([(0.1, .swipe(item: "a", translation: 196, duration: 0.2))])
        XCTAssertEqual(open.state(at: 0.2).rows[0].offset, 98, accuracy: 1e-9, "the finger half-way")
        XCTAssertEqual(open.state(at: 2).rows[0].offset, 90)
        XCTAssertTrue(open.state(at: 2).rows[0].open)
        let gone = timeline([(0.1, .swipe(item: "a", translation: 197, duration: 0.2))])
        XCTAssertTrue(gone.state(at: 2).rows.isEmpty)
        guard case .release(_, let translation, let offset, let target)? = gone.events.first(where: { $0.kind.name == "release" })?.kind as? CartEvent
        else { return XCTFail("a release") }
        XCTAssertEqual([translation, offset, target], [197, 197, 1000], "manifest values in screen points")
        XCTAssertEqual(gone.state(at: 0.3 + 0.175).rows[0].phase, .delete)
        XCTAssertGreaterThan(gone.state(at: 0.3 + 0.175).rows[0].offset, 197)
    }

    func testOpenThresholdAndLeftwardDrags() {
        XCTAssertEqual(timeline([(0.1, .swipe(item: "a", translation: 50, duration: 0.2))]).state(at: 2).rows[0].offset, 0, "50 pt is not past 50")
        XCTAssertEqual(timeline([(0.1, .swipe(item: "a", translation: 51, duration: 0.2))]).state(at: 2).rows[0].offset, 90)
        let left = timeline([(0.1, .swipe(item: "a", translation: -300, duration: 0.2))])
        XCTAssertEqual(left.state(at: 0.2).rows[0].offset, 0, "a leftward drag does not move the row")
        XCTAssertEqual(left.state(at: 2).rows.count, 1)
        // An open row dragged further: +90 + translation; a leftward drag closes it.
        let further = timeline([(0.1, .swipe(item: "a", translation: 60, duration: 0.2)), (1, .swipe(item: "a", translation: 20, duration: 0.2))])
        XCTAssertEqual(further.state(at: 1.2).rows[0].offset, 110, accuracy: 1e-9)
        let closed = timeline([(0.1, .swipe(item: "a", translation: 60, duration: 0.2)), (1, .swipe(item: "a", translation: -20, duration: 0.2))])
        XCTAssertEqual(closed.state(at: 3).rows[0].offset, 0)
        XCTAssertFalse(closed.state(at: 3).rows[0].open)
    }

    func testTrashTapNeedsARowOpenToTheRight() {
        let tl = timeline([(0.1, .tap(.row(.delete, item: "a")))])
        XCTAssertEqual(tl.issues.first?.message,
                       #"the trash button of "a" is hidden at 0.1 s: the row is not swiped open (a swipe released more than 50 pt to the right opens it)"#)
        let ok = timeline([(0.1, .swipe(item: "a", translation: 120, duration: 0.2)), (1, .tap(.row(.delete, item: "a")))])
        XCTAssertTrue(ok.issues.isEmpty)
        XCTAssertEqual(ok.state(at: 1.175).rows[0].offset, 90, "the row stays open while it fades")
    }
}
