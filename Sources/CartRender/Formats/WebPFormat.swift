import CartRenderRaster

extension OutputFormat {
    /// `DIR/animation.webp`: libwebp sub-frames compressed in parallel and assembled with
    /// libwebpmux (``WebPEncoder``), lossless unless `--quality` is given.
    public static let webp = OutputFormat.animation(
        name: "webp", title: "WebP", fileName: "animation.webp", viewer: .image(preference: 2),
        options: [
            .loop { $0.webp.loopCount = $1 },
            FormatOption("--quality", "Q", "lossy at quality 0…100 (default: lossless).", .number(Float(0)...100)) {
                $0.webp.lossless = false; $0.webp.quality = $1
            },
        ]) { context in
            try WebPEncoder(width: context.width, height: context.height, fps: context.fps, options: context.settings.webp, jobs: context.jobs)
        }
}

extension FormatSettings {
    /// WebP settings (`--loop`, `--quality` for lossy).
    public var webp: WebPOptions {
        get { self[.webp] ?? WebPOptions() }
        set { self[.webp] = newValue }
    }
}
