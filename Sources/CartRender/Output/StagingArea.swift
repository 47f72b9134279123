import CartRenderCore
import Foundation

/// Where a render keeps its files until every frame is written: a private directory inside the
/// output directory, `DIR/.cartrender-staging-PID-XXXXXX/`, on the same file system as `DIR` so that
/// moving a file into place is a single `rename(2)`. It holds a `.host` file with the name of the
/// machine, so that a later run can tell a staging directory of a dead process of its own machine.
///
/// What a reader of `DIR` can see (SPEC.md §7):
///
/// - While frames are being drawn, `DIR` is as it was before the run (plus the hidden staging
///   directory). An error, SIGINT or SIGTERM in this phase removes the staging directory and any
///   directory the run created, so `DIR` is exactly as it was before.
/// - `commit` takes the directory lock (`flock` on `DIR`, `DirectoryLock`), waiting for another
///   run's commit (or a `verify` reading `DIR`) to end; the wait stops when the run's
///   `RenderCancellation` is cancelled (SIGINT, SIGTERM), and the run then ends as in the first
///   phase. With the lock, it moves the frames into place as
///   one step seen from outside: it first sets `DIR/manifest.json` aside (into the staging
///   directory), so that a directory with a manifest is always a complete and consistent run,
///   then the files of the earlier run that this run does not write (listed by the earlier
///   manifests), then moves each new file in, setting aside the file it replaces. The new
///   `manifest.json` is renamed in last. Nothing else in `DIR` is ever deleted.
/// - When any of these renames fails (a file owned by another user in a sticky directory, an
///   immutable file, a full directory), everything already moved is moved back, the earlier
///   manifest included: `DIR` is the earlier complete run again, byte for byte, and the error
///   (exit 73) names the file. An earlier run's file that cannot be removed is such a failure.
/// - Moving takes milliseconds and is not interrupted by SIGINT or SIGTERM: once the lock is
///   held, the run completes. If the process is killed meanwhile (SIGKILL, power loss), `DIR`
///   has no manifest, which marks it unfinished, and the staging directory keeps what was set
///   aside. The next commit into `DIR` on the same machine finds that staging directory (its
///   process is gone and its `.host` names this machine), puts the set-aside files and the
///   earlier manifest back, removes the files the dead run had moved in, says so in one line on
///   stderr, and then commits as usual. Staging directories of other machines (a shared file
///   system) or of live processes are left alone.
final class StagingArea {
    let output: OutputDirectory
    /// `DIR/.cartrender-staging-PID-XXXXXX`.
    let path: String
    /// Stops a wait for the directory lock.
    let cancellation: RenderCancellation?
    /// Set when moving back failed: the staging directory holds the only copies of earlier
    /// files and is not removed.
    private var keep = false

    /// Prefix, in the staging directory, of a file of `DIR` set aside while moving into place.
    static let asidePrefix = ".aside."
    static let namePrefix = ".cartrender-staging-"
    static let hostFileName = ".host"

    /// Creates the staging directory.
    /// - Parameter cancellation: stops `commit` and `moveIntoPlace` while they wait for the
    ///   directory lock.
    /// - Throws: `OutputError` naming `DIR` when it cannot be created (read-only file system,
    ///   permissions).
    init(in output: OutputDirectory, cancellation: RenderCancellation? = nil) throws {
        self.output = output
        self.cancellation = cancellation
        guard let made = FileSystemPath.makeTemporaryDirectory(output.url("\(Self.namePrefix)\(getpid())-XXXXXX")) else {
            throw OutputError(path: output.path, reason: "cannot write into the output directory (\(OutputDirectory.describe(errno)))")
        }
        path = made
        Self.active.withLock { $0.paths[path] = output }
        let e = OutputDirectory.writeFile(Array(Self.hostName.utf8), to: url(Self.hostFileName))
        guard e == 0 else {
            discard()
            throw OutputError(path: output.path, reason: "cannot write into the output directory (\(OutputDirectory.describe(e)))")
        }
    }

    /// This machine's name (`gethostname`).
    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        return String(cString: buffer)
    }()

    /// Staging directories of this process that are still being filled, and how many are being
    /// committed, so that a second SIGINT or SIGTERM can end the process without leaving one
    /// behind (see `removeAbandoned()`).
    private struct Active { var paths: [String: OutputDirectory] = [:]; var committing = 0 }
    private static let active = LockedValue(Active())

    /// Removes every staging directory of this process (and the directories its run created),
    /// for an immediate exit. Returns false and removes nothing while a commit is moving files
    /// into place (that takes milliseconds and must finish).
    static func removeAbandoned() -> Bool {
        active.withLock { a in
            guard a.committing == 0 else { return false }
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
    /// - Throws: `RenderCancelled` when cancelled while waiting for the lock (nothing in `DIR`
    ///   changed); `OutputError` when a target is a directory (before anything in `DIR`
    ///   changes), or when a file cannot be moved or removed (everything is moved back first).
    func commit(files: [String], inPlace: [String] = [], manifest manifestName: String = "manifest.json", removeEarlierRun: Bool = true) throws {
        try locked(replacing: files + [manifestName]) {
            let earlier = Manifest.filesOfEarlierRun(in: output)
            let manifest = "manifest.json", superseded = Manifest.supersededFileName
            try transaction { move in
                if removeEarlierRun {
                    try move.setAside(manifest)
                    let kept = Set(files + inPlace + [manifest])
                    var seen = Set<String>()
                    for name in earlier where !kept.contains(name) && seen.insert(name).inserted { try move.setAside(name) }
                    try move.setAside(superseded)
                } else {
                    try move.supersede(manifest, as: superseded)
                }
                for name in files { try move.moveIn(name) }
                try move.moveIn(manifestName)
            }
        }
    }

    /// Moves the staged `names` into `DIR` in this order and removes `removing` from `DIR`, as
    /// one step (everything is moved back when a rename fails), under the directory lock (for
    /// outputs that are not a render, such as reports and the frames `verify` records).
    /// - Parameters:
    ///   - manifests: staged files that describe the others (`manifest.json`, shard
    ///     manifests): the files they replace are set aside before anything else moves, and they
    ///     are moved in last, so that a directory with a manifest is always consistent.
    ///   - lock: the exclusive lock on `DIR` when the caller holds it already (`verify` holds its
    ///     baseline's for the whole run); nil to take it here.
    /// - Throws: as `commit`.
    func moveIntoPlace(_ names: [String], removing: [String], manifests: [String] = [], holding lock: DirectoryLock? = nil) throws {
        try locked(replacing: names + manifests, holding: lock) {
            try transaction { move in
                for name in manifests { try move.setAside(name, for: "replaced") }
                for name in Set(removing).subtracting(names + manifests).sorted() { try move.setAside(name) }
                for name in names { try move.moveIn(name) }
                for name in manifests { try move.moveIn(name) }
            }
        }
    }

    /// The renames of one commit, and how to undo them.
    struct Move {
        let staging: StagingArea
        fileprivate(set) var done: [Step] = []
        enum Step { case setAside(String), movedIn(String), superseded(String, String) }

        /// Moves `DIR/name`, when it exists, into the staging directory; `what` says what that
        /// is for in an error ("removed", "replaced").
        mutating func setAside(_ name: String, for what: String = "removed") throws {
            let out = staging.output
            // A directory was never written by a run: it stays (targets were checked before).
            var info = stat()
            if FileSystemPath.lstat(out.url(name), &info) == 0 && info.st_mode & S_IFMT == S_IFDIR { return }
            guard FileSystemPath.rename(out.url(name), staging.url(StagingArea.asidePrefix + name)) == 0 else {
                if errno == ENOENT { return }
                throw OutputError(path: out.url(name), reason: "cannot be \(what) (\(OutputDirectory.describe(errno)))")
            }
            done.append(.setAside(name))
        }

        /// Renames `DIR/name`, when it exists, to `DIR/newName`.
        mutating func supersede(_ name: String, as newName: String) throws {
            let out = staging.output
            guard FileSystemPath.rename(out.url(name), out.url(newName)) == 0 else {
                if errno == ENOENT { return }
                throw staging.failure(name, errno)
            }
            done.append(.superseded(name, newName))
        }

        /// Sets aside the file `name` replaces, then moves the staged `name` into `DIR`.
        mutating func moveIn(_ name: String) throws {
            try setAside(name, for: "replaced")
            guard FileSystemPath.rename(staging.url(name), staging.output.url(name)) == 0 else { throw staging.failure(name, errno) }
            done.append(.movedIn(name))
        }

        /// Undoes every step, last first; returns the names that could not be put back.
        func undo() -> [String] {
            let out = staging.output
            var failed: [String] = []
            for step in done.reversed() {
                switch step {
                case .movedIn(let n): if FileSystemPath.rename(out.url(n), staging.url(n)) != 0 { failed.append(n) }
                case .setAside(let n): if FileSystemPath.rename(staging.url(StagingArea.asidePrefix + n), out.url(n)) != 0 { failed.append(n) }
                case .superseded(let n, let newName): if FileSystemPath.rename(out.url(newName), out.url(n)) != 0 { failed.append(n) }
                }
            }
            return failed
        }
    }

    /// Runs the renames of `body`; when one fails, undoes those done and rethrows, saying in the
    /// error that `DIR` is as it was (or which files could not be put back). On success the
    /// set-aside files go with the staging directory.
    private func transaction(_ body: (inout Move) throws -> Void) throws {
        var move = Move(staging: self)
        do {
            try body(&move)
        } catch var error as OutputError {
            let failed = move.undo()
            if failed.isEmpty {
                error.reason += "; \(output.path) is as it was before"
            } else {
                keep = true
                error.reason += "; \(failed.count) file\(failed.count == 1 ? "" : "s") of \(output.path) could not be put back and stay in \(path)"
            }
            throw error
        }
        Self.removeTree(path)
    }

    /// Runs `body` as a commit, holding the lock on `DIR` (`held`, or one taken here), after
    /// putting back what a dead run left half moved and checking that none of `names` is a
    /// directory in `DIR`. Waiting for the lock ends with `RenderCancelled` when `cancellation`
    /// is cancelled; once the lock is held, the commit is not interrupted by signals (see
    /// `removeAbandoned()`).
    private func locked(replacing names: [String], holding held: DirectoryLock? = nil, _ body: () throws -> Void) throws {
        precondition(held.map { $0.mode == .exclusive } ?? true, "a commit needs the exclusive lock")
        let lock = try held ?? DirectoryLock(output.path, .exclusive, cancellation: cancellation) { e in
            OutputError(path: output.path, reason: "cannot be written (\(OutputDirectory.describe(e)))")
        }
        defer { if held == nil { lock.release() } }
        let started = Self.active.withLock { a -> Bool in
            if cancellation?.isCancelled == true { return false }
            a.committing += 1
            return true
        }
        guard started else { throw RenderCancelled() }
        defer { Self.active.withLock { $0.committing -= 1; $0.paths[path] = nil } }
        recoverInterruptedMoves()
        for name in names {
            var info = stat()
            if FileSystemPath.lstat(output.url(name), &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
                throw OutputError(path: output.url(name), reason: "is a directory; cartrender will not replace it")
            }
        }
        try body()
    }

    /// Puts back what runs on this machine that died while moving into `DIR` left: for each
    /// staging directory of a dead process with this machine's `.host`, the files it set aside
    /// return to `DIR` (the earlier manifest last) and the files it had moved in and that no
    /// earlier file replaces are removed; then the staging directory is removed. When the dead
    /// run had moved its manifest in (it completed), only its staging directory is removed.
    /// Says what it did in one line on stderr. Called with the lock held.
    private func recoverInterruptedMoves() {
        let names = FileSystemPath.contentsOfDirectory(output.path) ?? []
        for name in names.sorted() where name.hasPrefix(Self.namePrefix) && output.url(name) != path {
            let dead = output.url(name)
            let pidText = name.dropFirst(Self.namePrefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(pidText), pid > 0, kill(pid, 0) != 0 && errno == ESRCH,
                  let host = try? RegularFile.read((dead as NSString).appendingPathComponent(Self.hostFileName), limit: 1 << 10),
                  String(decoding: host, as: UTF8.self) == Self.hostName else { continue }
            let contents = Set(FileSystemPath.contentsOfDirectory(dead) ?? [])
            let aside = contents.filter { $0.hasPrefix(Self.asidePrefix) }.map { String($0.dropFirst(Self.asidePrefix.count)) }
            func inStaging(_ n: String) -> String { (dead as NSString).appendingPathComponent(n) }
            // The dead run's own manifest, still staged: its moved-in files are in `DIR`.
            let staged = contents.filter { $0 == "manifest.json" || Manifest.isShardFileName($0) }
            var restored = 0, removed = 0
            if !staged.isEmpty {
                let asideSet = Set(aside)
                for m in staged {
                    for f in Manifest.files(listedIn: inStaging(m)) where !contents.contains(f) && !asideSet.contains(f) {
                        if FileSystemPath.unlink(output.url(f)) == 0 { removed += 1 }
                    }
                }
                // The manifest last, so that `DIR` is complete again only when everything is back.
                for n in aside.sorted(by: { ($0 == "manifest.json" ? 1 : 0, $0) < ($1 == "manifest.json" ? 1 : 0, $1) })
                where FileSystemPath.rename(inStaging(Self.asidePrefix + n), output.url(n)) == 0 {
                    restored += 1
                }
            }
            _ = Self.removeTree(dead)
            // Without its manifest staged, the run had not started moving files into place.
            let what = staged.isEmpty ? "stopped before moving its files into place; removed its staging directory"
                : "stopped while moving its files into place; put back \(restored) file\(restored == 1 ? "" : "s") of the earlier run"
                    + (removed > 0 ? " and removed the \(removed) it had moved in" : "")
            Stderr.write("cartrender: \(output.path): a run (process \(pid)) \(what)\n")
        }
    }

    /// The error for `name` failing with `e`, naming where the file goes (`DIR/name`).
    func failure(_ name: String, _ e: Int32) -> OutputError {
        OutputError(path: output.url(name), reason: "cannot be written (\(OutputDirectory.describe(e)))")
    }

    /// Removes the staging directory and everything in it (all of it written by this run), and
    /// the directories the run created — unless it holds earlier files that could not be put
    /// back (see `commit`).
    func discard() {
        Self.active.withLock { a in
            a.paths[path] = nil
            guard !keep else { return }
            _ = Self.removeTree(path)
            output.removeCreatedDirectories()
        }
    }

    /// Path of `name` in the staging directory.
    func url(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Removes a staging directory: its files (it has no subdirectories), then itself.
    @discardableResult
    static func removeTree(_ path: String) -> Bool {
        for name in FileSystemPath.contentsOfDirectory(path) ?? [] {
            _ = FileSystemPath.unlink((path as NSString).appendingPathComponent(name))
        }
        return FileSystemPath.rmdir(path) == 0 || errno == ENOENT
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
