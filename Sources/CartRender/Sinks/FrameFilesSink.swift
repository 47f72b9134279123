import CartRenderCore
import CartRenderRaster

/// `DIR/frame_NNNN.png` or `DIR/frame_NNNN.svg`: one file per frame (docs/command-line.md, “Outputs”), written into
/// the staging area by the worker that drew the frame. The frames of a run share their bytes.
final class FrameFilesSink: FrameSink, @unchecked Sendable {
    let format: OutputFormat
    private let renderer: Renderer
    private let staging: StagingArea

    /// - Precondition: `format.isPerFrame`.
    init(format: OutputFormat, renderer: Renderer, staging: StagingArea) {
        precondition(format.isPerFrame, "FrameFilesSink writes per-frame formats, not \(format)")
        self.format = format
        self.renderer = renderer
        self.staging = staging
    }

    var needs: FrameNeeds { format == .svg ? .svg : .png }

    /// - Throws: `OutputError` naming `DIR/frame_NNNN.ext` (disk full, file size limit…).
    func write(_ frame: RenderedFrame) throws -> [Manifest.File] {
        guard let encoded = format == .svg ? frame.svg : frame.png else {
            throw RasterError(.library, "frame \(frame.index) has no \(format.rawValue) bytes")
        }
        let name = renderer.fileName(ofFrame: frame.index, format: format)
        try staging.write(encoded.bytes, to: name, sha256: encoded.sha256)
        return [Manifest.File(name: name, sha256: encoded.sha256)]
    }
}
