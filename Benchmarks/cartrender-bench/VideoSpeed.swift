// `cartrender-bench --video [--scales 3] [--runs 3]`: MP4 and WebM of the default scene against
// its PNG frames, the figures of "Video speed" in docs/performance.md.
//
// For each scale, `runs` rounds, each one run of the release `cartrender` beside this binary at
// all cores for `--format png`, `--format mp4` and `--format webm` (interleaved, so that load
// from elsewhere falls on all three alike): the fastest wall-clock time and its CPU time
// (user + system), and the video's time as a multiple of the PNG frames' time (the target: at
// most 4×). Then each video is decoded (FFmpeg, `VideoDecoder`) and every frame on screen at
// i / fps compared with frame_i.png (`FrameScorer` of DocumentationFormats.swift): mean and
// lowest per-frame SSIM (the target: at least 0.999). Bytes: whether every round's file, a
// `--jobs 1` run's and one beside every other format (`png,svg,gif,webp,mp4,webm`) are equal.
import CartRender
import CartRenderRaster
import CartRenderTestSupport
import Foundation

func videoSpeed(scales: [String], runs: Int) throws {
    let tmp = NSTemporaryDirectory() + "cartrender-videobench-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    print("cartrender-bench --video: default scene, \(cores) cores, fastest of \(runs) runs at --jobs \(cores)")
    let formats = ["png", "mp4", "webm"]
    for scale in scales {
        var best: [String: (wall: Double, cpu: Double)] = [:]
        var hashes: [String: Set<String>] = ["mp4": [], "webm": []]
        for round in 0..<max(1, runs) {
            for format in formats {
                let dir = tmp + "/\(scale)-\(format)-\(round)"
                let run = try runCartrender(["--out", dir, "--scale", scale, "--format", format, "--quiet"])
                if best[format].map({ run.wall < $0.wall }) ?? true { best[format] = (run.wall, run.cpu) }
                if format != "png" {
                    hashes[format]!.insert(Checksum.sha256(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/animation." + format)))))
                    if round > 0 { try FileManager.default.removeItem(atPath: dir) }
                }
            }
        }
        let single = tmp + "/\(scale)-jobs1", beside = tmp + "/\(scale)-beside"
        _ = try runCartrender(["--out", single, "--scale", scale, "--format", "mp4,webm", "--jobs", "1", "--quiet"])
        _ = try runCartrender(["--out", beside, "--scale", scale, "--format", "png,svg,gif,webp,mp4,webm", "--quiet"])
        for dir in [single, beside] {
            for format in ["mp4", "webm"] {
                hashes[format]!.insert(Checksum.sha256(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/animation." + format)))))
            }
        }
        let png = tmp + "/\(scale)-png-0"
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: png + "/manifest.json"))) as! [String: Any]
        let size = manifest["size"] as! [String: Int], fps = Double(manifest["fps"] as! Int)
        let frameCount = (manifest["frames"] as! [Any]).count
        let reference = best["png"]!
        print(String(format: "\n--scale %@: %d×%d px, %d frames at %.0f fps; PNG frames %.2f s wall, %.2f s CPU",
                     scale, size["width"]!, size["height"]!, frameCount, fps, reference.wall, reference.cpu))
        print("format    size kB   wall s   × PNG    CPU s   mean SSIM   lowest SSIM   same bytes")
        for format in ["mp4", "webm"] {
            let path = tmp + "/\(scale)-\(format)-0/animation." + format
            let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            let scorer = FrameScorer(pngDirectory: png, frameCount: frameCount, fps: fps)
            try VideoDecoder.forEachFrame(contentsOf: path) { try scorer.show($0.image, from: $0.time) }
            let score = try scorer.finish()
            let run = best[format]!
            let same = hashes[format]!.count == 1 ? "yes (\(runs + 2) runs)" : "NO: \(hashes[format]!.count) files in \(runs + 2) runs"
            print(format.padding(toLength: 8, withPad: " ", startingAt: 0)
                  + String(format: "%9.1f %8.2f %7.1f× %8.2f    %.5f      %.5f    ", Double(bytes) / 1000, run.wall, run.wall / reference.wall,
                           run.cpu, score.ssim, scorer.lowestSSIM) + same)
            fflush(stdout)
        }
    }
}
