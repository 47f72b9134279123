import CartRender
import CartRenderCore
import Foundation

/// Where `cartrender preview` keeps the frames it serves: a private temporary directory, never
/// beside the scene.
///
/// - The directory is a ``StagingArea`` (mode 0700, locked by its run while it lives) inside
///   `$TMPDIR/cartrender-preview-UID` (`/tmp` without `TMPDIR`), which must be a real directory
///   of the running user with no access for others; it is made so when missing.
/// - It is removed when the preview ends (Ctrl-C, an error). After a SIGKILL it stays, unlocked:
///   the next preview of the same user removes it first, by the rule that removes a dead run's
///   staging directory from an output directory (``StagingArea/recoverInterruptedCommits(in:holding:cancellation:)``).
/// - Frames are named by their variant's position and their bytes' SHA-256
///   (`frame-0123456789abcdef.png`, `dark-0123456789abcdef.png`), so a frame whose pixels did not change keeps its name (and the
///   page does not fetch it again), and a new one never replaces an old one a page still shows.
final class PreviewFrames: @unchecked Sendable {
    /// The staging directory holding the frames.
    private let area: StagingArea
    /// The names written, guarded by `lock`.
    private var names: Set<String> = []
    private let lock = NSLock()

    /// Largest frame served (bytes).
    static let maxFileBytes = 256 << 20

    /// The folder that holds the previews' directories: `$TMPDIR/cartrender-preview-UID`.
    static func parentDirectory(environment: [String: String]) -> String {
        let temp = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return (temp as NSString).appendingPathComponent("cartrender-preview-\(getuid())")
    }

    /// Makes the private directory, after removing those that previews killed before left.
    /// - Throws: `OutputError` (73) naming the parent folder when it cannot be made, is a
    ///   symbolic link or not a directory, is another user's or open to others.
    init(environment: [String: String], cancellation: RenderCancellation?) throws {
        let parent = Self.parentDirectory(environment: environment)
        if mkdir(parent, 0o700) != 0 && errno != EEXIST {
            throw OutputError(path: parent, reason: "cannot be made for the preview's frames (\(OutputDirectory.describe(errno)))")
        }
        var info = stat()
        guard lstat(parent, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw OutputError(path: parent, reason: "is not a private folder of this user (a directory, not a link, mode 0700): the preview keeps its frames only there; remove it or set TMPDIR")
        }
        try StagingArea.recoverInterruptedCommits(in: parent, cancellation: cancellation)
        area = try StagingArea(in: OutputDirectory(path: parent), cancellation: cancellation)
    }

    /// Writes `bytes` as `name` unless a file of that name (same bytes) is already there.
    /// - Throws: `OutputError` (73).
    func write(_ bytes: [UInt8], as name: String, sha256: String) throws {
        guard !lock.withLock({ names.contains(name) }) else { return }
        try area.write(bytes, to: name, sha256: sha256)
        lock.withLock { _ = names.insert(name) }
    }

    /// The bytes of frame `name`; nil when no frame has that name.
    func read(_ name: String) -> [UInt8]? {
        guard lock.withLock({ names.contains(name) }) else { return nil }
        return try? area.staging.read(name, limit: Self.maxFileBytes)
    }

    /// Removes every frame but those named in `kept`.
    func prune(keeping kept: Set<String>) {
        let gone = lock.withLock { () -> Set<String> in
            let gone = names.subtracting(kept)
            names = names.intersection(kept)
            return gone
        }
        gone.forEach(area.removeStaged)
    }

    /// Removes the directory and every frame in it.
    func remove() { area.discard() }
}
