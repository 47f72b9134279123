@testable import CartRender
import CartRenderCore
import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `verify` through the library: the default scene at 4 fps and 1x (14 frames of 393×852 px)
/// against baselines in a temporary directory.
final class VerifyTests: XCTestCase {
    private static let sharedRenderer: Result<Renderer, Error> = Result {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 4, scale: 1), baseDirectory: "/")
        return try Renderer(scene: scene)
    }
    private var renderer: Renderer { get throws { try Self.sharedRenderer.get() } }

    private var root = ""
    private var baseline: String { root + "/baseline" }
    private var reportDir: String { root + "/report" }

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "cartrender-verify-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func verify(_ record: RecordMode, frames: [FrameSelection] = [.all], tolerance: ComparisonOptions = ComparisonOptions(),
                        masks: [Rect] = [], jobs: Int = 2, report: String? = nil, using r: Renderer? = nil) throws -> SnapshotResult {
        var options = VerifyOptions(baseline: baseline)
        options.reportDirectory = report ?? reportDir
        options.record = record
        options.frames = frames
        options.tolerance = tolerance
        options.masks = masks
        options.jobs = jobs
        return try Verifier.verify(renderer: r ?? renderer, subject: "default.json", options: options)
    }

    private func path(_ name: String, in dir: String? = nil) -> String { (dir ?? baseline) + "/" + name }
    private func exists(_ p: String) -> Bool { FileManager.default.fileExists(atPath: p) }
    private func bytes(_ p: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: p))) }

    /// Rewrites baseline frame `index` with `change` applied to its pixels.
    private func editBaseline(_ index: Int, _ change: (inout RGBAImage) -> Void) throws {
        let p = path(String(format: "frame_%04d.png", index))
        var image = try PNGDecoder.decode(contentsOf: p)
        change(&image)
        try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: p))
        // As a recording of a render with that change leaves it: cartrender's own.
        try OwnershipFixture.adopt([(p as NSString).lastPathComponent], in: baseline)
    }

    private func set(_ image: inout RGBAImage, _ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8, UInt8)) {
        let i = (y * image.width + x) * 4
        image.pixels[i] = c.0; image.pixels[i + 1] = c.1; image.pixels[i + 2] = c.2; image.pixels[i + 3] = c.3
    }

    /// A pixel in the empty white area near the bottom of the screen (checked by the tests that use it).
    private let blankX = 40, blankY = 800

    // MARK: Pass and fail

    func testRecordThenVerifyPasses() throws {
        let recorded = try verify(.missing)
        XCTAssertTrue(recorded.passed)
        XCTAssertEqual(recorded.frames.count, 14)
        XCTAssertEqual(recorded.recordedCount, 14)
        XCTAssertTrue(recorded.frames.allSatisfy { $0.status == .missing && $0.recorded })
        XCTAssertTrue(exists(path("frame_0000.png")) && exists(path("frame_0013.png")))

        let verified = try verify(.never)
        XCTAssertTrue(verified.passed)
        XCTAssertNil(verified.failureMessage)
        XCTAssertEqual(verified.frames.map(\.status), Array(repeating: .pass, count: 14))
        XCTAssertTrue(verified.frames.allSatisfy(\.byteEqual), "a fresh render has the recorded bytes")
        XCTAssertEqual(verified.recordedCount, 0)
        XCTAssertEqual(verified.frames.map(\.name), (0..<14).map { String(format: "frame_%04d.png", $0) })
        XCTAssertEqual(verified.frames[5].time ?? -1, 1.25, accuracy: 1e-12)
    }

    func testOneChangedPixelFailsAndNamesTheFrame() throws {
        _ = try verify(.missing)
        try editBaseline(5) { set(&$0, 200, 300, (255, 0, 255, 255)) }
        let result = try verify(.never)
        XCTAssertFalse(result.passed)
        XCTAssertEqual(result.failures.map(\.name), ["frame_0005.png"])
        let frame = result.failures[0]
        XCTAssertEqual(frame.status, .fail)
        XCTAssertEqual(frame.result?.differingPixels, 1)
        XCTAssertEqual(frame.result?.totalPixels, 393 * 852)
        for file in [frame.expectedFile, frame.actualFile, frame.diffFile] {
            XCTAssertTrue(exists(path(try XCTUnwrap(file), in: reportDir)), "\(String(describing: file))")
        }
        // The diff image marks the pixel red.
        let diff = try PNGDecoder.decode(contentsOf: path(frame.diffFile!, in: reportDir))
        XCTAssertTrue(diff[200, 300] == (255, 0, 0, 255))
        // The expected image in the report is the baseline as it was.
        XCTAssertEqual(try bytes(path(frame.expectedFile!, in: reportDir)), try bytes(path("frame_0005.png")))

        let message = try XCTUnwrap(result.failureMessage)
        XCTAssertTrue(message.contains("frame_0005.png"), message)
        XCTAssertTrue(message.contains(reportDir + "/index.html"), message)
        XCTAssertTrue(message.contains(reportDir + "/" + frame.diffFile!), message)
    }

    /// A run that records nothing releases its shared lock before writing the report: the motion
    /// diff reads the passing lead-in frames from the baseline before that, under the lock.
    func testTheMotionDiffReadsTheBaselineUnderTheRunsLock() throws {
        _ = try verify(.missing)
        try editBaseline(5) { set(&$0, 200, 300, (255, 0, 255, 255)) }
        let result = try verify(.never)
        XCTAssertEqual(result.failures.map(\.name), ["frame_0005.png"])
        let motion = try XCTUnwrap(result.motionDiff)
        XCTAssertEqual(motion.frames, 3...5, "two passing lead-in frames, read from the baseline")
        XCTAssertTrue(exists(path(motion.file, in: reportDir)))
    }

    /// The workers keep the motion diff's panels of the frames they compare: the motion diff
    /// lays them out without decoding or comparing a failing frame again, and its WebP has the
    /// bytes of one drawn by decoding and comparing every frame of the segment.
    func testTheMotionDiffIsMadeFromTheWorkersPanelsWithTheSameBytes() throws {
        _ = try verify(.missing)
        try editBaseline(5) { set(&$0, 200, 300, (255, 0, 255, 255)) }
        try editBaseline(7) { set(&$0, 10, 10, (0, 0, 255, 255)) }
        try FileManager.default.removeItem(atPath: path("frame_0009.png"))
        let result = try verify(.never)
        XCTAssertEqual(result.failures.map(\.name), ["frame_0005.png", "frame_0007.png", "frame_0009.png"])
        let motion = try XCTUnwrap(result.motionDiff)
        XCTAssertEqual(motion.frames, 3...9)

        // Drawn again from the report's copies and the baseline, every frame decoded and compared.
        let again = try ReportWriter(path: root + "/again")
        defer { again.discard() }
        for frame in result.frames {
            for file in [frame.expectedFile, frame.actualFile].compactMap({ $0 }) { _ = try again.storeFrame(try bytes(path(file, in: reportDir))) }
        }
        let decoded = try XCTUnwrap(try MotionDiff.store(result, in: again) { name in try? self.bytes(self.path(name)) })
        XCTAssertEqual(decoded, motion)
        XCTAssertEqual(try bytes(path(motion.file, in: reportDir)), try again.readStored(decoded.file))

        // With the panels kept, the failing frames' PNGs are not read (nor decoded) again: here
        // the report holds none of them.
        let kept = MotionDiff.Kept(indices: Array(0..<14))
        for frame in result.frames {
            guard let index = frame.index, !frame.passed else { continue }
            XCTAssertTrue(kept.reserve(index))
            let e = try frame.expectedFile.map { try PNGDecoder.decode(contentsOf: path($0, in: reportDir)) }
            let a = try PNGDecoder.decode(contentsOf: path(try XCTUnwrap(frame.actualFile), in: reportDir))
            let diff = try e.map { try FrameComparison.compare($0, a, options: ComparisonOptions(), keepImages: true).images?.diff } ?? nil
            kept.keep(MotionDiff.Panels(expected: e, actual: a, diff: diff), for: index, pair: nil)
        }
        let empty = try ReportWriter(path: root + "/empty")
        defer { empty.discard() }
        let assembled = try XCTUnwrap(try MotionDiff.store(result, in: empty, kept: kept) { name in try? self.bytes(self.path(name)) })
        XCTAssertEqual(try empty.readStored(assembled.file), try again.readStored(decoded.file))
    }

    /// Planning lists the baseline directory only for a frame selected by time that its
    /// manifest gives no time for: never for ranges, and once however many `--at` there are.
    func testPlanningListsTheBaselineOnlyForTimesTheManifestDoesNotGive() throws {
        try FileManager.default.createDirectory(atPath: baseline, withIntermediateDirectories: true)
        try Data(PNGEncoder.encode(RGBAImage(width: 1, height: 1, pixels: [0, 0, 0, 255]))).write(to: URL(fileURLWithPath: path("frame_0003.png")))
        let directory = try BaselineDirectory(path: baseline, record: .never, renderer: try renderer, cancellation: nil)
        defer { directory.release() }
        var listings = 0
        let names: (String) -> [String] = { listings += 1; return Verifier.baselineFrameNames(in: $0) }
        XCTAssertEqual(try Verifier.plan([.all], renderer: try renderer, baseline: directory, frameNames: names).count, 14)
        XCTAssertEqual(try Verifier.plan([.range(2, 5)], renderer: try renderer, baseline: directory, frameNames: names).count, 4)
        XCTAssertEqual(listings, 0, "frames selected by index need no listing")
        let planned = try Verifier.plan([.at(0.8), .at(0.76)], renderer: try renderer, baseline: directory, frameNames: names)
        XCTAssertEqual(planned, [PlannedFrame(index: 3, time: 0.75)], "the time baseline frame 3 shows")
        XCTAssertEqual(listings, 1)
    }

    func testColorChangeJustUnderAndJustOverTheThreshold() throws {
        _ = try verify(.missing)
        let image = try PNGDecoder.decode(contentsOf: path("frame_0003.png"))
        for dx in -1...1 { for dy in -1...1 { XCTAssertTrue(image[blankX + dx, blankY + dy] == (255, 255, 255, 255), "blank area") } }

        try editBaseline(3) { set(&$0, blankX, blankY, (229, 229, 229, 255)) }   // Δ 26: 341.6 < 352.15
        XCTAssertTrue(try verify(.never).passed)
        XCTAssertEqual(try verify(.never, tolerance: ComparisonOptions(threshold: 0)).failures.map(\.name), ["frame_0003.png"])

        try editBaseline(3) { set(&$0, blankX, blankY, (228, 228, 228, 255)) }   // Δ 27: 368.4 > 352.15
        let over = try verify(.never)
        XCTAssertEqual(over.failures.map(\.name), ["frame_0003.png"])
        XCTAssertEqual(over.failures.first?.result?.differingPixels, 1)
    }

    func testLimitsAndMasks() throws {
        _ = try verify(.missing)
        try editBaseline(2) { img in
            for x in 0..<4 { set(&img, blankX + x, blankY, (0, 0, 0, 255)) }
        }
        XCTAssertFalse(try verify(.never).passed)
        XCTAssertFalse(try verify(.never, tolerance: ComparisonOptions(maxDiffPixels: 3)).passed)
        XCTAssertTrue(try verify(.never, tolerance: ComparisonOptions(maxDiffPixels: 4)).passed)
        XCTAssertTrue(try verify(.never, tolerance: ComparisonOptions(maxDiffRatio: 4.0 / (393 * 852))).passed)
        XCTAssertFalse(try verify(.never, tolerance: ComparisonOptions(maxDiffRatio: 3.0 / (393 * 852))).passed)
        // A mask in points (1x here) over the changed pixels.
        XCTAssertTrue(try verify(.never, masks: [Rect(x: Double(blankX) - 0.5, y: Double(blankY), width: 4, height: 0.5)]).passed)
        XCTAssertFalse(try verify(.never, masks: [Rect(x: Double(blankX) + 1, y: Double(blankY), width: 4, height: 1)]).passed)
    }

    func testMasksAreInPointsAndScaleWithTheScene() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 1, scale: 2), baseDirectory: "/")
        let twoX = try Renderer(scene: scene)
        _ = try verify(.missing, frames: [.range(0, 0)], using: twoX)
        try editBaseline(0) { set(&$0, 2 * blankX + 1, 2 * blankY + 1, (0, 0, 0, 255)) }
        XCTAssertFalse(try verify(.never, frames: [.range(0, 0)], using: twoX).passed)
        XCTAssertTrue(try verify(.never, frames: [.range(0, 0)], masks: [Rect(x: Double(blankX), y: Double(blankY), width: 1, height: 1)], using: twoX).passed)
    }

    /// A real anti-aliased edge of a render moved by one pixel: at 1.5x the first straight
    /// vertical edge of the default scene that falls inside a pixel column (layout frames sit on
    /// the pixel grid, so it is an edge of the product symbol, fitted into its box) between two
    /// flat, contrasting colors. The baseline gets that edge one pixel further right (the columns
    /// around it shifted along the straight part of the edge); verify excuses it as
    /// anti-aliasing, unless told not to.
    func testRenderedEdgeMovedByOnePixelPassesByDefault() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 1, scale: 1.5), baseDirectory: "/")
        let r = try Renderer(scene: scene)
        _ = try verify(.missing, frames: [.range(0, 0)], using: r)
        let rendered = try PNGDecoder.decode(contentsOf: path("frame_0000.png"))
        func contrast(_ a: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ b: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Int {
            abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b))
        }
        // The edge: a column x whose 8 neighbours on each side are one flat color each along a
        // run of at least 40 rows, x itself a blend of the two.
        func edge() -> (x: Int, rows: ClosedRange<Int>)? {
            for x in 9..<(rendered.width - 9) {
                var run: [Int] = []
                for y in 0..<rendered.height {
                    let a = rendered[x - 1, y], b = rendered[x + 1, y], c = rendered[x, y]
                    let flat = (x - 8...x - 1).allSatisfy { rendered[$0, y] == a } && (x + 1...x + 8).allSatisfy { rendered[$0, y] == b }
                    let same = run.last.map { rendered[x - 1, $0] == a && rendered[x + 1, $0] == b && rendered[x, $0] == c } ?? true
                    let blend = contrast(a, c) >= 40 && contrast(b, c) >= 40
                    if flat && contrast(a, b) >= 200 && blend && same { run.append(y) } else if run.count >= 40 { break } else { run = [] }
                }
                if run.count >= 40 { return (x, run.first!...run.last!) }
            }
            return nil
        }
        let (x, rows) = try XCTUnwrap(edge(), "a straight anti-aliased vertical edge between flat colors")
        try editBaseline(0) { image in
            for y in rows {
                for column in stride(from: x + 7, through: x - 7, by: -1) {
                    let p = rendered[column - 1, y]
                    set(&image, column, y, (p.r, p.g, p.b, p.a))
                }
            }
        }
        let excused = try verify(.never, frames: [.range(0, 0)], using: r)
        XCTAssertTrue(excused.passed, excused.failureMessage ?? "")
        XCTAssertEqual(excused.frames[0].result?.differingPixels, 0)
        XCTAssertEqual(excused.frames[0].result?.antialiasedPixels, 2 * rows.count)

        let counted = try verify(.never, frames: [.range(0, 0)], tolerance: ComparisonOptions(includeAA: true), using: r)
        XCTAssertFalse(counted.passed)
        XCTAssertEqual(counted.frames[0].result?.differingPixels, 2 * rows.count)
    }

    func testSizeMismatch() throws {
        _ = try verify(.missing)
        let scene = try DefaultScene.scene(overrides: SceneOverrides(fps: 4, scale: 2), baseDirectory: "/")
        let result = try verify(.never, using: try Renderer(scene: scene))
        XCTAssertFalse(result.passed)
        XCTAssertEqual(Set(result.frames.map(\.status)), [.sizeMismatch])
        XCTAssertEqual(result.frames[0].expectedSize, PixelSize(width: 393, height: 852))
        XCTAssertEqual(result.frames[0].actualSize, PixelSize(width: 786, height: 1704))
        XCTAssertTrue(result.line(for: result.frames[0])!.contains("expected 393×852 px, got 786×1704 px"))
        XCTAssertNil(result.frames[0].diffFile)
        XCTAssertNotNil(result.frames[0].expectedFile)
    }

    func testMissingAndExtraFrames() throws {
        _ = try verify(.missing)
        try FileManager.default.removeItem(atPath: path("frame_0007.png"))
        try FileManager.default.copyItem(atPath: path("frame_0001.png"), toPath: path("frame_0020.png"))
        try Data("not a frame".utf8).write(to: URL(fileURLWithPath: path("notes.txt")))
        let result = try verify(.never)
        XCTAssertFalse(result.passed)
        XCTAssertEqual(result.failures.map(\.name), ["frame_0007.png", "frame_0020.png"])
        XCTAssertEqual(result.failures.map(\.status), [.missing, .extra])
        XCTAssertEqual(result.frames.count, 15)
        XCTAssertEqual(result.failures[1].time ?? -1, 5, accuracy: 1e-12)
        let missingLine = try XCTUnwrap(result.line(for: result.failures[0]))
        XCTAssertTrue(missingLine.contains("no baseline frame at \(baseline)/frame_0007.png; record it with --record missing (or CARTRENDER_RECORD=missing)"), missingLine)
        XCTAssertFalse(exists(path("frame_0007.png")), "never writes nothing")
        XCTAssertTrue(exists(path("frame_0020.png")))

        // A subset of frames never reports extras.
        XCTAssertEqual(try verify(.never, frames: [.range(0, 3)]).frames.map(\.status), [.pass, .pass, .pass, .pass])
    }

    func testMissingBaselineDirectoryUnderNeverFailsAndIsNotCreated() throws {
        let result = try verify(.never, frames: [.range(0, 1)])
        XCTAssertEqual(result.frames.map(\.status), [.missing, .missing])
        XCTAssertFalse(result.passed)
        XCTAssertFalse(exists(baseline))
        XCTAssertTrue(result.failureMessage!.contains("--record missing"))
    }

    // MARK: Record modes

    /// Baseline with frame 4 changed, frame 6 missing and an extra frame 30.
    private func damagedBaseline() throws {
        _ = try verify(.missing)
        try editBaseline(4) { set(&$0, blankX, blankY, (0, 255, 0, 255)) }
        try FileManager.default.removeItem(atPath: path("frame_0006.png"))
        try FileManager.default.copyItem(atPath: path("frame_0001.png"), toPath: path("frame_0030.png"))
        try OwnershipFixture.adopt(["frame_0030.png"], in: baseline)  // as a longer recording leaves it
    }

    private func statuses(_ r: SnapshotResult) -> [String: String] {
        var d: [String: String] = [:]
        for f in r.frames where f.status != .pass || f.recorded { d[f.name] = f.status.rawValue + (f.recorded ? "+recorded" : "") }
        return d
    }

    func testRecordAllRewritesEverythingAndRemovesExtras() throws {
        try damagedBaseline()
        let before1 = try bytes(path("frame_0001.png"))
        let result = try verify(.all)
        XCTAssertTrue(result.passed)
        XCTAssertEqual(result.recordedCount, 15)
        XCTAssertEqual(statuses(result)["frame_0004.png"], "fail+recorded")
        XCTAssertEqual(statuses(result)["frame_0006.png"], "missing+recorded")
        XCTAssertEqual(statuses(result)["frame_0030.png"], "extra+recorded")
        XCTAssertEqual(statuses(result)["frame_0001.png"], "pass+recorded")
        XCTAssertFalse(exists(path("frame_0030.png")))
        XCTAssertEqual(try bytes(path("frame_0001.png")), before1)
        XCTAssertTrue(try verify(.never).passed)
    }

    /// `missing` records absent frames only in a run that otherwise passes: beside a failure it
    /// records nothing and names what it left out.
    func testRecordMissingWritesOnlyAbsentFrames() throws {
        try damagedBaseline()
        let changed = try bytes(path("frame_0004.png"))
        let result = try verify(.missing)
        XCTAssertFalse(result.passed)
        XCTAssertEqual(statuses(result), ["frame_0004.png": "fail", "frame_0006.png": "missing", "frame_0030.png": "extra"])
        XCTAssertEqual(result.notRecorded, ["frame_0006.png"])
        XCTAssertEqual(try bytes(path("frame_0004.png")), changed, "a failing frame is left alone")
        XCTAssertFalse(exists(path("frame_0006.png")), "not recorded beside failures")
        XCTAssertTrue(exists(path("frame_0030.png")))
    }

    func testRecordFailedRewritesFailingAndAbsentFrames() throws {
        try damagedBaseline()
        let result = try verify(.failed)
        XCTAssertTrue(result.passed)
        XCTAssertEqual(statuses(result), ["frame_0004.png": "fail+recorded", "frame_0006.png": "missing+recorded", "frame_0030.png": "extra+recorded"])
        XCTAssertTrue(try verify(.never).passed)
    }

    func testRecordNeverWritesNothing() throws {
        try damagedBaseline()
        let listing = try FileManager.default.contentsOfDirectory(atPath: baseline).sorted()
        let changed = try bytes(path("frame_0004.png"))
        let result = try verify(.never)
        XCTAssertFalse(result.passed)
        XCTAssertEqual(statuses(result), ["frame_0004.png": "fail", "frame_0006.png": "missing", "frame_0030.png": "extra"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: baseline).sorted(), listing)
        XCTAssertEqual(try bytes(path("frame_0004.png")), changed)
    }

    func testCorruptBaselineFrameIsAnErrorUnlessRerecorded() throws {
        _ = try verify(.missing, frames: [.range(0, 2)])
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path("frame_0001.png")))
        try OwnershipFixture.adopt(["frame_0001.png"], in: baseline)  // damaged after cartrender listed it
        XCTAssertThrowsError(try verify(.never, frames: [.range(0, 2)])) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .notPNG)
            XCTAssertEqual((error as? ImageDecodingError)?.path, path("frame_0001.png"))
        }
        let result = try verify(.failed, frames: [.range(0, 2)])
        XCTAssertTrue(result.passed)
        XCTAssertEqual(result.frames[1].undecodable, "not a PNG file")
        XCTAssertTrue(result.frames[1].recorded)
        XCTAssertTrue(try verify(.never, frames: [.range(0, 2)]).passed)
    }

    // MARK: Report

    /// A run that stops with an error after writing some frames' images leaves the report
    /// directory as the previous run left it: never images of one run beside another's report.
    func testAbortedRunLeavesTheEarlierReportAsItWas() throws {
        _ = try verify(.missing, frames: [.range(0, 2)])
        let before = try FileManager.default.contentsOfDirectory(atPath: reportDir).sorted()
        let index = try bytes(path("index.html", in: reportDir))
        try editBaseline(0) { set(&$0, 10, 10, (0, 0, 0, 255)) }                       // fails: images written
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path("frame_0002.png"))) // then aborts the run
        XCTAssertThrowsError(try verify(.never, frames: [.range(0, 2)], jobs: 1))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: reportDir).sorted(), before)
        XCTAssertEqual(try bytes(path("index.html", in: reportDir)), index)
    }

    func testJUnitReportParsesAsXML() throws {
        _ = try verify(.missing)
        try editBaseline(9) { set(&$0, 10, 10, (0, 0, 0, 255)) }
        let result = try verify(.never)
        let data = try Data(contentsOf: URL(fileURLWithPath: path("junit.xml", in: reportDir)))
        let document = try XMLDocument(data: data)
        let root = try XCTUnwrap(document.rootElement())
        XCTAssertEqual(root.name, "testsuites")
        XCTAssertEqual(root.attribute(forName: "tests")?.stringValue, "14")
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, "1")
        let cases = try root.nodes(forXPath: "//testcase")
        XCTAssertEqual(cases.count, 14)
        let failures = try root.nodes(forXPath: "//testcase/failure")
        XCTAssertEqual(failures.count, 1)
        let failing = try XCTUnwrap(failures.first?.parent as? XMLElement)
        XCTAssertEqual(failing.attribute(forName: "name")?.stringValue, "frame_0009.png (t=2.25 s)")
        XCTAssertEqual(failing.attribute(forName: "classname")?.stringValue, "cartrender.verify.default")
        XCTAssertTrue(failures.first!.stringValue!.contains(reportDir + "/" + result.failures[0].diffFile!))
    }

    func testHTMLReportReferencesFilesThatExist() throws {
        _ = try verify(.missing)
        try editBaseline(11) { set(&$0, 10, 10, (0, 0, 0, 255)) }
        try editBaseline(8) { set(&$0, 10, 10, (0, 0, 0, 255)) }
        try FileManager.default.removeItem(atPath: path("frame_0012.png"))
        let result = try verify(.never)
        let html = try String(contentsOfFile: path("index.html", in: reportDir), encoding: .utf8)
        let regex = try NSRegularExpression(pattern: ##"(?:src|href)="([^"#][^"]*)""##)
        let refs = regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map {
            String(html[Range($0.range(at: 1), in: html)!])
        }
        XCTAssertFalse(refs.isEmpty)
        for ref in Set(refs) {
            XCTAssertFalse(ref.contains("://"), "no network: \(ref)")
            XCTAssertFalse(ref.hasPrefix("/"), "relative: \(ref)")
            XCTAssertTrue(exists(path(ref, in: reportDir)), "\(ref) exists")
        }
        let f = Dictionary(uniqueKeysWithValues: result.frames.map { ($0.name, $0) })
        for name in [f["frame_0008.png"]?.expectedFile, f["frame_0008.png"]?.actualFile, f["frame_0008.png"]?.diffFile,
                     f["frame_0012.png"]?.actualFile, f["frame_0011.png"]?.diffFile] {
            XCTAssertTrue(refs.contains(try XCTUnwrap(name)), "\(String(describing: name))")
        }
        // The first failing frame comes first.
        let sections = try NSRegularExpression(pattern: #"<section class="frame" id="([^"]+)""#)
            .matches(in: html, range: NSRange(html.startIndex..., in: html)).map { String(html[Range($0.range(at: 1), in: html)!]) }
        XCTAssertEqual(sections, ["frame_0008", "frame_0011", "frame_0012"])
        XCTAssertFalse(html.contains("<link"), "self-contained")
        XCTAssertTrue(html.contains("type=\"range\""), "a slider")
        // The timeline has a cell per frame, failing ones marked.
        XCTAssertEqual(html.components(separatedBy: "class=\"cell ").count - 1, 14)
        XCTAssertEqual(html.components(separatedBy: "class=\"cell fail\"").count - 1, 2)
        XCTAssertEqual(html.components(separatedBy: "class=\"cell missing\"").count - 1, 1)
    }

    /// Every frame has a section; passing ones show a thumbnail inside the report (named by the
    /// frame's content hash, so that the report opens wherever it is copied, without the
    /// baseline), never a path into the baseline directory; a failing frame has its five views
    /// and the image sizes.
    func testHTMLReportReachesEveryFrameWithItsViews() throws {
        _ = try verify(.missing)
        try editBaseline(8) { set(&$0, 10, 10, (0, 0, 0, 255)) }
        for report in [reportDir, root + "/deep/er/report"] {
            let result = try verify(.never, report: report)
            let html = try String(contentsOfFile: path("index.html", in: report), encoding: .utf8)
            XCTAssertEqual(html.components(separatedBy: "<section class=\"frame").count - 1, 14, report)
            XCTAssertTrue(html.contains(#"<section class="frame pass" id="frame_0003">"#))
            let thumb = try XCTUnwrap(result.frames[3].thumbnailFile)
            XCTAssertTrue(ReportThumbnail.isFileName(thumb), thumb)
            XCTAssertTrue(html.contains(#"<img src="\#(thumb)" alt="baseline frame_0003.png" loading="lazy">"#), report)
            XCTAssertTrue(exists(path(thumb, in: report)))
            XCTAssertFalse(html.contains("baseline/frame_"), "nothing outside the report")
            let image = try PNGDecoder.decode(contentsOf: path(thumb, in: report))
            XCTAssertLessThanOrEqual(image.width, ReportThumbnail.maxWidth)
            XCTAssertEqual(html.components(separatedBy: ##"href="#frame_0003""##).count - 1, 2, "a timeline cell and a thumbnail")
            XCTAssertTrue(html.contains(#"data-views="side slider blend toggle diff""#))
            XCTAssertTrue(html.contains("<figcaption>Expected · 393×852 px</figcaption>"))
        }
        XCTAssertEqual(HTMLReport.relativeDirectory(from: root + "/a/b", to: root + "/c d#"), "../../c%20d%23/")
        XCTAssertEqual(HTMLReport.relativeDirectory(from: root, to: root), "")
    }

    func testReportJSONAndStaleImagesOfAnEarlierRun() throws {
        _ = try verify(.missing)
        try editBaseline(2) { set(&$0, 10, 10, (0, 0, 0, 255)) }
        let failing = try verify(.never)
        let images = [failing.frames[2].diffFile!, failing.frames[2].expectedFile!]
        XCTAssertTrue(exists(path(images[0], in: reportDir)))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("report.json", in: reportDir)))) as! [String: Any]
        XCTAssertEqual(json["passed"] as? Bool, false)
        let frames = json["frames"] as! [[String: Any]]
        XCTAssertEqual(frames.count, 14)
        XCTAssertEqual(frames[2]["frame"] as? String, "frame_0002.png")
        XCTAssertEqual(frames[2]["status"] as? String, "fail")
        XCTAssertEqual(frames[2]["differingPixels"] as? Int, 1)
        XCTAssertEqual(frames[2]["identical"] as? Bool, false)
        XCTAssertEqual(frames[3]["identical"] as? Bool, true)
        XCTAssertEqual(failing.json.serialized(pretty: true), String(decoding: try bytes(path("report.json", in: reportDir)), as: UTF8.self))

        // A user file in the report directory is never touched; the earlier run's images go.
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path("notes.txt", in: reportDir)))
        _ = try verify(.all)
        let passing = try verify(.never)
        XCTAssertTrue(passing.passed)
        for image in images { XCTAssertFalse(exists(path(image, in: reportDir)), image) }
        XCTAssertTrue(exists(path("notes.txt", in: reportDir)))
        XCTAssertTrue(try String(contentsOfFile: path("index.html", in: reportDir), encoding: .utf8).contains("Every frame matches"))
    }

    func testResultsAndReportDoNotDependOnJobs() throws {
        _ = try verify(.missing)
        try editBaseline(1) { set(&$0, 10, 10, (0, 0, 0, 255)) }
        try editBaseline(12) { set(&$0, 10, 10, (0, 0, 0, 255)) }
        let one = try verify(.never, jobs: 1, report: root + "/r1")
        let four = try verify(.never, jobs: 4, report: root + "/r1")
        XCTAssertEqual(one.json.serialized(), four.json.serialized())
        let a = try verify(.never, jobs: 1, report: root + "/r2")
        let b = try verify(.never, jobs: 3, report: root + "/r3")
        XCTAssertEqual(a.frames.map(\.status), b.frames.map(\.status))
        // junit.xml's time and timestamp are measurements: everything else is the same.
        func untimed(_ text: String) -> String {
            text.replacingOccurrences(of: #" (time|timestamp)="[^"]*""#, with: "", options: .regularExpression)
        }
        for name in ["index.html", "junit.xml"] {
            XCTAssertEqual(untimed(try String(contentsOfFile: root + "/r2/" + name, encoding: .utf8).replacingOccurrences(of: root + "/r2", with: "R")),
                           untimed(try String(contentsOfFile: root + "/r3/" + name, encoding: .utf8).replacingOccurrences(of: root + "/r3", with: "R")), name)
        }
    }

    func testDefaultReportDirectoryIsBesideTheBaseline() {
        XCTAssertEqual(VerifyOptions.defaultReportDirectory(forBaseline: "snapshots/fly"), "snapshots/cartrender-report")
        XCTAssertEqual(VerifyOptions.defaultReportDirectory(forBaseline: "snapshots/fly/"), "snapshots/cartrender-report")
        XCTAssertEqual(VerifyOptions.defaultReportDirectory(forBaseline: "baseline"), "cartrender-report")
        XCTAssertEqual(VerifyOptions.defaultReportDirectory(forBaseline: "/tmp/b"), "/tmp/cartrender-report")
    }

    /// Report images are named by their content: frames whose expected (or actual) PNGs are
    /// byte-identical share one file, and so do their diff images; report.json, junit.xml and
    /// index.html name those files, the diff image is a palette PNG with pixelmatch's pixels, and
    /// no panel image is written (the page shows expected, actual and diff itself). Once the
    /// frames pass, the images go.
    /// A diff thumbnail keeps a one-pixel difference wherever it is, in the columns and rows a
    /// whole-factor downscale leaves over too (393 px at factor 2: the last column).
    func testDiffThumbnailsKeepDifferencesAtTheEdges() throws {
        for (width, height, x, y) in [(393, 852, 392, 851), (393, 852, 0, 0), (1179, 2556, 1178, 2555), (1179, 2556, 600, 1300)] {
            var diff = RGBAImage(width: width, height: height, pixels: [UInt8](repeating: 200, count: width * height * 4))
            set(&diff, x, y, (255, 0, 0, 255))
            let thumb = try PNGDecoder.decode(ReportThumbnail.png(marking: diff))
            XCTAssertLessThanOrEqual(thumb.width, ReportThumbnail.maxWidth)
            let reds = stride(from: 0, to: thumb.pixels.count, by: 4).filter { thumb.pixels[$0] == 255 && thumb.pixels[$0 + 1] == 0 }
            XCTAssertEqual(reds.count, 1, "\(width)×\(height), red at (\(x), \(y))")
            XCTAssertTrue(stride(from: 0, to: thumb.pixels.count, by: 4).allSatisfy { i in reds.contains(i) || thumb.pixels[i..<(i + 4)].elementsEqual([200, 200, 200, 255]) }, "the rest stays gray")
        }
    }

    func testIdenticalReportImagesAreStoredOnce() throws {
        _ = try verify(.missing)
        // Frames 12 and 13 of the default scene at 4 fps are the same still frame: the same
        // baseline for both, with one pixel changed, gives two failures of one pair of PNGs;
        // frame 11 gets that baseline too (the same expected image, another actual one).
        let still = try bytes(path("frame_0012.png"))
        XCTAssertEqual(try bytes(path("frame_0013.png")), still, "the test needs a still stretch")
        try editBaseline(12) { set(&$0, 200, 300, (255, 0, 255, 255)) }
        let edited = try bytes(path("frame_0012.png"))
        for i in [11, 13] {
            try Data(edited).write(to: URL(fileURLWithPath: path(String(format: "frame_%04d.png", i))))
            try OwnershipFixture.adopt([String(format: "frame_%04d.png", i)], in: baseline)
        }
        let result = try verify(.never)
        let failing = result.failures
        XCTAssertEqual(failing.map(\.name), ["frame_0011.png", "frame_0012.png", "frame_0013.png"])
        XCTAssertEqual(Set(failing.map(\.expectedFile)).count, 1)
        XCTAssertEqual(Set(failing.map(\.actualFile)).count, 2)
        XCTAssertEqual(failing[1].diffFile, failing[2].diffFile)
        XCTAssertEqual(failing[1].result?.differingPixels, 1)
        XCTAssertEqual(failing[2].result, failing[1].result)
        let frame = failing[1]
        XCTAssertEqual(frame.expectedFile, "img_" + Checksum.sha256(edited).prefix(16) + ".png")
        XCTAssertEqual(frame.actualFile, "img_" + Checksum.sha256(still).prefix(16) + ".png")
        XCTAssertEqual(try bytes(path(frame.expectedFile!, in: reportDir)), edited)
        XCTAssertEqual(try bytes(path(frame.actualFile!, in: reportDir)), still)
        let diffBytes = try bytes(path(frame.diffFile!, in: reportDir))
        XCTAssertEqual(frame.diffFile, "diff_" + Checksum.sha256(diffBytes).prefix(16) + ".png")
        XCTAssertEqual(diffBytes[25], 3, "color type 3: a palette PNG")
        let (_, expectedDiff) = try Pixelmatch.diff(PNGDecoder.decode(edited), PNGDecoder.decode(still))
        XCTAssertEqual(try PNGDecoder.decode(diffBytes), expectedDiff)
        let files = try FileManager.default.contentsOfDirectory(atPath: reportDir)
        XCTAssertEqual(files.filter { $0.hasPrefix("img_") }.count, 3)
        XCTAssertEqual(files.filter { $0.hasPrefix("diff_") }.count, Set(failing.map(\.diffFile)).count)
        XCTAssertFalse(files.contains { $0.hasSuffix(".panel.png") || $0.hasPrefix("frame_") })

        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("report.json", in: reportDir)))) as! [String: Any]
        let listed = (json["frames"] as! [[String: Any]])[13]["files"] as? [String: String]
        XCTAssertEqual(listed, ["expected": frame.expectedFile!, "actual": frame.actualFile!, "diff": frame.diffFile!,
                                "thumbnail": frame.thumbnailFile!])
        // The filmstrip's picture of a failing frame: its diff image downscaled, the one
        // differing pixel still red in its block, named by the diff image's hash.
        XCTAssertEqual(frame.thumbnailFile, "thumb_" + Checksum.sha256(diffBytes).prefix(16) + ".png")
        XCTAssertEqual(failing[2].thumbnailFile, frame.thumbnailFile)
        let thumbBytes = try bytes(path(frame.thumbnailFile!, in: reportDir))
        XCTAssertEqual(thumbBytes[25], 3, "a palette PNG")
        let thumb = try PNGDecoder.decode(thumbBytes)
        let f = (expectedDiff.width + ReportThumbnail.maxWidth - 1) / ReportThumbnail.maxWidth
        XCTAssertEqual(thumb.width, expectedDiff.width / f)
        XCTAssertLessThanOrEqual(thumb.width, ReportThumbnail.maxWidth)
        let o = ((300 / f) * thumb.width + 200 / f) * 4
        XCTAssertEqual(Array(thumb.pixels[o..<(o + 4)]), [255, 0, 0, 255], "the differing pixel's block is red")
        let reds = stride(from: 0, to: thumb.pixels.count, by: 4).filter { thumb.pixels[$0] == 255 && thumb.pixels[$0 + 1] == 0 && thumb.pixels[$0 + 2] == 0 }
        XCTAssertEqual(reds.count, 1, "and only that block")
        XCTAssertTrue(try String(contentsOfFile: path("index.html", in: reportDir), encoding: .utf8).contains("src=\"\(frame.thumbnailFile!)\""))
        XCTAssertTrue(try String(contentsOfFile: path("junit.xml", in: reportDir), encoding: .utf8).contains("diff: \(reportDir)/\(frame.diffFile!)"))
        XCTAssertTrue(try String(contentsOfFile: path("index.html", in: reportDir), encoding: .utf8).contains("src=\"\(frame.diffFile!)\""))

        _ = try verify(.all)
        XCTAssertTrue(try verify(.never).passed)
        for image in [frame.expectedFile!, frame.diffFile!, frame.thumbnailFile!] { XCTAssertFalse(exists(path(image, in: reportDir)), image) }
    }

    /// Every frame's counts are pixelmatch's for its two images, with the rows that are
    /// byte-identical skipped and pairs of PNGs met again not compared again.
    func testCountsArePixelmatchsForEveryFrame() throws {
        _ = try verify(.missing)
        for i in 0..<14 {
            try editBaseline(i) { set(&$0, 10 + i, 10, (0, 0, 0, 255)) }
        }
        let reused = try verify(.never)
        XCTAssertEqual(reused.failures.count, 14)
        for frame in reused.frames {
            let expected = try PNGDecoder.decode(contentsOf: path(frame.name))
            let actual = try PNGDecoder.decode(contentsOf: path(frame.actualFile!, in: reportDir))
            XCTAssertEqual(frame.result, try Pixelmatch.compare(expected, actual), frame.name)
        }
    }

    func testDirectoryDiffReportStoresImagesByContent() throws {
        _ = try verify(.missing)
        let other = root + "/other"
        try FileManager.default.copyItem(atPath: baseline, toPath: other)
        var image = try PNGDecoder.decode(contentsOf: other + "/frame_0005.png")
        set(&image, 10, 10, (0, 0, 0, 255))
        try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: other + "/frame_0005.png"))
        try OwnershipFixture.adopt(["frame_0005.png"] + (FileManager.default.fileExists(atPath: other + "/frame_0040.png") ? ["frame_0040.png"] : []), in: other)

        let result = try DirectoryDiff.compare(expected: baseline, actual: other, options: ComparisonOptions(), jobs: 2,
                                               reportDirectory: root + "/dr", diffDirectory: root + "/dd")
        let frame = try XCTUnwrap(result.failures.first)
        XCTAssertEqual(result.failures.count, 1)
        XCTAssertEqual(try bytes(root + "/dd/frame_0005.diff.png"), try bytes(root + "/dr/" + frame.diffFile!))
        XCTAssertEqual(try bytes(root + "/dr/" + frame.expectedFile!), try bytes(baseline + "/frame_0005.png"))
        XCTAssertEqual(try bytes(root + "/dr/" + frame.actualFile!), try bytes(other + "/frame_0005.png"))
        XCTAssertFalse(exists(root + "/dd/frame_0005.panel.png"), "--out DIR gets the diff images only")
    }

    // MARK: Directory diff

    func testDirectoryDiff() throws {
        _ = try verify(.missing)
        let other = root + "/other"
        try FileManager.default.copyItem(atPath: baseline, toPath: other)
        try FileManager.default.removeItem(atPath: other + "/frame_0003.png")
        try FileManager.default.copyItem(atPath: baseline + "/frame_0000.png", toPath: other + "/frame_0040.png")
        var image = try PNGDecoder.decode(contentsOf: other + "/frame_0005.png")
        set(&image, 10, 10, (0, 0, 0, 255))
        try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: other + "/frame_0005.png"))
        try OwnershipFixture.adopt(["frame_0005.png"] + (FileManager.default.fileExists(atPath: other + "/frame_0040.png") ? ["frame_0040.png"] : []), in: other)

        let result = try DirectoryDiff.compare(expected: baseline, actual: other, options: ComparisonOptions(), jobs: 2,
                                               reportDirectory: root + "/dr", diffDirectory: root + "/dd")
        XCTAssertEqual(result.failures.map(\.name), ["frame_0003.png", "frame_0005.png", "frame_0040.png"])
        XCTAssertEqual(result.failures.map(\.status), [.extra, .fail, .missing])
        XCTAssertTrue(exists(root + "/dd/frame_0005.diff.png"))
        XCTAssertTrue(exists(root + "/dr/index.html"))
        XCTAssertTrue(exists(root + "/dr/" + result.failures[1].diffFile!))
        XCTAssertThrowsError(try DirectoryDiff.compare(expected: baseline, actual: root + "/nope", options: ComparisonOptions(), jobs: 1)) {
            XCTAssertEqual(($0 as? InputError)?.kind, .unreadable)
        }
    }

    // MARK: Library API

    func testSnapshotsAPIWithChosenTimes() throws {
        let base = root + "/api"
        let first = try Snapshots.verify(.defaultScene, baseline: base, times: [0, 0.5, 1.0], record: .missing,
                                         overrides: SceneOverrides(fps: 4, scale: 1))
        XCTAssertTrue(first.passed)
        XCTAssertEqual(first.frames.map(\.name), ["frame_0000.png", "frame_0002.png", "frame_0004.png"])
        XCTAssertNil(Snapshots.failure(.defaultScene, baseline: base, times: [0, 0.5, 1.0], record: .never,
                                       overrides: SceneOverrides(fps: 4, scale: 1)))
        // The helper in Support/AssertSnapshots.swift, as a test target would use it.
        assertSnapshots(.defaultScene, baseline: base, times: [0.5], overrides: SceneOverrides(fps: 4, scale: 1))

        var image = try PNGDecoder.decode(contentsOf: base + "/frame_0002.png")
        set(&image, 10, 10, (0, 0, 0, 255))
        try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: base + "/frame_0002.png"))
        try OwnershipFixture.adopt(["frame_0002.png"], in: base)  // as a recording of a changed render leaves it
        let message = try XCTUnwrap(Snapshots.failure(.defaultScene, baseline: base, times: [0.5], record: .never,
                                                      overrides: SceneOverrides(fps: 4, scale: 1)))
        XCTAssertTrue(message.contains("frame_0002.png"), message)
        XCTAssertTrue(message.contains(root + "/cartrender-report/index.html"), message)
        XCTAssertTrue(message.range(of: root + "/cartrender-report/diff_[0-9a-f]{16}\\.png", options: .regularExpression) != nil, message)

        let outside = try XCTUnwrap(Snapshots.failure(.defaultScene, baseline: base, times: [99], record: .never,
                                                      overrides: SceneOverrides(fps: 4, scale: 1)))
        XCTAssertTrue(outside.contains("outside the render"), outside)
    }

    /// A run that records says so (the library prints the note on stderr); a failure lists the
    /// report images a test can attach.
    func testSnapshotsAPISaysWhatItRecordedAndListsTheFailureImages() throws {
        let base = root + "/api"
        let first = try Snapshots.verify(.defaultScene, baseline: base, times: [0, 0.5], record: .missing,
                                         overrides: SceneOverrides(fps: 4, scale: 1))
        XCTAssertTrue(first.passed)
        XCTAssertEqual(first.recordingNote, "recorded 2 baseline frames in \(base) (frames 0, 2, record mode missing); review them and commit \(base)")
        XCTAssertEqual(first.failureArtifacts, [])
        let again = try Snapshots.verify(.defaultScene, baseline: base, times: [0, 0.5], record: .missing,
                                         overrides: SceneOverrides(fps: 4, scale: 1))
        XCTAssertNil(again.recordingNote)

        var image = try PNGDecoder.decode(contentsOf: base + "/frame_0002.png")
        set(&image, 10, 10, (0, 0, 0, 255))
        try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: base + "/frame_0002.png"))
        try OwnershipFixture.adopt(["frame_0002.png"], in: base)  // as a recording of a changed render leaves it
        let failed = try Snapshots.verify(.defaultScene, baseline: base, times: [0, 0.5], record: .never,
                                          overrides: SceneOverrides(fps: 4, scale: 1))
        let report = root + "/cartrender-report/"
        let frame = try XCTUnwrap(failed.failures.first)
        XCTAssertEqual(failed.failureArtifacts, [frame.diffFile!, frame.expectedFile!, frame.actualFile!].map { report + $0 })
        for path in failed.failureArtifacts { XCTAssertTrue(FileManager.default.fileExists(atPath: path), path) }
        let stem = String(frame.name.dropLast(4))
        XCTAssertEqual(failed.failureAttachments.map(\.name), ["diff", "expected", "actual"].map { "\(stem).\($0).png" })
        XCTAssertEqual(failed.failureAttachments.map(\.path), failed.failureArtifacts)
        let rerecorded = try Snapshots.verify(.defaultScene, baseline: base, times: [0, 0.5], record: .failed,
                                              overrides: SceneOverrides(fps: 4, scale: 1))
        XCTAssertEqual(rerecorded.recordingNote, "recorded 1 baseline frame in \(base) (frame 2, record mode failed); review them and commit \(base)")
    }

    func testSnapshotsAPIResolvesRelativePathsAgainstTheTestFile() throws {
        let fakeTestFile: StaticString = "/nonexistent-dir/Tests/FlyTests.swift"
        let message = try XCTUnwrap(Snapshots.failure(.file("Scenes/fly.json"), baseline: "__Snapshots__/fly", record: .never, file: fakeTestFile))
        XCTAssertTrue(message.contains("/nonexistent-dir/Tests/Scenes/fly.json"), message)
    }

    /// Shares of differing pixels print with the digits that explain the verdict: never `0`
    /// for a pixel that differs, never equal to an allowed share they exceed.
    func testPercentagesKeepTheDigitsThatExplainTheVerdict() {
        func text(_ differing: Int, _ total: Int, ratio: Double? = nil) -> String {
            var options = ComparisonOptions()
            options.maxDiffRatio = ratio
            let r = SnapshotResult(command: .verify, subject: "s.json", baseline: "b", reportDirectory: nil, options: options, frames: [])
            return r.percentText(of: DiffResult(differingPixels: differing, antialiasedPixels: 0, totalPixels: total))
        }
        let cases: [(Int, Int, Double?, String)] = [
            (0, 3_013_524, nil, "0"),
            (1, 3_013_524, nil, "0.000033"),
            (1, 3_013_524, 0, "0.000033"),
            (120, 120_000, nil, "0.1"),
            (1_234, 10_000, nil, "12.34"),
            (100_001, 100_000_000, 0.001, "0.100001"),  // just over 0.1 %: not printed as 0.1
            (100_000, 100_000_000, 0.001, "0.1"),
        ]
        for (d, t, ratio, expected) in cases { XCTAssertEqual(text(d, t, ratio: ratio), expected, "\(d) of \(t)") }
    }

    /// The passing line's counts add up: a frame recorded because its state changed while its
    /// pixels matched is counted as recorded, not also as matched ("99 frames, 90 recorded, 63
    /// matched" before).
    func testAcceptedCountsAddUp() {
        var result = SnapshotResult(command: .verify, subject: "s.json", baseline: "base", reportDirectory: nil,
                                    options: ComparisonOptions(), frames: [])
        var stateOnly = FrameResult(name: "frame_0000.png", index: 0, time: 0, status: .pass)
        stateOnly.stateChanges = [ManifestComparison.Change(path: "count", expected: .int(0), actual: .int(1))]
        stateOnly.recorded = true
        var failed = FrameResult(name: "frame_0001.png", index: 1, time: 0.25, status: .fail)
        failed.recorded = true
        var same = FrameResult(name: "frame_0002.png", index: 2, time: 0.5, status: .pass)
        same.byteEqual = true
        let decoded = FrameResult(name: "frame_0003.png", index: 3, time: 0.75, status: .pass)
        result.frames = [stateOnly, failed, same, decoded]
        XCTAssertTrue(result.passed)
        XCTAssertEqual(result.summaryLine, "cartrender verify: passed, 4 frames, 2 recorded in base, 2 matched (1 byte-identical)")
    }

    /// A summary stays within GitHub's 1 MiB whatever the run: 10 000 moved events are named
    /// 20 at a time, 20 000 failing frames with long state changes fill at most 50 rows, and a
    /// section still over the limit is cut at a line with a last line saying so.
    func testSummariesStayWithinGitHubsLimit() {
        var result = SnapshotResult(command: .verify, subject: "taps.json", baseline: "snaps/taps", reportDirectory: "report",
                                    options: ComparisonOptions(), frames: [])
        result.movedEvents = (0..<10_000).map { i in
            ManifestComparison.MovedEvent(kind: "tap", identity: [("target", .string("add")), ("n", .int(i))], expected: Double(i) / 100, actual: Double(i) / 100 + 0.01)
        }
        let long = JSONValue.string(String(repeating: "x", count: 4000))
        result.frames = (0..<20_000).map { i in
            var f = FrameResult(name: String(format: "frame_%05d.png", i), index: i, time: Double(i) / 60, status: .pass)
            f.stateChanges = (0..<10).map { ManifestComparison.Change(path: "items[\($0)].title", expected: long, actual: .string("y")) }
            return f
        }
        let md = MarkdownSummary.markdown(for: result)
        XCTAssertLessThanOrEqual(md.utf8.count, MarkdownSummary.maxBytes)
        XCTAssertTrue(md.contains("… and 9980 more"), "moved events are capped")
        XCTAssertTrue(md.contains("… and 19950 more frames: see the report."))
        XCTAssertEqual(result.movedEventsLine?.components(separatedBy: "tap (").count, 21)
        // The report's state panel lists 50 and says how many more (all of them are in report.json).
        let panel = HTMLReport.statePanel(result)
        XCTAssertEqual(panel.components(separatedBy: "<li>tap (").count - 1, HTMLReport.maxMovedEvents)
        XCTAssertTrue(panel.contains("<li>… and 9950 more: every one is in report.json"), String(panel.suffix(300)))

        let cut = MarkdownSummary.capped(String(repeating: String(repeating: "a", count: 999) + "\n", count: 2000))
        XCTAssertLessThanOrEqual(cut.utf8.count, MarkdownSummary.maxBytes)
        XCTAssertTrue(cut.hasSuffix("\n… summary cut at 1024 KiB: see the report.\n\n"), String(cut.suffix(80)))
        XCTAssertTrue(cut.hasPrefix(String(repeating: "a", count: 999) + "\n"))
        XCTAssertEqual(MarkdownSummary.capped("short\n"), "short\n")
    }
}
