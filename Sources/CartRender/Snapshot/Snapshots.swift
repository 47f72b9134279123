import CartRenderCore
import CartRenderRaster
import Foundation

/// A scene to snapshot-test.
public enum SnapshotScene: Sendable {
    /// A scene file (relative paths: see ``Snapshots/verify(_:baseline:times:record:tolerance:masks:overrides:reportDirectory:jobs:file:)``).
    case file(String)
    /// Scene JSON text; image paths in it are relative to `baseDirectory`.
    case json(String, baseDirectory: String)
    /// The embedded default scene, `Examples/fly-button.json` (docs/scene-file.md).
    case defaultScene
    /// A scene already decoded (overrides are not applied to it).
    case scene(Scene)
}

/// Snapshot testing of scenes from Swift tests, without XCTest: call it from any test framework.
///
/// ```swift
/// // XCTest (a thin helper, as in Tests/CartRenderTests/Support/AssertSnapshots.swift):
/// if let message = Snapshots.failure(.file("Scenes/fly.json"), baseline: "__Snapshots__/fly", times: [0, 0.5, 1]) {
///     XCTFail(message)
/// }
/// // Swift Testing:
/// let message = Snapshots.failure(.defaultScene, baseline: "__Snapshots__/default")
/// #expect(message == nil, "\(message ?? "")")
/// ```
///
/// The record mode is `record` when given, else `CARTRENDER_RECORD`, else `never` when `CI` is
/// set, else `missing`: the first local run records the baseline, passes and says so on stderr
/// (``SnapshotResult/recordingNote``); CI never records.
///
/// Swift Testing (6.2 and later) can attach the failing frames' images to the test:
///
/// ```swift
/// let result = try Snapshots.verify(.file("Scenes/fly.json"), baseline: "__Snapshots__/fly")
/// for path in result.failureArtifacts {
///     Attachment.record(try Data(contentsOf: URL(fileURLWithPath: path)), named: (path as NSString).lastPathComponent)
/// }
/// #expect(result.failureMessage == nil, "\(result.failureMessage ?? "")")
/// ```
public enum Snapshots {
    /// Renders a scene's frames (all of them, or those at `times`) and compares them with a
    /// baseline directory, writing a report as `cartrender verify` does.
    ///
    /// Relative paths (the scene file, `baseline`, `reportDirectory`) are resolved against the
    /// directory of `file`, the calling test's source file, so that baselines live beside the
    /// tests whatever the working directory (as swift-snapshot-testing's `__Snapshots__`).
    ///
    /// - Parameters:
    ///   - scene: what to render.
    ///   - baseline: the directory of `frame_NNNN.png` baseline frames.
    ///   - times: times (s) of the frames to check, each rendered exactly and compared with the
    ///     baseline frame of the nearest index; nil checks every frame (and flags extra baseline frames).
    ///   - record: the record mode; nil resolves it from the environment.
    ///   - tolerance: threshold, anti-aliasing, limits (its masks are in px).
    ///   - masks: regions to ignore, in points.
    ///   - overrides: fps, scale, color scheme, Reduce Motion (not applied to `.scene`).
    ///   - reportDirectory: nil = `cartrender-report` beside the baseline.
    ///   - jobs: threads; nil = the number of cores.
    ///   - file: the caller's `#filePath`.
    /// - Returns: the result; ``SnapshotResult/failureMessage`` is nil when it passed. When
    ///   baseline frames were recorded, ``SnapshotResult/recordingNote`` is printed on stderr,
    ///   and so are ``SnapshotResult/warnings`` (no baseline manifest, other software). The
    ///   baseline's `manifest.json` is recorded and compared as `cartrender verify` does: a
    ///   frame whose state differs from it fails.
    /// - Throws: `SceneError`, `RasterError`, `OutputError`, ``ImageDecodingError``,
    ///   ``InputError``, ``DiffError`` (a time past the end of the render, options out of range).
    public static func verify(
        _ scene: SnapshotScene, baseline: String, times: [Double]? = nil, record: RecordMode? = nil,
        tolerance: ComparisonOptions = ComparisonOptions(), masks: [Rect] = [], overrides: SceneOverrides = SceneOverrides(),
        reportDirectory: String? = nil, jobs: Int? = nil, file: StaticString = #filePath
    ) throws -> SnapshotResult {
        try verify(scene, baseline: baseline, times: times, strategy: try SnapshotStrategy.resolving(record: record, tolerance: tolerance),
                   masks: masks, overrides: overrides, reportDirectory: reportDirectory, jobs: jobs, file: file)
    }

    /// ``verify(_:baseline:times:record:tolerance:masks:overrides:reportDirectory:jobs:file:)``
    /// with the record mode, `--fail-on-record` and tolerance given as one ``SnapshotStrategy``
    /// (the environment is not read).
    /// - Throws: as ``verify(_:baseline:times:record:tolerance:masks:overrides:reportDirectory:jobs:file:)``.
    public static func verify(
        _ scene: SnapshotScene, baseline: String, times: [Double]? = nil, strategy: SnapshotStrategy, masks: [Rect] = [],
        overrides: SceneOverrides = SceneOverrides(), reportDirectory: String? = nil, jobs: Int? = nil, file: StaticString = #filePath
    ) throws -> SnapshotResult {
        let base = (("\(file)" as NSString).deletingLastPathComponent)
        func resolve(_ path: String) -> String {
            path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path)
        }
        let decoded: Scene
        let subject: String
        // The bytes decoded, where a change of the scene is located (read once).
        var source: [UInt8]?
        switch scene {
        case .file(let path):
            let bytes = try SceneFiles.readScene(resolve(path))
            decoded = try SceneDecoder.decode(bytes, ofSceneAt: resolve(path), overrides: overrides, files: { AssetFolder(directory: $0) })
            subject = resolve(path)
            source = bytes
        case .json(let text, let dir):
            decoded = try SceneDecoder.decode(Array(text.utf8), file: "<scene JSON>", baseDirectory: dir, overrides: overrides,
                                              files: AssetFolder(directory: dir))
            subject = "<scene JSON>"
            source = Array(text.utf8)
        case .defaultScene:
            decoded = try DefaultScene.scene(overrides: overrides, baseDirectory: base)
            subject = DefaultScene.fileName
        case .scene(let s):
            decoded = s
            subject = "<scene>"
        }
        let renderer: Renderer
        do { renderer = try Renderer(scene: decoded) } catch var e as SceneError {
            e.file = subject
            throw e
        }
        var options = VerifyOptions(baseline: resolve(baseline))
        options.reportDirectory = reportDirectory.map(resolve)
        options.strategy = strategy
        options.masks = masks
        if let times { options.frames = times.map { .at($0) } }
        if let jobs { options.jobs = max(1, jobs) }
        options.sceneSource = source
        do {
            let result = try Verifier.verify(renderer: renderer, subject: subject, options: options)
            for warning in result.warnings { Stderr.line(warning) }
            if let note = result.recordingNote { Stderr.line(note) }
            return result
        } catch let e as FrameSelectionError {
            guard case .timeOutside(let t, let end) = e.kind else { throw e }
            throw DiffError.invalidOption("time \(t) s is outside the render, which runs from 0 to \(JSONValue.format(end, decimals: 6)) s")
        }
    }

    /// ``verify(_:baseline:times:record:tolerance:masks:overrides:reportDirectory:jobs:file:)`` for
    /// assertions: nil when every frame passed, else a message that names the failing frames and
    /// the report's files; an error (bad scene, unreadable baseline…) becomes a message too.
    public static func failure(
        _ scene: SnapshotScene, baseline: String, times: [Double]? = nil, record: RecordMode? = nil,
        tolerance: ComparisonOptions = ComparisonOptions(), masks: [Rect] = [], overrides: SceneOverrides = SceneOverrides(),
        reportDirectory: String? = nil, jobs: Int? = nil, file: StaticString = #filePath
    ) -> String? {
        do {
            return try verify(scene, baseline: baseline, times: times, record: record, tolerance: tolerance, masks: masks,
                              overrides: overrides, reportDirectory: reportDirectory, jobs: jobs, file: file).failureMessage
        } catch {
            return "snapshot verification could not run: \(error)"
        }
    }
}
