/// A user input at a time on the timeline: `at` and what the screen does (docs/scene-file.md).
public struct SceneEvent: Equatable, Sendable {
    /// Seconds since the start of the render (≥ 0).
    public var at: Double
    /// What the event does: a value of the action type of the scene's screen (`ShopAction`,
    /// `CartAction`), which decoded it.
    public var action: any SceneAction
    /// Index of the event in the scene file's `events` array (for error messages and stable order).
    public var index: Int
    /// Where the event's object starts in the scene file (1-based line and column), for
    /// messages and annotations that point at it; nil for an event not read from a file.
    public var location: SourceLocation?

    /// An event at `at` seconds doing `action`, the `index`-th of the scene file's `events`,
    /// whose object starts at `location` in the file (nil: not read from a file).
    public init(at: Double, action: any SceneAction, index: Int, location: SourceLocation? = nil) {
        self.at = at; self.action = action; self.index = index; self.location = location
    }

    /// Equal when the times are exactly equal, the file indices equal and the actions the same
    /// (where the event is written in the file does not count).
    public static func == (a: SceneEvent, b: SceneEvent) -> Bool { a.at == b.at && a.index == b.index && a.action.isEqual(to: b.action) }
}

/// What a scene file's event does on one screen: an enum, one case per kind of input (a tap on
/// a button, a swipe), read by the screen's `Screen.decodeEvents`.
public protocol SceneAction: Equatable, Sendable {
    /// The event's members after `at` in the canonical scene (`Scene.canonicalJSON`), in a fixed
    /// order: `[("tap", "add")]`.
    var canonicalMembers: [(String, JSONValue)] { get }
}

extension SceneAction {
    /// Whether `other` is the same action of the same screen.
    public func isEqual(to other: any SceneAction) -> Bool { (other as? Self) == self }
}

extension Scene {
    /// The scene's events whose action is an `A` (the screen's own action type), with that
    /// action, in time order.
    public func events<A: SceneAction>(of type: A.Type) -> [(event: SceneEvent, action: A)] {
        events.compactMap { e in (e.action as? A).map { (e, $0) } }
    }
}
