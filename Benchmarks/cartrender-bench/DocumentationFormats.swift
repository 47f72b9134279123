// `cartrender-bench --documentation-formats [--scales 1,3]`: what each animation format costs and
// keeps for a documentation page, on the default scene (198 frames at 60 fps) at each scale.
//
// Each row is one run of the release `cartrender` beside this binary (`--format F` alone, all
// cores): wall-clock time, peak resident memory (wait4), and the file's size (kB = 1000 bytes).
// Then the file is decoded (GIF and WebP by the test-support decoders, APNG, MP4 and WebM by
// FFmpeg through `VideoDecoder`) and compared with the PNG frames of a `--format png` run: for
// every source frame i, the image on screen at t = i / fps (the last one that starts at or
// before t, with 5 ms of slack for GIF's centisecond and WebP/WebM's millisecond rounding; a
// video is cut back to the frame's size when padded) against frame_i.png:
//   SSIM   the mean over the frames of `ImageSimilarity.meanSSIM` (luma over white, 11 × 11
//          Gaussian windows): structure and brightness, blind to colour;
//   PSNR   over R, G and B of all frames together, in dB ("exact" when every pixel is equal):
//          where colour errors show, chroma subsampling (4:2:0) included.
import CartRender
import CartRenderRaster
import CartRenderTestSupport
import Foundation

/// A run of the `cartrender` binary: wall-clock time (s), user + system time (s), peak RSS (bytes).
func runCartrender(_ args: [String]) throws -> (wall: Double, cpu: Double, rss: Int) {
    let exe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cartrender").path
    var pid: pid_t = 0
    let argv = ([exe] + args).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let start = now()
    guard posix_spawn(&pid, exe, nil, nil, argv, environ) == 0 else { throw RasterError(.library, "cannot start \(exe)") }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let wall = now() - start
    guard status == 0 else { throw RasterError(.library, "\(exe) \(args.joined(separator: " ")) failed with status \(status)") }
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return (wall, cpu, usage.ru_maxrss * 1024)
}

/// Mean SSIM and RGB PSNR of decoded images, fed in display order with their start times, shown
/// at each source frame's time, against `frame_NNNN.png` in `pngDirectory`. Holds one decoded
/// image at a time.
final class FrameScorer {
    let pngDirectory: String, frameCount: Int, fps: Double
    private var shown: RGBAImage?
    private var nextFrame = 0
    private var ssimTotal = 0.0, squaredError = 0.0, samples = 0.0
    /// The lowest mean SSIM of one frame so far.
    private(set) var lowestSSIM = 1.0
    private var last: (shown: RGBAImage, png: RGBAImage, ssim: Double, squaredError: Double)?

    init(pngDirectory: String, frameCount: Int, fps: Double) {
        self.pngDirectory = pngDirectory; self.frameCount = frameCount; self.fps = fps
    }

    /// The next decoded image, on screen from `start` s.
    func show(_ image: RGBAImage, from start: Double) throws {
        // Source frames whose time comes before this image (with 5 ms of slack) saw the one before.
        while nextFrame < frameCount, Double(nextFrame) / fps + 0.005 < start { try score() }
        shown = image
    }

    /// Scores the frames after the last image; returns the mean SSIM and the PSNR (nil: exact).
    func finish() throws -> (ssim: Double, psnr: Double?) {
        while nextFrame < frameCount { try score() }
        let mse = squaredError / samples
        return (ssimTotal / Double(frameCount), mse == 0 ? nil : 10 * log10(255 * 255 / mse))
    }

    private func score() throws {
        guard let shown else { throw RasterError(.library, "nothing is shown at frame \(nextFrame)") }
        let png = try PNGDecoder.decode(contentsOf: pngDirectory + String(format: "/frame_%04d.png", nextFrame))
        nextFrame += 1
        let image = shown.width == png.width && shown.height == png.height ? shown : crop(shown, png.width, png.height)
        samples += Double(png.width * png.height * 3)
        if let l = last, l.shown == image, l.png == png {
            ssimTotal += l.ssim; squaredError += l.squaredError
            return
        }
        let ssim = ImageSimilarity.meanSSIM(image, png)
        var error = 0.0
        image.pixels.withUnsafeBufferPointer { a in
            png.pixels.withUnsafeBufferPointer { b in
                for p in stride(from: 0, to: a.count, by: 4) {
                    for c in 0..<3 { let d = Double(a[p + c]) - Double(b[p + c]); error += d * d }
                }
            }
        }
        ssimTotal += ssim; squaredError += error
        lowestSSIM = min(lowestSSIM, ssim)
        last = (image, png, ssim, error)
    }
}

/// The top-left `width × height` px of `image`.
func crop(_ image: RGBAImage, _ width: Int, _ height: Int) -> RGBAImage {
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * height * 4)
    for y in 0..<height { pixels += image.pixels[(y * image.rowBytes)..<(y * image.rowBytes + width * 4)] }
    return RGBAImage(width: width, height: height, pixels: pixels)
}

func documentationFormats(scales: [String]) throws {
    let rows: [(name: String, file: String, args: [String])] = [
        ("gif", "animation.gif", ["--format", "gif"]),
        ("webp (lossless)", "animation.webp", ["--format", "webp"]),
        ("webp --quality 90", "animation.webp", ["--format", "webp", "--quality", "90"]),
        ("apng", "animation.png", ["--format", "apng"]),
        ("mp4 (crf 18)", "animation.mp4", ["--format", "mp4"]),
        ("mp4 --crf 23", "animation.mp4", ["--format", "mp4", "--crf", "23"]),
        ("webm (crf 30)", "animation.webm", ["--format", "webm"]),
        ("webm --lossless", "animation.webm", ["--format", "webm", "--lossless"]),
    ]
    let tmp = NSTemporaryDirectory() + "cartrender-docbench-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    print("cartrender-bench --documentation-formats: default scene, \(cores) cores, each format alone at --jobs \(cores)")
    // Every render first, while this process is small: a spawned child's peak RSS (wait4)
    // starts from the RSS of the process that spawned it.
    var runs: [String: (wall: Double, cpu: Double, rss: Int)] = [:]
    for scale in scales {
        runs["png-\(scale)"] = try runCartrender(["--out", tmp + "/png-\(scale)", "--scale", scale, "--format", "png", "--quiet"])
        for (k, row) in rows.enumerated() {
            runs["\(k)-\(scale)"] = try runCartrender(["--out", tmp + "/\(k)-\(scale)", "--scale", scale, "--quiet"] + row.args)
        }
    }
    for scale in scales {
        let png = tmp + "/png-\(scale)"
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: png + "/manifest.json"))) as! [String: Any]
        let size = manifest["size"] as! [String: Int], fps = Double(manifest["fps"] as! Int)
        let frameCount = (manifest["frames"] as! [Any]).count
        let pngBytes = try FileManager.default.contentsOfDirectory(atPath: png).filter { $0.hasPrefix("frame_") }
            .reduce(0) { $0 + ((try FileManager.default.attributesOfItem(atPath: png + "/" + $1)[.size] as? Int) ?? 0) }
        let reference = runs["png-\(scale)"]!
        print(String(format: "\n--scale %@: %d×%d px, %d frames at %.0f fps; PNG frames %.0f kB in %.1f s, peak RSS %.0f MB",
                     scale, size["width"]!, size["height"]!, frameCount, fps, Double(pngBytes) / 1000, reference.wall, mb(reference.rss)))
        print("format".padding(toLength: 20, withPad: " ", startingAt: 0)
              + "   size kB   wall s    CPU s   RSS MB   SSIM       PSNR dB")
        for (k, row) in rows.enumerated() {
            let run = runs["\(k)-\(scale)"]!
            let path = tmp + "/\(k)-\(scale)/" + row.file
            let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            let scorer = FrameScorer(pngDirectory: png, frameCount: frameCount, fps: fps)
            switch row.file {
            case "animation.gif":
                for f in try GIFDecoder.decode(contentsOf: path).frames { try scorer.show(f.image, from: Double(f.startCentiseconds) / 100) }
            case "animation.webp":
                for f in try WebPAnimationDecoder.decode(contentsOf: path).frames { try scorer.show(f.image, from: Double(f.startMilliseconds) / 1000) }
            default:
                try VideoDecoder.forEachFrame(contentsOf: path) { try scorer.show($0.image, from: $0.time) }
            }
            let score = try scorer.finish()
            print(row.name.padding(toLength: 20, withPad: " ", startingAt: 0)
                  + String(format: "%10.1f %8.1f %8.1f %8.0f   %.4f   ", Double(bytes) / 1000, run.wall, run.cpu, mb(run.rss), score.ssim)
                  + (score.psnr.map { String(format: "%7.2f", $0) } ?? "  exact"))
            fflush(stdout)
        }
    }
}
