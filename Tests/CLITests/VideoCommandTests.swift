import CartRender
import CartRenderCLI
import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// End-to-end: `--format png,mp4,webm` through the built binary.
final class VideoCommandTests: XCTestCase {
    private func contents(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }

    func testMP4AndWebMAreWrittenAndListedInTheManifest() throws {
        let dir = Binary.tempDir(self)
        let args = ["--format", "png,mp4,webm", "--scale", "1", "--fps", "10", "--crf", "20"]
        let r = try Binary.run(["--out", dir, "--jobs", "2"] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("wrote 34 PNG frames (frame_0000.png … frame_0033.png, "), r.stderr)
        XCTAssertTrue(r.stderr.contains("), animation.mp4 ("), r.stderr)
        XCTAssertTrue(r.stderr.contains("), animation.webm (") && r.stderr.contains(") and manifest.json ("), r.stderr)
        XCTAssertTrue(r.stderr.contains(" from 34 frames of 393×852 px;"), r.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        XCTAssertEqual(names.filter { !$0.hasPrefix("frame_") }.sorted(), [".cartrender-files.sha256", "animation.mp4", "animation.webm", "manifest.json"])
        let mp4 = contents(dir + "/animation.mp4"), webm = contents(dir + "/animation.webm")
        XCTAssertEqual(VideoDecoder.mp4TopLevelBoxes(mp4), ["ftyp", "moov", "free", "mdat"])
        XCTAssertEqual(Array(webm.prefix(4)), [0x1A, 0x45, 0xDF, 0xA3], "an EBML (WebM) header")
        for file in ["animation.mp4", "animation.webm"] {
            let (info, frames) = try VideoDecoder.decode(contentsOf: dir + "/" + file)
            XCTAssertEqual(frames.count, 34, file)
            XCTAssertEqual(info.averageFrameRate, "10/1", file)
        }
        let m = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))) as! [String: Any]
        XCTAssertEqual(m["outputs"] as! [[String: String]], [["file": "animation.mp4", "sha256": Checksum.sha256(mp4)],
                                                             ["file": "animation.webm", "sha256": Checksum.sha256(webm)]])

        // Another run, one worker: the same bytes.
        let again = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", again, "--jobs", "1", "--quiet"] + args).status, 0)
        XCTAssertEqual(contents(again + "/animation.mp4"), mp4)
        XCTAssertEqual(contents(again + "/animation.webm"), webm)
    }

    /// An MP4 and a WebM rendered beside every other animation (their encoders' threads
    /// allocating and freeing memory meanwhile) have the bytes of the MP4 and the WebM rendered
    /// alone, in every run and at every --jobs. Before libx264 was kept off its AVX-512
    /// functions, `png,svg,gif,webp,mp4,webm` at 1x and 10 fps gave 3 different MP4 files in 8
    /// runs on a 2-core AVX-512 machine. Runs: the jobs values of the sample (`make test`), eight
    /// under CARTRENDER_FULL_SWEEPS=1.
    func testVideosBesideOtherFormatsHaveTheBytesOfVideosAlone() throws {
        let args = ["--scale", "1", "--fps", "10", "--quiet"]
        let alone = Binary.tempDir(self)
        XCTAssertEqual(try Binary.run(["--out", alone, "--format", "mp4,webm", "--jobs", "1"] + args).status, 0)
        let mp4 = contents(alone + "/animation.mp4"), webm = contents(alone + "/animation.webm")
        XCTAssertFalse(mp4.isEmpty || webm.isEmpty)
        let jobs = [2, 1, 3, 2, 4, 2, 1, 2]
        for (run, j) in jobs.enumerated() where TestSweep.includes(run, of: jobs.count) {
            let dir = Binary.tempDir(self)
            let r = try Binary.run(["--out", dir, "--format", "png,svg,gif,webp,mp4,webm", "--jobs", String(j)] + args)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(contents(dir + "/animation.mp4") == mp4, "run \(run) at --jobs \(j): the MP4 differs from the MP4 rendered alone")
            XCTAssertTrue(contents(dir + "/animation.webm") == webm, "run \(run) at --jobs \(j): the WebM differs from the WebM rendered alone")
        }
    }

    /// FFmpeg is not linked into the binary (it is loaded when a video is written, above): a
    /// render without video starts without its hundred libraries.
    func testTheBinaryDoesNotLinkFFmpeg() throws {
        let readelf = "/usr/bin/readelf"
        guard FileManager.default.isExecutableFile(atPath: readelf) else { throw XCTSkip("readelf (binutils) is not installed") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: readelf)
        p.arguments = ["--dynamic", Binary.url.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let needed = text.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        XCTAssertTrue(needed.contains { $0.contains("libcairo") }, text)
        XCTAssertEqual(needed.filter { $0.contains("[libav") || $0.contains("[libswscale") || $0.contains("[libswresample") }, [], text)
    }

    /// A bad video option: exit 64, one sentence and the usage hint, nothing written.
    func testABadCRFIsAUsageError() throws {
        let dir = Binary.tempDir(self) + "/out"
        let r = try Binary.run(["--out", dir, "--format", "webm", "--crf", "70"])
        XCTAssertEqual(r.status, 64)
        XCTAssertEqual(r.stderr, "cartrender: --crf: expected a whole number from 0 to 51 (mp4) or 63 (webm), got \"70\"\nRun 'cartrender --help' for usage.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir))
    }
}
