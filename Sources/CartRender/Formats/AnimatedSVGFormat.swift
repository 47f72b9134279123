import CartRenderCore
import CartRenderRaster

extension OutputFormat {
    /// `DIR/animation.svg`, or `-o NAME.svg`: one SVG document of the whole timeline, its items
    /// animated with CSS step keyframes (``AnimatedSVGEncoder``; docs/documentation-outputs.md,
    /// “Animated SVG”). Made from the display lists alone: nothing is drawn into pixels. A name
    /// ending in `.svg` means this format, not the per-frame ``svg`` (``isNamedByExtension``).
    public static let animatedSVG = OutputFormat(
        name: "animated-svg", title: "animated SVG", output: .animation(fileName: "animation.svg"), viewer: .image(preference: 0),
        options: [.loop { $0.animatedSVG.loopCount = $1 }], maxCanvasPixels: nil, isNamedByExtension: true) { context in
            // One worker: its rasterizer lays out the text and draws the images, its first frame gives the title.
            let worker = try context.renderer.makeWorker()
            return AnimatedSVGSink(fileName: context.fileName ?? "animation.svg", staging: context.staging, progress: context.progress,
                                   encoder: AnimatedSVGEncoder(rasterizer: worker.rasterizer, scale: context.renderer.scale, fps: context.fps,
                                                               escapedTitle: Escaping.xml(context.renderer.textAlternative(worker: worker)),
                                                               options: context.settings.animatedSVG))
        }
}

extension FormatSettings {
    /// Animated SVG settings (`--loop`).
    public var animatedSVG: AnimatedSVGOptions {
        get { self[.animatedSVG] ?? AnimatedSVGOptions() }
        set { self[.animatedSVG] = newValue }
    }
}

/// The animated SVG of a render: every frame's display list, in order, into an
/// ``AnimatedSVGEncoder`` on the sink's own thread; the document is written at the end. It takes
/// no pixels, so a render of this format alone draws nothing.
final class AnimatedSVGSink: FrameSink, @unchecked Sendable {
    let fileName: String
    private let staging: StagingArea
    private let encoder: AnimatedSVGEncoder
    private let progress: (@Sendable (RenderProgress) -> Void)?

    init(fileName: String, staging: StagingArea, progress: (@Sendable (RenderProgress) -> Void)?, encoder: AnimatedSVGEncoder) {
        self.fileName = fileName; self.staging = staging; self.progress = progress; self.encoder = encoder
    }

    var needs: FrameNeeds { [.inOrder] }

    func consume(_ rendered: RenderedFrame) throws { encoder.add(rendered.display) }

    /// - Throws: `RasterError` from drawing the images; `OutputError` from writing.
    func finish(earlier: [Manifest.File]) throws -> SinkOutput {
        let bytes = try RenderProgress.oneEncodingStep("animated SVG", progress: progress) { try encoder.finish() }
        return SinkOutput(files: [try staging.writeEncoded(bytes, as: fileName)])
    }
}
