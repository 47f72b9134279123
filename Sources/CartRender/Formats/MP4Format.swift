import CartRenderRaster

extension OutputFormat {
    /// `DIR/animation.mp4`: H.264 (libx264) in MP4 (``VideoEncoder``), yuv420p BT.709, every
    /// frame at the render's fps. The viewer prefers it to animated images: it seeks exactly.
    public static let mp4 = OutputFormat.animation(
        name: "mp4", title: "MP4", fileName: "animation.mp4", viewer: .video(preference: 4),
        options: [
            .crf { $0.mp4.crf = $1 }.checked { settings in
                let crf = settings.mp4.crf
                guard H264Options.crfRange.contains(crf) else {
                    throw UsageError.expected("--crf", "a whole number from 0 to 51 for mp4 (H.264)", got: String(crf))
                }
                return nil
            },
        ]) { context in
            try VideoEncoder(width: context.width, height: context.height, fps: context.fps, codec: .h264(context.settings.mp4))
        }
}

extension FormatSettings {
    /// MP4 settings (`--crf`).
    public var mp4: H264Options {
        get { self[.mp4] ?? H264Options() }
        set { self[.mp4] = newValue }
    }
}
