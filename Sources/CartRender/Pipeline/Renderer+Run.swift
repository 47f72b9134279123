import CartRenderCore
import CartRenderRaster
import Foundation

/// What a render wrote.
public struct RenderResult {
    /// The manifest written, without its frame entries: they went to the file as frames were
    /// rendered (read `manifestPath` for them).
    public var manifest: Manifest
    /// Frames written (entries in the manifest's `frames`).
    public var framesWritten: Int
    /// Path of the manifest written (`manifest.json`, or the shard's manifest).
    public var manifestPath: String
    /// Frames drawn; the others reused the bytes of an identical previous frame.
    public var framesDrawn: Int
    /// Sentences the sinks left for the user (frames a GIF dropped above 50 fps), in sink order.
    public var notices: [String]
    /// What each sink reported, in sink order (`GIFSummary`, `WebPSummary`…).
    public var summaries: [any Sendable]

    /// The first summary of type `T` (`result.summary(GIFSummary.self)`).
    public func summary<T>(_ type: T.Type) -> T? { summaries.lazy.compactMap { $0 as? T }.first }
}

extension Renderer {
    /// The manifest of this render with `frames`: scene hash, fps, scale, canvas size in px,
    /// duration (s), frame count, events and fonts; no outputs, shard or baseline mark. The one
    /// place a manifest's header is made (the manifest sink, the viewer, a baseline's manifest).
    func manifest(frames: [Manifest.Frame]) -> Manifest {
        let px = pixelSize
        return Manifest(sceneHash: Manifest.sceneHash(of: scene), fps: scene.fps, scale: scale,
                        width: px.width, height: px.height, duration: duration, frameCount: frameCount,
                        frames: frames, events: events, fonts: fonts.files)
    }

    /// Renders the selected frames into `options.outputDirectory`: every format, the contact
    /// sheet and the manifest are sinks of one ``FrameStream``, so each frame is drawn once
    /// whatever the number of outputs.
    ///
    /// Files are written to a staging directory inside the output directory and moved into
    /// place together once all of them are written, the manifest last (`StagingArea` describes
    /// what a reader can see when). On an error or a cancellation nothing of the run is left:
    /// the output directory is as it was before. Files an earlier run listed in its manifest
    /// and this run did not rewrite are removed (not by shards, which share a directory);
    /// nothing else in the directory is touched.
    /// - Throws: `OutOfMemoryError` (exit 70) when the address-space limit has no room for one
    ///   worker, ``FrameSelectionError`` (both before anything is written), `OutputError` (exit 73),
    ///   `RasterError`, `AnimationEncodingError`, the error of the earliest failing frame, or
    ///   `RenderCancelled` when `options.cancellation` was cancelled before the files were
    ///   moved into place.
    public func render(_ options: RenderOptions) throws -> RenderResult {
        if options.cancellation?.isCancelled == true { throw RenderCancelled() }
        let jobs = try affordableWorkers(options.jobs)
        var frames = try plan([options.frames])
        if let (k, n) = options.shard { frames = Self.shard(frames, k, of: n) }
        let out = try OutputDirectory(path: options.outputDirectory)
        let staging: StagingArea
        do { staging = try StagingArea(in: out, cancellation: options.cancellation) } catch {
            out.removeCreatedDirectories()
            throw error
        }
        do {
            return try render(frames, options, jobs: jobs, staging: staging)
        } catch {
            staging.discard()
            out.removeCreatedDirectories()
            throw error
        }
    }

    private func render(_ frames: [PlannedFrame], _ options: RenderOptions, jobs: Int, staging: StagingArea) throws -> RenderResult {
        // Frame files in the order the user gave (the first is the manifest's primary file),
        // then animations in the order of `OutputFormat.all`, the contact sheet and the viewer,
        // the manifest last.
        let perFrame = options.formats.filter(\.isPerFrame)
        let animations = OutputFormat.all.filter { !$0.isPerFrame && options.formats.contains($0) }
        let context = FormatContext(renderer: self, settings: options.formatSettings, jobs: jobs, staging: staging)
        var sinks = try (perFrame + animations).map { try $0.makeSink(context) }
        if options.contactSheet && options.shard == nil { sinks.append(ContactSheetSink(renderer: self, staging: staging)) }
        if options.viewer && options.shard == nil { sinks.append(ViewerSink(renderer: self, staging: staging)) }
        sinks += options.additionalSinks
        let audit = options.audit.map { AuditSink(renderer: self, options: $0) }
        if let audit { sinks.append(audit) }
        let manifest = ManifestSink(renderer: self, shard: options.shard, staging: staging, audit: audit)
        sinks.append(manifest)
        // What the commit will refuse, refused before any frame is drawn.
        let frameFiles = perFrame.flatMap { format in frames.map { fileName(ofFrame: $0.index, format: format) } }
        let others = animations.compactMap(\.animationFileName) + (options.contactSheet && options.shard == nil ? [ContactSheetSink.fileName] : [])
            + (options.viewer && options.shard == nil ? [ViewerSink.fileName] : [])
        try staging.preflight(placing: frameFiles + others + [manifest.fileName], removingEarlierRun: options.shard == nil)

        let stream = FrameStream(renderer: self, frames: frames, jobs: jobs)
        // The stream's PNG of each frame is the PNG format's file.
        stream.pngCompression = options.pngCompression
        stream.tracksDamage = options.tracksDamage
        stream.cancellation = options.cancellation
        stream.progress = options.progress
        let outputs = try stream.run(sinks)
        if options.cancellation?.isCancelled == true { throw RenderCancelled() }
        // The point of no return: from here on the run completes.
        try staging.commit(files: manifest.frameFileNames + outputs.flatMap(\.files).map(\.name),
                           manifest: manifest.fileName, removeEarlierRun: options.shard == nil)
        return RenderResult(manifest: manifest.manifest!, framesWritten: manifest.framesWritten,
                            manifestPath: staging.output.url(manifest.fileName), framesDrawn: stream.runsDrawn,
                            notices: outputs.flatMap(\.notices), summaries: outputs.compactMap(\.summary))
    }
}
