import CartRenderCore
import CartRenderRaster

/// One animation file (`DIR/animation.gif`, `.webp`, APNG's `animation.png`, `.mp4`, `.webm`): an
/// `AnimationEncoder` fed every frame in order on the sink's own thread, beside the drawing.
/// Identical frames are passed once per frame; GIF, WebP and APNG merge them into longer
/// delays, video keeps each one.
///
/// An encoder that ``ConvertsOnWorkers`` (video) has each frame's changed rows converted in the
/// first stage, on the worker that drew the frame, straight from its canvas; the sink's thread
/// then only adds the converted rows in order. The others get the changed rows as straight RGBA
/// (``RenderedFrame/updatePixels(_:)``).
final class AnimationSink<Encoder: AnimationEncoder>: FrameSink, @unchecked Sendable {
    /// The file name in the output directory.
    let fileName: String
    private let encoder: Encoder
    private let staging: StagingArea
    /// The encoder's summary, after `finish`.
    private(set) var summary: Encoder.Summary?
    /// The last frame consumed, kept up to date row by row (``RenderedFrame/updatePixels(_:)``).
    private var frame: RGBAImage?
    /// Frames converted on the workers and not yet added, by frame index (``ConvertsOnWorkers``).
    private let converted = LockedValue<[Int: any Sendable]>([:])

    /// The format's title (`GIF`), which progress reports name.
    private let title: String
    private let progress: (@Sendable (RenderProgress) -> Void)?

    init(fileName: String, title: String, staging: StagingArea, encoder: Encoder, progress: (@Sendable (RenderProgress) -> Void)? = nil) {
        self.fileName = fileName
        self.title = title
        self.encoder = encoder
        self.staging = staging
        self.progress = progress
        if let progress, let reporting = encoder as? ReportsFinishProgress {
            reporting.finishProgress = EncoderProgress(format: title, progress)
        }
    }

    var needs: FrameNeeds { encoder is any ConvertsOnWorkers ? [.canvas, .changedRows, .inOrder] : [.pixels, .inOrder] }

    /// Converts the frame's changed rows from the worker's canvas when the encoder
    /// ``ConvertsOnWorkers`` and the frame does not repeat the one before.
    /// - Throws: the encoder's `AnimationEncodingError`.
    func write(_ rendered: RenderedFrame) throws -> [Manifest.File] {
        guard let converting = encoder as? any ConvertsOnWorkers, rendered.changedRows != [] else { return [] }
        let result = try rendered.withCanvasRows { rows in
            try converting.convert(rows, changedRows: rendered.changedRows, frameIndex: rendered.index)
        }
        converted.withLock { $0[rendered.index] = result }
        return []
    }

    /// - Throws: the encoder's `AnimationEncodingError`.
    func consume(_ rendered: RenderedFrame) throws {
        if let converting = encoder as? any ConvertsOnWorkers {
            let value = converted.withLock { $0.removeValue(forKey: rendered.index) }
            guard value != nil || rendered.changedRows == [] else {
                throw RasterError(.library, "frame \(rendered.index) reached the \(title) encoder without its converted rows")
            }
            return try Self.add(value, to: converting)
        }
        try rendered.updatePixels(&frame)
        try encoder.add(frame!, changedRows: rendered.changedRows)
    }

    /// Adds a frame converted by `encoder` (nil: a repeat of the frame before).
    private static func add<Converting: ConvertsOnWorkers>(_ value: (any Sendable)?, to encoder: Converting) throws {
        try encoder.add(converted: value.map { $0 as! Converting.Converted })
    }

    /// Assembles the file and writes it into the staging area.
    /// - Throws: `AnimationEncodingError`, `OutputError`.
    func finish(earlier: [Manifest.File]) throws -> SinkOutput {
        // An encoder that does not report its own phases is one encoding step.
        let summary = try RenderProgress.oneEncodingStep(title, progress: encoder is ReportsFinishProgress ? nil : progress) { try encoder.finish() }
        self.summary = summary
        return SinkOutput(files: [try staging.writeEncoded(encoder.encodedBytes, as: fileName)],
                          notices: summary.notice.map { [$0] } ?? [], summary: summary)
    }
}

extension RenderProgress {
    /// Runs `body` as one encoding step of `subject` in `progress`'s reports (0 of 1 before,
    /// 1 of 1 after): the end of an animation sink whose encoder reports no phases of its own.
    static func oneEncodingStep<T>(_ subject: String, progress: (@Sendable (RenderProgress) -> Void)?, _ body: () throws -> T) rethrows -> T {
        progress?(RenderProgress(.encoding, subject: subject, done: 0, total: 1))
        let value = try body()
        progress?(RenderProgress(.encoding, subject: subject, done: 1, total: 1))
        return value
    }
}

extension StagingArea {
    /// Writes a sink's encoded file `bytes` as `fileName` with their SHA-256 and returns its
    /// manifest entry.
    /// - Throws: `OutputError` from writing.
    func writeEncoded(_ bytes: [UInt8], as fileName: String) throws -> Manifest.File {
        let sha256 = Checksum.sha256(bytes)
        try write(bytes, to: fileName, sha256: sha256)
        return Manifest.File(name: fileName, sha256: sha256)
    }
}
