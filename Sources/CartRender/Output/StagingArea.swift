import CartRenderCore
import CartRenderRaster
import Foundation

/// Where a run that writes a directory keeps its files until every one is written, and the one
/// transaction that moves them in: a private directory inside the output directory,
/// `DIR/.cartrender-staging-PID-XXXXXX/` (mode 0700, locked while its run lives), on the same file system as `DIR` so that
/// moving a file into place is a single `rename(2)`. Render, merge, `verify --record` into a
/// baseline, reports, diff images and `view` all write through it.
///
/// What a reader of `DIR` can see, and what cartrender will touch:
///
/// - **Only its own files.** Every operation on an entry of `DIR` goes through an open
///   descriptor of `DIR` (``DirectoryHandle``) and never follows a symbolic link at that name.
///   A file at a name this run would replace or remove is replaced or removed only when it is a
///   regular file of the running user whose bytes match what the ownership ledger or an earlier
///   cartrender manifest in `DIR` lists for that name (``OwnershipLedger``). Anything else stops
///   the commit before anything in `DIR` changed: exit 73 naming the file and what to do.
/// - While files are being written, `DIR` is as it was before the run (plus the hidden staging
///   directory). An error, SIGINT or SIGTERM in this phase removes the staging directory and any
///   directory the run created, so `DIR` is exactly as it was before.
/// - A commit takes the directory lock (`flock` on `DIR`, ``DirectoryLock``), waiting for
///   another run's commit (or a `verify` reading `DIR`) to end; the wait stops when the run's
///   ``RenderCancellation`` is cancelled. With the lock, it writes its plan — every file it sets
///   aside or moves in, with its SHA-256 — as a journal into the staging directory
///   (``CommitJournal``, `fsync`ed), then sets aside the earlier manifest (so that a directory
///   with a manifest is always a complete run), the files of the earlier run that this run does
///   not write, moves each new file in (setting aside the file it replaces), the new manifest
///   last but one and the new ownership ledger last.
/// - When a rename fails (an immutable file, a full directory), the journal is rolled back:
///   `DIR` is the earlier complete run again, byte for byte, and the error (exit 73) says so.
/// - Moving is not interrupted by SIGINT or SIGTERM. When the process is killed meanwhile
///   (SIGKILL, power loss), the next command that writes `DIR` on this machine — a render,
///   merge, `verify --record`, `view` — first finds the staging directory of the dead process
///   and rolls its journal back (or, when the ledger was moved in, forward) as far as it can
///   check it (``CommitJournal``: a forged journal changes nothing), says so in one line on
///   stderr, and only then reads or writes. A command that only reads `DIR` (`diff`, `verify`
///   recording nothing) changes nothing and refuses a half-moved `DIR`
///   (``refuseHalfCommitted(_:reader:)``): a baseline is compared only whole.
/// - A staging directory is recognised as cartrender's only when it is a real directory (not a
///   link) of the running user with mode 0700. It is alive exactly while a process holds the
///   `flock` of its `.lock` file, taken before the directory gets its name and held until it is
///   removed; a PID or host name proves nothing. One without a held lock is a dead run's: rolled
///   back (or forward) when it has a journal, removed whatever it holds otherwise. One that is
///   not the running user's, or a link, stops a run that writes into `DIR` with exit 73.
package final class StagingArea {
    let output: OutputDirectory
    /// `DIR`, open.
    let directory: DirectoryHandle
    /// The staging directory's name in `DIR`.
    let name: String
    /// The staging directory, open.
    package let staging: DirectoryHandle
    /// `DIR/.cartrender-staging-PID-XXXXXX`, for messages.
    var path: String { directory.url(name) }
    /// `DIR/.cartrender-staging-PID-XXXXXX/name`, for messages and tests (never opened by path here).
    package func url(_ file: String) -> String { staging.url(file) }
    /// Stops a wait for the directory lock.
    let cancellation: RenderCancellation?
    /// Set when rolling back failed: the staging directory holds the only copies of earlier
    /// files and is not removed.
    private var keep = false
    /// This staging directory's entry in the table the fatal-signal handler reads.
    private var slot: Int?
    /// SHA-256 of every staged file, by name.
    private let hashes = LockedValue([String: String]())
    /// The ``PixelDigest`` of every staged baseline frame, by name, for the ledger (computed by
    /// the worker that staged it, outside the commit lock).
    private let pixelDigests = LockedValue([String: String]())

    static let namePrefix = ".cartrender-staging-"
    /// The file in a staging directory whose `flock` its run holds from before the directory
    /// gets its name until it is removed: the one sign that the run is alive.
    static let lockFileName = ".lock"
    /// The name a staging directory is made under, locked, then renamed from.
    private static let newSuffix = ".new"

    /// The open, locked ``lockFileName`` (closed when the staging directory goes).
    private var lockFD: Int32 = -1

    /// Creates the staging directory: made (`mkdirat`, mode 0700) under a random name with
    /// ``newSuffix``, its ``lockFileName`` created and locked (`flock`), then renamed to
    /// `.cartrender-staging-PID-XXXXXX`; so a directory of that name without a held lock is
    /// never one being made. A directory a cleaning command removed meanwhile is noticed (its
    /// lock file is gone) and another one is made.
    /// - Parameter cancellation: stops `commit` and `moveIntoPlace` while they wait for the
    ///   directory lock.
    /// - Throws: `OutputError` naming `DIR` when it cannot be created (read-only file system,
    ///   permissions).
    package init(in output: OutputDirectory, cancellation: RenderCancellation? = nil) throws {
        self.output = output
        self.cancellation = cancellation
        func failure(_ e: Int32) -> OutputError {
            OutputError(path: output.path, reason: "cannot write into the output directory (\(OutputDirectory.describe(e)))")
        }
        guard let directory = DirectoryHandle(path: output.path) else { throw failure(errno) }
        self.directory = directory
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var made: (name: String, handle: DirectoryHandle, lock: Int32)?
        var lastError = EEXIST
        for _ in 0..<100 {
            let final = "\(Self.namePrefix)\(getpid())-" + String((0..<6).map { _ in letters.randomElement()! })
            let temp = final + Self.newSuffix
            guard !directory.contains(final) else { continue }
            if FileSystemPath.withCString(temp, { mkdirat(directory.fd, $0, 0o700) }) != 0 {
                guard errno == EEXIST else { throw failure(errno) }
                continue
            }
            guard let handle = DirectoryHandle(temp, in: directory) else { lastError = errno; continue }
            _ = fchmod(handle.fd, 0o700)
            let lock = FileSystemPath.withCString(Self.lockFileName) { openat(handle.fd, $0, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
            guard lock >= 0 else { lastError = errno; continue }  // removed meanwhile by a cleaning command
            // Still ours once locked: the lock file and the directory are the ones at the names.
            if flock(lock, LOCK_EX | LOCK_NB) == 0, Self.isLockFile(lock, in: handle), Self.sameDirectory(handle, temp, in: directory) {
                if directory.rename(temp, to: directory, as: final) == 0 {
                    // The same directory, now under its final name in messages and `url(_:)`.
                    made = (final, DirectoryHandle(duplicating: handle, renamedTo: final, in: directory) ?? handle, lock)
                    break
                }
                let e = errno
                _ = handle.unlink(Self.lockFileName)
                _ = directory.removeDirectory(temp)
                close(lock)
                throw failure(e)
            }
            lastError = errno
            close(lock)
        }
        guard let made else { throw failure(lastError) }
        name = made.name
        staging = made.handle
        lockFD = made.lock
        slot = StagingSlots.take(directory: directory.fd, staging: staging.fd, name: made.name)
        Self.active.withLock { $0.areas[made.name + "\u{0}" + output.path] = self }
    }

    /// Whether the open `fd` is the file ``lockFileName`` of `directory` (not unlinked by a
    /// command that took the directory for an abandoned one).
    private static func isLockFile(_ fd: Int32, in directory: DirectoryHandle) -> Bool {
        var open = stat()
        guard fstat(fd, &open) == 0, let there = directory.info(lockFileName) else { return false }
        return open.st_dev == there.st_dev && open.st_ino == there.st_ino
    }

    /// Whether the entry `name` of `parent` is the open directory `handle`.
    private static func sameDirectory(_ handle: DirectoryHandle, _ name: String, in parent: DirectoryHandle) -> Bool {
        guard let a = handle.info(), let b = parent.info(name) else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    deinit {
        StagingSlots.set(slot, 0)
        if lockFD >= 0 { close(lockFD) }
    }

    /// Staging areas of this process that are still being filled, and how many are being
    /// committed, so that a second SIGINT or SIGTERM can end the process without leaving one
    /// behind (see `removeAbandoned()`).
    private struct Active { var areas: [String: StagingArea] = [:]; var committing = 0; var abandoned = false }
    private static let active = LockedValue(Active())

    /// Whether ``removeAbandoned()`` ran: the process is about to exit with a signal's status,
    /// and a worker's write that fails because its staging directory is gone must not be
    /// reported as an error of its own.
    package static var wereAbandoned: Bool { active.withLock { $0.abandoned } }

    /// Removes every staging directory of this process (and the directories its run created),
    /// for an immediate exit. Returns false and removes nothing while a commit is moving files
    /// into place (that takes milliseconds and must finish).
    package static func removeAbandoned() -> Bool {
        active.withLock { a in
            guard a.committing == 0 else { return false }
            a.abandoned = true
            for area in a.areas.values {
                // Workers may still be writing a file into it: retry until the directory is gone.
                for _ in 0..<50 where !area.removeStagingDirectory() { usleep(1_000) }
                area.output.removeCreatedDirectories()
            }
            a.areas.removeAll()
            return true
        }
    }

    // MARK: - Staging files

    /// Writes `bytes` as `name` in the staging directory.
    /// - Parameters:
    ///   - sha256: the bytes' SHA-256 when the caller has it (computed otherwise).
    ///   - pixelDigest: the PNG's ``PixelDigest`` for the ledger (a baseline frame), so that a
    ///     lossless rewrite of it stays cartrender's; nil for other files.
    /// - Throws: `OutputError` naming `DIR/name` (disk full, file size limit…); nothing of the
    ///   file is left behind.
    package func write(_ bytes: [UInt8], to name: String, sha256: String? = nil, pixelDigest: String? = nil) throws {
        var e = staging.writeFile(bytes, to: name)
        // Staged before (a name written twice): replace it. Not done up front, which would cost
        // every frame a system call.
        if e == EEXIST && staging.unlink(name) == 0 { e = staging.writeFile(bytes, to: name) }
        guard e == 0 else { throw failure(name, e) }
        register(name, sha256: sha256 ?? Checksum.sha256(bytes))
        if let pixelDigest { pixelDigests.withLock { $0[name] = pixelDigest } }
    }

    /// Records the SHA-256 of a file staged by other means (``create(_:)``).
    func register(_ name: String, sha256: String) { hashes.withLock { $0[name] = sha256 } }

    /// Creates `name` in the staging directory for writing (replacing one staged before).
    /// - Returns: the open descriptor, which the caller closes.
    /// - Throws: `OutputError` naming `DIR/shown`.
    func create(_ name: String, naming shown: String) throws -> Int32 {
        var fd = staging.create(name)
        if fd < 0 && errno == EEXIST && staging.unlink(name) == 0 { fd = staging.create(name) }
        guard fd >= 0 else { throw failure(shown, errno) }
        return fd
    }

    /// Opens the staged file `name` for reading; -1 with `errno` set when it cannot be.
    func openStaged(_ name: String) -> Int32 {
        FileSystemPath.withCString(name) { openat(staging.fd, $0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
    }

    /// Removes the staged file `name`, and what was recorded of it (its SHA-256, its pixel
    /// digest): a long-lived area (`cartrender preview`'s frames) does not grow.
    package func removeStaged(_ name: String) {
        _ = staging.unlink(name)
        hashes.withLock { $0[name] = nil }
        pixelDigests.withLock { $0[name] = nil }
    }

    /// The error for `name` failing with `e`, naming where the file goes (`DIR/name`).
    func failure(_ name: String, _ e: Int32) -> OutputError {
        OutputError(path: output.url(name), reason: "cannot be written (\(OutputDirectory.describe(e)))")
    }

    // MARK: - Commit

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
    ///   changed); `OutputError` when a file at a name this run replaces or removes is not
    ///   cartrender's, or a foreign staging directory is in `DIR` (before anything in `DIR`
    ///   changes), or when a file cannot be moved or removed (everything is moved back first).
    func commit(files: [String], inPlace: [String] = [], manifest manifestName: String = "manifest.json", removeEarlierRun: Bool = true) throws {
        try locked {
            let manifest = "manifest.json", superseded = Manifest.supersededFileName
            var plan: [Operation] = []
            if removeEarlierRun {
                plan.append(.remove(manifest))
                let kept = Set(files + inPlace + [manifest])
                var seen = Set<String>()
                for name in Manifest.filesOfEarlierRun(in: directory) where !kept.contains(name) && seen.insert(name).inserted {
                    plan.append(.remove(name))
                }
                plan.append(.remove(superseded))
            } else {
                plan.append(.supersede(manifest, as: superseded))
            }
            plan += files.map(Operation.place) + [.place(manifestName)]
            try apply(plan)
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
        try locked(holding: lock) {
            var plan = manifests.map(Operation.remove)
            plan += Set(removing).subtracting(names + manifests).sorted().map(Operation.remove)
            plan += (names + manifests).map(Operation.place)
            try apply(plan)
        }
    }

    /// Checks, before a run draws anything, what its commit will check: that `DIR` holds no
    /// foreign staging directory and that every name the run will place (and, with
    /// `removingEarlierRun`, every file of the earlier run it will remove) is free or
    /// cartrender's — by its listing, kind and owner; the bytes are compared at the commit. So a
    /// run that would be refused stops at once, not after drawing every frame. A commit that a
    /// killed run left half done is rolled back first.
    /// - Throws: `OutputError` (73), as the commit would; `RenderCancelled` while waiting for
    ///   the lock to roll back.
    func preflight(placing names: [String], removingEarlierRun: Bool) throws {
        // What a killed run left half moved is put back first, so the check sees the earlier run.
        try Self.recoverInterruptedCommits(in: output.path, cancellation: cancellation)
        for entry in directory.names() ?? [] where entry.hasPrefix(Self.namePrefix) && entry != name {
            if case .foreign(let why) = Self.classify(entry, in: directory) { throw Self.foreign(entry, why, in: directory) }
        }
        let known = OwnershipLedger.provenance(of: directory)
        var sha: String?
        for n in names + [OwnershipLedger.fileName] {
            if let why = OwnershipLedger.refusal(of: n, in: directory, known: known, sha256: &sha, checkingBytes: false) {
                throw OutputError(path: output.url(n), reason: why)
            }
        }
        guard removingEarlierRun else { return }
        let placed = Set(names)
        for n in Manifest.filesOfEarlierRun(in: directory) where !placed.contains(n) {
            if let info = directory.info(n), info.st_mode & S_IFMT == S_IFDIR { continue }
            if let why = OwnershipLedger.refusal(of: n, in: directory, known: known, sha256: &sha, checkingBytes: false) {
                throw OutputError(path: output.url(n), reason: why)
            }
        }
    }

    /// The error for the foreign staging directory `name` of `directory`.
    private static func foreign(_ name: String, _ why: String, in directory: DirectoryHandle) -> OutputError {
        OutputError(path: directory.url(name), reason: "\(why); cartrender leaves it alone and writes nothing into \(directory.path): remove it, or write somewhere else")
    }

    /// Writes a few small files into `output` as one commit (a page, a listing): staged, then
    /// moved into place under the directory lock, with the ownership rules of a commit.
    /// - Throws: `OutputError` (73) as `moveIntoPlace`; `DIR` is then as it was.
    package static func writeFiles(_ files: [(name: String, bytes: [UInt8])], into output: OutputDirectory) throws {
        let staging = try StagingArea(in: output)
        defer { staging.discard() }
        for file in files { try staging.write(file.bytes, to: file.name) }
        try staging.moveIntoPlace(files.map(\.name), removing: [])
    }

    /// What a commit does to one name of `DIR`.
    private enum Operation {
        /// Take `DIR/name` away, when it is there.
        case remove(String)
        /// Move the staged `name` in, taking away what it replaces.
        case place(String)
        /// Rename `DIR/name`, when it is there, to the new name.
        case supersede(String, as: String)
    }

    /// Turns `plan` into journal steps — checking that every file it takes away is
    /// cartrender's — adds the new ownership ledger as the last step, writes the journal, then
    /// does the steps; a failed rename rolls the journal back.
    private func apply(_ plan: [Operation]) throws {
        let known = OwnershipLedger.provenance(of: directory)
        let staged = hashes.withLock { $0 }
        let stagedPixels = pixelDigests.withLock { $0 }
        var steps: [CommitJournal.Step] = []
        var gone = Set<String>(), placed: [String: String] = [:]
        func takeAway(_ name: String, skippingDirectories: Bool, replacement: String? = nil) throws {
            guard !gone.contains(name) else { return }
            if skippingDirectories, let info = directory.info(name), info.st_mode & S_IFMT == S_IFDIR { return }
            var sha: String?
            if let why = OwnershipLedger.refusal(of: name, in: directory, known: known, sha256: &sha, replacement: replacement) {
                throw OutputError(path: output.url(name), reason: why)
            }
            guard let sha else { return }
            steps.append(.setAside(name, sha256: sha))
            gone.insert(name)
        }
        for operation in plan {
            switch operation {
            case .remove(let n):
                // A directory was never written by a run: it stays.
                try takeAway(n, skippingDirectories: true)
            case .place(let n):
                guard let sha = staged[n] else { preconditionFailure("\(n) was not staged") }
                try takeAway(n, skippingDirectories: false, replacement: stagedPixels[n])
                steps.append(.moveIn(n, sha256: sha))
                placed[n] = sha
            case .supersede(let n, let newName):
                var sha: String?
                if let why = OwnershipLedger.refusal(of: n, in: directory, known: known, sha256: &sha) {
                    throw OutputError(path: output.url(n), reason: why)
                }
                guard let sha else { continue }
                try takeAway(newName, skippingDirectories: false)
                steps.append(.rename(n, to: newName, sha256: sha))
                gone.insert(n)
                placed[newName] = sha
            }
        }
        // The new ledger: what stays of the earlier one, and every file moved in now.
        let ledgerName = OwnershipLedger.fileName
        let present = Set(directory.names() ?? [])
        var ledger = OwnershipLedger()
        // A file that stays keeps what is known of it: one SHA-256 is carried over as it is (a
        // file changed since no longer matches it, and stays foreign); only a name known by
        // several, or by a report that predates ledgers, is hashed to find which is true.
        // Its pixel digest is carried over with it.
        for n in known.keys.sorted() where present.contains(n) && !gone.contains(n) && n != ledgerName {
            let all = known[n] ?? OwnershipLedger.Known()
            let shas = all.sha256s
            if all.pixels.count == 1 { ledger.pixels[n] = all.pixels.first }
            if shas.count == 1, let sha = shas.first, sha != OwnershipLedger.anyBytes {
                ledger.entries[n] = sha
                continue
            }
            var sha: String?
            if OwnershipLedger.refusal(of: n, in: directory, known: known, sha256: &sha) == nil, let sha { ledger.entries[n] = sha }
        }
        ledger.entries.merge(placed) { _, new in new }
        for n in placed.keys { ledger.pixels[n] = stagedPixels[n] }
        try write(ledger.serialized(), to: ledgerName)
        try takeAway(ledgerName, skippingDirectories: false)
        steps.append(.moveIn(ledgerName, sha256: hashes.withLock { $0[ledgerName]! }))

        let journal = try writeJournal(steps)
        TestHooks.commitStep(0)
        for (k, step) in steps.enumerated() {
            let failed: (String, String)?
            switch step {
            case .setAside(let n, _):
                failed = directory.rename(n, to: staging, as: CommitJournal.asidePrefix + n) == 0 ? nil
                    : (n, "cannot be \(placed[n] == nil ? "removed" : "replaced")")
            case .moveIn(let n, _):
                failed = staging.rename(n, to: directory, as: n) == 0 ? nil : (n, "cannot be written")
            case .rename(let n, let newName, _):
                failed = directory.rename(n, to: directory, as: newName) == 0 ? nil : (n, "cannot be written")
            }
            if let (n, what) = failed {
                var error = OutputError(path: output.url(n), reason: "\(what) (\(OutputDirectory.describe(errno)))")
                let undone = journal.rollBack(directory: directory, staging: staging, trusted: true)
                if undone.failed.isEmpty {
                    error.reason += "; \(output.path) is as it was before"
                } else {
                    keep = true
                    let c = undone.failed.count
                    error.reason += "; \(c) file\(c == 1 ? "" : "s") of \(output.path) could not be put back and stay in \(path)"
                }
                throw error
            }
            TestHooks.commitStep(k + 1)
        }
        directory.sync()
        removeStagingDirectory()
    }

    /// Writes `steps` as this staging directory's journal (`fsync`ed), after making, for each
    /// file it moves in, the proof a recovery asks for that a file in `DIR` is one this commit
    /// moved in: a hard link to it in the staging directory (a file system without hard links
    /// gets none, and a recovery then leaves such a file where it is).
    /// - Throws: `OutputError` when the journal cannot be written (nothing in `DIR` changed).
    private func writeJournal(_ steps: [CommitJournal.Step], group: CommitJournal.Group? = nil) throws -> CommitJournal {
        for case .moveIn(let n, _) in steps {
            _ = FileSystemPath.withCString(n) { f in
                FileSystemPath.withCString(CommitJournal.movedInPrefix + n) { t in linkat(staging.fd, f, staging.fd, t, 0) }
            }
        }
        let journal = CommitJournal(steps: steps, group: group)
        let e = staging.writeFile(journal.serialized(), to: CommitJournal.fileName, durable: true)
        guard e == 0 else { throw failure(CommitJournal.fileName, e) }
        staging.sync()
        return journal
    }

    // MARK: - Files the user named

    /// The first phase of replacing files the user named (``NamedFiles``): for each staged
    /// `name`, the regular file at that name in `DIR` (the user's earlier output: they named
    /// it, so it is theirs to have replaced) is to be set aside and the staged file moved in;
    /// the plan is written as the journal, so a run killed while moving is rolled back (or
    /// forward) by the next command that writes `DIR`, as for a render's commit.
    /// - Throws: `OutputError` (73) naming the file when something that is not a regular file
    ///   is at a name now (planted since the check), or the journal cannot be written.
    /// - Parameter group: this folder's part in a transaction over several folders (nil for one).
    func journalReplacing(_ names: [String], group: CommitJournal.Group? = nil) throws -> CommitJournal {
        // From here the staging directory may hold the only copy of an earlier file: a crash
        // handler leaves it for the next command (``StagingSlots``).
        StagingSlots.set(slot, 2)
        let staged = hashes.withLock { $0 }
        var steps: [CommitJournal.Step] = []
        for n in names {
            if let info = directory.info(n) {
                guard info.st_mode & S_IFMT == S_IFREG else { try OutputFile.checkReplaceable(output.url(n)); continue }
                let bytes: [UInt8]
                do { bytes = try directory.read(n, limit: Int.max) } catch {
                    throw OutputError(path: output.url(n), reason: "cannot be replaced (\(error.reason()))")
                }
                steps.append(.setAside(n, sha256: Checksum.sha256(bytes)))
            }
            guard let sha = staged[n] else { preconditionFailure("\(n) was not staged") }
            steps.append(.moveIn(n, sha256: sha))
        }
        return try writeJournal(steps, group: group)
    }

    /// The staging directory's absolute path, as a transaction's journals name it.
    var absolutePath: String { FileSystemPath.absolute(path) }

    /// The file whose presence in a coordinator's staging directory decides a transaction over
    /// several folders: every rename of every folder is done (``CommitJournal/Group``).
    static let decisionFileName = ".committed"

    /// Writes the decision of a transaction over several folders (`fsync`ed), once every rename
    /// of every folder is done: from here a recovery rolls every folder forward.
    /// - Throws: `OutputError` when it cannot be written (the caller then undoes every folder).
    func decideCommitted() throws {
        let e = staging.writeFile(Array("committed\n".utf8), to: Self.decisionFileName, durable: true)
        guard e == 0 else { throw failure(Self.decisionFileName, e) }
        staging.sync()
    }

    /// The second phase: does the renames of `journal` (from ``journalReplacing(_:)``).
    /// - Returns: nil, or the error of the rename that failed (nothing is moved back here:
    ///   ``undo(_:)`` does that, for every directory of the transaction).
    func perform(_ journal: CommitJournal, step: inout Int) -> OutputError? {
        for s in journal.steps {
            switch s {
            case .setAside(let n, _):
                guard directory.rename(n, to: staging, as: CommitJournal.asidePrefix + n) == 0 else {
                    return OutputError(path: output.url(n), reason: "cannot be replaced (\(OutputDirectory.describe(errno)))")
                }
            case .moveIn(let n, _):
                guard staging.rename(n, to: directory, as: n) == 0 else {
                    return OutputError(path: output.url(n), reason: "cannot be written (\(OutputDirectory.describe(errno)))")
                }
            case .rename: preconditionFailure("a named file is never renamed in place")
            }
            step += 1
            TestHooks.commitStep(step)
        }
        directory.sync()
        return nil
    }

    /// Undoes what ``perform(_:step:)`` did of `journal`.
    /// - Returns: the names that could not be put back (they stay in the staging directory,
    ///   which is then kept).
    func undo(_ journal: CommitJournal) -> [String] {
        let failed = journal.rollBack(directory: directory, staging: staging, trusted: true).failed
        if failed.isEmpty { StagingSlots.change(slot, from: 2, to: 1) } else { keep = true }
        directory.sync()
        return failed
    }

    /// Moves the staged `name` to the staged `newName` (a render's `manifest.json` that goes to
    /// a name the user gave, in the same directory).
    /// - Throws: `OutputError` naming `DIR/newName`.
    func renameStaged(_ name: String, to newName: String) throws {
        guard name != newName else { return }
        guard let sha = hashes.withLock({ $0[name] }) else { preconditionFailure("\(name) was not staged") }
        if staging.rename(name, to: staging, as: newName) != 0 { throw failure(newName, errno) }
        hashes.withLock { $0[name] = nil; $0[newName] = sha }
    }

    /// Counts a commit under way for `body`, so that a second SIGINT or SIGTERM waits for it
    /// (see ``removeAbandoned()``).
    /// - Throws: `RenderCancelled` when the run was cancelled before it began; what `body` throws.
    static func committing<R>(_ cancellation: RenderCancellation?, _ body: () throws -> R) throws -> R {
        let started = active.withLock { a -> Bool in
            if cancellation?.isCancelled == true { return false }
            a.committing += 1
            return true
        }
        guard started else { throw RenderCancelled() }
        defer { active.withLock { $0.committing -= 1 } }
        return try body()
    }

    /// Runs `body` as a commit, holding the lock on `DIR` (`held`, or one taken here), after
    /// rolling back what a dead run left half moved and checking that no foreign staging
    /// directory is in `DIR`. Waiting for the lock ends with `RenderCancelled` when
    /// `cancellation` is cancelled; once the lock is held, the commit is not interrupted by
    /// signals (see `removeAbandoned()`).
    private func locked(holding held: DirectoryLock? = nil, _ body: () throws -> Void) throws {
        precondition(held.map { $0.mode == .exclusive } ?? true, "a commit needs the exclusive lock")
        let lock = try held ?? DirectoryLock(output.path, .exclusive, cancellation: cancellation) { e in
            OutputError(path: output.path, reason: "cannot be written (\(OutputDirectory.describe(e)))")
        }
        defer { if held == nil { lock.release() } }
        let started = Self.active.withLock { a -> Bool in
            if cancellation?.isCancelled == true { return false }
            a.committing += 1
            StagingSlots.set(slot, 2)
            return true
        }
        guard started else { throw RenderCancelled() }
        defer { Self.active.withLock { $0.committing -= 1; $0.areas[name + "\u{0}" + output.path] = nil; if !keep { StagingSlots.change(slot, from: 2, to: 1) } } }
        try Self.recoverInterruptedCommits(in: directory, except: name, refusingForeign: true)
        try body()
    }

    // MARK: - Recovery

    /// What a staging-directory name in `DIR` turns out to be.
    private enum Found {
        /// A staging directory of this user that no live run holds the lock of.
        case dead(Abandoned)
        /// A live run's (its lock is held), or gone meanwhile: left alone.
        case inUse
        /// Not one cartrender made for this user: why, as the end of a sentence.
        case foreign(String)
    }

    /// A staging directory no live run holds, open, with its lock file locked by this process
    /// while the value lives, so that no other command cleans it at the same time.
    private final class Abandoned {
        let handle: DirectoryHandle
        /// The locked ``lockFileName``, or -1 when there is none (a directory whose run was
        /// killed before it made one).
        let lock: Int32
        /// The process the name says made it, for messages only (PIDs are reused: never a sign
        /// of life).
        let pid: pid_t?
        init(handle: DirectoryHandle, lock: Int32, pid: pid_t?) { self.handle = handle; self.lock = lock; self.pid = pid }
        deinit { if lock >= 0 { close(lock) } }
        /// `a run (process 4242)`, or `a run`.
        var run: String { pid.map { "a run (process \($0))" } ?? "a run" }
    }

    /// A staging directory is cartrender's when it is a real directory (not a link) of the
    /// running user with mode 0700, whatever else its name says; it is in use exactly when a
    /// process holds the `flock` of its ``lockFileName`` (a lock is released when its process
    /// ends, however it ends; a PID or a host name proves nothing).
    private static func classify(_ name: String, in directory: DirectoryHandle) -> Found {
        guard let info = directory.info(name) else { return .inUse }  // gone meanwhile
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return .foreign(info.st_mode & S_IFMT == S_IFLNK ? "is a symbolic link, not a staging directory cartrender made" : "is not a directory")
        }
        guard info.st_uid == geteuid() else { return .foreign("belongs to another user (uid \(info.st_uid))") }
        guard info.st_mode & 0o777 == 0o700 else { return .foreign("is not a private directory (mode \(String(info.st_mode & 0o777, radix: 8)))") }
        guard let handle = DirectoryHandle(name, in: directory), let opened = handle.info(),
              opened.st_dev == info.st_dev && opened.st_ino == info.st_ino else {
            return .inUse  // replaced meanwhile
        }
        let lock = FileSystemPath.withCString(lockFileName) { openat(handle.fd, $0, O_RDWR | O_NOFOLLOW | O_CLOEXEC) }
        if lock >= 0 {
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
                close(lock)
                return .inUse
            }
        } else {
            // No lock file a run could hold: none yet (killed while making the directory), or
            // something else at that name, which no run locks.
            guard [ENOENT, ELOOP, EISDIR, ENXIO, EOPNOTSUPP].contains(errno) else { return .inUse }
        }
        let pidText = name.dropFirst(namePrefix.count).prefix { $0 != "-" }
        return .dead(Abandoned(handle: handle, lock: lock, pid: pid_t(pidText)))
    }

    /// Rolls back (or forward) the commits of dead runs of this user on this machine in
    /// `directory`, saying what it did in one line each on stderr. Called with the exclusive
    /// lock held.
    /// - Parameters:
    ///   - own: this run's staging directory, skipped.
    ///   - refusingForeign: throw for a staging-directory name that is not this user's (a run
    ///     that writes into `DIR`); readers leave such names alone.
    /// - Throws: `OutputError` (73) for a foreign staging directory, or for a dead run whose
    ///   files could not all be put back (they stay in its staging directory).
    private static func recoverInterruptedCommits(in directory: DirectoryHandle, except own: String?, refusingForeign: Bool) throws {
        for name in directory.names() ?? [] where name.hasPrefix(namePrefix) && name != own {
            switch classify(name, in: directory) {
            case .inUse: continue
            case .foreign(let why):
                guard refusingForeign else { continue }
                throw foreign(name, why, in: directory)
            case .dead(let abandoned):
                let handle = abandoned.handle
                let what: String
                // The journal, read and parsed once.
                let journal = OwnershipLedger.ownFile(CommitJournal.fileName, in: handle).flatMap(CommitJournal.init(parsing:))
                if let journal, journal.group != nil {
                    try recoverTransaction(from: Member(directory: directory, name: name, abandoned: abandoned, journal: journal))
                    continue
                } else if let journal {
                    if journal.isComplete(directory: directory, staging: handle) {
                        what = recovered(forward: true, in: "")
                    } else {
                        let undone = journal.rollBack(directory: directory, staging: handle)
                        guard undone.failed.isEmpty else { throw notPutBack(undone.failed, by: abandoned, in: directory, staging: name) }
                        what = recovered(restored: undone.restored, removed: undone.removed, in: "")
                    }
                    directory.sync()
                } else if name.hasSuffix(newSuffix) || handle.names()?.isEmpty == true {
                    // Killed while making or removing it: nothing to say.
                    _ = removeTree(handle, named: name, in: directory)
                    continue
                } else {
                    what = recovered(restored: 0, removed: 0, in: "")
                }
                _ = removeTree(handle, named: name, in: directory)
                Stderr.write("cartrender: \(directory.path): \(abandoned.run) \(what)\n")
            }
        }
    }

    /// A dead run's staging directory that holds a journal, open and locked (see ``Abandoned``).
    private struct Member {
        let directory: DirectoryHandle
        let name: String
        let abandoned: Abandoned
        let journal: CommitJournal
    }

    /// Opens the staging directory at the absolute `path` when it is a dead run's, of
    /// cartrender's shape, holding a journal.
    private static func deadMember(at path: String) -> Member? {
        let name = (path as NSString).lastPathComponent, parent = (path as NSString).deletingLastPathComponent
        guard name.hasPrefix(namePrefix), let directory = DirectoryHandle(path: parent),
              case .dead(let abandoned) = classify(name, in: directory),
              let bytes = OwnershipLedger.ownFile(CommitJournal.fileName, in: abandoned.handle),
              let journal = CommitJournal(parsing: bytes) else { return nil }
        return Member(directory: directory, name: name, abandoned: abandoned, journal: journal)
    }

    /// Whether `path` names the directory open as `handle` (links not followed).
    private static func names(_ path: String, _ handle: DirectoryHandle) -> Bool {
        var info = stat()
        guard FileSystemPath.lstat(path, &info) == 0, let open = handle.info() else { return false }
        return info.st_dev == open.st_dev && info.st_ino == open.st_ino
    }

    /// The coordinator and members of the transaction `one` belongs to, each a dead run's
    /// staging directory whose journal names the coordinator (or is named by it): a journal
    /// cannot draw another folder into its transaction unless that folder's journal agrees.
    /// - Returns: the coordinator (nil when its staging directory is gone or not a dead run's),
    ///   the other members found (with `one` when it is not the coordinator), and whether a
    ///   listed staging directory is there but could not be taken (alive, or being recovered by
    ///   another command): the coordinator, which holds the decision, is then kept.
    private static func transaction(of one: Member) -> (coordinator: Member?, members: [Member], missed: Bool) {
        var coordinator: Member?
        switch one.journal.group {
        case .coordinator?:
            coordinator = one
        case .member(let path)?:
            if let c = deadMember(at: path), case .coordinator(let listed)? = c.journal.group,
               listed.contains(where: { names($0, one.abandoned.handle) }) {
                coordinator = c
            }
        case nil: break
        }
        guard let coordinator, case .coordinator(let listed)? = coordinator.journal.group else { return (nil, [one], false) }
        var members = coordinator.name == one.name && coordinator.directory.path == one.directory.path ? [] : [one]
        var missed = false
        for path in listed where !members.contains(where: { names(path, $0.abandoned.handle) }) {
            if let m = deadMember(at: path), case .member(let c)? = m.journal.group, names(c, coordinator.abandoned.handle) {
                members.append(m)
            } else {
                var info = stat()
                if FileSystemPath.lstat(path, &info) == 0 { missed = true }
            }
        }
        return (coordinator, members, missed)
    }

    /// Recovers every folder of the transaction `one` belongs to the same way (see
    /// ``CommitJournal/Group``): forward when its coordinator holds the decision, back otherwise
    /// (also when the coordinator's staging directory is gone: a commit removes it last); then
    /// removes the members' staging directories, and the coordinator's last. One line on stderr
    /// for each folder.
    /// Every folder but `one`'s (whose lock the caller holds) is changed only under its own
    /// directory lock, taken without waiting: a folder another run holds is left as it is, with
    /// the coordinator, for a later command.
    /// - Throws: `OutputError` (73) when a folder's files could not all be put back (its staging
    ///   directory stays, and the coordinator's with it).
    private static func recoverTransaction(from one: Member) throws {
        let (coordinator, found, listedButMissed) = transaction(of: one)
        var missed = listedButMissed
        var locks: [DirectoryLock] = []
        defer { for lock in locks { lock.release() } }
        // Each other folder under its lock; one whose lock is held elsewhere is not touched.
        let members = found.filter { m in
            if m.directory.path == one.directory.path { return true }
            guard let lock = DirectoryLock(exclusiveIfFree: m.directory.path) else { missed = true; return false }
            locks.append(lock)
            return true
        }
        if let coordinator, coordinator.directory.path != one.directory.path {
            guard let lock = DirectoryLock(exclusiveIfFree: coordinator.directory.path) else { return }
            locks.append(lock)
        }
        let forward = coordinator.map { $0.abandoned.handle.contains(decisionFileName) } ?? false
        var failure: OutputError?
        for m in members + (coordinator.map { [$0] } ?? []) {
            let what: String
            let scope = " (in every folder of its run)"
            if forward {
                what = recovered(forward: true, in: scope)
            } else {
                let undone = m.journal.rollBack(directory: m.directory, staging: m.abandoned.handle)
                guard undone.failed.isEmpty else {
                    failure = failure ?? notPutBack(undone.failed, by: m.abandoned, in: m.directory, staging: m.name)
                    continue
                }
                what = recovered(restored: undone.restored, removed: undone.removed, in: scope)
            }
            m.directory.sync()
            // The coordinator holds the decision: removed last, and only when nothing of the
            // transaction is left that still needs it.
            if let coordinator, m.name == coordinator.name, m.directory.path == coordinator.directory.path, failure != nil || missed { continue }
            _ = removeTree(m.abandoned.handle, named: m.name, in: m.directory)
            Stderr.write("cartrender: \(m.directory.path): \(m.abandoned.run) \(what)\n")
        }
        if let failure { throw failure }
    }

    /// What a recovery did to a dead run's commit, the end of the sentence `cartrender: DIR: a
    /// run (process N) …`: rolled `forward` (its files were all in place), else `restored`
    /// earlier files put back and `removed` of its own taken out. `scope` follows the run's
    /// verb (`" (in every folder of its run)"` for a transaction over several folders, else empty).
    private static func recovered(forward: Bool = false, restored: Int = 0, removed: Int = 0, in scope: String) -> String {
        if forward { return "had moved its files into place\(scope); removed its staging directory" }
        if restored + removed == 0 { return "stopped before moving its files into place\(scope); removed its staging directory" }
        return "stopped while moving its files into place\(scope); put back \(restored) file\(restored == 1 ? "" : "s") of the earlier run"
            + (removed > 0 ? " and removed the \(removed) it had moved in" : "")
    }

    /// The error for a dead run's commit whose `failed` files could not be put back into
    /// `directory`: they stay in its staging directory `staging`.
    private static func notPutBack(_ failed: [String], by abandoned: Abandoned, in directory: DirectoryHandle, staging: String) -> OutputError {
        let c = failed.count
        return OutputError(path: directory.path, reason: "\(abandoned.run) stopped while moving its files into place, and \(c) file\(c == 1 ? "" : "s") (\(failed.prefix(3).joined(separator: ", "))) could not be put back: they stay in \(directory.url(staging)); restore them by hand or remove that directory")
    }

    /// Rolls back what dead runs on this machine left half moved into the directory at `path`,
    /// before a command reads it (a baseline, a render's frames, shard directories): takes the
    /// exclusive lock only when there is something to recover, or uses `lock` when the caller
    /// holds it. Foreign staging directories are left alone.
    /// - Throws: `RenderCancelled` when cancelled while waiting for the lock; `OutputError` when
    ///   a dead run's files cannot all be put back.
    package static func recoverInterruptedCommits(in path: String, holding lock: DirectoryLock? = nil, cancellation: RenderCancellation?) throws {
        guard let directory = DirectoryHandle(path: path) else { return }
        let candidates = (directory.names() ?? []).filter { $0.hasPrefix(namePrefix) }
        guard candidates.contains(where: { if case .dead = classify($0, in: directory) { return true }; return false }) else { return }
        let held = try lock ?? DirectoryLock(path, .exclusive, cancellation: cancellation) { e in
            OutputError(path: path, reason: "cannot be locked to repair an interrupted run (\(OutputDirectory.describe(e)))")
        }
        defer { if lock == nil { held.release() } }
        try recoverInterruptedCommits(in: directory, except: nil, refusingForeign: false)
    }

    /// Refuses, for a command that only reads the directory at `path` (`diff`, `verify` that
    /// records nothing), a directory in which a run that is gone left a commit half done: such a
    /// command changes nothing in it, not even to repair it, and compares it only whole. A
    /// journal whose undoing would change nothing (a forged one, one whose run had finished) is
    /// no reason to refuse.
    /// - Parameter reader: the command, for the sentence (`diff`).
    /// - Throws: ``OutputError`` (73) naming `path` and the commands that repair it.
    static func refuseHalfCommitted(_ path: String, reader: String) throws {
        guard let directory = DirectoryHandle(path: path) else { return }
        for name in directory.names() ?? [] where name.hasPrefix(namePrefix) {
            guard case .dead(let abandoned) = classify(name, in: directory),
                  let bytes = OwnershipLedger.ownFile(CommitJournal.fileName, in: abandoned.handle),
                  let journal = CommitJournal(parsing: bytes) else { continue }
            if journal.group != nil {
                let coordinator = transaction(of: Member(directory: directory, name: name, abandoned: abandoned, journal: journal)).coordinator
                if coordinator?.abandoned.handle.contains(decisionFileName) == true { continue }
            } else if journal.isComplete(directory: directory, staging: abandoned.handle) {
                continue
            }
            let pending = journal.rollBack(directory: directory, staging: abandoned.handle, dryRun: true)
            guard pending.restored + pending.removed + pending.failed.count > 0 else { continue }
            throw OutputError(path: path, reason: "\(abandoned.run) stopped while moving its files into place (\(directory.url(name))), and \(reader) only reads \(path), so it neither repairs nor compares it: rerun the command that writes it (the render into it, or verify --record), which puts the earlier files back first")
        }
    }

    // MARK: - Removal

    /// Removes what this run staged and the staging directory, and the directories the run
    /// created — unless it holds earlier files that could not be put back (see `commit`).
    package func discard() {
        Self.active.withLock { a in
            a.areas[name + "\u{0}" + output.path] = nil
            guard !keep else { return }
            removeStagingDirectory()
            output.removeCreatedDirectories()
        }
    }

    /// Removes this run's staging directory and everything in it.
    @discardableResult
    private func removeStagingDirectory() -> Bool {
        let removed = Self.removeTree(staging, named: name, in: directory)
        if removed {
            StagingSlots.set(slot, 0)
            if lockFD >= 0 { close(lockFD); lockFD = -1 }
        }
        return removed
    }

    /// Removes the staging directory `name` of `directory`, open as `handle`: its files (a
    /// staging directory has no subdirectories; a link is removed, never followed), then itself.
    private static func removeTree(_ handle: DirectoryHandle, named name: String, in directory: DirectoryHandle) -> Bool {
        for entry in handle.names() ?? [] { _ = handle.unlink(entry) }
        return directory.removeDirectory(name) == 0 || errno == ENOENT
    }
}

/// Points where a debug build can be made to stop, for the tests that kill a run mid-commit.
/// The release binary has none of this: the code exists only when the package is built with
/// `CARTRENDER_TEST_HOOKS` defined, which Package.swift does for debug builds.
enum TestHooks {
    /// With `CARTRENDER_TEST_KILL_AT_COMMIT_STEP=K` in the environment, the process sends
    /// itself SIGKILL once a commit's journal is written (K = 0) or after its K-th rename; a
    /// commit of named files into several folders has one point more, after its decision
    /// (``StagingArea/decideCommitted()``), numbered one past its last rename.
    static func commitStep(_ k: Int) {
        #if CARTRENDER_TEST_HOOKS
        if let value = ProcessInfo.processInfo.environment["CARTRENDER_TEST_KILL_AT_COMMIT_STEP"], Int(value) == k {
            kill(getpid(), SIGKILL)
        }
        #endif
    }
}

/// A value behind a lock.
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    package init(_ value: Value) { self.value = value }
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}
