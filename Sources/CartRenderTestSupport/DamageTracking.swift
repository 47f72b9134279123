@_spi(DamageTracking) import CartRender

// The switch between damage tracking (a worker redraws only what changed since the frame it drew
// before) and full redraws. The product library keeps it as SPI (`@_spi(DamageTracking)`), not
// API, since only the tests and `cartrender-bench` use it, to compare the two: they reach it
// here, the one place that imports that SPI. An SPI rather than a debug-only setting because
// the bench is built in release.

extension RenderOptions {
    /// Whether the render's workers redraw only what changed (default) or every frame in full;
    /// the bytes are the same.
    public var damageTracking: Bool {
        get { tracksDamage }
        set { tracksDamage = newValue }
    }
}

extension FrameStream {
    /// Whether the stream's workers redraw only what changed (default) or every frame in full.
    public var damageTracking: Bool {
        get { tracksDamage }
        set { tracksDamage = newValue }
    }
}

extension FrameWorker {
    /// Whether this worker redraws only what changed (default) or every frame in full.
    public var damageTracking: Bool {
        get { tracksDamage }
        set { tracksDamage = newValue }
    }
}
