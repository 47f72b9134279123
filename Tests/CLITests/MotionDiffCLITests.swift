import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// The motion diff of a failing `verify` as a user meets it: one animated WebP in the report,
/// named in report.json (`"motionDiff"`), shown in index.html and linked from the Markdown
/// summary; decoded frame by frame, its panels are the report's expected and actual images.
final class MotionDiffCLITests: XCTestCase {
    private var dir = ""

    /// The fly button at 10 fps for 1.2 s, one tap at `tap` s.
    private func scene(tap: Double) -> String {
        #"{"screen": "shop", "fps": 10, "duration": 1.2, "events": [{"at": \#(tap), "tap": "add"}]}"#
    }

    override func setUpWithError() throws { dir = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func run(_ args: [String]) throws -> Binary.Result {
        try Binary.run(args, in: dir, environment: ["CI": "true"], timeout: 300)
    }

    private let verify = ["verify", "scene.json", "--baseline", "snaps", "--scale", "2", "--quiet", "--summary-markdown", "summary.md"]

    /// `image` downscaled by `f`: the rounded mean of each `f × f` block (opaque frames), written
    /// here independently of the report's code.
    private func boxDownscaled(_ image: RGBAImage, by f: Int) -> RGBAImage {
        let w = image.width / f, h = image.height / f
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var sum = 0
                    for yy in 0..<f { for xx in 0..<f { sum += Int(image.pixels[((y * f + yy) * image.width + x * f + xx) * 4 + c]) } }
                    out[(y * w + x) * 4 + c] = UInt8((sum + f * f / 2) / (f * f))
                }
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }

    /// The `width`-wide panel `p` of `frame` (panels `gap` px apart).
    private func panel(_ frame: RGBAImage, _ p: Int, width: Int, gap: Int) -> RGBAImage {
        var pixels: [UInt8] = []
        let left = p * (width + gap)
        for y in 0..<frame.height {
            let start = (y * frame.width + left) * 4
            pixels += frame.pixels[start..<(start + width * 4)]
        }
        return RGBAImage(width: width, height: frame.height, pixels: pixels)
    }

    /// The largest difference of one channel between two images of one size.
    private func maxDelta(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        XCTAssertEqual(a.width, b.width)
        XCTAssertEqual(a.height, b.height)
        return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    func testAFailingVerifyWritesOneMotionDiffOfTheFailingSegment() throws {
        try scene(tap: 0.3).write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(verify + ["--record", "all"]).status, 0)
        let passing = try run(verify + ["--json"])
        XCTAssertEqual(passing.status, 0, passing.stderr)
        let passed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(passing.stdout.utf8)) as? [String: Any])
        XCTAssertTrue(passed["motionDiff"] is NSNull, "a passing run has none")

        // The tap 0.2 s later: frames from 3 (0.3 s) on differ.
        try scene(tap: 0.5).write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
        let failing = try run(verify)
        XCTAssertEqual(failing.status, 1, failing.stdout + failing.stderr)
        let reportDir = dir + "/cartrender-report"
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportDir + "/report.json"))) as? [String: Any])
        let motion = try XCTUnwrap(report["motionDiff"] as? [String: Any], "\(report["motionDiff"] ?? "nil")")
        let file = try XCTUnwrap(motion["file"] as? String)
        XCTAssertTrue(file.hasPrefix("motion_") && file.hasSuffix(".webp"), file)
        let frames = try XCTUnwrap(report["frames"] as? [[String: Any]])
        let failed = frames.filter { $0["status"] as? String != "pass" }.compactMap { $0["index"] as? Int }
        let firstFailing = try XCTUnwrap(failed.first), lastFailing = try XCTUnwrap(failed.last)
        let shown = try XCTUnwrap(motion["frames"] as? [Int])
        XCTAssertEqual(shown.last, lastFailing)
        XCTAssertLessThan(shown[0], firstFailing, "a little before the first failing frame")
        XCTAssertGreaterThanOrEqual(shown[0], firstFailing - 3)

        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: reportDir + "/" + file)))
        XCTAssertLessThan(bytes.count, 3 << 20, "a few MB at most")
        let animation = try WebPAnimationDecoder.decode(bytes)
        XCTAssertEqual(animation.width, motion["width"] as? Int)
        XCTAssertEqual(animation.durationMilliseconds, (shown[1] - shown[0] + 1) * 100, "one 100 ms frame per scene frame")

        // The frame of the animation shown at scene frame `index`.
        func shownAt(_ index: Int) throws -> RGBAImage {
            let ms = (index - shown[0]) * 100
            return try XCTUnwrap(animation.frames.last { $0.startMilliseconds <= ms }).image
        }
        var compared = 0
        for entry in frames {
            guard let index = entry["index"] as? Int, let files = entry["files"] as? [String: String],
                  let expectedFile = files["expected"], let actualFile = files["actual"] else { continue }
            let expected = try PNGDecoder.decode(contentsOf: reportDir + "/" + expectedFile)
            let actual = try PNGDecoder.decode(contentsOf: reportDir + "/" + actualFile)
            let gap = 8
            let width = (animation.width - 2 * gap) / 3
            let factor = expected.width / width
            XCTAssertGreaterThanOrEqual(factor, 1)
            let frame = try shownAt(index)
            XCTAssertLessThanOrEqual(maxDelta(panel(frame, 0, width: width, gap: gap), boxDownscaled(expected, by: factor)), 1, "expected panel of frame \(index)")
            XCTAssertLessThanOrEqual(maxDelta(panel(frame, 1, width: width, gap: gap), boxDownscaled(actual, by: factor)), 1, "actual panel of frame \(index)")
            XCTAssertGreaterThan(maxDelta(panel(frame, 0, width: width, gap: gap), panel(frame, 1, width: width, gap: gap)), 16,
                                 "frame \(index) fails: its panels differ")
            let diff = panel(frame, 2, width: width, gap: gap)
            let marked = stride(from: 0, to: diff.pixels.count, by: 4).contains { i in
                Int(diff.pixels[i]) - Int(diff.pixels[i + 1]) > 100   // pixelmatch's red
            }
            XCTAssertTrue(marked, "frame \(index)'s differences are highlighted")
            compared += 1
        }
        XCTAssertEqual(compared, failed.count, "every failing frame has its images in the report and was compared")
        // The lead-in frame passed: expected and actual panels are the same.
        let lead = try shownAt(shown[0])
        let width = (animation.width - 16) / 3
        XCTAssertEqual(maxDelta(panel(lead, 0, width: width, gap: 8), panel(lead, 1, width: width, gap: 8)), 0)

        let html = try String(contentsOfFile: reportDir + "/index.html", encoding: .utf8)
        XCTAssertTrue(html.contains(#"<img src="\#(file)""#), "shown in the report")
        let summary = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        XCTAssertTrue(summary.contains("(cartrender-report/\(file))"), summary)

        // Passing again removes it with the rest of the failing report.
        try scene(tap: 0.3).write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(verify).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: reportDir + "/" + file))
    }
}
