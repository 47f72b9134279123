import CartRenderCore
import CartRenderRaster

/// `DIR/manifest.json`, or a shard's `DIR/shard-K-of-N.json` (docs/command-line.md, “Outputs”): each frame's entry
/// (index, time, files, state) streamed to the staging area in frame order, then the header,
/// `outputs` (the files of the sinks before it) and `events` around them. Put it last among the
/// sinks: it lists what the others wrote.
final class ManifestSink: FrameSink, @unchecked Sendable {
    /// The manifest's file name.
    let fileName: String
    private let renderer: Renderer
    private let shard: (Int, Int)?
    private let stream: ManifestStream
    /// The audit whose report goes into the manifest's `audit`; it finishes before this sink.
    private let audit: AuditSink?
    /// The manifest written (without its frames, which went to the file), after `finish`.
    private(set) var manifest: Manifest?

    init(renderer: Renderer, shard: (Int, Int)?, staging: StagingArea, audit: AuditSink? = nil) {
        self.renderer = renderer
        self.audit = audit
        self.shard = shard
        fileName = shard.map { Manifest.shardFileName($0.0, of: $0.1) } ?? "manifest.json"
        stream = ManifestStream(staging: staging, name: fileName)
    }

    var needs: FrameNeeds { .inOrder }

    /// Frames listed so far.
    var framesWritten: Int { stream.count }
    /// Names of the frame files the listed frames name, in order.
    var frameFileNames: [String] { stream.fileNames }

    func consume(_ frame: RenderedFrame) throws {
        try stream.append([Manifest.Frame(index: frame.index, time: frame.time, files: frame.files,
                                          state: try frame.stateJSON())])
    }

    /// - Throws: `OutputError` naming the manifest.
    func finish(earlier: [Manifest.File]) throws -> SinkOutput {
        var manifest = renderer.manifest(frames: [])
        manifest.shard = shard
        manifest.outputs = earlier
        manifest.audit = audit?.report?.json
        try stream.finish(manifest)
        self.manifest = manifest
        return SinkOutput()
    }
}
