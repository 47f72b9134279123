import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

/// The options that change what the frames show — `--fps`, `--scale`, `--color-scheme`,
/// `--reduce-motion` — shared by `render` and `verify`, and the scene they select.
public struct SceneOptions: Equatable, Sendable {
    /// Scene file, ``standardInput`` for the scene on standard input, or nil for the embedded
    /// default scene.
    public var scenePath: String?
    /// Frames per second (`--fps`, in `SceneFields.fps`'s range); nil = the scene's.
    public var fps: Int?
    /// Pixels per point (`--scale`, in `SceneFields.scale`'s range); nil = the device's.
    public var scale: Double?
    /// Light or dark (`--color-scheme`); nil = the scene's.
    public var colorScheme: ColorScheme?
    /// `--color-scheme light,dark`: both appearances, one render each (a render to a named
    /// file only); empty or one scheme otherwise (then ``colorScheme``).
    public var colorSchemes: [ColorScheme] = []
    /// Render with Reduce Motion on (`--reduce-motion`).
    public var reduceMotion = false
    /// `--variant NAME` (repeatable): the variants of the scene's `"variants"` matrix to render
    /// or verify, in the order given; empty = all.
    public var variants: [String] = []
    /// `--assets DIR`: the folder the scene's image and font files must lie in; nil = the scene
    /// file's folder (the working directory for a scene on standard input).
    public var assetsDirectory: String?
    /// `--allow-outside-assets`: image and font files may lie anywhere and be reached through
    /// symbolic links.
    public var allowOutsideAssets = false

    /// The default scene with its own settings.
    public init() {}

    static let options = OptionTable<SceneOptions>([
        Option("--fps", "N", "Frames per second, \(SceneFields.fps.rangeText) (overrides the scene).", .int(SceneFields.fps.integerRange)) { $0.fps = $1 },
        Option("--scale", "S", "Pixels per point, \(SceneFields.scale.rangeText) (overrides the device's).", .number(SceneFields.scale.numberRange)) { $0.scale = $1 },
        Option("--color-scheme", "light|dark", "Appearance (overrides the scene); light,dark renders both, with -o FILE.EXT.", .colorSchemes) {
            $0.colorSchemes = $1
            $0.colorScheme = $1.count == 1 ? $1[0] : nil
        },
        Option("--reduce-motion", "Render with Reduce Motion on.") { $0.reduceMotion = true },
        Option("--variant", "NAME", "Only this variant of the scene's \"variants\" matrix (repeatable).", .nonEmpty("a variant name"),
               repeatable: true) { $0.variants.append($1) },
        Option("--assets", "DIR", "Folder the scene's image and font files must lie in (default: the scene's folder).",
               .nonEmpty("a folder")) { $0.assetsDirectory = $1 },
        Option("--allow-outside-assets", "Let the scene name image and font files outside that folder or behind symbolic links.") {
            $0.allowOutsideAssets = true
        },
    ])

    /// Checks a command's positionals as its scene file: at most one, and not an empty name
    /// (an unset shell variable), which would otherwise read as a missing file.
    /// - Parameter command: the command's name, first in the sentence (`verify`); nil for a render.
    /// - Throws: `UsageError`: `verify: expected at most one scene file, got 2: a.json b.json`,
    ///   `the scene file name is empty`.
    static func checkScenePositionals(_ positionals: [String], command: String?) throws {
        guard positionals.count <= 1 else {
            throw UsageError("\(command.map { $0 + ": " } ?? "")expected at most one scene file, got \(positionals.count): \(positionals.map(echoed).joined(separator: " "))")
        }
        if positionals.first?.isEmpty == true { throw UsageError("the scene file name is empty") }
    }

    /// The scene overrides these options carry.
    public var overrides: SceneOverrides {
        SceneOverrides(fps: fps, scale: scale, colorScheme: colorScheme, reduceMotion: reduceMotion ? true : nil)
    }

    /// The scene path that reads the scene from standard input (docs/command-line.md).
    public static let standardInput = "-"

    /// Standard input, read once: the variants check and the scene both decode it.
    private static let standardInputCache = LockedValue<Result<[UInt8], Error>?>(nil)

    /// The bytes of standard input. SIGINT or SIGTERM while they are read (a writer that keeps
    /// the pipe open and sends nothing) ends the process at once with one sentence, 130 or 143.
    /// - Throws: `SceneError` (exit 66) when it is empty: nothing was piped in, or it was closed
    ///   (the program then reads /dev/null); the scene is missing, not an empty document.
    static func standardInputBytes() throws -> [UInt8] {
        try standardInputCache.withLock { cached in
            if cached == nil {
                cached = Result {
                    let bytes = try InterruptWatcher.endingAtOnce(while: "reading the scene from standard input") { try SceneFiles.readStandardInput() }
                    guard !bytes.isEmpty else {
                        throw SceneError(kind: .unreadable, file: SceneFiles.standardInputName, location: nil, path: "",
                                         message: "standard input is empty or closed; with - as SCENE, pipe a scene into cartrender (cartrender - < scene.json)")
                    }
                    return bytes
                }
            }
            return try cached!.get()
        }
    }

    /// Loads the scene file (or the default scene) with the overrides applied. A scene on
    /// standard input resolves its relative image paths against the working directory.
    /// - Throws: `SceneError`.
    public func loadScene() throws -> Scene {
        try checkOneColorScheme()
        return try loadScene(source: readSource())
    }

    /// The scene's bytes, read once: the scene file's, or standard input's; nil for the
    /// default scene. What ``loadScene(source:)`` and ``selectedVariants(source:)`` decode.
    /// - Throws: `SceneError` of kind `.unreadable` (see `SceneFiles.readScene`).
    public func readSource() throws -> [UInt8]? {
        if scenePath == Self.standardInput { return try Self.standardInputBytes() }
        return try scenePath.map { try SceneFiles.readScene($0) }
    }

    /// Decodes the scene from `source`, the bytes ``readSource()`` read (nil: the default scene).
    /// - Throws: `SceneError`.
    public func loadScene(source: [UInt8]?) throws -> Scene {
        try checkOneColorScheme()
        guard let source, let path = scenePath else {
            return try DefaultScene.scene(overrides: overrides, baseDirectory: FileSystemPath.currentDirectory())
        }
        if path == Self.standardInput {
            return try SceneDecoder.decode(source, file: SceneFiles.standardInputName, baseDirectory: FileSystemPath.currentDirectory(),
                                           overrides: overrides, files: assets(base: FileSystemPath.currentDirectory()))
        }
        return try SceneDecoder.decode(source, ofSceneAt: path, overrides: overrides, files: assets(base:))
    }
}

extension SceneOptions {
    /// - Throws: `UsageError` for `--color-scheme light,dark`, which only a render to a named
    ///   animation file takes.
    func checkOneColorScheme() throws {
        guard colorSchemes.count <= 1 else {
            throw UsageError("--color-scheme \(colorSchemes.map(\.rawValue).joined(separator: ",")) renders one file per appearance: only a render to a named animation file (-o fly.gif) takes several")
        }
    }

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

    /// Sets up the renderer of the scene decoded from `source` (``loadScene(source:)``).
    /// - Throws: `SceneError` naming the scene file, `RasterError`.
    public func makeRenderer(source: [UInt8]?) throws -> Renderer {
        TestHook.pause("load-scene")
        return try makeRenderer(for: try loadScene(source: source))
    }

    /// Sets up the renderer of a scene of this scene file (one variant).
    /// - Throws: `SceneError` naming the scene file, `RasterError`.
    public func makeRenderer(for scene: Scene) throws -> Renderer {
        do { return try Renderer(scene: scene, assets: assets(of: scene)) } catch var e as SceneError {
            e.file = sceneName
            throw e
        }
    }

    /// The folder `scene`'s image and font files must lie in: `--assets`, else the scene's own
    /// folder; `--allow-outside-assets` lifts the rule.
    public func assets(of scene: Scene) -> AssetFolder { assets(base: scene.baseDirectory) }

    /// The folder the files of a scene whose folder is `base` must lie in (see ``assets(of:)``):
    /// the decoder checks the scene's image and font files by it, as the renderer reads them.
    func assets(base: String) -> AssetFolder {
        AssetFolder(directory: assetsDirectory ?? base, allowsOutside: allowOutsideAssets)
    }

    /// The variants of the scene file's `"variants"` matrix that `--variant` selects (all
    /// without it), with the overrides applied; nil when the scene has no matrix.
    /// - Throws: `SceneError`; `UsageError` for `--variant` without a matrix or naming no variant.
    public func selectedVariants() throws -> [SceneVariant]? {
        try selectedVariants(source: readSource())
    }

    /// ``selectedVariants()`` of the scene decoded from `source`, the bytes ``readSource()``
    /// read (nil: the default scene, which has no matrix).
    /// - Throws: `SceneError`; `UsageError` for `--variant` without a matrix or naming no variant.
    public func selectedVariants(source: [UInt8]?) throws -> [SceneVariant]? {
        let matrix: [SceneVariant]?
        switch (scenePath, source) {
        case (nil, _), (_, nil): matrix = nil
        case (Self.standardInput?, let source?):
            matrix = try SceneDecoder.decodeVariants(source, file: SceneFiles.standardInputName,
                                                     baseDirectory: FileSystemPath.currentDirectory(), overrides: overrides,
                                                     files: assets(base: FileSystemPath.currentDirectory()))
        case (let path?, let source?): matrix = try SceneDecoder.decodeVariants(source, ofSceneAt: path, overrides: overrides, files: assets(base:))
        }
        guard let all = matrix else {
            if let name = variants.first { throw UsageError("--variant \(echoed(name)): \(sceneName) has no \"variants\" matrix") }
            return nil
        }
        guard !variants.isEmpty else { return all }
        return try variants.map { name in
            guard let v = all.first(where: { $0.name == name }) else {
                throw UsageError("--variant: \(sceneName) has no variant \(echoedQuoted(name)); its variants: \(all.map(\.name).joined(separator: ", "))")
            }
            return v
        }
    }
}

extension OptionValue where Value == [ColorScheme] {
    /// `--color-scheme light`, `dark`, or both separated by a comma (`light,dark`), each once.
    static var colorSchemes: OptionValue {
        OptionValue { name, text in
            var schemes: [ColorScheme] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let scheme = ColorScheme(rawValue: String(part)) else {
                    throw UsageError.expected(name, "light or dark", got: text)
                }
                guard !schemes.contains(scheme) else { throw UsageError("\(name): \(scheme.rawValue) is given more than once") }
                schemes.append(scheme)
            }
            return schemes
        }
    }
}
