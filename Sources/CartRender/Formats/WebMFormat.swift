import CartRenderRaster

extension OutputFormat {
    /// `DIR/animation.webm`: VP9 (libvpx) in WebM (``VideoEncoder``), yuv420p BT.709, or with
    /// `--lossless` planar RGB, every frame exact. The viewer's first choice: it seeks exactly.
    public static let webm = OutputFormat.animation(
        name: "webm", title: "WebM", fileName: "animation.webm", viewer: .video(preference: 5),
        options: [
            .crf { $0.webm.crf = $1 }.checked { settings in
                settings.webm.lossless ? "--crf has no effect on a lossless WebM: drop --crf or --lossless" : nil
            },
            FormatOption("--lossless", "VP9 lossless, every frame exact (planar RGB, 4:4:4).") { $0.webm.lossless = true },
        ]) { context in
            try VideoEncoder(width: context.width, height: context.height, fps: context.fps, codec: .vp9(context.settings.webm))
        }
}

extension FormatSettings {
    /// WebM settings (`--crf`, `--lossless`).
    public var webm: VP9Options {
        get { self[.webm] ?? VP9Options() }
        set { self[.webm] = newValue }
    }
}
