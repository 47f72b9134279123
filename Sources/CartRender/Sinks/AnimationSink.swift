import CartRenderCore
import CartRenderRaster

/// One animation file (`DIR/animation.gif`, `.webp`, APNG's `animation.png`, `.mp4`, `.webm`): an
/// `AnimationEncoder` fed every frame in order on the sink's own thread, beside the drawing.
/// Identical frames are passed once per frame; GIF, WebP and APNG merge them into longer
/// delays, video keeps each one.
final class AnimationSink<Encoder: AnimationEncoder>: FrameSink, @unchecked Sendable {
    /// The file name in the output directory.
    let fileName: String
    private let encoder: Encoder
    private let staging: StagingArea
    /// The encoder's summary, after `finish`.
    private(set) var summary: Encoder.Summary?
    /// The last frame consumed, kept up to date row by row (``RenderedFrame/updatePixels(_:)``).
    private var frame: RGBAImage?

    init(fileName: String, staging: StagingArea, encoder: Encoder) {
        self.fileName = fileName
        self.encoder = encoder
        self.staging = staging
    }

    var needs: FrameNeeds { [.pixels, .inOrder] }

    /// - Throws: the encoder's `AnimationEncodingError`.
    func consume(_ rendered: RenderedFrame) throws {
        try rendered.updatePixels(&frame)
        try encoder.add(frame!, changedRows: rendered.changedRows)
    }

    /// Assembles the file and writes it into the staging area.
    /// - Throws: `AnimationEncodingError`, `OutputError`.
    func finish(earlier: [Manifest.File]) throws -> SinkOutput {
        let summary = try encoder.finish()
        self.summary = summary
        let bytes = encoder.encodedBytes
        let sha256 = Checksum.sha256(bytes)
        try staging.write(bytes, to: fileName, sha256: sha256)
        return SinkOutput(files: [Manifest.File(name: fileName, sha256: sha256)],
                          notices: summary.notice.map { [$0] } ?? [], summary: summary)
    }
}
