import Foundation

/// Where a render keeps its files until every frame is written: a private directory inside the
/// output directory, `DIR/.cartrender-staging-PID-XXXXXX/`, on the same file system as `DIR` so that
/// moving a file into place is a single `rename(2)`.
///
/// What a reader of `DIR` can see (SPEC.md §7):
///
/// - While frames are being drawn, `DIR` is as it was before the run (plus the hidden staging
///   directory). An error, SIGINT or SIGTERM in this phase removes the staging directory and any
///   directory the run created, so `DIR` is exactly as it was before.
/// - `commit` then moves the frames into place. It takes a few milliseconds (renames only) and
///   is never interrupted by SIGINT or SIGTERM: once it has started, the run completes. It first
///   removes `DIR/manifest.json`, so that a directory with a manifest is always a complete and
///   consistent run: if the process is killed (SIGKILL, power loss) or a rename fails halfway,
///   `DIR` has new and old frames side by side but no manifest, which marks it unfinished.
/// - The new `manifest.json` is renamed in last. Files an earlier run listed in its manifest and
///   this run did not write are removed just before; nothing else in `DIR` is ever deleted.
///
/// A directory lock (`flock` on `DIR`) is held during `commit`, so two runs into the same
/// directory commit one after the other, each completely. A staging directory left by a killed
/// run is not removed by later runs (another machine may own it on a shared file system).
final class StagingArea {
    let output: OutputDirectory
    /// `DIR/.cartrender-staging-PID-XXXXXX`.
    let path: String

    /// Creates the staging directory.
    /// - Throws: `OutputError` naming `DIR` when it cannot be created (read-only file system,
    ///   permissions).
    init(in output: OutputDirectory) throws {
        self.output = output
        var template = Array(output.url(".cartrender-staging-\(getpid())-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw OutputError(path: output.path, reason: "cannot write into the output directory (\(OutputDirectory.describe(errno)))")
        }
        path = String(cString: made)
        Self.active.withLock { $0.paths[path] = output }
    }

    /// Staging directories of this process that are still being filled, and how many are being
    /// committed, so that a second SIGINT or SIGTERM can end the process without leaving one
    /// behind (see `removeAbandoned()`).
    private struct Active { var paths: [String: OutputDirectory] = [:]; var committing = 0 }
    private static let active = LockedValue(Active())

    /// Removes every staging directory of this process (and the directories its run created),
    /// for an immediate exit. Returns false and removes nothing while a commit is moving files
    /// into place (that takes milliseconds and must finish) or when no staging directory is
    /// registered (the run is not writing yet, or is already cleaning up).
    static func removeAbandoned() -> Bool {
        active.withLock { a in
            // Nothing staged (not started yet, or already being cleaned up by the first signal's
            // path, which finishes in moments) or a commit under way: let the run end itself.
            guard a.committing == 0, !a.paths.isEmpty else { return false }
            for (p, output) in a.paths {
                // Workers may still be writing a file into it: retry until the directory is gone.
                for _ in 0..<50 where !removeTree(p) { usleep(1_000) }
                output.removeCreatedDirectories()
            }
            a.paths.removeAll()
            return true
        }
    }

    /// Writes `bytes` as `name` in the staging directory.
    /// - Throws: `OutputError` naming `DIR/name` (disk full, file size limit…); nothing of the
    ///   file is left behind.
    func write(_ bytes: [UInt8], to name: String) throws {
        let e = OutputDirectory.writeFile(bytes, to: (path as NSString).appendingPathComponent(name))
        guard e == 0 else { throw OutputError(path: output.url(name), reason: "cannot be written (\(OutputDirectory.describe(e)))") }
    }

    /// Moves the staged `files` into `DIR`, removes the files of the earlier run that this run
    /// did not write, and moves the staged manifest in last (see the type's documentation).
    /// - Parameters:
    ///   - files: names written with `write`, without the manifest.
    ///   - inPlace: names that belong to this run but are already in `DIR` (frames a merge finds
    ///     where shards wrote them); kept, not moved.
    ///   - manifestName: the staged manifest: `manifest.json`, or a shard's `shard-K-of-N.json`.
    ///     `DIR/manifest.json` is taken away first either way: after a shard run `DIR` is not a
    ///     complete render until `cartrender merge`. A shard renames it to
    ///     `.superseded-manifest.json` (`Manifest.supersededFileName`), so the run that completes
    ///     `DIR` again still knows which files the earlier render wrote.
    ///   - removeEarlierRun: remove the files earlier runs listed (in `manifest.json`, the
    ///     superseded manifest or shard manifests) and this one did not write or keep, and those
    ///     manifests (not for shards, which share the directory with other shards).
    /// - Throws: `OutputError` when a target is a directory (before anything in `DIR` changes),
    ///   or when `DIR` cannot be changed.
    func commit(files: [String], inPlace: [String] = [], manifest manifestName: String = "manifest.json", removeEarlierRun: Bool = true) throws {
        try locked(replacing: files + [manifestName]) { try commitLocked(files: files, inPlace: inPlace, manifest: manifestName, removeEarlierRun: removeEarlierRun) }
    }

    private func commitLocked(files: [String], inPlace: [String], manifest manifestName: String, removeEarlierRun: Bool) throws {
        let earlier = Manifest.filesOfEarlierRun(in: output)
        let manifest = "manifest.json", superseded = Manifest.supersededFileName
        if removeEarlierRun {
            if unlink(output.url(manifest)) != 0 && errno != ENOENT { throw failure(manifest, errno) }
        } else if access(output.url(manifest), F_OK) == 0 {
            guard rename(output.url(manifest), output.url(superseded)) == 0 else { throw failure(manifest, errno) }
        }
        for name in files {
            guard rename(url(name), output.url(name)) == 0 else { throw failure(name, errno) }
        }
        if removeEarlierRun {
            let kept = Set(files + inPlace)
            for name in earlier where !kept.contains(name) && name != manifest { output.remove(name) }
            output.remove(superseded)
        }
        guard rename(url(manifestName), output.url(manifestName)) == 0 else { throw failure(manifestName, errno) }
        rmdir(path)
    }

    /// Moves the staged `names` into `DIR` in this order, then removes `removing` from `DIR`,
    /// under the directory lock (for outputs without a manifest, such as reports).
    /// - Throws: `OutputError` when a target is a directory (before anything in `DIR` changes)
    ///   or cannot be replaced.
    func moveIntoPlace(_ names: [String], removing: [String]) throws {
        try locked(replacing: names) {
            for name in names {
                guard rename(url(name), output.url(name)) == 0 else { throw failure(name, errno) }
            }
            for name in removing { output.remove(name) }
            rmdir(path)
        }
    }

    /// Runs `body` as a commit: not interrupted by signals (see `removeAbandoned()`), holding
    /// the lock on `DIR`, after checking that none of `names` is a directory in `DIR`.
    private func locked(replacing names: [String], _ body: () throws -> Void) throws {
        Self.active.withLock { $0.committing += 1 }
        defer { Self.active.withLock { $0.committing -= 1; $0.paths[path] = nil } }
        let dir = open(output.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { throw OutputError(path: output.path, reason: "cannot be written (\(OutputDirectory.describe(errno)))") }
        defer { close(dir) }
        while flock(dir, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(dir, LOCK_UN) }
        for name in names {
            var info = stat()
            if lstat(output.url(name), &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
                throw OutputError(path: output.url(name), reason: "is a directory; cartrender will not replace it")
            }
        }
        try body()
    }

    /// The error for `name` failing with `e`, naming where the file goes (`DIR/name`).
    func failure(_ name: String, _ e: Int32) -> OutputError {
        OutputError(path: output.url(name), reason: "cannot be written (\(OutputDirectory.describe(e)))")
    }

    /// Removes the staging directory and everything in it (all of it written by this run).
    func discard() {
        Self.active.withLock { $0.paths[path] = nil }
        _ = Self.removeTree(path)
    }

    /// Path of `name` in the staging directory.
    func url(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Removes a staging directory: its files (it has no subdirectories), then itself.
    @discardableResult
    static func removeTree(_ path: String) -> Bool {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            unlink((path as NSString).appendingPathComponent(name))
        }
        return rmdir(path) == 0 || errno == ENOENT
    }
}

/// A value behind a lock.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}
