import CartRender
import CartRenderCore
import Foundation

/// The verify runs of one `cartrender review`, all through `verify`'s own code path
/// (``VerifyCommand``, ``Verifier``, the report writer), with one renderer for the whole session:
/// what is accepted is exactly what the page showed.
///
/// - The first run is `verify` with the review's options; it writes the report that is served.
/// - Accepting a frame is `verify --record failed --frames N-N` without a report; accepting all
///   is `verify --record failed` over the review's frames (removing extra baseline frames when
///   they are all checked). So the baseline frames, and the baseline's manifests, are rewritten
///   by ``BaselineDirectory`` exactly as `verify --record failed` rewrites them: staged, moved
///   into place together under the directory's lock.
/// - Accepting all is followed by a run like the first, which rewrites the report. Accepting
///   one frame re-verifies only that frame (the recording run just compared it): the others'
///   baselines did not change, so their results stand, and the report's files are rewritten
///   from the merged result with the accepted frame's expected and diff images removed unless
///   another frame shows them (its actual image stays, as the frame's picture) and without the
///   motion diff, which showed it failing. When it was the last failure, the run
///   like the first follows instead: it passes on equal bytes, and rewrites the manifest's
///   events with the rest.
///
/// Used from one thread (the server's).
final class ReviewSession {
    let command: VerifyCommand
    let renderer: Renderer
    let baseline: String
    /// Where the report is written (and served from).
    let reportDirectory: String
    private let environment: [String: String]
    private let interrupts: InterruptWatcher
    /// The result of the last verify run, which the report on disk shows.
    private(set) var result: SnapshotResult

    /// Runs the first verify.
    /// - Throws: what `verify` throws (``RenderCancelled`` when interrupted).
    init(command: VerifyCommand, renderer: Renderer, baseline: String, reportDirectory: String?,
          environment: [String: String], interrupts: InterruptWatcher) throws {
        self.command = command
        self.renderer = renderer
        self.baseline = baseline
        self.reportDirectory = reportDirectory ?? VerifyOptions.defaultReportDirectory(forBaseline: baseline)
        self.environment = environment
        self.interrupts = interrupts
        result = try command.verify(renderer: renderer, baseline: baseline, reportDirectory: self.reportDirectory,
                                    environment: environment, interrupts: interrupts)
    }

    /// The failing frames the page may accept one by one: every failure but extra frames (which
    /// only Accept all removes, as `--record failed` does over the whole timeline).
    var acceptable: [FrameResult] { result.failures.filter { $0.status != .extra && $0.index != nil } }

    /// Accepts the frame named `name` (nil: every failing frame), then verifies again.
    /// - Returns: the baseline frames rewritten or removed.
    /// - Throws: ``ReviewRefusal`` when `name` is not a frame ``acceptable`` lists, or nothing
    ///   fails; what `verify` throws (a baseline whose manifests describe another render: exit 73;
    ///   ``RenderCancelled`` when a run was interrupted: the baseline and the report are each as
    ///   a complete run left them).
    func accept(_ name: String?) throws -> [String] {
        var recording = command
        recording.record = .failed
        if let name {
            guard let frame = acceptable.first(where: { $0.name == name }), let index = frame.index else {
                throw ReviewRefusal("\(name) is not a failing frame of this review (passed, accepted or not verified)")
            }
            recording.options.frames = [.range(index, index)]
        } else {
            guard !result.failures.isEmpty else { throw ReviewRefusal("nothing to accept: every frame passes") }
        }
        let recorded = try recording.verify(renderer: renderer, baseline: baseline, reportDirectory: nil, writeReport: false,
                                            environment: environment, interrupts: interrupts)
        let names = recorded.frames.filter(\.recorded).map(\.name)
        print("cartrender review: accepted \(names.isEmpty ? "nothing" : names.joined(separator: ", ")) into \(FileSystemPath.display(baseline))")
        if let name, names == [name], let merged = merging(accepted: name, from: recorded), !merged.failures.isEmpty {
            try ReportWriter.rewriteFiles(of: merged, in: reportDirectory, replacing: result)
            result = merged
            printResult(merged, json: false)
            fflush(nil)
            return names
        }
        let again = try command.verify(renderer: renderer, baseline: baseline, reportDirectory: reportDirectory,
                                       environment: environment, interrupts: interrupts)
        result = again
        printResult(again, json: false)
        fflush(nil)
        return names
    }
}

extension ReviewSession {
    /// The last result with frame `name` as it now is: its baseline is the frame just recorded,
    /// so its bytes, pixels and state match; nil when the recording run did not see it. The
    /// motion diff is dropped: it showed the accepted frame failing (its segment runs from the
    /// first failure to the last), and drawing it again would need every frame of the segment.
    func merging(accepted name: String, from recording: SnapshotResult) -> SnapshotResult? {
        guard let k = result.frames.firstIndex(where: { $0.name == name }),
              let fresh = recording.frames.first(where: { $0.name == name && $0.recorded }) else { return nil }
        var frame = fresh
        frame.status = .pass
        frame.recorded = false
        frame.byteEqual = true
        frame.undecodable = nil
        let pixels = (fresh.actualSize ?? fresh.expectedSize).map { $0.pixelCount } ?? 0
        frame.result = DiffResult(differingPixels: 0, antialiasedPixels: 0, totalPixels: pixels)
        frame.stateChanges = fresh.stateChanges.map { _ in [] }
        frame.expectedFile = nil
        frame.diffFile = nil
        frame.actualFile = result.frames[k].actualFile
        frame.thumbnailFile = nil
        var merged = result
        merged.frames[k] = frame
        merged.motionDiff = nil
        return merged
    }
}

/// An accept the review does not do: a frame that does not fail, or nothing failing (HTTP 409).
struct ReviewRefusal: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
