import Foundation

/// The cart page's events played in time order (`CartTimeline.init`): the seed's state —
/// `quantity`, `isSwiped`, the array it removes from — and what the timeline keeps of it (each
/// row's track, the presses, the manifest's events, the issues). One method per thing that
/// happens: a swipe starts (`swipe`), a finger lifts (`release`, when time passes its end), a
/// button is tapped (`checkout`, `changeQuantity`, `tapTrash`), a row is deleted (`delete`).
struct CartSimulation {
    /// A finger that lifts at `time` (s): the swipe's start offset `base` and `translation`
    /// (pt), the index of its event in the scene file.
    struct Release { var time: Double; var row: Int; var base: Double; var translation: Double; var event: Int }

    let screenWidth: Double
    let layoutDirection: LayoutDirection
    let currencyCode: String
    let locale: String
    /// Left to right 1: the seed's numbers as they are; right to left −1, mirroring them.
    let sign: Double

    private(set) var tracks: [CartTimeline.Track]
    /// The row of each item id (the first row with that id).
    private var index: [String: Int] = [:]
    private var quantity: [Int]
    private var open: [Bool]
    /// When each row was deleted and by which event.
    private var deleted: [(time: Double, by: Int)?]
    /// Fingers still down, sorted by lift time, then by start order.
    private var pending: [Release] = []
    /// When the finger on each row lifts, while one is down.
    private var dragEnd: [Double?]
    private(set) var presses: [CartTimeline.Press] = []
    private(set) var issues: [CartTimeline.Issue] = []
    /// The manifest's events in the order they happened.
    private(set) var log: [TimelineEvent] = []
    /// Σ price × quantity over the rows not deleted, kept up to date as quantities change and
    /// rows go (decimal arithmetic is exact here, so it equals a new sum): summing again at
    /// every event made a timeline cost items × events.
    private var total: Decimal

    init(items: [CartItem], screenWidth: Double, currencyCode: String, locale: String, layoutDirection: LayoutDirection) {
        self.screenWidth = screenWidth
        self.layoutDirection = layoutDirection
        self.currencyCode = currencyCode
        self.locale = locale
        sign = layoutDirection.trailingSign
        tracks = items.map { CartTimeline.Track(item: $0) }
        for (i, item) in items.enumerated() where index[item.id] == nil { index[item.id] = i }
        quantity = items.map(\.quantity)
        open = items.map { _ in false }
        deleted = items.map { _ in nil }
        dragEnd = items.map { _ in nil }
        total = items.reduce(Decimal(0)) { $0 + $1.price * Decimal($1.quantity) }
    }

    /// Plays one scene event, after every release due by its time; events of other screens are
    /// skipped.
    mutating func play(_ e: SceneEvent) {
        releaseAll(through: e.at)
        guard let action = e.action as? CartAction else { return }
        switch action {
        case .tap(.checkout):
            checkout(e)
        case .swipe(let id, let translation, let duration):
            guard let row = index[id], alive(row, e, member: ["swipe", "item"]) else { return }
            swipe(row, e, translation: translation, duration: duration)
        case .tap(.row(let button, let id)):
            guard let row = index[id], alive(row, e, member: ["item"]) else { return }
            switch button {
            case .plus, .minus: changeQuantity(row, e, button: button)
            case .delete: tapTrash(row, e)
            }
        }
    }

    /// Lifts every finger due at or before `time` (within 1 µs), so that they happen before an
    /// event at `time`.
    mutating func releaseAll(through time: Double) {
        while let first = pending.first, TimeTolerance.hasHappened(first.time, by: time) {
            pending.removeFirst()
            release(first)
        }
    }

    // MARK: - What happens

    private mutating func checkout(_ e: SceneEvent) {
        presses.append(CartTimeline.Press(time: e.at, button: .checkout))
        log.append(TimelineEvent(time: e.at, CartEvent.tap(.checkout), cause: e.index))
        log.append(TimelineEvent(time: e.at, CartEvent.checkout(total: totalText()), cause: e.index))
    }

    /// A finger lands on `row` and moves `translation` pt over `duration` s; it lifts later
    /// (`release`), or at once for a swipe of no duration.
    private mutating func swipe(_ row: Int, _ e: SceneEvent, translation: Double, duration: Double) {
        let id = tracks[row].item.id
        if let end = dragEnd[row] {
            issues.append(CartTimeline.Issue(eventIndex: e.index, member: ["at"],
                                             message: "the swipe on \(echoedQuoted(id)) starts at \(seconds(e.at)), while an earlier swipe on that row lasts until \(seconds(end))"))
            return
        }
        let base = tracks[row].offset(at: e.at)
        let end = e.at + duration
        if translation * sign < 0 && duration > 0 {
            tracks[row].segments.append(.drag(start: e.at, duration: duration, base: base, translation: translation))
        }
        tracks[row].drags.append((e.at, end))
        dragEnd[row] = end
        log.append(TimelineEvent(time: e.at, CartEvent.swipe(item: id, translation: translation, duration: duration, offset: base), cause: e.index))
        let r = Release(time: end, row: row, base: base, translation: translation, event: e.index)
        let at = pending.firstIndex { $0.time > end } ?? pending.count
        pending.insert(r, at: at)
        if duration == 0 { releaseAll(through: e.at) }
    }

    /// `onEnd`: the seed's release thresholds, animated with `.easeOut`.
    private mutating func release(_ r: Release) {
        let row = r.row
        dragEnd[row] = nil
        let opening = r.translation * sign < 0
        let from = opening ? r.base + r.translation : tracks[row].offset(at: r.time)
        let target: Double
        let outcome: CartTimeline.ReleaseOutcome
        if opening && -(r.translation * sign) > screenWidth / 2 {
            target = CartTimeline.flyOffOffset * sign
            outcome = .delete
        } else if opening && -(from * sign) > CartTimeline.openThreshold {
            target = CartTimeline.openOffset * sign
            outcome = .open
        } else {
            target = 0
            outcome = .close
        }
        tracks[row].segments.append(.animation(start: r.time, from: from, to: target, animation: CartTimeline.releaseAnimation))
        log.append(TimelineEvent(time: r.time, CartEvent.release(item: tracks[row].item.id, translation: r.translation, offset: from, target: target), cause: r.event))
        switch outcome {
        case .delete:
            delete(row, at: r.time, animation: CartTimeline.releaseAnimation, reason: .swipe, event: r.event)
        case .open:
            setOpen(row, true, at: r.time)
            log.append(TimelineEvent(time: r.time, CartEvent.open(item: tracks[row].item.id), cause: r.event))
        case .close:
            setOpen(row, false, at: r.time)
            log.append(TimelineEvent(time: r.time, CartEvent.close(item: tracks[row].item.id), cause: r.event))
        }
    }

    /// Plus or minus: the quantity changes at once, within 1…`CartItem.maximumQuantity`.
    private mutating func changeQuantity(_ row: Int, _ e: SceneEvent, button: CartButton.Row) {
        let id = tracks[row].item.id
        presses.append(CartTimeline.Press(time: e.at, button: .row(button, item: id)))
        log.append(TimelineEvent(time: e.at, CartEvent.tap(.row(button, item: id)), cause: e.index))
        let old = quantity[row]
        let new = button == .plus ? (old >= CartItem.maximumQuantity ? old : old + 1) : max(1, old - 1)
        guard new != old else { return }
        quantity[row] = new
        total += tracks[row].item.price * Decimal(new) - tracks[row].item.price * Decimal(old)
        tracks[row].quantities.append((e.at, new))
        log.append(TimelineEvent(time: e.at, CartEvent.quantity(item: id, from: old, to: new, total: totalText()), cause: e.index))
    }

    /// The trash button of an open row that no finger holds deletes it with `.easeIn`.
    private mutating func tapTrash(_ row: Int, _ e: SceneEvent) {
        let id = tracks[row].item.id
        if let end = dragEnd[row] {
            issues.append(CartTimeline.Issue(eventIndex: e.index, member: ["tap"],
                                             message: "the trash button of \(echoedQuoted(id)) cannot be tapped at \(seconds(e.at)): the row is being dragged until \(seconds(end))"))
            return
        }
        guard open[row] else {
            issues.append(CartTimeline.Issue(eventIndex: e.index, member: ["tap"],
                                             message: "the trash button of \(echoedQuoted(id)) is hidden at \(seconds(e.at)): the row is not swiped open (a swipe released more than \(Int(CartTimeline.openThreshold)) pt to the \(layoutDirection.isRightToLeft ? "right" : "left") opens it)"))
            return
        }
        presses.append(CartTimeline.Press(time: e.at, button: .row(.delete, item: id)))
        log.append(TimelineEvent(time: e.at, CartEvent.tap(.row(.delete, item: id)), cause: e.index))
        delete(row, at: e.at, animation: CartTimeline.trashAnimation, reason: .trash, event: e.index)
    }

    /// The item leaves the cart at `time`; its row leaves over `animation`.
    private mutating func delete(_ row: Int, at time: Double, animation: CurveAnimation, reason: CartEvent.DeletionReason, event: Int) {
        deleted[row] = (time, event)
        total -= tracks[row].item.price * Decimal(quantity[row])
        tracks[row].deletion = CartTimeline.Deletion(time: time, animation: animation, reason: reason)
        log.append(TimelineEvent(time: time, CartEvent.delete(item: tracks[row].item.id, reason: reason, total: totalText()), cause: event))
    }

    // MARK: - Helpers

    private mutating func setOpen(_ row: Int, _ value: Bool, at time: Double) {
        guard open[row] != value else { return }
        open[row] = value
        tracks[row].openChanges.append((time, value))
    }

    /// Whether `row` may be the target of event `e`; records an issue when not.
    private mutating func alive(_ row: Int, _ e: SceneEvent, member: [String]) -> Bool {
        guard let d = deleted[row] else { return true }
        let how = tracks[row].deletion?.reason == .swipe ? "swiped it away" : "tapped its trash button"
        issues.append(CartTimeline.Issue(eventIndex: e.index, member: member,
                                         message: "\(echoedQuoted(tracks[row].item.id)) was deleted at \(seconds(d.time)) (events[\(d.by)] \(how)); no event can target it after that"))
        return false
    }

    private func totalText() -> String { Formatting.currency(total, code: currencyCode, locale: locale) }

    private func seconds(_ t: Double) -> String { JSONValue.format(t, decimals: 6) + " s" }
}
