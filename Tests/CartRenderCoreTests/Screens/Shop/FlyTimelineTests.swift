@testable import CartRenderCore
import XCTest

private extension FlyTimeline {
    /// The timeline of a shop scene's taps.
    init(scene: Scene, sourceFrame: Rect, cartFrame: Rect?) {
        guard let shop = scene.content as? ShopContent else { fatalError("a shop scene") }
        self.init(scene: scene, shop: shop, sourceFrame: sourceFrame, cartFrame: cartFrame)
    }
}

final class FlyTimelineTests: XCTestCase {
    let source = Rect(x: 24, y: 180, width: 345, height: 260)
    let cart = Rect(x: 327, y: 68, width: 42, height: 38)

    func scene(taps: [Double], count: Int = 0, reduceMotion: Bool = false) -> Scene {
        var s = Scene()
        s.reduceMotion = reduceMotion
        var shop = ShopContent()
        shop.count = count
        s.content = shop
        s.events = taps.enumerated().map { SceneEvent(at: $1, action: ShopAction.tapAdd, index: $0) }
        return s
    }

    /// Arc points: a quadratic Bézier from 0 to the destination with control point
    /// (0.35·dx, min(dy, 0) − 120), seed 000 (docs/motion-and-look.md, “The fly button”).
    func testArcOffsetTable() {
        let d = Vector(dx: 151.5, dy: -222.5)
        let table: [(p: Double, dx: Double, dy: Double)] = [
            (0, 0, 0),
            (0.25, 2 * 0.75 * 0.25 * 53.025 + 0.0625 * 151.5, 2 * 0.75 * 0.25 * -342.5 + 0.0625 * -222.5),
            (0.5, 0.5 * 53.025 + 0.25 * 151.5, 0.5 * -342.5 + 0.25 * -222.5),
            (1, 151.5, -222.5),
            (1.5, 151.5, -222.5),  // clamped
        ]
        for row in table {
            let o = FlyTimeline.arcOffset(progress: row.p, destination: d)
            XCTAssertEqual(o.dx, row.dx, accuracy: 1e-9, "dx at \(row.p)")
            XCTAssertEqual(o.dy, row.dy, accuracy: 1e-9, "dy at \(row.p)")
        }
        // A destination below the source still rises by the lift first.
        XCTAssertEqual(FlyTimeline.arcOffset(progress: 0.5, destination: Vector(dx: 0, dy: 100)).dy, 0.5 * -120 + 0.25 * 100, accuracy: 1e-9)
        XCTAssertEqual(FlyTimeline.flightScale(progress: 1), 0.25)
        XCTAssertEqual(FlyTimeline.flightScale(progress: 0.5), 0.625)
    }

    func testFlightStateFollowsEaseInArcAndScale() {
        let tl = FlyTimeline(scene: scene(taps: [0.3]), sourceFrame: source, cartFrame: cart)
        let d = cart.center - source.center
        for t in stride(from: 0.3, to: 0.95, by: 1.0 / 60) {
            let s = tl.state(at: t)
            XCTAssertEqual(s.flights.count, 1, "t = \(t)")
            let p = TimingCurve.easeIn.value(at: (t - 0.3) / 0.65)
            let o = FlyTimeline.arcOffset(progress: p, destination: d)
            XCTAssertEqual(s.flights[0].center.x, source.midX + o.dx, accuracy: 1e-9)
            XCTAssertEqual(s.flights[0].center.y, source.midY + o.dy, accuracy: 1e-9)
            XCTAssertEqual(s.flights[0].scale, 1 - 0.75 * p, accuracy: 1e-12)
        }
    }

    /// The landing at 0.30 + 0.65 s has happened in the frame at t = 57/60 s (docs/motion-and-look.md, “Time and frames”).
    func testLandingExactly065AfterLaunch() throws {
        let tl = FlyTimeline(scene: scene(taps: [0.3]), sourceFrame: source, cartFrame: cart)
        XCTAssertEqual(tl.state(at: 56.0 / 60).count, 0)
        XCTAssertEqual(tl.state(at: 56.0 / 60).flights.count, 1)
        XCTAssertEqual(tl.state(at: 57.0 / 60).count, 1)
        XCTAssertEqual(tl.state(at: 57.0 / 60).flights.count, 0)
        XCTAssertEqual(tl.changes.map(\.time), [0.3 + 0.65])
        XCTAssertEqual(tl.events.map(\.kind.name), ["tap", "launch", "land"])
        guard case .object(let landing) = try JSONValue(encoding: tl.events.last!) else { return XCTFail("an object") }
        XCTAssertEqual(landing.last?.1, "onAdd")
    }

    func testSixFlightLimit() {
        let taps = (0..<8).map { 0.3 + Double($0) * 0.06 }
        let tl = FlyTimeline(scene: scene(taps: taps), sourceFrame: source, cartFrame: cart)
        XCTAssertEqual(tl.flights.count, 6)
        XCTAssertEqual(tl.state(at: 0.61).flights.count, 6)
        // Taps 7 and 8 count at once.
        XCTAssertEqual(tl.state(at: 0.66).count, 1)
        XCTAssertEqual(tl.state(at: 0.72).count, 2)
        XCTAssertEqual(tl.state(at: 2).count, 8)
        XCTAssertEqual(tl.events.filter { $0.kind.name == "increment" }.count, 2)
    }

    /// Every event names the tap behind it: a tap, its launch and landing; a tap counted at once.
    func testEventsNameTheTapThatCausedThem() {
        let taps = (0..<8).map { 0.3 + Double($0) * 0.06 }  // taps 7 and 8 count at once
        let tl = FlyTimeline(scene: scene(taps: taps), sourceFrame: source, cartFrame: cart)
        let table: [(kind: String, cause: Int?)] = tl.events.map { ($0.kind.name, $0.cause) }
        for kind in ["tap", "launch", "land", "increment"] {
            let causes = table.filter { $0.kind == kind }.map(\.cause)
            let expected: [Int?] = kind == "tap" ? Array(0..<8) : kind == "increment" ? [6, 7] : Array(0..<6)
            XCTAssertEqual(causes, expected, kind)
        }
    }

    func testLandingFreesASlotForATapAtTheSameTime() {
        // Six in the air; the first lands at 0.95, exactly when the seventh tap comes.
        let taps = [0.3, 0.31, 0.32, 0.33, 0.34, 0.35, 0.95]
        let tl = FlyTimeline(scene: scene(taps: taps), sourceFrame: source, cartFrame: cart)
        XCTAssertEqual(tl.flights.count, 7)
    }

    func testReduceMotionCountsAtOnceWithoutBump() {
        let tl = FlyTimeline(scene: scene(taps: [0.3, 0.5], reduceMotion: true), sourceFrame: source, cartFrame: cart)
        XCTAssertTrue(tl.flights.isEmpty)
        XCTAssertEqual(tl.state(at: 0.3).count, 1)
        XCTAssertEqual(tl.state(at: 0.3).badgeScale, 1)
        XCTAssertNil(tl.state(at: 0.35).digits)
        XCTAssertEqual(tl.state(at: 0.5).count, 2)
    }

    func testNoCartFrameCountsAtOnce() {
        let tl = FlyTimeline(scene: scene(taps: [0.3]), sourceFrame: source, cartFrame: nil)
        XCTAssertTrue(tl.flights.isEmpty)
        XCTAssertEqual(tl.state(at: 0.3).count, 1)
        XCTAssertEqual(tl.state(at: 0.44).badgeScale, KeyframeTimeline.badgeBump.state(at: 0.14, from: 1).value, accuracy: 1e-9)
        guard case .increment(_, let reason)? = tl.events.first(where: { $0.kind.name == "increment" })?.kind as? ShopEvent else { return XCTFail("no increment") }
        XCTAssertEqual(reason, .noCartFrame)
    }

    func testCountSaturatesAtIntMax() {
        let tl = FlyTimeline(scene: scene(taps: [0.1, 0.2], count: Int.max - 1), sourceFrame: source, cartFrame: nil)
        XCTAssertEqual(tl.state(at: 1).count, Int.max)
        XCTAssertEqual(tl.changes.count, 1, "the second tap cannot change the count")
        XCTAssertEqual(tl.events.filter { $0.kind.name == "increment" }.count, 2, "onAdd still fires")
    }

    /// Badge bump from rest: docs/motion-and-look.md's check values relative to the landing.
    func testBadgeScaleAfterALanding() {
        let tl = FlyTimeline(scene: scene(taps: [0.3]), sourceFrame: source, cartFrame: cart)
        XCTAssertEqual(tl.state(at: 0.95 + 0.14).badgeScale, 1.1575, accuracy: 5e-5)
        XCTAssertEqual(tl.state(at: 0.95 + 0.44).badgeScale, 1.0252, accuracy: 5e-5)
        XCTAssertEqual(tl.state(at: 5).badgeScale, 1.0252, accuracy: 5e-5)
        XCTAssertEqual(tl.state(at: 0.9).badgeScale, 1)
    }

    /// A change during a bump restarts the keyframes from the current value and velocity.
    func testBumpRestartsFromCurrentValueAndVelocity() {
        let tl = FlyTimeline(scene: scene(taps: [0.3, 0.4]), sourceFrame: source, cartFrame: cart)
        let first = KeyframeTimeline.badgeBump.state(at: 0.1, from: 1, velocity: 0)
        XCTAssertEqual(tl.changes[1].bumpStart.value, first.value, accuracy: 1e-12)
        XCTAssertEqual(tl.changes[1].bumpStart.velocity, first.velocity, accuracy: 1e-12)
        XCTAssertEqual(tl.state(at: 1.05).badgeScale, first.value, accuracy: 1e-9, "continuous at the restart")
    }

    func testDigitsRollWithSnappy() {
        let tl = FlyTimeline(scene: scene(taps: [0.3, 0.5]), sourceFrame: source, cartFrame: cart)
        let s = tl.state(at: 1.15 + 0.1)
        XCTAssertEqual(s.digits?.from, 1)
        XCTAssertEqual(s.digits?.to, 2)
        XCTAssertEqual(s.digits?.progress ?? 0, 0.388, accuracy: 5e-4)
        XCTAssertNil(tl.state(at: 3).digits)
    }

    func testStateIsIndependentOfQueryOrder() {
        let tl = FlyTimeline(scene: scene(taps: [0.3, 0.5, 1.4]), sourceFrame: source, cartFrame: cart)
        let times = (0..<200).map { Double($0) / 60 }
        let forward = times.map { tl.state(at: $0) }
        let backward = times.reversed().map { tl.state(at: $0) }.reversed()
        XCTAssertEqual(forward, Array(backward))
    }
}
