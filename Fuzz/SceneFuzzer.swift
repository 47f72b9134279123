// The scene target of the fuzz harness (issue #7): the scene decoder and validator, built by
// Scripts/fuzz-scene.sh together with the CartRenderCore sources in one module (FuzzTargets.swift
// holds the libFuzzer entry point).
//
// For every input: decoding must return a Scene or throw a SceneError — never crash, trap,
// hang or throw anything else. For a valid scene it also checks that
//   - the canonical form decodes again to the same canonical form (manifests hash it), and
//   - the same bytes with the largest --fps and --scale overrides decode or fail cleanly, and
//   - the screen model (motion and layout, with text measured by a stand-in) answers for the
//     first, a middle and the last time without crashing.
import Foundation

/// Text metrics without Pango: 0.6 em per character, wrapped at `maxWidth` and cut to
/// `maxLines` lines, the baseline 0.95 em below the top.
struct StandInMetrics: TextMeasuring {
    func measure(_ text: String, font: FontSpec, maxWidth: Double?, maxLines: Int?) -> Size {
        let width = Double(text.count) * font.size * 0.6
        guard let w = maxWidth, w > 0, width > w else { return Size(width: width, height: font.size * 1.2) }
        let lines = min((width / w).rounded(.up), Double(maxLines ?? .max))
        return Size(width: w, height: lines * font.size * 1.2)
    }
    func firstBaseline(_ text: String, font: FontSpec) -> Double { font.size * 0.95 }
}

/// Where relative image paths point: the bad-input corpus, so that its image names resolve.
let fuzzBaseDirectory = ProcessInfo.processInfo.environment["CARTRENDER_FUZZ_BASE"] ?? "/tmp"

/// The files a fuzzed scene names, read as their paths say (links followed): the harness's own
/// resolver, as the core reads no file (the product passes AssetFolder).
struct FuzzSceneFiles: SceneFileResolver {
    func imageProblem(_ path: String) -> SceneFileProblem? {
        FileManager.default.isReadableFile(atPath: path) ? nil : SceneFileProblem(reason: "does not exist", unreadable: true)
    }
    func readFont(_ path: String, limit: Int) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path), data.count <= limit else {
            throw SceneFileProblem(reason: "does not exist", unreadable: true)
        }
        return Array(data)
    }
}

/// Checks one input as a scene file.
func fuzzScene(_ bytes: [UInt8]) {
    let scene: Scene
    do {
        scene = try SceneDecoder.decode(bytes, file: "fuzz.json", baseDirectory: fuzzBaseDirectory, files: FuzzSceneFiles())
    } catch let e as SceneError {
        precondition(!e.message.isEmpty, "an error without a message")
        precondition(!e.description.contains("\n"), "an error message on several lines: \(e.description)")
        return
    } catch let e as SceneErrors {
        // Several problems at once (SceneErrors.init makes sure there are two or more): at most
        // SceneDecoder.maxErrors, each said once, each one sentence on one line.
        precondition(e.errors.count <= SceneDecoder.maxErrors, "\(e.errors.count) errors, more than \(SceneDecoder.maxErrors)")
        precondition(Set(e.sentences).count == e.sentences.count, "a problem said twice: \(e.description)")
        for one in e.errors {
            precondition(!one.message.isEmpty, "an error without a message")
            precondition(!one.description.contains("\n"), "an error message on several lines: \(one.description)")
        }
        return
    } catch {
        fatalError("decoding threw \(type(of: error)), not a SceneError or SceneErrors: \(error)")
    }

    // The canonical form is a scene file too, and a fixed point.
    let canonical = scene.canonicalJSON.serialized()
    do {
        let again = try SceneDecoder.decode(Array(canonical.utf8), file: "canonical.json", baseDirectory: scene.baseDirectory, files: FuzzSceneFiles())
        precondition(again.canonicalJSON.serialized() == canonical, "the canonical form is not a fixed point:\n\(canonical)\n\(again.canonicalJSON.serialized())")
    } catch {
        fatalError("the canonical form of a valid scene does not decode: \(error)\n\(canonical)")
    }

    do {
        _ = try SceneDecoder.decode(bytes, file: "fuzz.json", baseDirectory: fuzzBaseDirectory,
                                    overrides: SceneOverrides(fps: 240, scale: 4, colorScheme: .dark, reduceMotion: true), files: FuzzSceneFiles())
    } catch is SceneError {
    } catch {
        fatalError("decoding with overrides threw \(type(of: error)): \(error)")
    }

    let model = Screens.model(for: scene, measurer: StandInMetrics())
    let end = scene.duration ?? (max(model.settleTime, scene.events.last?.at ?? 0) + 0.5)
    precondition(end.isFinite && end >= 0, "the render length is \(end)")
    for t in [0, end / 2, end] {
        let (display, _) = model.frame(at: t)
        precondition(display.size.width > 0 && display.size.height > 0, "an empty canvas")
    }
}
