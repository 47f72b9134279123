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
/// - Every accept is followed by a run like the first, which rewrites the report.
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
        let again = try command.verify(renderer: renderer, baseline: baseline, reportDirectory: reportDirectory,
                                       environment: environment, interrupts: interrupts)
        result = again
        printResult(again, json: false)
        fflush(nil)
        return names
    }
}

/// An accept the review does not do: a frame that does not fail, or nothing failing (HTTP 409).
struct ReviewRefusal: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
