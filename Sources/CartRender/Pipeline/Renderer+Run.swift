import CartRenderCore
import CartRenderRaster
import Foundation

/// What a render wrote.
public struct RenderResult {
    public var manifest: Manifest
    /// Path of `manifest.json`.
    public var manifestPath: String
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

    /// Renders the selected frames into `options.outputDirectory`, then writes the manifest.
    ///
    /// Frames are written to a staging directory inside the output directory and moved into
    /// place together once all of them are written, the manifest last (`StagingArea` describes
    /// what a reader can see when). On an error or a cancellation nothing of the run is left:
    /// the output directory is as it was before. Files an earlier run listed in its manifest
    /// and this run did not rewrite are removed; nothing else in the directory is touched.
    /// - Throws: `OutputError` (exit 73), `RasterError`, the first frame's error in index order,
    ///   or `RenderCancelled` when `options.cancellation` was cancelled before the frames were
    ///   moved into place.
    public func render(_ options: RenderOptions) throws -> RenderResult {
        if options.cancellation?.isCancelled == true { throw RenderCancelled() }
        let out = try OutputDirectory(path: options.outputDirectory)
        let staging: StagingArea
        do { staging = try StagingArea(in: out) } catch {
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
        let selected = frames(options.frames)
        let jobs = max(1, min(options.jobs, selected.count))
        let cancellation = options.cancellation

        // Workers pull the next frame index; each frame is rendered, encoded and written by
        // the worker that took it, so memory stays bounded by the number of workers.
        final class Shared: @unchecked Sendable {
            let lock = NSLock()
            var next = 0
            var done = 0
            var results: [Manifest.Frame?]
            var errors: [(Int, Error)] = []
            init(count: Int) { results = Array(repeating: nil, count: count) }
        }
        let shared = Shared(count: selected.count)
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            let worker: FrameWorker
            do { worker = try makeWorker() } catch {
                shared.lock.lock(); shared.errors.append((-1, error)); shared.lock.unlock()
                return
            }
            while true {
                shared.lock.lock()
                let slot = shared.next
                shared.next += 1
                let stop = slot >= selected.count || !shared.errors.isEmpty
                shared.lock.unlock()
                if stop || cancellation?.isCancelled == true { return }
                let (index, t) = selected[slot]
                do {
                    let frame = try renderFrame(index: index, time: t, worker: worker, formats: options.formats,
                                                compression: options.pngCompression, into: staging)
                    shared.lock.lock()
                    shared.results[slot] = frame
                    shared.done += 1
                    let done = shared.done
                    shared.lock.unlock()
                    options.progress?(done, selected.count)
                } catch {
                    shared.lock.lock(); shared.errors.append((index, error)); shared.lock.unlock()
                    return
                }
            }
        }
        if let first = shared.errors.min(by: { $0.0 < $1.0 }) { throw first.1 }
        if cancellation?.isCancelled == true { throw RenderCancelled() }

        let px = pixelSize
        let manifest = Manifest(
            sceneHash: Checksum.sha256(Array(scene.canonicalJSON.serialized().utf8)),
            fps: scene.fps, scale: scale, width: px.width, height: px.height,
            duration: duration, frameCount: frameCount,
            frames: shared.results.map { $0! }, events: events, fonts: fonts.files)
        try staging.write(Array(manifest.json.serialized(pretty: true).utf8), to: "manifest.json")
        if cancellation?.isCancelled == true { throw RenderCancelled() }
        // The point of no return: from here on the run completes.
        try staging.commit(files: manifest.frames.flatMap { $0.files.map(\.name) })
        return RenderResult(manifest: manifest, manifestPath: out.url("manifest.json"))
    }

    func renderFrame(index: Int, time t: Double, worker: FrameWorker, formats: [OutputFormat],
                     compression: PNGEncoder.Compression, into out: StagingArea) throws -> Manifest.Frame {
        let (display, state) = worker.frame(at: t)
        var files: [(name: String, sha256: String)] = []
        for format in formats {
            let bytes: [UInt8]
            switch format {
            case .png: bytes = try PNGEncoder.encode(try worker.rasterize(display), compression: compression)
            case .svg: bytes = try worker.svg(display)
            }
            let name = fileName(ofFrame: index, format: format)
            try out.write(bytes, to: name)
            files.append((name, Checksum.sha256(bytes)))
        }
        return Manifest.Frame(index: index, time: t, files: files, state: state)
    }
}
