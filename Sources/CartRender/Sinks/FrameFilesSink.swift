import CartRenderCore
import CartRenderRaster

/// `DIR/frame_NNNN.EXT`: one file per frame of a per-frame format (``OutputFormat/frameFiles(name:title:viewer:needs:options:bytes:)``),
/// written into the staging area by the worker that drew the frame. The frames of a run share
/// their bytes when the stream made them (PNG, SVG).
final class FrameFilesSink: FrameSink, @unchecked Sendable {
    /// The format's name, which is also its files' extension (`png`).
    let name: String
    let needs: FrameNeeds
    private let bytes: (RenderedFrame) throws -> EncodedFrame?
    private let renderer: Renderer
    private let staging: StagingArea

    init(name: String, needs: FrameNeeds, bytes: @escaping (RenderedFrame) throws -> EncodedFrame?, renderer: Renderer, staging: StagingArea) {
        self.name = name
        self.needs = needs
        self.bytes = bytes
        self.renderer = renderer
        self.staging = staging
    }

    /// - Throws: `OutputError` naming `DIR/frame_NNNN.EXT` (disk full, file size limit…);
    ///   `RasterError` (`.library`) when the frame lacks the bytes the format needs.
    func write(_ frame: RenderedFrame) throws -> [Manifest.File] {
        guard let encoded = try bytes(frame) else {
            throw RasterError(.library, "frame \(frame.index) has no \(name) bytes")
        }
        let file = renderer.fileName(ofFrame: frame.index, extension: name)
        try staging.write(encoded.bytes, to: file, sha256: encoded.sha256)
        return [Manifest.File(name: file, sha256: encoded.sha256)]
    }
}
