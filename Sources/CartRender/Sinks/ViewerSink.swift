import CartRenderCore
import CartRenderRaster

/// `DIR/index.html` of `render --viewer`: the viewer page (``ViewerPage``) over the frames of the
/// run. Each frame's entry (index, time, file, state: the state as the manifest sink encodes it,
/// ``RenderedFrame/stateJSON()``, encoded once for both) goes to a hidden staging file as the
/// stream brings it in order, so memory does not grow with the number of frames; the page is
/// written around them once the other outputs are known (it names the animations among them).
/// Put it after the frame, animation and contact-sheet sinks and before the manifest, which then
/// lists `index.html` among its outputs. The page is the one `cartrender view DIR` writes from
/// the manifest of the same run, byte for byte.
package final class ViewerSink: FrameSink, @unchecked Sendable {
    /// The page's file name.
    package static let fileName = "index.html"
    private let renderer: Renderer
    private let entries: StagedPart
    private var count = 0

    init(renderer: Renderer, staging: StagingArea) {
        self.renderer = renderer
        entries = StagedPart(staging: staging, name: Self.fileName, partName: ".viewer-frames.partial")
    }

    package var needs: FrameNeeds { .inOrder }

    /// - Throws: `OutputError` naming the page when the staging file cannot be written.
    package func consume(_ frame: RenderedFrame) throws {
        let entry = ViewerPage.entry(Manifest.Frame(index: frame.index, time: frame.time, files: frame.files, state: try frame.stateJSON()))
        try entries.append((count == 0 ? "" : ",") + entry)
        count += 1
    }

    /// - Throws: `OutputError` naming the page.
    package func finish(earlier: [Manifest.File]) throws -> SinkOutput {
        var manifest = renderer.manifest(frames: [])
        manifest.outputs = earlier
        let (head, tail) = try ViewerPage.page(around: manifest, frames: count)
        let sha256 = try entries.writeFile(head: head, tail: tail)
        return SinkOutput(files: [Manifest.File(name: Self.fileName, sha256: sha256)])
    }
}
