import Foundation

/// The motion of the fly button (seed 000; docs/motion-and-look.md, “The fly button”) as a pure
/// function of time.
///
/// Built once from the scene's taps; `state(at:)` then answers for any time in any order. Taps
/// launch flights (a copy of the product image that arcs into the cart badge over 0.65 s with
/// `easeIn`), or increment the count at once when Reduce Motion is on, there is no cart frame, or
/// six flights are in the air. Each landing increments the count (saturating at `Int.max`) and
/// fires `onAdd`. Each change of count bumps the cart (keyframes, restarted from the current value
/// and velocity) and rolls the badge digits with `.snappy`.
public struct FlyTimeline: Sendable {
    /// Flight time (s), seed 000.
    public static let flightDuration = 0.65
    /// Most flights in the air at once, seed 000.
    public static let maximumFlights = 6
    /// Arc lift (pt), seed 000.
    public static let lift = 120.0
    /// Timing curve of a flight's progress, seed 000.
    public static let flightCurve = TimingCurve.easeIn
    /// Spring of the badge digits and capsule width (`.snappy`), seed 000.
    public static let digitSpring = Spring.snappy

    /// One flight: launched at `launch` seconds, landing at `launch + 0.65` s.
    public struct Flight: Equatable, Sendable {
        /// 1-based launch order.
        public var id: Int
        /// Launch time (s).
        public var launch: Double
        /// Landing time (s).
        public var land: Double { launch + FlyTimeline.flightDuration }
    }

    /// A change of `count` at a time (s).
    public struct CountChange: Equatable, Sendable {
        /// When the count changes (s since the start of the render).
        public var time: Double
        /// The count before the change.
        public var from: Int
        /// The count after the change.
        public var to: Int
        /// Start value and velocity of the bump timeline (scale, scale/s), when it restarts here.
        public var bumpStart: (value: Double, velocity: Double)
        /// Equal when every field is exactly equal (no tolerance).
        public static func == (a: CountChange, b: CountChange) -> Bool {
            a.time == b.time && a.from == b.from && a.to == b.to && a.bumpStart == b.bumpStart
        }
    }

    /// Items in the cart before the first frame (`"count"`).
    public let initialCount: Int
    /// Whether Reduce Motion is on: taps count at once, without a flight (seed 000).
    public let reduceMotion: Bool
    /// Center of the product image container (screen pt): where flights start.
    public let sourceCenter: Point
    /// `cartFrame.center − sourceFrame.center` (pt), or nil when there is no cart frame.
    public let destination: Vector?
    /// Every flight launched, in launch order.
    public let flights: [Flight]
    /// Every change of the count, in time order.
    public let changes: [CountChange]
    /// Taps, launches, landings and increments, in time order (manifest `events`).
    public let events: [TimelineEvent]
    /// Times of taps on the add button (s).
    public let tapTimes: [Double]

    /// Simulates the taps of `scene` (its `ShopAction.tapAdd` events).
    /// - Parameters:
    ///   - shop: the scene's shop section (its `count` is the count at the start).
    ///   - sourceFrame: the product image container's frame (screen pt).
    ///   - cartFrame: where flights land (screen pt), or nil for none.
    public init(scene: Scene, shop: ShopContent, sourceFrame: Rect, cartFrame: Rect?) {
        initialCount = shop.count
        let taps = scene.events(of: ShopAction.self).filter { $0.action == .tapAdd }.map(\.event)
        tapTimes = taps.map(\.at)
        reduceMotion = scene.reduceMotion
        sourceCenter = sourceFrame.center
        destination = cartFrame.map { $0.center - sourceFrame.center }

        var flights: [Flight] = []
        var changes: [CountChange] = []
        var log: [TimelineEvent] = []
        var count = shop.count
        var inAir: [Flight] = []  // sorted by landing time
        var nextID = 1
        var launchedBy: [Int: Int] = [:]  // flight id → index of the tap in the scene's events

        /// Adds one to the count (saturating) and logs `event` of the new count: a landing, or a
        /// tap counted at once, caused by the scene's `events[cause]`.
        func increment(at time: Double, cause: Int?, _ event: (Int) -> ShopEvent) {
            let old = count
            count = count == Int.max ? count : count + 1
            log.append(TimelineEvent(time: time, event(count), cause: cause))
            guard count != old else { return }
            changes.append(CountChange(time: time, from: old, to: count, bumpStart: (1, 0)))
        }
        func landFlights(through time: Double) {
            // Landings at or before `time` (within 1 µs) happen before a tap at `time`.
            while let first = inAir.first, TimeTolerance.hasHappened(first.land, by: time) {
                inAir.removeFirst()
                increment(at: first.land, cause: launchedBy[first.id]) { ShopEvent.land(flight: first.id, count: $0) }
            }
        }
        for event in taps {
            landFlights(through: event.at)
            log.append(TimelineEvent(time: event.at, ShopEvent.tap, cause: event.index))
            let reason: ShopEvent.IncrementReason?
            if scene.reduceMotion { reason = .reduceMotion }
            else if destination == nil { reason = .noCartFrame }
            else if inAir.count >= Self.maximumFlights { reason = .maximumFlights }
            else { reason = nil }
            if let r = reason {
                increment(at: event.at, cause: event.index) { ShopEvent.increment(count: $0, reason: r) }
            } else {
                let f = Flight(id: nextID, launch: event.at)
                nextID += 1
                launchedBy[f.id] = event.index
                flights.append(f)
                inAir.append(f)  // equal durations: launch order is landing order
                log.append(TimelineEvent(time: event.at, ShopEvent.launch(flight: f.id, destination: destination!), cause: event.index))
            }
        }
        landFlights(through: .infinity)

        // Bump restarts: each change starts the keyframes from the value and velocity reached.
        if !scene.reduceMotion {
            for i in changes.indices.dropFirst() {
                let prev = changes[i - 1]
                changes[i].bumpStart = KeyframeTimeline.badgeBump.state(at: changes[i].time - prev.time, from: prev.bumpStart.value, velocity: prev.bumpStart.velocity)
            }
        }
        self.flights = flights
        self.changes = changes
        // Stable order: by time, then by order of occurrence.
        self.events = log.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// The seed's `arcOffset`: a quadratic Bézier from (0,0) to `destination` (pt) whose control
    /// point is `(0.35·dx, min(dy, 0) − lift)`; `progress` is clamped to 0…1.
    public static func arcOffset(progress: Double, destination: Vector, lift: Double = FlyTimeline.lift) -> Vector {
        let t = min(max(progress, 0), 1)
        let cx = destination.dx * 0.35
        let cy = min(destination.dy, 0) - lift
        return Vector(dx: 2 * (1 - t) * t * cx + t * t * destination.dx,
                      dy: 2 * (1 - t) * t * cy + t * t * destination.dy)
    }

    /// A flight's scale about its own center: `1 − 0.75 × progress`.
    public static func flightScale(progress: Double) -> Double { 1 - 0.75 * min(max(progress, 0), 1) }

    /// Time (s) by which every animation has settled: the last landing, bump and digit roll.
    public var settleTime: Double {
        var end = 0.0
        if let last = flights.last { end = max(end, last.land) }
        if let c = changes.last {
            if !reduceMotion {
                end = max(end, c.time + KeyframeTimeline.badgeBump.duration)
                end = max(end, c.time + Self.digitSettle)
            }
            end = max(end, c.time)
        }
        return end
    }
    static let digitSettle = FlyTimeline.digitSpring.settlingDuration()

    /// The state at `t` seconds.
    public func state(at t: Double) -> ShopState {
        var count = initialCount
        var lastChange: CountChange?
        for c in changes {
            guard TimeTolerance.hasHappened(c.time, by: t) else { break }
            count = c.to
            lastChange = c
        }
        var flightStates: [ShopState.FlightState] = []
        if let d = destination {
            for f in flights where TimeTolerance.hasHappened(f.launch, by: t) && !TimeTolerance.hasHappened(f.land, by: t) {
                let elapsed = max(0, t - f.launch)
                let p = Self.flightCurve.value(at: elapsed / Self.flightDuration)
                let off = Self.arcOffset(progress: p, destination: d)
                flightStates.append(.init(id: f.id, progress: p, center: sourceCenter + off, scale: Self.flightScale(progress: p)))
            }
        }
        var badgeScale = 1.0
        var digits: ShopState.DigitTransition?
        if let c = lastChange, !reduceMotion {
            let elapsed = max(0, t - c.time)
            badgeScale = KeyframeTimeline.badgeBump.state(at: elapsed, from: c.bumpStart.value, velocity: c.bumpStart.velocity).value
            if elapsed < Self.digitSettle {
                digits = .init(from: c.from, to: c.to, progress: Self.digitSpring.progress(at: elapsed))
            }
        }
        let pressed = tapTimes.contains { TimeTolerance.hasHappened($0, by: t) && !TimeTolerance.hasHappened($0 + Look.buttonPressDuration, by: t) }
        return ShopState(time: t, count: count, badgeScale: badgeScale, digits: digits, flights: flightStates, buttonPressed: pressed)
    }
}

/// What the shop screen shows at one moment (the manifest's `state`, docs/command-line.md, “Outputs”).
public struct ShopState: Equatable, Sendable {
    /// Seconds since the start of the render.
    public var time: Double
    /// Items in the cart at this moment.
    public var count: Int
    /// Scale of the cart icon and badge about the cart frame's center (1 = at rest).
    public var badgeScale: Double
    /// The badge's number roll, while one is under way.
    public var digits: DigitTransition?
    /// Flights in the air, in launch order.
    public var flights: [FlightState]
    /// Whether the add button shows its pressed look.
    public var buttonPressed: Bool

    /// A flight in the air; its manifest form is `{"id", "progress", "center": {"x", "y"}, "scale"}`.
    public struct FlightState: Equatable, Sendable, Codable {
        /// 1-based launch order of the flight.
        public var id: Int
        /// Eased progress 0…1.
        public var progress: Double
        /// Center in screen points.
        public var center: Point
        /// Scale about the center.
        public var scale: Double
    }

    /// A badge count change in progress: `progress` is the `.snappy` spring's 0→1 value (may
    /// overshoot slightly).
    public struct DigitTransition: Equatable, Sendable {
        /// The count the badge rolls from.
        public var from: Int
        /// The count the badge rolls to.
        public var to: Int
        /// The `.snappy` spring's value, 0→1 (may overshoot slightly; Apple documentation:
        /// *Animation.snappy*).
        public var progress: Double
    }
}
