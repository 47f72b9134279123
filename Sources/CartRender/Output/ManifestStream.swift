import CartRenderCore
import Foundation

/// The manifest of a render in progress: frame entries arrive in index order while frames are
/// rendered and go straight to a hidden file in the staging directory, so memory does not grow
/// with the number of frames; `finish` writes the manifest around them. The bytes are the same
/// as serializing a `Manifest` that holds every frame.
final class ManifestStream {
    private let part: StagedPart
    /// Frames written so far.
    private(set) var count = 0
    /// Names of the frame files the written frames list, in order (for `StagingArea.commit`).
    private(set) var fileNames: [String] = []

    /// - Parameter name: the manifest's file name (`manifest.json` or a shard's).
    init(staging: StagingArea, name: String) {
        part = StagedPart(staging: staging, name: name, partName: ".frames.json.partial")
    }

    /// Appends frame entries; call in index order.
    /// - Throws: `OutputError` when the staging file cannot be written; what encoding a frame's
    ///   state throws.
    func append(_ frames: [Manifest.Frame]) throws {
        for f in frames {
            try part.append((count == 0 ? "" : ",\n") + "    " + (try JSONValue(encoding: f)).serialized(prettyAt: 2))
            count += 1
            fileNames += f.files.map(\.name)
        }
    }

    /// Writes `manifest` (without frames of its own) with the appended frames as the staged
    /// manifest, and removes the partial file.
    /// - Throws: `OutputError` naming the manifest when a file cannot be written or read back.
    func finish(_ manifest: Manifest) throws {
        precondition(manifest.frames.isEmpty, "ManifestStream.finish: the frames were streamed")
        var head = "", tail = ""
        try manifest.serialized(streamingFrames: count, writeHead: { head = $0 }, writeFrames: {}, writeTail: { tail = $0 })
        try part.writeFile(head: head, tail: tail)
    }
}
