import CartRenderCore

extension Renderer {
    /// Audits the selected frames (``AuditSink``, through the one frame loop): no file is written.
    /// - Parameters:
    ///   - frames: frame selections, as for a render (`[.all]`: every frame).
    ///   - jobs: worker threads; the report does not depend on it.
    /// - Throws: ``FrameSelectionError``, `RasterError`, `RenderCancelled` when `cancellation`
    ///   was cancelled.
    public func audit(_ options: AuditOptions, frames: [FrameSelection] = [.all], jobs: Int = 1,
                      cancellation: RenderCancellation? = nil, progress: ((Int, Int) -> Void)? = nil) throws -> AuditReport {
        let sink = AuditSink(renderer: self, options: options)
        let stream = FrameStream(renderer: self, frames: try plan(frames), jobs: jobs)
        stream.cancellation = cancellation
        stream.progress = progress
        try stream.run([sink])
        return sink.report!
    }
}
