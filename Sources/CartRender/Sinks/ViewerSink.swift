import CartRenderCore
import CartRenderRaster

/// `DIR/index.html` of `render --viewer`: the viewer page (``ViewerPage``) over the frames of the
/// run. It keeps each frame's index, time, files and state as the stream brings them in order,
/// and writes the page once the other outputs are known (it names the animations among them).
/// Put it after the frame, animation and contact-sheet sinks and before the manifest, which then
/// lists `index.html` among its outputs. The page is the one `cartrender view DIR` writes from
/// the manifest of the same run, byte for byte.
final class ViewerSink: FrameSink, @unchecked Sendable {
    /// The page's file name.
    static let fileName = "index.html"
    private let renderer: Renderer
    private let staging: StagingArea
    private var frames: [Manifest.Frame] = []

    init(renderer: Renderer, staging: StagingArea) {
        self.renderer = renderer
        self.staging = staging
    }

    var needs: FrameNeeds { .inOrder }

    func consume(_ frame: RenderedFrame) throws {
        frames.append(Manifest.Frame(index: frame.index, time: frame.time, files: frame.files,
                                     state: try JSONValue(encoding: frame.state)))
    }

    /// - Throws: `OutputError` naming the page.
    func finish(earlier: [Manifest.File]) throws -> SinkOutput {
        var manifest = renderer.manifest(frames: frames)
        manifest.outputs = earlier
        let bytes = Array(try ViewerPage.html(for: manifest).utf8)
        try staging.write(bytes, to: Self.fileName)
        return SinkOutput(files: [Manifest.File(name: Self.fileName, sha256: Checksum.sha256(bytes))])
    }
}
