@testable import CartRenderCore
import Foundation
import XCTest

/// The cart page's motion (docs/motion-and-look.md, “The cart page”; seed 003's `onChanged` / `onEnd` / `deleteItem`).
final class CartTimelineTests: XCTestCase {
    /// A cart of three rows on a 400 pt wide screen (full-swipe threshold: 200 pt).
    private func items() -> [CartItem] {
        [
            CartItem(id: "a", name: "A", details: "", image: .symbol("bag.fill"), price: Decimal(string: "10.00")!, quantity: 1),
            CartItem(id: "b", name: "B", details: "", image: .symbol("bag.fill"), price: Decimal(string: "90.99")!, quantity: 2),
            CartItem(id: "c", name: "C", details: "", image: .symbol("bag.fill"), price: Decimal(string: "0.10")!, quantity: 3),
        ]
    }

    private func timeline(_ actions: [(Double, CartAction)], width: Double = 400) -> CartTimeline {
        let events = actions.enumerated().map { SceneEvent(at: $0.element.0, action: $0.element.1, index: $0.offset) }
        return CartTimeline(items: items(), events: events, screenWidth: width)
    }

    private func swipe(_ item: String, _ translation: Double, _ duration: Double = 0.2) -> CartAction {
        .swipe(item: item, translation: translation, duration: duration)
    }

    /// An event's manifest members after `time` and `kind`.
    private func fields(_ e: TimelineEvent) -> JSONValue {
        guard case .object(let members) = try! JSONValue(encoding: e) else { return .null }
        return .object(Array(members.dropFirst(2)))
    }

    private func row(_ tl: CartTimeline, _ id: String, at t: Double) -> CartRowState? {
        tl.state(at: t).rows.first { $0.id == id }
    }

    private let easeOut = TimingCurve.easeOut
    private let easeIn = TimingCurve.easeIn

    // MARK: Release thresholds

    /// Table: translation of a swipe on a closed row → where the row comes to rest.
    func testReleaseThresholdsOnAClosedRow() {
        let cases: [(translation: Double, rest: Double?, open: Bool, why: String)] = [
            (-49, 0, false, "49 pt is not past 50: back to 0"),
            (-50, 0, false, "exactly 50 pt is not past 50"),
            (-51, -90, true, "51 pt is past 50: open at −90"),
            (-199.9, -90, true, "just under half the width: open"),
            (-200, -90, true, "exactly half the width is not more than half: open"),
            (-200.01, nil, false, "more than half the width: deleted"),
            (-1000, nil, false, "far past half the width: deleted"),
            (0, 0, false, "no movement: closed"),
            (30, 0, false, "rightward: closed"),
        ]
        for c in cases {
            let tl = timeline([(0.1, swipe("b", c.translation, 0.2))])
            let end = tl.state(at: 2)
            if let rest = c.rest {
                let b = end.rows.first { $0.id == "b" }
                XCTAssertEqual(b?.offset, rest, c.why)
                XCTAssertEqual(b?.open, c.open, c.why)
                XCTAssertEqual(b?.phase, .rest, c.why)
            } else {
                XCTAssertNil(end.rows.first { $0.id == "b" }, c.why)
            }
        }
    }

    func testReleaseAnimatesWithEaseOutFromTheOffsetReached() {
        let tl = timeline([(0.1, swipe("b", -120, 0.2))])
        // Release at 0.3 s from −120 to −90 over 0.35 s.
        for f in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let t = 0.3 + 0.35 * f
            XCTAssertEqual(row(tl, "b", at: t)!.offset, -120 + 30 * easeOut.value(at: f), accuracy: 1e-9, "at \(f)")
        }
        XCTAssertEqual(row(tl, "b", at: 0.4)?.phase, .settle)
        XCTAssertEqual(row(tl, "b", at: 0.65)?.phase, .rest)
        XCTAssertEqual(tl.settleTime, 0.65, accuracy: 1e-12)
    }

    func testReleaseBackToZeroAnimatesWithEaseOut() {
        let tl = timeline([(0, swipe("a", -49, 0.1))])
        XCTAssertEqual(row(tl, "a", at: 0.1 + 0.175)!.offset, -49 * (1 - easeOut.value(at: 0.5)), accuracy: 1e-9)
        XCTAssertEqual(row(tl, "a", at: 0.45)!.offset, 0)
        XCTAssertEqual(tl.events.map(\.kind.name), ["swipe", "release", "close"])
    }

    // MARK: Drag

    func testDragFollowsTheFingerLinearly() {
        let tl = timeline([(1.0, swipe("a", -80, 0.4))])
        XCTAssertEqual(row(tl, "a", at: 0.9)!.offset, 0)
        XCTAssertEqual(row(tl, "a", at: 1.0)!.offset, 0)
        XCTAssertEqual(row(tl, "a", at: 1.1)!.offset, -20, accuracy: 1e-9)
        XCTAssertEqual(row(tl, "a", at: 1.3)!.offset, -60, accuracy: 1e-9)
        XCTAssertEqual(row(tl, "a", at: 1.2)?.phase, .drag)
        // Released at 1.4 s at −80: opens.
        XCTAssertEqual(row(tl, "a", at: 1.4)!.offset, -80, accuracy: 1e-9)
        XCTAssertEqual(row(tl, "a", at: 2)!.offset, -90)
    }

    /// The seed's `translation − 90` for a row already swiped open.
    func testDragOnAnOpenRowIsShiftedBy90() {
        let tl = timeline([(0, swipe("b", -60, 0.2)), (1.0, swipe("b", -30, 0.3))])
        XCTAssertEqual(row(tl, "b", at: 0.9)!.offset, -90)
        XCTAssertTrue(row(tl, "b", at: 0.9)!.open)
        XCTAssertEqual(row(tl, "b", at: 1.0)!.offset, -90, accuracy: 1e-9)
        XCTAssertEqual(row(tl, "b", at: 1.1)!.offset, -100, accuracy: 1e-9)
        XCTAssertEqual(row(tl, "b", at: 1.3)!.offset, -120, accuracy: 1e-9)
        // −120 is past 50: it stays open, animating back to −90.
        XCTAssertEqual(row(tl, "b", at: 1.3 + 0.35)!.offset, -90)
        XCTAssertTrue(row(tl, "b", at: 2)!.open)
        let release = tl.events.last { $0.kind.name == "release" }!
        XCTAssertEqual(fields(release), JSONValue.object([("item", "b"), ("translation", .num(-30)), ("offset", .num(-120)), ("target", .num(-90))]))
    }

    /// A full swipe is judged by the translation, not the offset: an open row dragged 150 pt
    /// reaches −240 but is not deleted on a 400 pt screen.
    func testFullSwipeThresholdUsesTheTranslation() {
        let tl = timeline([(0, swipe("b", -60, 0.1)), (1.0, swipe("b", -150, 0.2))])
        XCTAssertEqual(row(tl, "b", at: 1.2)!.offset, -240, accuracy: 1e-9)
        XCTAssertEqual(row(tl, "b", at: 3)!.offset, -90)
    }

    func testRightwardDragLeavesAClosedRowAtRest() {
        let tl = timeline([(0.5, swipe("a", 120, 0.3))])
        for t in [0.5, 0.6, 0.7, 0.8, 1.0, 1.5] {
            XCTAssertEqual(row(tl, "a", at: t)!.offset, 0, "at \(t)")
        }
        XCTAssertEqual(row(tl, "a", at: 0.6)?.phase, .drag)
        XCTAssertEqual(tl.events.map(\.kind.name), ["swipe", "release", "close"])
    }

    func testRightwardDragOnAnOpenRowHoldsItThenClosesIt() {
        let tl = timeline([(0, swipe("a", -70, 0.1)), (1.0, swipe("a", 80, 0.2))])
        XCTAssertEqual(row(tl, "a", at: 1.1)!.offset, -90, "the finger moving right does not move the row")
        XCTAssertTrue(row(tl, "a", at: 1.1)!.open)
        XCTAssertEqual(row(tl, "a", at: 1.2 + 0.175)!.offset, -90 * (1 - easeOut.value(at: 0.5)), accuracy: 1e-9)
        XCTAssertFalse(row(tl, "a", at: 1.2)!.open)
        XCTAssertEqual(row(tl, "a", at: 1.6)!.offset, 0)
    }

    /// A swipe that starts while the row is animating starts from the offset drawn.
    func testSwipeDuringAnAnimationStartsFromTheAnimatedOffset() {
        let tl = timeline([(0, swipe("a", -40, 0.1)), (0.2, swipe("a", -100, 0.2))])
        // Released at 0.1 s from −40 toward 0; at 0.2 s the animation has run 0.1 s.
        let drawn = -40 * (1 - easeOut.value(at: 0.1 / 0.35))
        XCTAssertEqual(row(tl, "a", at: 0.2)!.offset, drawn, accuracy: 1e-9)
        XCTAssertEqual(row(tl, "a", at: 0.3)!.offset, drawn - 50, accuracy: 1e-9)
        XCTAssertEqual(row(tl, "a", at: 0.4)!.offset, drawn - 100, accuracy: 1e-9)
        XCTAssertEqual(row(tl, "a", at: 1)!.offset, -90)
    }

    func testZeroDurationSwipeReleasesAtOnce() {
        let tl = timeline([(0.5, swipe("a", -70, 0))])
        XCTAssertEqual(row(tl, "a", at: 0.5)!.offset, -70, accuracy: 1e-9)
        XCTAssertEqual(row(tl, "a", at: 0.85)!.offset, -90)
    }

    /// docs/motion-and-look.md, “Time and frames”: a release at 0.3 + 0.25 s has happened in the frame at t = 33/60 s.
    func testReleaseTimeToleranceOfOneMicrosecond() {
        let tl = timeline([(0.3, swipe("a", -120, 0.25))])
        let r = row(tl, "a", at: 33.0 / 60)!
        XCTAssertEqual(r.phase, .settle)
        XCTAssertTrue(r.open)
        XCTAssertEqual(r.offset, -120, accuracy: 1e-6)
    }

    // MARK: Deletion

    func testFullSwipeFliesOffAndDeletesInTheSameEaseOutAnimation() {
        let tl = timeline([(0, swipe("a", -300, 0.2))])
        XCTAssertEqual(tl.state(at: 0.19).total, Decimal(string: "192.28")!)
        let mid = row(tl, "a", at: 0.2 + 0.175)!
        XCTAssertEqual(mid.phase, .delete)
        XCTAssertEqual(mid.offset, -300 - 700 * easeOut.value(at: 0.5), accuracy: 1e-9)
        XCTAssertEqual(mid.removal, easeOut.value(at: 0.5), accuracy: 1e-12)
        XCTAssertFalse(mid.open)
        // The item leaves the cart at the release: the total drops at once.
        XCTAssertEqual(tl.state(at: 0.2).total, Decimal(string: "182.28")!)
        XCTAssertNil(row(tl, "a", at: 0.55))
        XCTAssertEqual(tl.state(at: 0.55).rows.map(\.id), ["b", "c"])
        XCTAssertEqual(tl.settleTime, 0.55, accuracy: 1e-12)
        let delete = tl.events.first { $0.kind.name == "delete" }!
        XCTAssertEqual(delete.time, 0.2, accuracy: 1e-12)
        XCTAssertEqual(fields(delete), JSONValue.object([("item", "a"), ("reason", "swipe"), ("animation", "easeOut"), ("total", "$182.28")]))
    }

    func testTrashButtonDeletesAnOpenRowWithEaseIn() {
        let tl = timeline([(0, swipe("b", -100, 0.2)), (1.0, .tap(.row(.delete, item: "b")))])
        XCTAssertTrue(tl.issues.isEmpty)
        XCTAssertEqual(tl.state(at: 0.99).total, Decimal(string: "192.28")!)
        XCTAssertEqual(tl.state(at: 1.0).total, Decimal(string: "10.30")!)
        for f in [0.25, 0.5, 0.75] {
            let r = row(tl, "b", at: 1.0 + 0.35 * f)!
            XCTAssertEqual(r.removal, easeIn.value(at: f), accuracy: 1e-12)
            XCTAssertEqual(r.offset, -90, "the content stays open while the row fades")
            XCTAssertEqual(r.phase, .delete)
        }
        // docs/motion-and-look.md's check values of easeIn.
        XCTAssertEqual(row(tl, "b", at: 1.0 + 0.35 * 0.5)!.removal, 0.3154, accuracy: 1e-4)
        XCTAssertNil(row(tl, "b", at: 1.35))
        XCTAssertEqual(tl.events.map(\.kind.name), ["swipe", "release", "open", "tap", "delete"])
    }

    // MARK: Quantity and total

    func testMinusNeverGoesBelowOneAndPlusRaises() {
        let tl = timeline([
            (0.1, .tap(.row(.minus, item: "a"))),
            (0.2, .tap(.row(.plus, item: "a"))),
            (0.3, .tap(.row(.minus, item: "b"))),
            (0.4, .tap(.row(.minus, item: "b"))),
            (0.5, .tap(.row(.minus, item: "b"))),
        ])
        XCTAssertEqual(row(tl, "a", at: 0.1)!.quantity, 1)
        XCTAssertEqual(row(tl, "a", at: 0.2)!.quantity, 2)
        XCTAssertEqual(row(tl, "a", at: 0.19)!.quantity, 1)
        XCTAssertEqual(row(tl, "b", at: 0.3)!.quantity, 1)
        XCTAssertEqual(row(tl, "b", at: 1)!.quantity, 1)
        // Taps are logged; quantity events only when the quantity changed.
        XCTAssertEqual(tl.events.filter { $0.kind.name == "quantity" }.map(fields), [
            .object([("item", "a"), ("from", 1), ("to", 2), ("total", "$202.28")]),
            .object([("item", "b"), ("from", 2), ("to", 1), ("total", "$111.29")]),
        ])
        XCTAssertEqual(tl.events.filter { $0.kind.name == "tap" }.count, 5)
        XCTAssertEqual(tl.state(at: 1).total, Decimal(string: "111.29")!)
    }

    /// Plus stops at the scene's limit, 1,000,000 (`CartItem.maximumQuantity`): the tap is
    /// logged, the quantity and the total do not change.
    func testPlusStopsAtTheQuantityLimit() {
        var cart = items()
        cart[0].quantity = 999_999
        let events = [0.1, 0.2, 0.3].enumerated().map { SceneEvent(at: $0.element, action: CartAction.tap(.row(.plus, item: "a")), index: $0.offset) }
        let tl = CartTimeline(items: cart, events: events, screenWidth: 400)
        XCTAssertEqual(row(tl, "a", at: 0.1)!.quantity, 1_000_000)
        XCTAssertEqual(row(tl, "a", at: 1)!.quantity, 1_000_000)
        XCTAssertEqual(tl.events.filter { $0.kind.name == "quantity" }.count, 1)
        XCTAssertEqual(tl.events.filter { $0.kind.name == "tap" }.count, 3)
        XCTAssertEqual(tl.state(at: 1).total, Decimal(10_000_000) + Decimal(string: "181.98")! + Decimal(string: "0.30")!)
    }

    func testTotalIsExactDecimal() {
        // 3 × 0.10 is 0.3 exactly (0.1 + 0.1 + 0.1 in binary floating point is not).
        let tl = timeline([(0, .tap(.row(.plus, item: "c")))])
        XCTAssertEqual(tl.state(at: 0).rows.first { $0.id == "c" }!.quantity, 4)
        XCTAssertEqual(tl.state(at: 0).total, Decimal(string: "192.38")!)
        XCTAssertEqual(Formatting.plainDecimal(tl.state(at: 0).total), "192.38")
    }

    func testCheckoutIsLoggedWithTheTotalAndPressesTheButton() {
        let tl = timeline([(0.5, .tap(.checkout))])
        XCTAssertEqual(tl.events.map(\.kind.name), ["tap", "checkout"])
        XCTAssertEqual(fields(tl.events[1]), JSONValue.object([("total", "$192.28")]))
        XCTAssertTrue(tl.state(at: 0.55).isPressed(.checkout))
        XCTAssertFalse(tl.state(at: 0.6).isPressed(.checkout))
        XCTAssertEqual(tl.settleTime, 0.6, accuracy: 1e-12)
    }

    // MARK: Events that cannot happen

    func testIssues() {
        let cases: [(actions: [(Double, CartAction)], issue: String)] = [
            ([(0, swipe("a", -300, 0.2)), (1, .tap(.row(.plus, item: "a")))],
             #"events[1].item: "a" was deleted at 0.2 s (events[0] swiped it away); no event can target it after that"#),
            ([(0, swipe("a", -300, 0.2)), (0.2, swipe("a", -10))],
             #"events[1].swipe.item: "a" was deleted at 0.2 s (events[0] swiped it away); no event can target it after that"#),
            ([(0, swipe("a", -80, 0.2)), (1, .tap(.row(.delete, item: "a"))), (1.1, .tap(.row(.minus, item: "a")))],
             #"events[2].item: "a" was deleted at 1 s (events[1] tapped its trash button); no event can target it after that"#),
            ([(0, .tap(.row(.delete, item: "b")))],
             #"events[0].tap: the trash button of "b" is hidden at 0 s: the row is not swiped open (a swipe released more than 50 pt to the left opens it)"#),
            ([(0, swipe("b", -40, 0.2)), (1, .tap(.row(.delete, item: "b")))],
             #"events[1].tap: the trash button of "b" is hidden at 1 s: the row is not swiped open (a swipe released more than 50 pt to the left opens it)"#),
            ([(0, swipe("b", -80, 0.2)), (1, swipe("b", -5, 0.5)), (1.2, .tap(.row(.delete, item: "b")))],
             #"events[2].tap: the trash button of "b" cannot be tapped at 1.2 s: the row is being dragged until 1.5 s"#),
            ([(0, swipe("c", -80, 0.5)), (0.3, swipe("c", -10, 0.1))],
             #"events[1].at: the swipe on "c" starts at 0.3 s, while an earlier swipe on that row lasts until 0.5 s"#),
        ]
        for c in cases {
            XCTAssertEqual(timeline(c.actions).issues.first?.description, c.issue)
        }
    }

    func testEventsAtTheMomentOfAReleaseSeeItsOutcome() {
        // The release at 0.2 s opens the row before the trash tap at 0.2 s is handled.
        XCTAssertTrue(timeline([(0, swipe("a", -80, 0.2)), (0.2, .tap(.row(.delete, item: "a")))]).issues.isEmpty)
        // A swipe may start at the moment the previous one on the same row ends.
        XCTAssertTrue(timeline([(0, swipe("a", -80, 0.2)), (0.2, swipe("a", -10, 0.2))]).issues.isEmpty)
        // Swipes on different rows may overlap.
        XCTAssertTrue(timeline([(0, swipe("a", -80, 0.5)), (0.1, swipe("b", -80, 0.5))]).issues.isEmpty)
    }

    /// Every event names the scene event behind it: a swipe's release, opening, closing and
    /// deletion name the swipe; a tap's quantity change, deletion and checkout name the tap.
    func testEventsNameTheSceneEventThatCausedThem() {
        let tl = timeline([(0.1, swipe("a", -100)), (0.5, .tap(.row(.delete, item: "a"))), (0.6, swipe("b", -300)),
                           (1.5, .tap(.row(.plus, item: "c"))), (2, .tap(.checkout))])
        let table = tl.events.map { "\($0.kind.name) \($0.cause.map(String.init) ?? "nil")" }
        XCTAssertEqual(table, ["swipe 0", "release 0", "open 0", "tap 1", "delete 1", "swipe 2", "release 2", "delete 2",
                               "tap 3", "quantity 3", "tap 4", "checkout 4"])
    }

    func testStateIsAPureFunctionOfTime() {
        let tl = timeline([(0, swipe("a", -80, 0.2)), (0.5, .tap(.row(.delete, item: "a"))), (0.6, swipe("b", -300, 0.3))])
        let times = stride(from: 0.0, through: 2.0, by: 1.0 / 60).map { $0 }
        let forward = times.map { tl.state(at: $0) }
        let backward = times.reversed().map { tl.state(at: $0) }.reversed()
        XCTAssertEqual(forward, Array(backward))
    }
}
