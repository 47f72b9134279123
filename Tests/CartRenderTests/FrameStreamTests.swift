@testable import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// A sink that records what it is given and fails where told.
private final class ProbeSink: FrameSink, @unchecked Sendable {
    let needs: FrameNeeds
    var failWrite: Set<Int> = []
    var failConsume: Set<Int> = []
    /// Called at the start of `consume`, on the sink's thread.
    var onConsume: ((RenderedFrame) -> Void)?
    private let lock = NSLock()
    private(set) var written: [Int] = []
    private(set) var consumed: [Int] = []
    private(set) var consumeThreads: Set<ObjectIdentifier> = []
    private(set) var finished = false

    init(needs: FrameNeeds) { self.needs = needs }

    func write(_ frame: RenderedFrame) throws -> [Manifest.File] {
        lock.withLock { written.append(frame.index) }
        if failWrite.contains(frame.index) { throw Failure(index: frame.index, stage: "write") }
        return []
    }

    func consume(_ frame: RenderedFrame) throws {
        onConsume?(frame)
        lock.withLock {
            consumed.append(frame.index)
            consumeThreads.insert(ObjectIdentifier(Thread.current))
        }
        if failConsume.contains(frame.index) { throw Failure(index: frame.index, stage: "consume") }
    }

    func finish(earlier: [Manifest.File]) throws -> SinkOutput { finished = true; return SinkOutput() }

    struct Failure: Error, Equatable { var index: Int; var stage: String }
}

final class FrameStreamTests: XCTestCase {
    func renderer() throws -> Renderer {
        try Renderer(scene: DefaultScene.scene(overrides: SceneOverrides(fps: 20, scale: 1), baseDirectory: "/"))
    }

    func testEveryFrameReachesEverySinkInOrderOnTheSinksOwnThread() throws {
        let r = try renderer()
        let frames = try r.plan([.all])
        let ordered = ProbeSink(needs: [.inOrder, .pixels])
        let unordered = ProbeSink(needs: [.png])
        let stream = FrameStream(renderer: r, frames: frames, jobs: 3)
        try stream.run([unordered, ordered])
        XCTAssertEqual(ordered.consumed, frames.map(\.index))
        XCTAssertEqual(unordered.written.sorted(), frames.map(\.index))
        XCTAssertEqual(unordered.consumed, [], "a sink without .inOrder is not given frames in order")
        XCTAssertEqual(ordered.consumeThreads.count, 1)
        XCTAssertFalse(ordered.consumeThreads.contains(ObjectIdentifier(Thread.current)), "consume runs beside the caller, not on it")
        XCTAssertTrue(ordered.finished && unordered.finished)
        XCTAssertLessThan(stream.runsDrawn, frames.count, "holds are drawn once")
    }

    /// The in-order stage runs beside the drawing: while it is stuck on frame 0, workers still
    /// draw and write later frames. (When the in-order consumer ran under the pool's lock, no
    /// worker could finish a frame meanwhile.)
    func testAStuckInOrderSinkDoesNotStopTheWorkers() throws {
        let r = try renderer()
        let frames = Array(try r.plan([.all]).prefix(12))
        let writer = ProbeSink(needs: [.png])
        let laterFrameWritten = DispatchSemaphore(value: 0)
        final class Watch: FrameSink, @unchecked Sendable {
            let needs: FrameNeeds = []
            let seen: DispatchSemaphore
            init(_ s: DispatchSemaphore) { seen = s }
            func write(_ frame: RenderedFrame) throws -> [Manifest.File] { if frame.index == 2 { seen.signal() }; return [] }
        }
        let slow = ProbeSink(needs: .inOrder)
        var sawLaterFrame = false
        slow.onConsume = { frame in
            if frame.index == 0 { sawLaterFrame = laterFrameWritten.wait(timeout: .now() + 20) == .success }
        }
        // Frames 0–11 of the default scene at 20 fps include a hold: plan with distinct runs.
        try FrameStream(renderer: r, frames: frames.filter { $0.index % 2 == 0 }.map { PlannedFrame(index: $0.index, time: $0.time) },
                        jobs: 2).run([writer, Watch(laterFrameWritten), slow])
        XCTAssertTrue(sawLaterFrame, "frame 2 was drawn and written while the in-order sink held frame 0")
        XCTAssertEqual(slow.consumed, frames.map(\.index).filter { $0 % 2 == 0 })
    }

    /// Whatever the thread timing, the error of the earliest failing frame is thrown, whether it
    /// comes from a worker stage or an in-order stage.
    func testTheEarliestFailureWinsOnEveryRun() throws {
        let r = try renderer()
        let frames = try r.plan([.all])
        for jobs in [1, 2, 4] {
            for _ in 0..<3 {
                let a = ProbeSink(needs: [.png]); a.failWrite = [31, 45]
                let b = ProbeSink(needs: .inOrder); b.failConsume = [40]
                XCTAssertThrowsError(try FrameStream(renderer: r, frames: frames, jobs: jobs).run([a, b])) { error in
                    XCTAssertEqual(error as? ProbeSink.Failure, ProbeSink.Failure(index: 31, stage: "write"), "jobs \(jobs)")
                }
                XCTAssertEqual(b.consumed.last.map { $0 < 31 }, true, "nothing after the failing frame is consumed")
                XCTAssertFalse(a.finished || b.finished, "a failed stream finishes no sink")

                let c = ProbeSink(needs: [.png]); c.failWrite = [45]
                let d = ProbeSink(needs: .inOrder); d.failConsume = [12]
                XCTAssertThrowsError(try FrameStream(renderer: r, frames: frames, jobs: jobs).run([c, d])) { error in
                    XCTAssertEqual(error as? ProbeSink.Failure, ProbeSink.Failure(index: 12, stage: "consume"), "jobs \(jobs)")
                }
            }
        }
    }

    func testACancelledStreamStopsAndThrows() throws {
        let r = try renderer()
        let cancellation = RenderCancellation()
        let sink = ProbeSink(needs: .inOrder)
        sink.onConsume = { frame in if frame.index == 3 { cancellation.cancel() } }
        let stream = FrameStream(renderer: r, frames: try r.plan([.all]), jobs: 2)
        stream.cancellation = cancellation
        XCTAssertThrowsError(try stream.run([sink])) { XCTAssertTrue($0 is RenderCancelled, "\($0)") }
        XCTAssertLessThan(sink.consumed.count, r.frameCount)
        XCTAssertFalse(sink.finished)
    }

    /// A sink failing in the middle of a render leaves the output directory exactly as the
    /// earlier complete render left it.
    func testASinkFailingMidRenderLeavesTheDirectoryAsBefore() throws {
        let r = try renderer()
        let dir = tempDir()
        var o = RenderOptions(); o.outputDirectory = dir; o.jobs = 2; o.formats = [.png, .gif]; o.contactSheet = true
        _ = try r.render(o)
        let before = try files(dir)
        for (stage, sink) in [("write", { let s = ProbeSink(needs: [.png]); s.failWrite = [20]; return s }()),
                              ("consume", { let s = ProbeSink(needs: .inOrder); s.failConsume = [20]; return s }())] {
            var failing = o
            failing.additionalSinks = [sink]
            XCTAssertThrowsError(try r.render(failing)) { XCTAssertEqual(($0 as? ProbeSink.Failure)?.index, 20, stage) }
            XCTAssertEqual(try files(dir), before, "\(stage): the directory is as the complete render left it")
        }
    }

    /// verify goes through the render's loop: the frames it records are the bytes a render writes.
    func testVerifyRecordsTheBytesARenderWrites() throws {
        let r = try renderer()
        var o = RenderOptions(); o.outputDirectory = tempDir(); o.jobs = 2
        _ = try r.render(o)
        var v = VerifyOptions(baseline: tempDir()); v.record = .all; v.jobs = 3; v.writeReport = false
        let result = try Verifier.verify(renderer: r, subject: "default", options: v)
        XCTAssertEqual(result.frames.count, r.frameCount)
        let rendered = try files(o.outputDirectory).filter { $0.key.hasPrefix("frame_") }
        XCTAssertEqual(try files(v.baseline).filter { $0.key.hasPrefix("frame_") }, rendered)
        // The baseline's manifest is the render's, marked as a baseline's and keeping the scene
        // it was recorded from (what verify names when the scene changes).
        var recorded = try Manifest(json: Array(try Data(contentsOf: URL(fileURLWithPath: v.baseline + "/manifest.json"))))
        XCTAssertTrue(recorded.baseline)
        XCTAssertNotNil(recorded.canonicalScene)
        recorded.baseline = false
        recorded.canonicalScene = nil
        XCTAssertEqual(try recorded.serialized(), try String(contentsOfFile: o.outputDirectory + "/manifest.json", encoding: .utf8))
        XCTAssertEqual(try files(v.baseline).keys.sorted(), [".cartrender-files.sha256"] + rendered.keys.sorted() + ["manifest.json"])
    }
}
