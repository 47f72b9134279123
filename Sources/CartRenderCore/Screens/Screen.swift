/// A screen a scene can show (`"screen"`, docs/scene-file.md), as the content of its section of the
/// scene file: the one type that knows the section's keys and its events, the images it draws,
/// its schema, its canonical form, and how to lay it out and animate it (`model(for:measurer:)`).
///
/// A scene holds its content as an `any Screen` (`Scene.content`), so the screen and its content
/// cannot disagree. Each screen is one folder, `Screens/<Name>/`: its content type (conforming to
/// `Screen`), its scene actions and timeline events (`SceneAction`, `TimelineEventKind`), its
/// timeline, look constants, layout, `ScreenModel` and accessibility elements; what the screens
/// share (the look of system controls, Dynamic Type, formatting, system chrome, symbols) is in
/// `Screens/Kit/`. Adding a screen takes its folder and an entry in `Screens.all`: the decoder,
/// the schema, the manifest's events, the audit and the renderer reach it only through this
/// protocol.
public protocol Screen: Sendable {
    /// The screen's name in scene files: the value of `"screen"` and the key of its section
    /// (`"shop"`).
    static var name: String { get }
    /// The content of a scene whose file has no section for this screen, or nil when the
    /// section is required.
    static var defaultContent: Self? { get }
    /// The JSON Schema of the screen's section (`SceneSchema` puts it under the screen's name),
    /// with a `default` for every member that may be left out.
    static var schema: JSONValue { get }
    /// What an event on this screen must also satisfy, beyond `SceneSchema`'s event (`at` and
    /// exactly one of the screens' `gestures`): its taps, and which members each takes.
    static var eventSchema: JSONValue { get }
    /// The members of an event that say what the user does on this screen, one per event
    /// (`tap`, `swipe`); `["tap"]` by default. The decoder and the schema accept the gestures of
    /// every screen (`Screens.eventGestures`), and the screen's `decodeEvents` refuses the others.
    static var gestures: [String] { get }
    /// The members of an event, besides `at` and `tap`, that this screen's events use, as the
    /// schema's event object lists them (`item`, `swipe`); none when its events are taps only.
    static var eventMembers: [(String, JSONValue)] { get }
    /// A scene file showing this screen, for the schema's `examples`; nil when the embedded
    /// default scene (`DefaultScene`) already shows it.
    static var schemaExample: String? { get }
    /// The values `"tap"` takes on this screen, in the schema's order (`["add"]`).
    static var tapTargets: [String] { get }
    /// How the schema describes them (`Shop: add`).
    static var tapHelp: String { get }

    /// Reads the screen's section of a scene file. Image fields go through `decoder`, which
    /// records where each image file is named (`Scene.imageFields`).
    /// - Parameters:
    ///   - node: the section's value.
    ///   - path: its JSON path (`shop`).
    ///   - baseDirectory: where relative image paths are resolved.
    /// - Throws: `SceneError` at the member that is wrong.
    static func decode(_ node: JSONNode, at path: String, with decoder: SceneDecoder, baseDirectory: String) throws -> Self

    /// Reads the scene file's `events` for this screen, in time order (equal times in file
    /// order), and refuses events that cannot happen on it.
    /// - Parameters:
    ///   - scene: the scene decoded so far: everything but its events.
    /// - Throws: `SceneError` at the event member that is wrong.
    func decodeEvents(_ node: JSONNode, at path: String, scene: Scene, with decoder: SceneDecoder) throws -> [SceneEvent]

    /// The screen's timeline events, as the manifest lists them: `TimelineEvent` reads a
    /// manifest's events through each screen's type.
    static var timelineEvents: any TimelineEventKind.Type { get }
    /// The type of the screen's manifest `state`, read back to check a manifest's states
    /// (`Manifest.statesProblem`) before a page is built from them.
    static var frameStateType: any (FrameState & Decodable).Type { get }
    /// The section with every default written out, keys in a fixed order (`Scene.canonicalJSON`);
    /// `image` writes an image as the canonical scene names it.
    func canonicalJSON(image: (ImageSource) -> JSONValue) -> JSONValue
    /// Every image the screen draws (symbols of its own included), for loading before the first
    /// frame.
    var images: [ImageSource] { get }
    /// The screen laid out with `measurer`'s text metrics, its motion simulated.
    func model(for scene: Scene, measurer: any TextMeasuring) -> any ScreenModel
}

/// One screen of a scene, ready to produce frames: static layout done, motion simulated.
/// `frame(at:)` is a pure function of time, so frames can be made in any order and in parallel
/// (one model per worker: it holds that worker's text measurer).
public protocol ScreenModel {
    associatedtype State: FrameState
    /// Taps, launches, landings, swipes, deletions… in time order (manifest `events`).
    var events: [TimelineEvent] { get }
    /// Time (s) by which every animation the events start has settled.
    var settleTime: Double { get }
    /// What the screen shows `t` seconds after the start: the display list to draw and the
    /// manifest's `state`.
    func frame(at t: Double) -> (display: DisplayList, state: State)
    /// The elements VoiceOver and touch reach in the frame showing `state` (one that
    /// ``frame(at:)`` returned), in reading order, with their frames in pt: what the
    /// accessibility audit checks. A model that wraps another (the system chrome's) passes its
    /// screen's elements through.
    func accessibilityElements(in state: State) -> [AccessibilityElement]
}

extension ScreenModel {
    /// ``accessibilityElements(in:)`` for a state as frames carry it; nil when `state` is not a
    /// state of this model's screen.
    public func accessibilityElements(of state: any FrameState) -> [AccessibilityElement]? {
        (state as? State).map { accessibilityElements(in: $0) }
    }
}

extension Screen {
    /// No example of its own.
    public static var schemaExample: String? { nil }
    /// Taps only.
    public static var gestures: [String] { ["tap"] }
    /// Taps only.
    public static var eventMembers: [(String, JSONValue)] { [] }
}

/// What a screen reports about one frame: the manifest's `state` (docs/command-line.md,
/// “Outputs”), written with
/// `JSONValue(encoding:)`, members in declaration order, lengths in pt and times in s with at
/// most 6 fraction digits.
public protocol FrameState: Encodable, Sendable {}

/// A screen's model with the system chrome drawn above each of its frames.
struct ChromedModel<Base: ScreenModel>: ScreenModel {
    let base: Base
    /// `SystemChrome.items(for:measurer:)`, the same in every frame.
    let chrome: [DisplayItem]
    init(_ base: Base, chrome: [DisplayItem]) { self.base = base; self.chrome = chrome }

    var events: [TimelineEvent] { base.events }
    var settleTime: Double { base.settleTime }
    func frame(at t: Double) -> (display: DisplayList, state: Base.State) {
        var f = base.frame(at: t)
        f.display.items += chrome
        return f
    }
    /// The screen's elements: the status bar and the home indicator are not controls.
    func accessibilityElements(in state: Base.State) -> [AccessibilityElement] { base.accessibilityElements(in: state) }
}
