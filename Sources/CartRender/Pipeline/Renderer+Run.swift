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
    /// What the GIF encoder did (frames dropped above 50 fps, merged), when a GIF was written.
    public var gif: GIFSummary?
    /// What the WebP encoder did, when a WebP was written.
    public var webp: WebPSummary?
}

/// A run of consecutive frames that show the same display list: drawn and encoded once.
struct FrameRun {
    var frames: [(index: Int, time: Double)]
}

extension Renderer {
    /// The frames a selection names: (index, time in s). `--at` gives the nearest index as the
    /// file name and its exact time as the state.
    public func frames(_ selection: FrameSelection) -> [(index: Int, time: Double)] {
        switch selection {
        case .all: return (0..<frameCount).map { ($0, time(ofFrame: $0)) }
        case .range(let a, let b): return (max(0, a)...min(b, frameCount - 1)).map { ($0, time(ofFrame: $0)) }
        case .at(let t): return [(Int((t * Double(scene.fps)).rounded()), t)]
        }
    }

    /// The part of `frames` that shard `k` of `n` renders: the k-th of n contiguous blocks
    /// (1-based `k`), sizes differing by at most one. Contiguous blocks keep hold frames together.
    public static func shard(_ frames: [(index: Int, time: Double)], _ k: Int, of n: Int) -> [(index: Int, time: Double)] {
        let lo = (k - 1) * frames.count / n, hi = k * frames.count / n
        return Array(frames[lo..<hi])
    }

    /// Most frames in one run: a longer hold is split, so that what a run holds until it is
    /// written (its frames' manifest entries) stays bounded. Every part is drawn once; with the
    /// stripe cache its PNG costs little more than a comparison.
    static let maxRunLength = 256

    /// Groups consecutive frames whose display lists are equal, so each group is drawn once.
    func runs(_ frames: [(index: Int, time: Double)], worker: FrameWorker) -> [FrameRun] {
        var runs: [FrameRun] = []
        var last: DisplayList?
        var lastIndex = Int.min
        for f in frames {
            let display = worker.frame(at: f.time).display
            if f.index == lastIndex + 1, display == last, runs[runs.count - 1].frames.count < Self.maxRunLength {
                runs[runs.count - 1].frames.append(f)
            } else {
                runs.append(FrameRun(frames: [f]))
            }
            last = display
            lastIndex = f.index
        }
        return runs
    }

    /// Renders the selected frames into `options.outputDirectory`, then writes the manifest.
    ///
    /// Frames are grouped into runs of identical display lists (hold frames at the start and
    /// end are common); each run is drawn and encoded once and its bytes written under every
    /// frame's name. Workers pull runs and render, encode and write them themselves, so memory
    /// is bounded by the number of workers, not the number of frames.
    ///
    /// Files are written to a staging directory inside the output directory and moved into
    /// place together once all of them are written, the manifest last (`StagingArea` describes
    /// what a reader can see when). On an error or a cancellation nothing of the run is left:
    /// the output directory is as it was before. Files an earlier run listed in its manifest
    /// and this run did not rewrite are removed (not by shards, which share a directory);
    /// nothing else in the directory is touched.
    /// - Throws: `OutputError` (exit 73), `RasterError`, the error of the earliest failing
    ///   frame, or `RenderCancelled` when `options.cancellation` was cancelled before the files
    ///   were moved into place.
    public func render(_ options: RenderOptions) throws -> RenderResult {
        if options.cancellation?.isCancelled == true { throw RenderCancelled() }
        let out = try OutputDirectory(path: options.outputDirectory)
        let staging: StagingArea
        do { staging = try StagingArea(in: out, cancellation: options.cancellation) } catch {
            out.removeCreatedDirectories()
            throw error
        }
        do {
            return try render(options, staging: staging)
        } catch {
            staging.discard()
            out.removeCreatedDirectories()
            throw error
        }
    }

    private func render(_ options: RenderOptions, staging: StagingArea) throws -> RenderResult {
        let out = staging.output
        let cancellation = options.cancellation
        let px = pixelSize
        // Animations take every frame in order; identical frames are passed once per frame and
        // the encoders merge them into longer delays.
        let gif = options.formats.contains(.gif)
            ? try GIFEncoder(width: px.width, height: px.height, fps: Double(scene.fps), options: options.gif) : nil
        let webp = options.formats.contains(.webp)
            ? try WebPEncoder(width: px.width, height: px.height, fps: Double(scene.fps), options: options.webp) : nil
        let animating = gif != nil || webp != nil
        var selected = frames(options.frames)
        if let (k, n) = options.shard { selected = Self.shard(selected, k, of: n) }
        let planner = try makeWorker()
        let runs = runs(selected, worker: planner)
        let needPixels = options.formats.contains(.png) || animating
        let stripes = PNGStripeCache()

        // Progress counts frames, not runs.
        let framesDone = LockedValue(0)
        let name = options.shard.map { Manifest.shardFileName($0.0, of: $0.1) } ?? "manifest.json"
        let stream = ManifestStream(staging: staging, name: name)
        _ = try ParallelFrames.map(
            count: runs.count, jobs: options.jobs,
            makeWorker: { try makeWorker() },
            cancellation: cancellation,
            ordered: { slot, output in
                // In frame order: manifest entries go to the staged manifest, and animations take
                // every frame (identical frames are passed once per frame and the encoders merge
                // them into longer delays). Nothing of a finished run stays in memory.
                try stream.append(output.frames)
                output.frames = []
                guard let image = output.image else { return }
                for _ in runs[slot].frames {
                    try gif?.add(image)
                    try webp?.add(image)
                }
                output.image = nil
            }
        ) { worker, slot -> (frames: [Manifest.Frame], image: RGBAImage?) in
            let output = try renderRun(runs[slot], worker: worker, formats: options.formats, needPixels: needPixels,
                                       keepPixels: animating, compression: options.pngCompression, stripes: stripes, into: staging)
            let done = framesDone.withLock { $0 += runs[slot].frames.count; return $0 }
            options.progress?(done, selected.count)
            return output
        }

        var manifest = Manifest(
            sceneHash: Checksum.sha256(Array(scene.canonicalJSON.serialized().utf8)),
            fps: scene.fps, scale: scale, width: px.width, height: px.height,
            duration: duration, frameCount: frameCount,
            frames: [], events: events, fonts: fonts.files)
        manifest.shard = options.shard
        var result = RenderResult(manifest: manifest, framesWritten: stream.count, manifestPath: "", framesDrawn: runs.count)
        func writeAnimation(_ bytes: [UInt8], _ format: OutputFormat) throws {
            try staging.write(bytes, to: format.animationFileName)
            manifest.outputs.append((format.animationFileName, Checksum.sha256(bytes)))
        }
        if let gif { result.gif = try gif.finish(); try writeAnimation(gif.encodedBytes, .gif) }
        if let webp { result.webp = try webp.finish(); try writeAnimation(webp.encodedBytes, .webp) }
        if options.contactSheet && options.shard == nil {
            let bytes = try PNGEncoder.encode(try contactSheet(), compression: .small)
            try staging.write(bytes, to: "contact-sheet.png")
            manifest.outputs.append(("contact-sheet.png", Checksum.sha256(bytes)))
        }
        try stream.finish(manifest)
        if cancellation?.isCancelled == true { throw RenderCancelled() }
        // The point of no return: from here on the run completes.
        try staging.commit(files: stream.fileNames + manifest.outputs.map(\.name),
                           manifest: name, removeEarlierRun: options.shard == nil)
        result.manifest = manifest
        result.manifestPath = out.url(name)
        return result
    }

    /// Draws one run once, writes its bytes under every frame's name, and returns the frames'
    /// manifest entries — and the pixels when `keepPixels` (for the animation encoders; PNG frames
    /// are encoded straight from the canvas, so finished runs hold no pixels otherwise).
    func renderRun(_ run: FrameRun, worker: FrameWorker, formats: [OutputFormat], needPixels: Bool, keepPixels: Bool,
                   compression: PNGEncoder.Compression, stripes: PNGStripeCache,
                   into out: StagingArea) throws -> (frames: [Manifest.Frame], image: RGBAImage?) {
        let first = worker.frame(at: run.frames[0].time)
        let display = first.display
        var png: [UInt8]?
        var image: RGBAImage?
        if needPixels {
            try worker.withPixels(display) { rows in
                if formats.contains(.png) { png = try PNGEncoder.encode(rows, compression: compression, reusing: stripes) }
                if keepPixels { image = RGBAImage(rows) }
            }
        }
        var encoded: [(format: OutputFormat, bytes: [UInt8], sha256: String)] = []
        for format in formats where format.isPerFrame {
            let bytes: [UInt8]
            switch format {
            case .png: bytes = png!
            case .svg: bytes = try worker.svg(display)
            case .gif, .webp: continue
            }
            encoded.append((format, bytes, Checksum.sha256(bytes)))
        }
        var frames: [Manifest.Frame] = []
        for (i, f) in run.frames.enumerated() {
            var files: [(name: String, sha256: String)] = []
            for e in encoded {
                let name = fileName(ofFrame: f.index, format: e.format)
                try out.write(e.bytes, to: name)
                files.append((name, e.sha256))
            }
            // Equal display lists can still differ in state (e.g. time); state is per frame.
            let state = i == 0 ? first.state : worker.frame(at: f.time).state
            frames.append(Manifest.Frame(index: f.index, time: f.time, files: files, state: state))
        }
        return (frames, image)
    }
}
