// The registry of screens: a new screen is its folder (`Screens/<Name>/`) and one entry in
// `Screens.all`.

/// The screens scene files can name.
public enum Screens {
    /// Every screen, the default one (a scene file without `"screen"`) first. Their order is
    /// that of the scene file's keys, the schema and the messages that list them.
    public static let all: [any Screen.Type] = [ShopContent.self, CartContent.self]

    /// The content of a scene file without `"screen"` or its section: the first screen's
    /// default content (that screen must have one).
    public static var defaultContent: any Screen { all[0].defaultContent! }

    /// What an event may do on some screen (`Screen.gestures`), each once, in `all`'s order:
    /// an event has exactly one of them.
    public static var eventGestures: [String] { unique(all.flatMap { $0.gestures }) }

    /// The members an event may have on some screen: `at`, the gestures, then the other
    /// members the screens' events use (`Screen.eventMembers`), each once.
    public static var eventKeys: [String] { unique(["at"] + eventGestures + all.flatMap { $0.eventMembers.map(\.0) }) }

    private static func unique(_ names: [String]) -> [String] {
        names.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// The screen named `name` in a scene file.
    public static func named(_ name: String) -> (any Screen.Type)? { all.first { $0.name == name } }

    /// The model of `scene`'s screen, laid out with `measurer`'s text metrics.
    /// With `scene.systemChrome`, the status bar and home indicator (`SystemChrome`) are drawn
    /// above every frame.
    public static func model(for scene: Scene, measurer: any TextMeasuring) -> any ScreenModel {
        let model = scene.content.model(for: scene, measurer: measurer)
        guard scene.systemChrome else { return model }
        func chromed<M: ScreenModel>(_ m: M) -> any ScreenModel { ChromedModel(m, chrome: SystemChrome.items(for: scene, measurer: measurer)) }
        return chromed(model)
    }
}
