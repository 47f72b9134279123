import CartRenderCore
import Foundation

/// The options that change what the frames show — `--fps`, `--scale`, `--color-scheme`,
/// `--reduce-motion` — shared by `render` and `verify`, and the scene they select.
public struct SceneOptions: Equatable, Sendable {
    /// Scene file, ``standardInput`` for the scene on standard input, or nil for the embedded
    /// default scene.
    public var scenePath: String?
    public var fps: Int?
    /// Pixels per point (1…4).
    public var scale: Double?
    public var colorScheme: ColorScheme?
    public var reduceMotion = false
    /// `--variant NAME` (repeatable): the variants of the scene's `"variants"` matrix to render
    /// or verify, in the order given; empty = all.
    public var variants: [String] = []

    public init() {}

    static let specs: [OptionSpec] = [
        OptionSpec("--fps", "N", "Frames per second, 1…240 (overrides the scene)."),
        OptionSpec("--scale", "S", "Pixels per point, 1…4 (overrides the device's)."),
        OptionSpec("--color-scheme", "light|dark", "Appearance (overrides the scene)."),
        OptionSpec("--reduce-motion", nil, "Render with Reduce Motion on."),
        OptionSpec("--variant", "NAME", "Only this variant of the scene's \"variants\" matrix (repeatable)."),
    ]

    /// Takes `name` when it is one of these options; returns false for any other option.
    /// - Throws: `UsageError` for a value out of range.
    mutating func parse(_ name: String, _ v: String) throws -> Bool {
        switch name {
        case "--fps":
            guard let n = Int(v), (1...240).contains(n) else { throw UsageError("--fps: expected a whole number from 1 to 240, got \"\(v)\"") }
            fps = n
        case "--scale":
            guard let s = Double(v), s.isFinite, (1...4).contains(s) else { throw UsageError("--scale: expected a number from 1 to 4, got \"\(v)\"") }
            scale = s
        case "--color-scheme":
            guard let s = ColorScheme(rawValue: v) else { throw UsageError("--color-scheme: expected light or dark, got \"\(v)\"") }
            colorScheme = s
        case "--reduce-motion": reduceMotion = true
        case "--variant":
            guard !v.isEmpty else { throw UsageError("--variant needs a variant name") }
            variants.append(v)
        default: return false
        }
        return true
    }

    /// The scene overrides these options carry.
    public var overrides: SceneOverrides {
        SceneOverrides(fps: fps, scale: scale, colorScheme: colorScheme, reduceMotion: reduceMotion ? true : nil)
    }

    /// The scene path that reads the scene from standard input (SPEC.md §5).
    public static let standardInput = "-"

    /// Standard input, read once: the variants check and the scene both decode it.
    private static let standardInputCache = LockedValue<Result<[UInt8], Error>?>(nil)
    static func standardInputBytes() throws -> [UInt8] {
        try standardInputCache.withLock { cached in
            if cached == nil { cached = Result { try SceneFiles.readStandardInput() } }
            return try cached!.get()
        }
    }

    /// Loads the scene file (or the default scene) with the overrides applied. A scene on
    /// standard input resolves its relative image paths against the working directory.
    /// - Throws: `SceneError`.
    public func loadScene() throws -> Scene {
        if scenePath == Self.standardInput {
            return try SceneDecoder.decode(Self.standardInputBytes(), file: SceneFiles.standardInputName,
                                           baseDirectory: FileSystemPath.currentDirectory(), overrides: overrides)
        }
        if let path = scenePath { return try SceneDecoder.load(path: path, overrides: overrides) }
        return try DefaultScene.scene(overrides: overrides, baseDirectory: FileSystemPath.currentDirectory())
    }
}

extension SceneOptions {
    /// The name of the scene in messages: its path, `<stdin>` or `<default scene>`.
    public var sceneName: String {
        scenePath == Self.standardInput ? SceneFiles.standardInputName : scenePath ?? DefaultScene.fileName
    }

    /// Loads the scene and sets up its renderer (fonts, images, timeline).
    /// - Throws: `SceneError` naming the scene file, `RasterError`.
    public func makeRenderer() throws -> Renderer {
        TestHook.pause("load-scene")
        return try makeRenderer(for: try loadScene())
    }

    /// Sets up the renderer of a scene of this scene file (one variant).
    /// - Throws: `SceneError` naming the scene file, `RasterError`.
    public func makeRenderer(for scene: Scene) throws -> Renderer {
        do { return try Renderer(scene: scene) } catch var e as SceneError {
            e.file = sceneName
            throw e
        }
    }

    /// The variants of the scene file's `"variants"` matrix that `--variant` selects (all
    /// without it), with the overrides applied; nil when the scene has no matrix.
    /// - Throws: `SceneError`; `UsageError` for `--variant` without a matrix or naming no variant.
    public func selectedVariants() throws -> [SceneVariant]? {
        let matrix: [SceneVariant]?
        switch scenePath {
        case nil: matrix = nil
        case Self.standardInput?:
            matrix = try SceneDecoder.decodeVariants(Self.standardInputBytes(), file: SceneFiles.standardInputName,
                                                     baseDirectory: FileSystemPath.currentDirectory(), overrides: overrides)
        case let path?: matrix = try SceneDecoder.loadVariants(path: path, overrides: overrides)
        }
        guard let all = matrix else {
            if let name = variants.first { throw UsageError("--variant \(name): \(sceneName) has no \"variants\" matrix") }
            return nil
        }
        guard !variants.isEmpty else { return all }
        return try variants.map { name in
            guard let v = all.first(where: { $0.name == name }) else {
                throw UsageError("--variant: \(sceneName) has no variant \"\(name)\"; its variants: \(all.map(\.name).joined(separator: ", "))")
            }
            return v
        }
    }
}

/// `--frames A-B`: frame indices A through B inclusive.
func parseFrameRange(_ v: String) throws -> FrameSelection {
    let parts = v.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count <= 2, let a = Int(parts[0]), a >= 0, let b = parts.count == 2 ? Int(parts[1]) : a, b >= a else {
        throw UsageError("--frames: expected A-B with 0 ≤ A ≤ B (frame indices), got \"\(v)\"")
    }
    return .range(a, b)
}

/// `--at SECONDS`: one frame at exactly this time.
func parseTime(_ v: String) throws -> FrameSelection {
    guard let t = Double(v), t.isFinite, t >= 0 else { throw UsageError("--at: expected a time in seconds ≥ 0, got \"\(v)\"") }
    return .at(t)
}

/// `--jobs N`: 1…256 worker threads.
func parseJobs(_ v: String) throws -> Int {
    guard let n = Int(v), (1...256).contains(n) else { throw UsageError("--jobs: expected a whole number from 1 to 256, got \"\(v)\"") }
    return n
}
