// The manifest target of the fuzz harness: `Manifest(json:)`, which `cartrender merge`, the next
// render in a directory and `verify --record` use to read manifests other runs (or people, or
// damaged disks) left, and `Manifest.shardProblem`, merge's checks of a shard manifest.
//
// For every input: reading must return a Manifest or throw a JSONSyntaxError or DecodingError
// (whose path and reason make one line) — never crash, trap, hang or throw anything else. For a
// manifest that reads, it also checks that
//   - it can be written again (verify --record rewrites a baseline's manifest) and that writing
//     is a fixed point: the written text reads back and is written to the same bytes, and
//   - merge's checks answer without crashing, and a shard manifest they accept names only plain
//     frame file names of its own frames.
import Foundation

/// The per-frame formats' extensions, as `ShardMerge.frameExtensions` lists them.
let fuzzFrameExtensions = ["png", "svg"]

/// Checks one input as a manifest.
func fuzzManifest(_ bytes: [UInt8]) {
    let manifest: Manifest
    do {
        manifest = try Manifest(json: bytes)
    } catch let e as DecodingError {
        precondition(!e.reason.isEmpty, "a decoding error without a reason at \(e.jsonPath)")
        precondition(!singleLine("\(e.jsonPath): \(e.reason)").contains("\n"), "an error on several lines")
        return
    } catch is JSONSyntaxError {
        return
    } catch {
        fatalError("reading threw \(type(of: error)), not a JSONSyntaxError or DecodingError: \(error)")
    }

    let text: String
    do { text = try manifest.serialized() } catch { fatalError("a manifest that reads cannot be written: \(error)") }
    do {
        let again = try Manifest(json: Array(text.utf8))
        let textAgain = try again.serialized()
        precondition(textAgain == text, "writing is not a fixed point:\n\(text)\n\(textAgain)")
    } catch {
        fatalError("a written manifest does not read back: \(error)\n\(text)")
    }

    if let problem = manifest.shardProblem(frameExtensions: fuzzFrameExtensions) {
        precondition(!problem.isEmpty, "an empty problem")
    } else {
        for frame in manifest.frames {
            precondition((0..<manifest.frameCount).contains(frame.index), "a frame outside the render passed: \(frame.index)")
            for file in frame.files {
                precondition(!file.name.contains("/") && file.name.hasPrefix("frame_"), "a file name merge must refuse passed: \(file.name)")
            }
        }
        precondition(manifest.outputs.isEmpty, "a shard with outputs passed")
    }
}
