import CartRenderRaster

extension OutputFormat {
    /// `DIR/animation.png`: an animated PNG (``APNGEncoder``), lossless, each frame the rectangle
    /// that changed, its image data at `--png-compression` as PNG frames'.
    public static let apng = OutputFormat.animation(
        name: "apng", title: "APNG", fileName: "animation.png", viewer: .image(preference: 3),
        options: [
            .loop { $0.apng.loopCount = $1 },
            .pngCompression { $0.apng.compression = $1 },
        ]) { context in
            try APNGEncoder(width: context.width, height: context.height, fps: context.fps, options: context.settings.apng)
        }
}

extension FormatSettings {
    /// APNG settings (`--loop`, `--png-compression`).
    public var apng: APNGOptions {
        get { self[.apng] ?? APNGOptions() }
        set { self[.apng] = newValue }
    }
}
