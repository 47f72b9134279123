import CartRenderCore
import CartRenderRaster
import Foundation

/// How an image is snapshot-tested, as one value, like swift-snapshot-testing's `Snapshotting`:
/// when references are recorded (``record``, ``failOnRecord``), how an image is compared with its
/// reference (``diffing``: ``ImageDiffing/pixelmatch(_:compression:)`` with ``tolerance``), and
/// what a failing comparison leaves behind (``artifacts(of:)``: the diff image, and with
/// ``panels`` the image `expected | diff | actual`; ``check(_:reference:artifactsDirectory:name:)``
/// writes the actual image beside them).
///
/// `verify`, ``Snapshots`` and `assertFrames` take it through ``VerifyOptions/strategy`` (their
/// failure images go into the report); the test suite's goldens check single images with
/// ``check(_:reference:artifactsDirectory:name:)``.
///
/// ```swift
/// let strategy = SnapshotStrategy(record: .missing, failOnRecord: true, tolerance: ComparisonOptions(maxDiffPixels: 0), panels: true)
/// let check = try strategy.check(image, reference: "Goldens/cart.png", artifactsDirectory: ".build/failures", name: "cart")
/// if !check.passed { print(check.artifacts) }   // cart.actual.png, cart.diff.png, cart.panel.png
/// ```
public struct SnapshotStrategy: Sendable {
    /// When references are written (``RecordMode``).
    public var record: RecordMode
    /// A check that records a reference fails all the same, so that someone looks at it
    /// (`verify --fail-on-record`; a golden recorded for the first time).
    public var failOnRecord: Bool
    /// Threshold, anti-aliasing, limits and masks (px) of the comparison.
    public var tolerance: ComparisonOptions
    /// Whether a failing comparison of images of one size also leaves `expected | diff | actual`
    /// side by side in one image (``ImageDiffing/panel(_:)``), for outputs that are files alone;
    /// a report's page shows the three images itself.
    public var panels: Bool

    /// A strategy recording under `record`, comparing with `tolerance`.
    public init(record: RecordMode = .missing, failOnRecord: Bool = false, tolerance: ComparisonOptions = ComparisonOptions(),
                panels: Bool = false) {
        self.record = record
        self.failOnRecord = failOnRecord
        self.tolerance = tolerance
        self.panels = panels
    }

    /// A strategy whose record mode is `record` when given, else the environment's
    /// (``RecordMode/resolve(_:environment:)``: `CARTRENDER_RECORD`, then `CI`).
    /// - Throws: `UsageError` when `CARTRENDER_RECORD` is not a mode name.
    public static func resolving(record: RecordMode?, tolerance: ComparisonOptions = ComparisonOptions(),
                                 environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SnapshotStrategy {
        SnapshotStrategy(record: try RecordMode.resolve(record, environment: environment), tolerance: tolerance)
    }

    /// The comparison: PNG files, pixelmatch with ``tolerance``, a palette diff image.
    public var diffing: ImageDiffing { .pixelmatch(tolerance) }

    /// The images a comparison that did not pass leaves: ``ImageDiffing/artifacts`` (the diff
    /// image), then with ``panels`` the panel `expected | diff | actual` (suffix `.panel.png`);
    /// none for one that passed, kept no images, or compared images of different sizes.
    /// - Throws: what encoding a PNG throws.
    public func artifacts(of comparison: FrameComparison) throws -> [ImageDiffing.Artifact] {
        var artifacts = try diffing.artifacts(comparison)
        if panels, comparison.status != .pass, let images = comparison.images, let diff = images.diff {
            artifacts.append(ImageDiffing.Artifact(kind: .panel, bytes: try diffing.toData(ImageDiffing.panel(images.expected, diff, images.actual))))
        }
        return artifacts
    }

    /// What ``check(_:reference:artifactsDirectory:name:)`` found.
    public struct Check: Sendable {
        /// Whether the check passes: the image matched, or was recorded without ``failOnRecord``.
        public var passed: Bool
        /// Whether the reference was (re)written with the image.
        public var recorded: Bool
        /// The comparison, when one was made (nil for a recording under `all` or of a missing reference).
        public var comparison: FrameComparison?
        /// The files written into the artifacts directory, by kind (`actual`, `diff`, `panel`).
        public var artifacts: [String: String]
    }

    /// Checks `image` against the reference PNG at `reference`: records it there when the record
    /// mode says so (`all`; `missing` and `failed` when the file is absent; `failed` when the
    /// comparison fails), else compares; a failure writes `NAME.actual.png` and the
    /// ``artifacts(of:)`` (`NAME.diff.png`, `NAME.panel.png`) into `artifactsDirectory`.
    ///
    /// Files are written as every output of cartrender is (docs/bad-input.md, “Writing into a
    /// directory”): the reference as a file the caller named (``NamedFiles``: staged, then moved
    /// over a regular file; a symbolic link, a directory or a FIFO at `reference` is refused, never
    /// followed), the artifacts through the directory's staging area (``StagingArea``): a file at
    /// one of their names that cartrender did not write there, a link included, is neither
    /// replaced nor followed, and nothing in `artifactsDirectory` changes.
    /// - Throws: `FileReadError` for a reference that is not a regular file or is over
    ///   ``PNGDecoder/maxFileBytes``; ``ImageDecodingError`` for one that is no PNG; ``DiffError``
    ///   for a tolerance out of range; ``OutputError`` (exit 73) when a file cannot be written or
    ///   is at a name cartrender may not replace.
    public func check(_ image: RGBAImage, reference: String, artifactsDirectory: String, name: String) throws -> Check {
        // The one file reader (a FIFO or an oversized file is refused, not waited on or loaded).
        let existing = try RegularFile.readIfPresent(reference, limit: PNGDecoder.maxFileBytes)
        let exists = existing != nil
        func recordIt(_ comparison: FrameComparison?) throws -> Check {
            let named = try NamedFiles([reference], inputs: [])
            do {
                try named.stage(try PNGEncoder.encode(image, compression: .small), as: reference, cancellation: nil)
                _ = try named.commit(cancellation: nil)
            } catch {
                named.discard()
                throw error
            }
            return Check(passed: !failOnRecord, recorded: true, comparison: comparison, artifacts: [:])
        }
        if record == .all || (!exists && record.records(.missing)) { return try recordIt(nil) }
        guard let existing else {
            return Check(passed: false, recorded: false, comparison: nil, artifacts: try writeArtifacts(image, nil, artifactsDirectory, name))
        }
        let expected = try diffing.fromData(existing, reference)
        let comparison = try diffing.compare(expected, image, keepImages: true)
        if comparison.status == .pass { return Check(passed: true, recorded: false, comparison: comparison, artifacts: [:]) }
        if record.records(comparison.status) { return try recordIt(comparison) }
        return Check(passed: false, recorded: false, comparison: comparison,
                     artifacts: try writeArtifacts(image, comparison, artifactsDirectory, name))
    }

    /// Writes the actual image and the artifacts of `comparison` as `NAME.actual.png`,
    /// `NAME.diff.png`, `NAME.panel.png` into `directory` (created when missing), as one commit
    /// of its staging area (``StagingArea/writeFiles(_:into:)``).
    /// - Throws: ``OutputError`` (73) when a file at one of the names is not cartrender's (a
    ///   link, another program's file) or the directory cannot be written; it is then as it was.
    private func writeArtifacts(_ image: RGBAImage, _ comparison: FrameComparison?, _ directory: String, _ name: String) throws -> [String: String] {
        let artifacts = [ImageDiffing.Artifact(kind: .actual, bytes: try diffing.toData(image))] + (try comparison.map(artifacts(of:)) ?? [])
        let output = try OutputDirectory(path: directory)
        do {
            try StagingArea.writeFiles(artifacts.map { (name + $0.suffix, $0.bytes) }, into: output)
        } catch {
            output.removeCreatedDirectories()
            throw error
        }
        return Dictionary(artifacts.map { ($0.kind.rawValue, output.url(name + $0.suffix)) }, uniquingKeysWith: { a, _ in a })
    }
}

extension VerifyOptions {
    /// The record mode, `--fail-on-record` and tolerance of the run as one ``SnapshotStrategy``
    /// (``masks`` in points stay apart: they need the scene's scale).
    public var strategy: SnapshotStrategy {
        get { SnapshotStrategy(record: record, failOnRecord: failOnRecord, tolerance: tolerance) }
        set {
            record = newValue.record
            failOnRecord = newValue.failOnRecord
            tolerance = newValue.tolerance
        }
    }
}
