import CartRenderCore
import CartRenderRaster
import Foundation

/// `cartrender diff A B` on two directories of frames: the comparison of `verify`, with A's
/// `frame_NNNN.png` files as the expected frames and B's as the actual ones.
///
/// Frames only in B are `missing` (no expected frame), frames only in A are `extra`, as in
/// `verify` where A is the baseline.
public enum DirectoryDiff {
    /// Compares the `frame_NNNN.png` files of two directories.
    ///
    /// - Parameters:
    ///   - expected: directory A.
    ///   - actual: directory B.
    ///   - options: threshold, anti-aliasing, limits, masks (px).
    ///   - jobs: threads (≥ 1).
    ///   - reportDirectory: where to write a report (nil: none).
    ///   - diffDirectory: where to write `frame_NNNN.diff.png` for every frame that fails (nil: none);
    ///     the report gets the same image under its content's name. Staged like the report
    ///     (``DiffImages``): a failed or interrupted run leaves it as it was.
    ///   - cancellation: stops the comparison between frames and while waiting for a directory's
    ///     lock (SIGINT, SIGTERM); no report and no diff image is written.
    /// - Returns: one result per frame name in either directory, by index.
    /// - Throws: ``InputError`` when a directory is missing or neither holds frames;
    ///   `FileReadError` for a frame that is not a regular file or cannot be read (a FIFO is
    ///   refused, not waited on); ``ImageDecodingError`` for one that cannot be decoded; `OutputError`;
    ///   `RenderCancelled` when `cancellation` was cancelled.
    public static func compare(expected: String, actual: String, options: ComparisonOptions, jobs: Int,
                               reportDirectory: String? = nil, diffDirectory: String? = nil,
                               cancellation: RenderCancellation? = nil) throws -> SnapshotResult {
        try options.validate()
        for dir in [expected, actual] {
            guard let isDirectory = FileSystemPath.isDirectory(dir) else {
                throw InputError(.unreadable, path: dir, reason: "no such directory")
            }
            guard isDirectory else { throw InputError(.invalid, path: dir, reason: "is not a directory") }
            // Frames are compared only whole, and diff changes nothing in what it compares: a
            // commit a killed run left half done is refused, for a writing command to undo.
            try StagingArea.refuseHalfCommitted(dir, reader: "diff")
        }
        let a = Set(Verifier.baselineFrameNames(in: expected))
        let b = Set(Verifier.baselineFrameNames(in: actual))
        let names = a.union(b).sorted { (FrameResult.index(ofFileName: $0)!, $0) < (FrameResult.index(ofFileName: $1)!, $1) }
        guard !names.isEmpty else {
            throw InputError(.invalid, path: expected, reason: "neither \(expected) nor \(actual) holds frame_NNNN.png files")
        }
        let report = try reportDirectory.map { try ReportWriter(path: $0, cancellation: cancellation) }
        let diffs: DiffImages?
        do { diffs = try diffDirectory.map { try DiffImages(path: $0, cancellation: cancellation) } } catch {
            report?.discard()
            throw error
        }
        do {
            let result = try compare(expected: expected, actual: actual, names: names, inExpected: a, inActual: b,
                                     options: options, jobs: jobs, report: report, diffs: diffs, cancellation: cancellation)
            try report?.finish(result)
            try diffs?.finish()
            return result
        } catch {
            report?.discard()
            diffs?.discard()
            throw error
        }
    }

    private static func compare(expected: String, actual: String, names: [String], inExpected a: Set<String>, inActual b: Set<String>,
                                options: ComparisonOptions, jobs: Int, report: ReportWriter?, diffs: DiffImages?,
                                cancellation: RenderCancellation?) throws -> SnapshotResult {
        let keepImages = report != nil || diffs != nil
        let diffing = ImageDiffing.pixelmatch(options)

        let frames = try WorkerPool.map(count: names.count, jobs: jobs, makeWorker: { () }, cancellation: cancellation,
                                         threadsNeeded: "a drawing thread") { _, slot -> FrameResult in
            let started = DispatchTime.now()
            let name = names[slot]
            let stem = String(name.dropLast(4))
            let ePath = (expected as NSString).appendingPathComponent(name)
            let aPath = (actual as NSString).appendingPathComponent(name)
            var frame = FrameResult(name: name, index: FrameResult.index(ofFileName: name), time: nil, status: .pass)
            // A link at a frame's name is not followed: frames are read from inside A and B.
            let eBytes = a.contains(name) ? try RegularFile.readIfPresent(name, inDirectory: expected, limit: PNGDecoder.maxFileBytes) : nil
            let aBytes = b.contains(name) ? try RegularFile.readIfPresent(name, inDirectory: actual, limit: PNGDecoder.maxFileBytes) : nil
            var comparison: FrameComparison?
            switch (eBytes, aBytes) {
            case let (e?, a?):
                let c = try diffing.compare(expected: e, actual: a, keepImages: keepImages, expectedPath: ePath, actualPath: aPath)
                frame.status = c.status
                frame.result = c.result
                frame.byteEqual = c.byteEqual
                frame.expectedSize = c.expectedSize
                frame.actualSize = c.actualSize
                comparison = c
            case let (e?, nil):
                frame.status = .extra
                frame.expectedSize = PNGHeader.size(of: e)
            case let (nil, a?):
                frame.status = .missing
                frame.actualSize = PNGHeader.size(of: a)
            case (nil, nil):
                throw InputError(.unreadable, path: aPath, reason: "disappeared while comparing")
            }
            guard frame.status != .pass else { frame.seconds = FrameResult.seconds(since: started); return frame }
            let artifacts = try comparison.map(diffing.artifacts) ?? []
            if let diffs, let diff = artifacts.first(where: { $0.kind == .diff }) { try diffs.write(diff.bytes, to: stem + diff.suffix) }
            if let report {
                if let eBytes { frame.expectedFile = try report.storeFrame(eBytes) }
                if let aBytes { frame.actualFile = try report.storeFrame(aBytes) }
                for artifact in artifacts { try report.store(artifact, to: &frame) }
            }
            frame.seconds = FrameResult.seconds(since: started)
            return frame
        }
        // Paths as messages show them (bytes that are not UTF-8 as `\xFF`).
        return SnapshotResult(command: .diff, subject: FileSystemPath.display(actual), baseline: FileSystemPath.display(expected),
                              reportDirectory: report.map { FileSystemPath.display($0.directory.path) },
                              record: nil, options: options, fps: nil, frames: frames)
    }
}

/// The diff images of `diff A B --out DIR` (`frame_NNNN.diff.png` of each failing frame): staged
/// in a directory inside `DIR` (`StagingArea`) and moved into place together when the run ends,
/// so a failed or interrupted run leaves `DIR` as it was. A diff image of an earlier run is
/// replaced when this run writes one of the same name, and otherwise left: no listing says which
/// run wrote it.
final class DiffImages: @unchecked Sendable {
    let directory: OutputDirectory
    private let staging: StagingArea
    private let names = LockedValue([String]())

    /// Creates `DIR` when needed and the staging directory inside it.
    /// - Parameter cancellation: stops `finish` while it waits for the directory's lock.
    /// - Throws: `OutputError` when either cannot be created.
    init(path: String, cancellation: RenderCancellation?) throws {
        directory = try OutputDirectory(path: path)
        do { staging = try StagingArea(in: directory, cancellation: cancellation) } catch {
            directory.removeCreatedDirectories()
            throw error
        }
    }

    /// Stages one image. Thread-safe (each name is written by one thread).
    /// - Throws: `OutputError`.
    func write(_ bytes: [UInt8], to name: String) throws {
        try staging.write(bytes, to: name)
        names.withLock { $0.append(name) }
    }

    /// Moves the staged images into `DIR`.
    /// - Throws: `OutputError` (`DIR` is then as it was); `RenderCancelled` when cancelled while
    ///   waiting for the lock.
    func finish() throws { try staging.moveIntoPlace(names.withLock { $0 }.sorted(), removing: []) }

    /// Removes what this run staged, and `DIR` when this run created it.
    func discard() {
        staging.discard()
        directory.removeCreatedDirectories()
    }
}
