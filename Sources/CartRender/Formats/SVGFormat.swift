extension OutputFormat {
    /// `DIR/frame_NNNN.svg`: Cairo's SVG surface drawing each frame's display list
    /// (``FrameNeeds/svg``); no options.
    public static let svg = OutputFormat.frameFiles(name: "svg", title: "SVG", viewer: .image(preference: 1), needs: .svg) { $0.svg }
}
