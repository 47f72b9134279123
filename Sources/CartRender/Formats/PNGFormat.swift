import CartRenderRaster

extension OutputFormat {
    /// `DIR/frame_NNNN.png`, 8-bit RGBA: the frame stream's PNG of each frame
    /// (``FrameNeeds/png``, shared by the frames of a run), at `--png-compression`.
    public static let png = OutputFormat.frameFiles(name: "png", title: "PNG", viewer: .image(preference: 2), needs: .png,
                                                    options: [.pngCompression { $0.pngCompression = $1 }]) { $0.png }
}

extension FormatSettings {
    /// zlib settings of the PNG frames (`--png-compression`; default `.default`).
    public var pngCompression: PNGEncoder.Compression {
        get { self[.png] ?? .default }
        set { self[.png] = newValue }
    }
}
