import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

/// The renders of one `cartrender preview`: the scene (each variant of its matrix that
/// `--variant` selects, or the scene alone), rendered again after each save, and what the pages
/// are told (``payload``: the viewer data of each variant, the errors of the last save).
///
/// A render after a save:
/// 1. loads the scene and sets up a renderer per variant; an error (bad JSON, an unknown key, a
///    missing image) becomes the payload's `errors`, each with its sentence, file, line, column
///    and JSON path, and the last good frames stay;
/// 2. draws, for each variant, the frame nearest the playhead (the time the pages last reported,
///    ``playhead``) and publishes it with the earlier frames around it (`"complete": false`);
/// 3. draws the other frames and publishes them all (`"complete": true`), then removes the frames
///    no longer shown. A save that arrives meanwhile stops step 3 (the next render starts).
///
/// A frame whose display list is the one drawn at its index by the render before, while no image
/// or font file changed, is not drawn again: it keeps its file. Frames are PNGs at the
/// preview's scale (1 px per point unless `--scale`), encoded with the fast compression.
/// Used from one thread (the preview's main loop); ``playhead`` and ``payload`` from any.
final class PreviewSession: @unchecked Sendable {
    /// The scene file and the options (scale, variants, assets).
    let scene: SceneOptions
    let frames: PreviewFrames
    /// The time the pages last showed (s).
    let playhead = LockedValue<Double>(0)
    /// The JSON of the last state published (``publish``), `{}` before the first.
    let payload = LockedValue<String>("{}")
    /// Called with each payload published.
    var onPublish: (String) -> Void = { _ in }
    /// The files a save of which renders again: the scene and every image and font it names
    /// (absolute paths).
    private(set) var watched: [String]

    /// One published variant: its name (`""` without a matrix) and its frames.
    struct Variant {
        var name: String
        var manifest: Manifest
    }
    /// The errors of the last render, as its payload shows them; empty after a render that
    /// completed.
    private(set) var errors: [Error] = []
    /// Whether a render has completed, so the pages have good frames to show under errors.
    var hasGoodFrames: Bool { !good.isEmpty }

    /// The last complete render's variants (read by the server's threads too).
    private let goodValue = LockedValue<[Variant]>([])
    private var good: [Variant] {
        get { goodValue.withLock { $0 } }
        set { goodValue.withLock { $0 = newValue } }
    }
    /// What each variant's frames showed at each index in the last render: for skipping frames
    /// that did not change.
    private var drawn: [String: [Int: (display: DisplayList, file: Manifest.File)]] = [:]
    private var generation = 0

    /// - Parameter scene: its ``SceneOptions/scenePath`` is a file (not `-`, not the default scene).
    init(scene: SceneOptions, frames: PreviewFrames) {
        self.scene = scene
        self.frames = frames
        watched = [Self.absolute(scene.scenePath ?? "")]
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileSystemPath.currentDirectory(), isDirectory: true)).standardizedFileURL.path
    }

    /// Renders the scene as it now is (see the type's documentation).
    /// - Parameters:
    ///   - assetsChanged: an image or font file changed: every frame is drawn again.
    ///   - superseded: asked between frames; true stops the render (another save came, or Ctrl-C).
    /// - Returns: false when the scene does not render (its errors were published).
    @discardableResult
    func render(assetsChanged: Bool, superseded: () -> Bool) -> Bool {
        generation += 1
        if assetsChanged { drawn = [:] }
        let renderers: [(name: String, renderer: Renderer)]
        do {
            renderers = try load()
        } catch {
            publish(good, complete: true, errors: [error])
            return false
        }
        var workers: [FrameWorker] = []
        var variants: [Variant] = []
        do {
            for (name, renderer) in renderers {
                let worker = try renderer.makeWorker()
                workers.append(worker)
                let now = renderer.frameIndex(nearest: playhead.withLock { $0 })
                let fresh = try frame(now, of: name, on: worker)
                // The earlier frames around the new one until the rest are drawn.
                let earlier = good.first { $0.name == name }?.manifest.frames ?? []
                let frames = (0..<renderer.frameCount).map { i -> Manifest.Frame in
                    if i == now || earlier.isEmpty { return i == now ? fresh : Manifest.Frame(index: i, time: renderer.time(ofFrame: i), files: fresh.files, state: fresh.state) }
                    var f = earlier[min(i, earlier.count - 1)]
                    f.index = i
                    f.time = renderer.time(ofFrame: i)
                    return f
                }
                variants.append(Variant(name: name, manifest: renderer.manifest(frames: frames)))
            }
            publish(variants, complete: false, errors: [])
            for (k, (name, renderer)) in renderers.enumerated() {
                for i in 0..<renderer.frameCount {
                    if superseded() { return true }
                    variants[k].manifest.frames[i] = try frame(i, of: name, on: workers[k])
                }
            }
        } catch {
            publish(good, complete: true, errors: [error])
            return false
        }
        good = variants
        publish(good, complete: true, errors: [])
        frames.prune(keeping: Set(good.flatMap { $0.manifest.frames.flatMap { $0.files.map(\.name) } }))
        return true
    }

    /// The renderers of the selected variants (one named `""` without a matrix); sets
    /// ``watched`` to the scene file and the files every variant names.
    private func load() throws -> [(name: String, renderer: Renderer)] {
        let scenes: [(name: String, scene: Scene)]
        if let variants = try scene.selectedVariants() {
            scenes = variants.map { ($0.name, $0.scene) }
        } else {
            scenes = [("", try scene.loadScene())]
        }
        var files = [watched[0]]
        for (_, s) in scenes {
            for case .file(let path) in s.content.images where !files.contains(path) { files.append(path) }
            for font in s.fonts where !files.contains(font.file) { files.append(font.file) }
        }
        watched = files
        return try scenes.map { ($0.name, try scene.makeRenderer(for: $0.scene)) }
    }

    /// Frame `i` of variant `name`: drawn unless the last render drew the same display list there.
    private func frame(_ i: Int, of name: String, on worker: FrameWorker) throws -> Manifest.Frame {
        let renderer = worker.renderer
        let t = renderer.time(ofFrame: i)
        let (display, state) = worker.frame(at: t)
        let file: Manifest.File
        if let earlier = drawn[name]?[i], earlier.display == display {
            file = earlier.file
        } else {
            let png = try PNGEncoder.encode(worker.rasterize(display), compression: .fast)
            let sha = Checksum.sha256(png)
            file = Manifest.File(name: "\(name.isEmpty ? "frame" : Self.urlSafe(name))-\(sha.prefix(16)).png", sha256: sha)
            try frames.write(png, as: file.name, sha256: sha)
        }
        drawn[name, default: [:]][i] = (display, file)
        return Manifest.Frame(index: i, time: t, files: [file], state: try JSONValue(encoding: state))
    }

    /// A variant name as it may start a frame's file name: letters, digits, `_` and `-` kept,
    /// anything else `_`.
    static func urlSafe(_ name: String) -> String {
        String(name.unicodeScalars.map { s in
            s.isASCII && (CharacterSet.alphanumerics.contains(s) || s == "_" || s == "-") ? Character(s) : "_"
        })
    }

    /// Publishes `variants` and `errors` as the payload: `{"generation", "complete", "scene",
    /// "errors": [{"sentence", "file", "line", "column", "path", "message"}], "variants":
    /// [{"name", "data": the viewer's data (``ViewerPage/data(for:)``)}]}`.
    private func publish(_ variants: [Variant], complete: Bool, errors: [Error]) {
        self.errors = errors
        let json = JSONValue.object([
            ("generation", .int(generation)), ("complete", .bool(complete)),
            ("scene", .string(scene.sceneName)),
            ("errors", .array(errors.flatMap(Self.describe))),
            ("variants", .array(variants.map { v in
                .object([("name", .string(v.name)), ("data", (try? ViewerPage.data(for: v.manifest)) ?? .null)])
            })),
        ]).serialized()
        payload.withLock { $0 = json }
        onPublish(json)
    }

    /// An error as the page shows it: one entry per problem, each of a ``SceneErrors`` its
    /// own (``sentences(of:)``), with its sentence and, for a scene error, its file, line,
    /// column, JSON path and message.
    static func describe(_ error: Error) -> [JSONValue] {
        if let many = (error as? SceneErrors)?.errors { return many.map(describeOne) }
        return [describeOne(error)]
    }

    private static func describeOne(_ error: Error) -> JSONValue {
        let sentence = sentences(of: error)[0]
        guard let e = error as? SceneError else { return .object([("sentence", .string(sentence))]) }
        return .object([
            ("sentence", .string(sentence)), ("file", .string(e.file)),
            ("line", e.location.map { .int($0.line) } ?? .null), ("column", e.location.map { .int($0.column) } ?? .null),
            ("path", .string(e.path)), ("message", .string(e.message)),
        ])
    }

    /// The sentences of `error`, one per problem, each on one line (`scene.json:3:9: fps: …`).
    static func sentences(of error: Error) -> [String] {
        ((error as? ReportableError)?.sentences ?? ["internal error: \(error)"]).map(singleLine)
    }

    /// The variant `name`'s last good render.
    func variant(_ name: String) -> Variant? { goodValue.withLock { $0.first { $0.name == name } } }
}
