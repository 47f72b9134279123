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
    /// The files the render put in place, as paths (`docs/fly.gif`, `frames/frame_0000.png`),
    /// with their sizes in bytes: frames, animations, pages, the manifest, in that order.
    public var files: [WrittenFile] = []

    /// The first summary of type `T` (`result.summary(GIFSummary.self)`).
    public func summary<T>(_ type: T.Type) -> T? { summaries.lazy.compactMap { $0 as? T }.first }
}

/// A file a render put in place: its path and size in bytes.
public struct WrittenFile: Equatable, Sendable {
    /// The path as the user gave it (the directory's file, or the named file).
    public var path: String
    /// Its size in bytes.
    public var size: Int
}

extension Renderer {
    /// The manifest of this render with `frames`: scene hash, fps, scale, canvas size in px,
    /// duration (s), frame count, events and fonts; no outputs, shard or baseline mark. The one
    /// place a manifest's header is made (the manifest sink, the viewer, a baseline's manifest).
    package func manifest(frames: [Manifest.Frame]) -> Manifest {
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
    /// - Throws: ``CanvasBudgetError`` (exit 65) for a canvas an animation format cannot take,
    ///   `OutOfMemoryError` (exit 70) when the address-space limit has no room for one
    ///   worker, ``FrameSelectionError`` (all before anything is written), `OutputError` (exit 73),
    ///   `RasterError`, `AnimationEncodingError`, the error of the earliest failing frame, or
    ///   `RenderCancelled` when `options.cancellation` was cancelled before the files were
    ///   moved into place.
    public func render(_ options: RenderOptions) throws -> RenderResult {
        if options.cancellation?.isCancelled == true { throw RenderCancelled() }
        try OutputFormat.checkCanvas(options.formats, width: pixelSize.width, height: pixelSize.height, setBy: scene.canvasMember)
        let jobs = try affordableWorkers(options.jobs)
        var frames = try plan([options.frames])
        if let (k, n) = options.shard { frames = Self.shard(frames, k, of: n) }
        // A named file is drawn in the private staging directory of its folder (``NamedFiles``),
        // and replaces the earlier file there with the other named files of the run, together.
        let file = try options.outputFile.map { try NamedOutput($0, manifest: options.manifestFile, formats: options.formats) }
        let named = try file.map { f in try options.namedFiles ?? NamedFiles([f.path] + (f.manifest.map { [$0] } ?? []), inputs: []) }
        let owned = options.namedFiles == nil ? named : nil
        let staging: StagingArea
        if let file, let named {
            do { staging = try named.area(for: file.path, cancellation: options.cancellation) } catch {
                owned?.discard()
                throw error
            }
        } else {
            let out = try OutputDirectory(path: options.outputDirectory)
            do { staging = try StagingArea(in: out, cancellation: options.cancellation) } catch {
                out.removeCreatedDirectories()
                throw error
            }
        }
        do {
            return try render(frames, options, jobs: jobs, staging: staging, file: file.map { ($0, named!, owned != nil) })
        } catch {
            if named != nil {
                // A shared transaction is discarded by its owner, which gets this error too.
                owned?.discard()
            } else {
                staging.discard()
                staging.output.removeCreatedDirectories()
            }
            throw error
        }
    }

    private func render(_ frames: [PlannedFrame], _ options: RenderOptions, jobs: Int, staging: StagingArea,
                        file named: (output: NamedOutput, files: NamedFiles, commits: Bool)?) throws -> RenderResult {
        let file = named?.output
        // Frame files in the order the user gave (the first is the manifest's primary file),
        // then animations in the order of `OutputFormat.all`, the contact sheet and the viewer,
        // the manifest last.
        let perFrame = options.formats.filter(\.isPerFrame)
        let animations = OutputFormat.all.filter { !$0.isPerFrame && options.formats.contains($0) }
        var context = FormatContext(renderer: self, settings: options.formatSettings, jobs: jobs, staging: staging)
        context.fileName = file?.name
        context.progress = options.progress
        var sinks = try (perFrame + animations).map { try $0.makeSink(context) }
        let directoryOnly = options.shard == nil && file == nil
        if options.contactSheet && directoryOnly { sinks.append(ContactSheetSink(renderer: self, staging: staging)) }
        if options.viewer && directoryOnly { sinks.append(ViewerSink(renderer: self, staging: staging)) }
        sinks += options.additionalSinks
        let audit = options.audit.map { AuditSink(renderer: self, options: $0) }
        if let audit { sinks.append(audit) }
        let manifest = ManifestSink(renderer: self, shard: options.shard, staging: staging, audit: audit)
        sinks.append(manifest)
        // What the commit will refuse, refused before any frame is drawn.
        if file == nil {
        let frameFiles = perFrame.flatMap { format in frames.map { fileName(ofFrame: $0.index, format: format) } }
        let others = animations.compactMap(\.animationFileName) + (options.contactSheet && options.shard == nil ? [ContactSheetSink.fileName] : [])
            + (options.viewer && options.shard == nil ? [ViewerSink.fileName] : [])
        try staging.preflight(placing: frameFiles + others + [manifest.fileName], removingEarlierRun: options.shard == nil)
        }

        let stream = FrameStream(renderer: self, frames: frames, jobs: jobs)
        // The stream's PNG of each frame is the PNG format's file.
        stream.pngCompression = options.pngCompression
        stream.tracksDamage = options.tracksDamage
        stream.cancellation = options.cancellation
        if let progress = options.progress {
            progress(RenderProgress(.drawing, done: 0, total: frames.count, unit: "frames"))
            stream.progress = { done, total in progress(RenderProgress(.drawing, done: done, total: total, unit: "frames")) }
        }
        let outputs = try stream.run(sinks)
        if options.cancellation?.isCancelled == true { throw RenderCancelled() }
        // The point of no return: from here on the run completes.
        let names = manifest.frameFileNames + outputs.flatMap(\.files).map(\.name)
        var written: [WrittenFile]
        let moving = file.map { $0.manifest == nil ? 1 : 2 } ?? names.count + 1
        options.progress?(RenderProgress(.movingIntoPlace, done: 0, total: moving, unit: "files"))
        if let file, let named {
            try named.files.stage(file.name, from: staging, as: file.path, cancellation: options.cancellation)
            if let m = file.manifest { try named.files.stage(manifest.fileName, from: staging, as: m, cancellation: options.cancellation) }
            let mine = [file.path] + (file.manifest.map { [$0] } ?? [])
            written = named.commits ? try named.files.commit(cancellation: nil) : mine.map { WrittenFile(path: $0, size: named.files.stagedSize(of: $0)) }
        } else {
            try staging.commit(files: names, manifest: manifest.fileName, removeEarlierRun: options.shard == nil)
            written = (names + [manifest.fileName]).map { name in
                WrittenFile(path: staging.output.url(name), size: staging.directory.info(name).map { Int($0.st_size) } ?? 0)
            }
        }
        options.progress?(RenderProgress(.movingIntoPlace, done: moving, total: moving, unit: "files"))
        return RenderResult(manifest: manifest.manifest!, framesWritten: manifest.framesWritten,
                            manifestPath: file?.manifest ?? staging.output.url(manifest.fileName), framesDrawn: stream.runsDrawn,
                            notices: outputs.flatMap(\.notices), summaries: outputs.compactMap(\.summary), files: written)
    }
}

/// A render to a file the user named (``RenderOptions/outputFile``): the one animation, and the
/// manifest only when ``RenderOptions/manifestFile`` names where it goes.
package struct NamedOutput {
    /// The animation's path as given (`docs/fly.gif`), its directory and its last component.
    package let path: String
    let directory: String
    let name: String
    /// Where the manifest goes, or nil.
    let manifest: String?

    /// - Throws: `UsageError` unless `formats` is exactly one animated format, or when the
    ///   manifest would go where the animation goes.
    package init(_ path: String, manifest: String?, formats: [OutputFormat]) throws {
        guard formats.count == 1, !formats[0].isPerFrame else {
            throw UsageError("\(path) names one file: render exactly one animated format to it, frames into a directory (--out DIR)")
        }
        if let manifest, FileSystemPath.absolute(manifest) == FileSystemPath.absolute(path) {
            throw UsageError("--manifest \(manifest) is the animation's own name")
        }
        self.path = path
        (directory, name) = OutputFile.split(path)
        self.manifest = manifest
    }

    /// The file of one variant of a render to `path`: the variant's name before the extension,
    /// after a hyphen (`docs/fly.gif`, `dark` → `docs/fly-dark.gif`; `m.json` → `m-dark.json`;
    /// a name without extension gets the suffix at its end).
    package static func path(_ path: String, variant: String) -> String {
        let (dir, name) = OutputFile.split(path)
        let ext = (name as NSString).pathExtension
        let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
        let file = stem + "-" + variant + (ext.isEmpty ? "" : "." + ext)
        return OutputDirectory.parent(of: path).isEmpty ? file : (dir as NSString).appendingPathComponent(file)
    }
}
