import Foundation

/// A validated scene: everything needed to compute any frame (docs/scene-file.md).
///
/// Produced by `SceneDecoder` from a scene file (or the embedded default); all values are
/// resolved and in range. Times are seconds (s), lengths points (pt).
public struct Scene: Equatable, Sendable {
    /// The scene file format version; 1 is the only one (docs/scene-file.md).
    public var version: Int = 1
    /// The device drawn: its size (pt), scale (px/pt) and safe area (docs/motion-and-look.md,
    /// “Devices”); iPhone 16 by default.
    public var device: Device = .iPhone16
    /// Light or dark appearance; light by default.
    public var colorScheme: ColorScheme = .light
    /// Whether the system's Reduce Motion setting is on: a shop tap then counts at once, with no
    /// flight (docs/motion-and-look.md, “The fly button”, after seed 000); the cart page ignores it
    /// (seed 003). Apple documentation: *accessibilityReduceMotion*.
    public var reduceMotion: Bool = false
    /// Draw the iOS status bar and home indicator above the app (`SystemChrome`); off by default.
    public var systemChrome: Bool = false
    /// A locale identifier in ICU's canonical form (`en_US`, `de_DE`, `zh_CN`; the decoder turns
    /// `de-DE` into `de_DE` and `iw_IL` into `he_IL`, `SceneDecoder.knownLocale(_:)`), used for
    /// number and currency formats and the cart's built-in texts (`CartLabels`).
    public var locale: String = "en_US"
    /// Left to right or right to left (docs/motion-and-look.md, “Right to left”): the scene's `"layoutDirection"`, else the
    /// direction of `locale`'s language (`LayoutDirection(locale:)`).
    public var layoutDirection: LayoutDirection = .leftToRight
    /// The text size every text style and custom font takes (docs/motion-and-look.md, “Dynamic
    /// Type”), `large` by default.
    public var dynamicTypeSize: DynamicTypeSize = .large
    /// The accent color (SwiftUI's `.tint(_:)`): a system color name, indigo by default, or `#RRGGBB`.
    public var tint: Tint = .system("indigo")
    /// Frames per second, 1…240.
    public var fps: Int = 60
    /// Length of the render (s); `nil` ends it 0.5 s after the last animation settles.
    public var duration: Double?
    /// The screen and its content (`"screen"` and its section of the scene file): a value of
    /// one of the types in `Screens.all`.
    public var content: any Screen = Screens.defaultContent
    /// The screen's name in scene files (`shop`).
    public var screenName: String { type(of: content).name }
    /// User input in time order (stable for equal times: file order).
    public var events: [SceneEvent] = []
    /// Directory that relative image paths are resolved against (not part of the scene's identity);
    /// `.`, the working directory, for a scene made in code (the layer that reads the files
    /// makes it absolute: `AssetFolder`).
    public var baseDirectory: String = "."
    /// Where the scene file names each image file, so that a problem found only when the image is
    /// decoded can point at its field (not part of the scene's identity).
    public var imageFields: [ImageField] = []
    /// Font files the scene registers (`"fonts"`), in file order; their families may be named
    /// by the screens' `font`. Their paths are part of the scene's identity, relative to its
    /// directory.
    public var fonts: [SceneFont] = []
    /// The member of the scene file that sets the canvas size (`device`, else `scale`), for a
    /// refusal of the canvas (an animation format's budget); nil when the file sets neither
    /// (not part of the scene's identity).
    public var canvasMember: SceneMember?

    /// The default scene before any screen content: iPhone 16, light, `en_US`, 60 fps, no events.
    public init() {}

    /// Equal when their canonical JSON texts are equal (the scene's identity; `baseDirectory` and
    /// `imageFields` are not part of it).
    public static func == (a: Scene, b: Scene) -> Bool {
        a.canonicalJSON == b.canonicalJSON
    }
}

/// A device preset or custom screen: size in points, pixel scale, safe-area insets in points.
public struct Device: Equatable, Sendable {
    /// Preset name (`iphone-16`), or nil for a custom device.
    public var name: String?
    /// Screen size (pt).
    public var width: Double
    /// Screen height (pt).
    public var height: Double
    /// Pixels per point (1…4).
    public var scale: Double
    /// Safe-area insets (pt).
    public var safeAreaTop: Double
    /// Safe-area inset at the bottom (pt): the home indicator's area.
    public var safeAreaBottom: Double

    /// A device from its size (pt), scale (px per pt) and safe-area insets (pt).
    public init(name: String?, width: Double, height: Double, scale: Double, safeAreaTop: Double, safeAreaBottom: Double) {
        self.name = name; self.width = width; self.height = height; self.scale = scale
        self.safeAreaTop = safeAreaTop; self.safeAreaBottom = safeAreaBottom
    }

    /// iPhone 16: 393×852 pt @3x, safe area 59/34 pt (docs/motion-and-look.md, “Devices”, which
    /// gives the sources of all three devices).
    public static let iPhone16 = Device(name: "iphone-16", width: 393, height: 852, scale: 3, safeAreaTop: 59, safeAreaBottom: 34)
    /// iPhone 16 Pro Max: 440×956 pt @3x, safe area 62/34 pt.
    public static let iPhone16ProMax = Device(name: "iphone-16-pro-max", width: 440, height: 956, scale: 3, safeAreaTop: 62, safeAreaBottom: 34)
    /// iPhone SE (3rd generation): 375×667 pt @2x, safe area 20/0 pt.
    public static let iPhoneSE = Device(name: "iphone-se", width: 375, height: 667, scale: 2, safeAreaTop: 20, safeAreaBottom: 0)
    /// Presets by name.
    public static let presets: [String: Device] = [
        "iphone-16": .iPhone16, "iphone-16-pro-max": .iPhone16ProMax, "iphone-se": .iPhoneSE,
    ]
    /// Screen bounds (pt).
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }
}

/// The accent color: a system color name (resolved per color scheme) or a fixed sRGB color.
public enum Tint: Equatable, Sendable {
    /// A system color by its name (`indigo`, `Look.systemColors`), light or dark per the scheme.
    case system(String)
    /// A fixed sRGB color (`#RRGGBB`), the same in both appearances.
    case rgb(Color)
    /// The tint in the given appearance.
    public func resolved(_ scheme: ColorScheme) -> Color {
        switch self {
        case .system(let name): return (Look.systemColors[name] ?? Look.systemIndigo).resolved(scheme)
        case .rgb(let c): return c
        }
    }
    /// The scene-file spelling: `indigo` or `#RRGGBB`.
    public var text: String {
        switch self { case .system(let n): return n; case .rgb(let c): return c.hex }
    }
}

/// A product image: an SF Symbol name (drawn from its Bootstrap Icons stand-in) or an image file.
public enum ImageSource: Equatable, Hashable, Sendable {
    /// An SF Symbol name (`backpack.fill`), drawn from its Bootstrap Icons stand-in
    /// (docs/motion-and-look.md, “Symbols”).
    case symbol(String)
    /// An absolute path to a PNG, JPEG or SVG file.
    case file(String)
    /// The scene-file spelling (`symbol:backpack.fill`, or the path).
    public var text: String {
        switch self { case .symbol(let n): return "symbol:" + n; case .file(let p): return p }
    }
}

/// An image file named by a scene, and where: the JSON path (`cart.items[2].image`) and the
/// position of the value in the scene file.
public struct ImageField: Equatable, Sendable {
    /// The image the field names.
    public var source: ImageSource
    /// JSON path of the field in the scene file (`cart.items[2].image`).
    public var path: String
    /// Position of the field's value in the scene file; nil for the embedded default scene.
    public var location: SourceLocation?
    /// A field naming `source` at `path`, `location` in the scene file.
    public init(source: ImageSource, path: String, location: SourceLocation?) {
        self.source = source; self.path = path; self.location = location
    }
}

/// A member of a scene file, for a sentence that refuses what it sets: the file, the JSON path
/// (`device`, `variants.device[1]`) and the position of its value.
public struct SceneMember: Equatable, Sendable {
    /// The scene file as the user named it.
    public var file: String
    /// JSON path of the member (`device`).
    public var path: String
    /// Position of the member's value in the scene file.
    public var location: SourceLocation?
    /// The member `path` of `file`, its value at `location`.
    public init(file: String, path: String, location: SourceLocation?) {
        self.file = file; self.path = path; self.location = location
    }
    /// The start of a sentence about it, as a ``SceneError`` begins: `scene.json:2:13: device: `.
    public var prefix: String {
        SceneError(file: file, location: location, path: path, message: "").description
    }
}
