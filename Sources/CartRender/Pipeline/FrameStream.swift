import CartRenderCore
import CartRenderRaster
import Foundation

/// A frame to make: its index (the file name) and the time it shows (s).
public struct PlannedFrame: Equatable, Sendable {
    /// The frame index (its file is `frame_NNNN` with that number).
    public var index: Int
    /// Seconds since the start of the timeline.
    public var time: Double
    /// Frame `index`, showing `time` seconds.
    public init(index: Int, time: Double) { self.index = index; self.time = time }
}

/// The one frame loop of render, verify and the library's `Snapshots`: makes the planned frames
/// on a pool of workers and streams them, in frame order, into sinks.
///
/// Data flow, per run of consecutive frames with equal display lists (drawn once):
///
/// ```
/// workers (any order, `jobs` threads)          delivery (calling thread)     sink threads
/// layout → draw → PNG/SVG → sink.write(frame) → in frame order, bounded  →  sink.consume(frame)
/// ```
///
/// The pool's lock guards only its bookkeeping; sinks never run under it. Each sink with
/// ``FrameNeeds/inOrder`` has its own thread and a bounded queue, so an animation encoder runs
/// beside the drawing and a slow one holds the workers back by at most a few runs: memory stays
/// bounded by the number of workers, not the number of frames. After the last frame every sink
/// finishes, in order.
///
/// Bytes do not depend on `jobs`, on thread timing or on which runs share a worker: frames are a
/// pure function of (scene, time), and the stripe cache of the PNG encoder only reuses equal bytes.
public final class FrameStream {
    /// The scene's renderer, whose workers draw the frames.
    public let renderer: Renderer
    /// The frames to make, in index order.
    public let frames: [PlannedFrame]
    /// Worker threads (≥ 1).
    public var jobs: Int
    /// PNG settings for ``FrameNeeds/png``.
    public var pngCompression: PNGEncoder.Compression = .default
    /// Stops the stream between runs (SIGINT, SIGTERM).
    public var cancellation: RenderCancellation?
    /// Called with (frames delivered, frames total) after each run, on the calling thread.
    public var progress: ((Int, Int) -> Void)?
    /// Runs drawn (each once) by the last ``run(_:)``.
    public private(set) var runsDrawn = 0
    /// Whether workers redraw only what changed between the frames they draw (default), or
    /// every frame in full; the bytes are the same (see ``FrameRasterizer/withPixels(of:scale:_:)``).
    /// SPI: the tests and `cartrender-bench` set it through `CartRenderTestSupport`.
    @_spi(DamageTracking) public var tracksDamage = true

    /// - Parameters:
    ///   - frames: in increasing index order (see ``Renderer/plan(_:exactTimes:)``).
    ///   - jobs: worker threads; clamped to at least 1.
    public init(renderer: Renderer, frames: [PlannedFrame], jobs: Int) {
        self.renderer = renderer
        self.frames = frames
        self.jobs = max(1, jobs)
    }

    /// Most frames in one run: a longer hold is split, so that what a run holds while it waits
    /// for its turn (its frames' states) stays bounded. With the stripe cache each part costs
    /// little more than a comparison.
    static let maxRunLength = 256

    /// Streams every frame into `sinks` and finishes them.
    /// - Returns: each sink's output, in sink order.
    /// - Throws: the error of the earliest frame that failed (in drawing, or in a sink; for the
    ///   same frame, the first sink), `RasterError` from setting up a worker, or
    ///   `RenderCancelled` when `cancellation` was cancelled.
    @discardableResult
    public func run(_ sinks: [any FrameSink]) throws -> [SinkOutput] {
        let needs = sinks.reduce(FrameNeeds()) { $0.union($1.needs) }
        let ordered = sinks.filter { $0.needs.contains(.inOrder) }
        let orderedNeeds = ordered.reduce(FrameNeeds()) { $0.union($1.needs) }
        let runs = try plannedRuns()
        runsDrawn = runs.count
        let stripes = PNGStripeCache()
        let stages = ordered.map { SinkStage(sink: $0, capacity: jobs + 1, cancellation: cancellation) }
        let renderer = renderer, compression = pngCompression
        var delivered = 0
        var streamError: Error?
        do {
            try WorkerPool.stream(
                count: runs.count, jobs: jobs,
                makeWorker: { [tracksDamage] in
                    let worker = try renderer.makeWorker()
                    worker.tracksDamage = tracksDamage
                    return worker
                },
                cancellation: cancellation,
                threadsNeeded: "a drawing thread",
                body: { worker, slot in
                    // The frame before the run, when it is the frame just before in the timeline.
                    let before = slot > 0 && runs[slot - 1].last!.index + 1 == runs[slot][0].index ? runs[slot - 1].last : nil
                    return try Self.make(runs[slot], before: before, worker: worker, needs: needs, orderedNeeds: orderedNeeds,
                                         sinks: sinks, compression: compression, stripes: stripes, cancellation: self.cancellation)
                },
                deliver: { _, batch in
                    for stage in stages where !stage.push(batch) { throw StageFailed() }
                    delivered += batch.count
                    progress?(delivered, frames.count)
                })
        } catch is StageFailed {
        } catch {
            streamError = error
        }
        stages.forEach { $0.close() }
        stages.forEach { $0.join() }
        // The earliest failing frame wins; a sink saw only frames before any drawing failure.
        if let failed = stages.compactMap(\.failure).min(by: { $0.index < $1.index }) { throw failed.error }
        if let streamError { throw streamError }
        if cancellation?.isCancelled == true { throw RenderCancelled() }
        var outputs: [SinkOutput] = []
        var earlier: [Manifest.File] = []
        for sink in sinks {
            let output = try sink.finish(earlier: earlier)
            earlier += output.files
            outputs.append(output)
        }
        return outputs
    }

    /// Groups consecutive frames whose display lists are equal, so each group is drawn once.
    func plannedRuns() throws -> [[PlannedFrame]] {
        let planner = try renderer.makeWorker()
        var runs: [[PlannedFrame]] = []
        var last: DisplayList?
        var lastIndex = Int.min
        for f in frames {
            let display = planner.frame(at: f.time).display
            if f.index == lastIndex + 1, display == last, runs[runs.count - 1].count < Self.maxRunLength {
                runs[runs.count - 1].append(f)
            } else {
                runs.append([f])
            }
            last = display
            lastIndex = f.index
        }
        return runs
    }

    /// Makes one run on a worker: lays it out, draws and encodes it once, and passes every frame
    /// through the sinks' first stage while the canvas is at hand.
    /// - Parameters:
    ///   - before: the frame just before the run's first in the timeline, if planned.
    ///   - cancellation: checked before each frame of the run: a long run of equal frames (a
    ///     settled end at 240 fps) stops between frames, as the pool stops between runs.
    /// - Throws: `RenderCancelled` when cancelled; what the sinks and the drawing throw.
    private static func make(_ run: [PlannedFrame], before: PlannedFrame?, worker: FrameWorker, needs: FrameNeeds,
                             orderedNeeds: FrameNeeds, sinks: [any FrameSink], compression: PNGEncoder.Compression,
                             stripes: PNGStripeCache, cancellation: RenderCancellation?) throws -> [RenderedFrame] {
        let first = worker.frame(at: run[0].time)
        let content = RunContent()
        if needs.contains(.svg) { content.svg = EncodedFrame(try worker.svg(first.display)) }
        // Sinks that take the pixels (the animation encoders) compare or convert them only in
        // these rows. (Laying the frame before out again is cheap; the plan keeps no display
        // lists, so that memory stays flat in the frame count.)
        let changed = orderedNeeds.contains(.pixels) || needs.contains(.changedRows) ? before.flatMap { worker.changedRows(from: worker.frame(at: $0.time).display, to: first.display) } : nil
        let frames = run.enumerated().map { i, f in
            // Equal display lists can still differ in state (e.g. time); state is per frame.
            RenderedFrame(index: f.index, time: f.time, display: first.display,
                          state: i == 0 ? first.state : worker.frame(at: f.time).state,
                          repeatsPrevious: i > 0, changedRows: i == 0 ? changed : [], content: content)
        }
        func firstStage() throws {
            for frame in frames {
                if cancellation?.isCancelled == true { throw RenderCancelled() }
                for sink in sinks { frame.files += try sink.write(frame) }
            }
        }
        if needs.draws {
            try worker.withPixels(first.display) { rows, damage in
                if needs.contains(.png) {
                    content.png = EncodedFrame(try PNGEncoder.encode(rows, compression: compression, reusing: stripes,
                                                                     canvas: worker.pngStripes, damage: damage))
                }
                try content.inFirstStage(on: worker, firstStage)
                if orderedNeeds.contains(.pixels) { content.keepChangedPixels(of: rows, changedRows: changed) }
            }
        } else {
            try firstStage()
        }
        content.drop(png: !orderedNeeds.contains(.png), svg: !orderedNeeds.contains(.svg))
        return frames
    }
}

/// Thrown into the pool by the delivery when a sink stage has failed; the stage's own error is
/// what the stream throws.
private struct StageFailed: Error {}

/// The in-order stage of one sink: a thread of its own consuming runs from a bounded queue.
private final class SinkStage: @unchecked Sendable {
    let sink: any FrameSink
    private let capacity: Int
    private let cancellation: RenderCancellation?
    private let condition = NSCondition()
    private var queue: [[RenderedFrame]] = []
    private var closed = false
    private var done = false
    private var failed: (index: Int, error: Error)?

    init(sink: any FrameSink, capacity: Int, cancellation: RenderCancellation?) {
        self.sink = sink
        self.capacity = max(1, capacity)
        self.cancellation = cancellation
        if !WorkerThread.start({ [self] in self.main() }) {
            // No thread for this sink (a memory or thread limit): the stream fails with a sentence.
            failed = (-1, OutOfMemoryError(what: "the thread of an output", neededBytes: WorkerThread.stackBytes,
                                           limitBytes: MemoryBudget.addressSpaceLimit ?? 0))
            done = true
        }
    }

    /// The earliest frame this sink failed on, and its error.
    var failure: (index: Int, error: Error)? { condition.withLock { failed } }

    /// Queues a run, waiting while the queue is full. Returns false once the sink has failed.
    func push(_ batch: [RenderedFrame]) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while queue.count >= capacity && failed == nil && cancellation?.isCancelled != true {
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        guard failed == nil else { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }

    /// No more runs come.
    func close() { condition.withLock { closed = true; condition.broadcast() } }

    /// Waits until the queue is drained (or the sink failed, or the stream was cancelled).
    func join() {
        condition.withLock { while !done { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05)) } }
    }

    private func main() {
        while true {
            condition.lock()
            while queue.isEmpty && !closed { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05)) }
            if queue.isEmpty {
                done = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = queue.removeFirst()
            let skip = failed != nil || cancellation?.isCancelled == true
            condition.broadcast()
            condition.unlock()
            guard !skip else { continue }
            for frame in batch {
                do { try sink.consume(frame) } catch {
                    condition.withLock { failed = (frame.index, error); condition.broadcast() }
                    break
                }
            }
        }
    }
}
