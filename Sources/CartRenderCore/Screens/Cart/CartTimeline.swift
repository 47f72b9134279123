import Foundation

/// The motion of the cart page (seed 003; docs/motion-and-look.md, “The cart page”) as a pure
/// function of time.
///
/// Built once from the scene's swipes and taps; `state(at:)` then answers for any time, in any
/// order. The simulation follows the seed's `onChanged` / `onEnd` / `deleteItem`:
///
/// - **Drag.** While a finger moves left (`translation < 0`), the row's offset is
///   `base + translation`, the finger moving linearly over the swipe's `duration`. `base` is the
///   row's offset when the finger lands: 0 for a closed row and −90 for an open one — the seed's
///   `translation` / `translation − 90` — or the value an unfinished animation had reached (the
///   finger takes over from where the row is drawn). A drag to the right never moves the row
///   (the seed ignores `translation ≥ 0`), so an animation under way simply continues.
/// - **Release** (`onEnd`, `.easeOut` 0.35 s from the offset reached):
///   `−translation > screenWidth / 2` → offset −1000 and the row is deleted in the same animation;
///   else `−offset > 50` → open at −90; else → closed at 0. A rightward release closes the row.
/// - **Trash tap** on an open row: deleted with `.easeIn` 0.35 s.
/// - **Deletion** removes the item from the cart at once (the state's total drops at that moment;
///   the page fades the old amount into the new one, `CartLayout.totalTransition`); its row
///   then leaves over the deletion's animation: the slot collapses (rows below move up to close
///   the gap) and the row fades out (SwiftUI's default `.opacity` removal transition) while its
///   content keeps moving — toward −1000 after a full swipe, staying at the open −90 after a
///   trash tap. The row is gone from `state(at:)` when the animation ends.
/// - **Plus / minus** change the quantity at once (the seed does not animate them); minus never
///   goes below 1, plus never above `CartItem.maximumQuantity` (the scene's own limit).
///
/// **Right to left** (docs/motion-and-look.md, “Right to left”) the page is the mirror image, and so is its motion, in screen
/// points: the trash button is at the left, a finger moving **right** (`translation > 0`) drags
/// the row, a release past half the screen width flies it off to +1000 and deletes it, one past
/// +50 leaves it open at +90, and a leftward drag leaves it at rest. Every rule above holds with
/// offsets and translations multiplied by `LayoutDirection.trailingSign` (−1).
///
/// Reduce Motion does not change this page: the seed's `withAnimation` calls do not consult it.
///
/// Scenes that cannot happen are listed in `issues` rather than crashing the simulation (the
/// offending event is skipped): an event on an item an earlier event deleted, a trash tap on a
/// row that is not open, a swipe that starts while the same row is still being dragged, and a
/// trash tap on a row that is being dragged. `SceneDecoder` turns the first issue into a
/// `SceneError` that names the event's JSON path.
public struct CartTimeline: Sendable {
    /// The release animation of a swipe: `.easeOut`, SwiftUI's default 0.35 s (seed 003 `onEnd`).
    public static let releaseAnimation = CurveAnimation(.easeOut, duration: 0.35)
    /// The deletion by the trash button: `.easeIn`, 0.35 s (seed 003 `withAnimation(.easeIn)`).
    public static let trashAnimation = CurveAnimation(.easeIn, duration: 0.35)
    /// Offset of an open row (pt): the trash button's width, seed 003.
    public static let openOffset = -90.0
    /// How far past 0 a released row must be to stay open (pt), seed 003 (`-item.offset > 50`).
    public static let openThreshold = 50.0
    /// Where a fully swiped row flies to (pt), seed 003.
    public static let flyOffOffset = -1000.0
    /// Default swipe duration when a scene gives none (s; choice: a brisk swipe), used by `SceneDecoder`.
    public static let defaultSwipeDuration = 0.25

    /// One piece of a row's offset curve; the latest piece that has started decides the offset.
    public enum OffsetSegment: Equatable, Sendable {
        /// A finger moving left: `base + translation × progress` with linear progress over
        /// `duration` seconds from `start`.
        case drag(start: Double, duration: Double, base: Double, translation: Double)
        /// An animation from `from` to `to` (pt) starting at `start` (s).
        case animation(start: Double, from: Double, to: Double, animation: CurveAnimation)

        /// When the piece starts (s since the start of the render).
        public var start: Double {
            switch self { case .drag(let s, _, _, _), .animation(let s, _, _, _): return s }
        }

        /// The offset (pt) at `t` seconds, for `t` at or after `start`.
        public func value(at t: Double) -> Double {
            switch self {
            case .drag(let start, let duration, let base, let translation):
                let p = duration > 0 ? min(max((t - start) / duration, 0), 1) : 1
                return base + translation * p
            case .animation(let start, let from, let to, let animation):
                return from + (to - from) * animation.progress(elapsed: t - start)
            }
        }
    }

    /// What a released row does (seed 003's `onEnd` thresholds).
    enum ReleaseOutcome { case delete, open, close }

    /// A row's removal: the item leaves the cart at `time`; the row's slot collapses and the row
    /// fades over `animation`.
    public struct Deletion: Equatable, Sendable {
        /// When the item leaves the cart (s).
        public var time: Double
        /// How the slot collapses and the row fades (`easeOut` after a swipe; docs/motion-and-look.md,
        /// “The cart page”).
        public var animation: CurveAnimation
        /// Swiped past the delete threshold, or its trash button tapped.
        public var reason: CartEvent.DeletionReason
        /// When the row is gone from the screen (s).
        public var end: Double { time + animation.duration }
    }

    /// Everything that happens to one row, in time order.
    public struct Track: Equatable, Sendable {
        /// The row's item as the scene gives it.
        public var item: CartItem
        /// Offset pieces in start order.
        public var segments: [OffsetSegment] = []
        /// Finger contacts: (start, release) in s, rightward ones included.
        public var drags: [(start: Double, end: Double)] = []
        /// Quantity changes: (time, new quantity).
        public var quantities: [(time: Double, quantity: Int)] = []
        /// Changes of the seed's `isSwiped`: (time, open).
        public var openChanges: [(time: Double, open: Bool)] = []
        /// The row's removal, or nil when it stays.
        public var deletion: Deletion?

        /// Equal when every field is exactly equal (no tolerance).
        public static func == (a: Track, b: Track) -> Bool {
            a.item == b.item && a.segments == b.segments && a.deletion == b.deletion
                && a.drags.elementsEqual(b.drags, by: { $0 == $1 })
                && a.quantities.elementsEqual(b.quantities, by: { $0 == $1 })
                && a.openChanges.elementsEqual(b.openChanges, by: { $0 == $1 })
        }

        /// The offset (pt) at `t` seconds: the latest started segment's value, 0 before any.
        public func offset(at t: Double) -> Double {
            guard let seg = segments.last(where: { TimeTolerance.hasHappened($0.start, by: t) }) else { return 0 }
            return seg.value(at: t)
        }
    }

    /// A button that shows its pressed look for `Look.buttonPressDuration` after a tap.
    public struct Press: Equatable, Sendable {
        /// When the button is tapped (s).
        public var time: Double
        /// Which button: checkout, or plus, minus or delete of an item.
        public var button: CartButton
    }

    /// An event that cannot happen in the scene's cart, pointing at the JSON member to blame.
    public struct Issue: Equatable, Sendable, CustomStringConvertible {
        /// Index of the event in the scene file's `events` array.
        public var eventIndex: Int
        /// Path of the member inside the event: `["swipe", "item"]`, `["item"]`, `["tap"]`, `["at"]`.
        public var member: [String]
        /// One clause, without the path: `"tek2" was deleted at 1.2 s by events[1]; …`.
        public var message: String
        /// `events[3].swipe.item`.
        public var path: String { "events[\(eventIndex)]" + member.map { "." + $0 }.joined() }
        /// `events[3].swipe.item: message`, as error messages print it.
        public var description: String { path + ": " + message }
    }

    /// Screen width (pt): half of it is the full-swipe threshold.
    public let screenWidth: Double
    /// Which way rows open: left to right the content moves left (negative offsets).
    public let layoutDirection: LayoutDirection
    /// ISO 4217 code and locale of the formatted totals in `events`.
    public let currencyCode: String
    /// The locale of the formatted totals (ICU identifier, `en_US`).
    public let locale: String
    /// One track per item, in list order.
    public let tracks: [Track]
    /// Taps on the page's buttons, in time order.
    public let presses: [Press]
    /// Manifest events in time order: `swipe`, `release`, `open`, `close`, `delete`, `tap`,
    /// `quantity`, `checkout`.
    public let events: [TimelineEvent]
    /// Events that could not happen (first in time order first); empty for a valid scene.
    public let issues: [Issue]

    /// Simulates the cart events of `scene` (swipes and row / checkout taps) on the items of its
    /// `"cart"` section.
    public init(scene: Scene, cart: CartContent) {
        self.init(items: cart.items, events: scene.events, screenWidth: scene.device.width,
                  currencyCode: cart.currencyCode, locale: scene.locale, layoutDirection: scene.layoutDirection)
    }

    /// Simulates `events` on a cart holding `items`.
    /// - Parameters:
    ///   - items: the rows, top to bottom.
    ///   - events: scene events in time order (equal times in file order), their actions
    ///     `CartAction`s (`CartContent.decodeEvents`); others are not the cart's and are skipped.
    ///   - screenWidth: the device width (pt).
    ///   - layoutDirection: right to left, rows open with rightward swipes (positive offsets).
    public init(items: [CartItem], events sceneEvents: [SceneEvent], screenWidth: Double,
                currencyCode: String = "USD", locale: String = "en_US", layoutDirection: LayoutDirection = .leftToRight) {
        self.screenWidth = screenWidth
        self.layoutDirection = layoutDirection
        self.currencyCode = currencyCode
        self.locale = locale
        var simulation = CartSimulation(items: items, screenWidth: screenWidth, currencyCode: currencyCode, locale: locale,
                                        layoutDirection: layoutDirection)
        for e in sceneEvents { simulation.play(e) }
        simulation.releaseAll(through: .infinity)
        tracks = simulation.tracks
        presses = simulation.presses
        issues = simulation.issues
        let log = simulation.log
        // Stable order: by time, then by order of occurrence.
        self.events = log.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// Time (s) by which every animation has settled: the last release animation, removal and
    /// pressed look.
    public var settleTime: Double {
        var end = 0.0
        for t in tracks {
            for s in t.segments {
                switch s {
                case .drag(let start, let duration, _, _): end = max(end, start + duration)
                case .animation(let start, _, _, let a): end = max(end, start + a.duration)
                }
            }
            for d in t.drags { end = max(end, d.end) }
            if let d = t.deletion { end = max(end, d.end) }
        }
        for p in presses { end = max(end, p.time + Look.buttonPressDuration) }
        return end
    }

    /// The state at `t` seconds.
    public func state(at t: Double) -> CartState {
        var rows: [CartRowState] = []
        var total = Decimal(0)
        for (i, track) in tracks.enumerated() {
            var removal = 0.0
            var phase = CartRowState.Phase.rest
            var present = true
            if let d = track.deletion, TimeTolerance.hasHappened(d.time, by: t) {
                if TimeTolerance.hasHappened(d.end, by: t) { continue }
                removal = d.animation.progress(elapsed: t - d.time)
                phase = .delete
                present = false
            }
            var quantity = track.item.quantity
            for q in track.quantities where TimeTolerance.hasHappened(q.time, by: t) { quantity = q.quantity }
            var open = false
            for c in track.openChanges where TimeTolerance.hasHappened(c.time, by: t) { open = c.open }
            if phase == .rest {
                if track.drags.contains(where: { TimeTolerance.hasHappened($0.start, by: t) && !TimeTolerance.hasHappened($0.end, by: t) }) {
                    phase = .drag
                } else if let seg = track.segments.last(where: { TimeTolerance.hasHappened($0.start, by: t) }),
                          case .animation(let start, _, _, let a) = seg, !TimeTolerance.hasHappened(start + a.duration, by: t) {
                    phase = .settle
                }
            }
            if present { total += track.item.price * Decimal(quantity) }
            rows.append(CartRowState(id: track.item.id, item: i, offset: track.offset(at: t), quantity: quantity,
                                     open: open && present, phase: phase, removal: removal))
        }
        let pressed = presses.filter { TimeTolerance.hasHappened($0.time, by: t) && !TimeTolerance.hasHappened($0.time + Look.buttonPressDuration, by: t) }
        return CartState(time: t, rows: rows, total: total, pressed: pressed)
    }
}

/// What the cart page shows at one moment (the manifest's `state`, docs/command-line.md, “Outputs”).
public struct CartState: Equatable, Sendable {
    /// Seconds since the start of the render.
    public var time: Double
    /// Rows on screen, top to bottom, those still leaving after a deletion included.
    public var rows: [CartRowState]
    /// `Σ price × quantity` over the items still in the cart, exact.
    public var total: Decimal
    /// Buttons showing their pressed look.
    public var pressed: [CartTimeline.Press]

    /// Whether `button` is pressed.
    public func isPressed(_ button: CartButton) -> Bool {
        pressed.contains { $0.button == button }
    }
}

/// One row at one moment.
public struct CartRowState: Equatable, Sendable {
    /// What a row is doing: at rest, under a finger, settling after a release, or being deleted.
    public enum Phase: String, Sendable, Codable {
        /// Still.
        case rest
        /// A finger is on the row (also for rightward drags, which do not move it).
        case drag
        /// The release animation is under way.
        case settle
        /// Deleted: the row is fading and its slot collapsing.
        case delete
    }
    /// The item's id.
    public var id: String
    /// Index of the item in the scene's `cart.items`.
    public var item: Int
    /// Horizontal offset of the row content (pt; negative = left).
    public var offset: Double
    /// The row's quantity at this moment.
    public var quantity: Int
    /// The seed's `isSwiped`.
    public var open: Bool
    /// What the row is doing at this moment.
    public var phase: Phase
    /// Eased progress of the removal, 0…1 (0 unless `phase == .delete`): the fraction of the
    /// slot's height that has collapsed and of the opacity that is gone.
    public var removal: Double
}
