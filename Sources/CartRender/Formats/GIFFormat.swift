import CartRenderRaster

extension OutputFormat {
    /// `DIR/animation.gif`: libimagequant palettes, giflib (``GIFEncoder``); frames above 50 fps
    /// are dropped evenly, with a notice.
    public static let gif = OutputFormat.animation(
        name: "gif", title: "GIF", fileName: "animation.gif", viewer: .image(preference: 1),
        options: [
            .loop { $0.gif.loopCount = $1 },
            FormatOption("--gif-quality", "MIN-MAX", "libimagequant quality range 0…100 (default 70-100).", .gifQuality) { $0.gif.quality = $1 },
            FormatOption("--gif-speed", "N", "libimagequant speed 1 (best) … 10 (fastest), default 4.", .int(1...10)) { $0.gif.speed = $1 },
            FormatOption("--dither", "D", "dithering level 0…1 (default 1).", .number(Float(0)...1)) { $0.gif.dithering = $1 },
        ]) { context in
            try GIFEncoder(width: context.width, height: context.height, fps: context.fps, options: context.settings.gif, jobs: context.jobs)
        }
}

extension FormatSettings {
    /// GIF settings (`--loop`, `--gif-quality`, `--gif-speed`, `--dither`).
    public var gif: GIFOptions {
        get { self[.gif] ?? GIFOptions() }
        set { self[.gif] = newValue }
    }
}

extension OptionValue where Value == ClosedRange<Int> {
    /// `--gif-quality MIN-MAX` with 0 ≤ MIN ≤ MAX ≤ 100.
    static var gifQuality: OptionValue {
        checked("MIN-MAX with 0 ≤ MIN ≤ MAX ≤ 100") { text in
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 2, parts[0] <= parts[1], parts.allSatisfy({ (0...100).contains($0) }) else { return nil }
            return parts[0]...parts[1]
        }
    }
}
