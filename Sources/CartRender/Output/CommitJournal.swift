import CartRenderCore
import CartRenderRaster
import Foundation

/// The renames of one commit into a directory, written into the staging directory (`.journal`,
/// `fsync`ed) before the first of them, so that whatever instant a run is killed at, the next
/// run can tell what was done and undo it: the directory is then byte for byte the earlier
/// complete run, or — when the last step, the ownership ledger, is in place — the new one.
///
/// Each step names a file and the SHA-256 of its bytes. A journal read back from disk could have
/// been written by anyone (a repository, an archive), so recovery trusts it only as far as it
/// can check it against what cartrender itself did:
///
/// - it puts back only files its own staging directory holds (`.aside.NAME`) with the bytes the
///   journal names, and only at names that are free;
/// - it takes a file it moved in out of the directory only when that file is the very file the
///   commit moved (the same inode as the hard link `.in.NAME` the commit made in the staging
///   directory before moving it; a forger cannot make a hard link to a user's file by writing
///   files), never because its bytes match;
/// - the one rename a commit does in the directory is a shard setting `manifest.json` aside as
///   `.superseded-manifest.json`; a journal naming any other rename is not a journal, and it is
///   undone only when the superseded manifest reads as cartrender's.
///
/// So a forged journal changes nothing in the directory.
///
/// Text format, one step a line after the header `cartrender-journal 1`, fields separated by tabs:
/// `aside SHA NAME` (`DIR/NAME` → `STAGING/.aside.NAME`), `movein SHA NAME` (`STAGING/NAME` →
/// `DIR/NAME`), `rename SHA NAME NEWNAME` (`DIR/NAME` → `DIR/NEWNAME`). A commit of named files
/// into several folders (``NamedFiles``) is one transaction with one decision: before the steps,
/// the first folder's journal (the coordinator's) has a line `member HEX` for the staging
/// directory of each other folder, and each of those has `coordinator HEX` (HEX: the staging
/// directory's absolute path, its UTF-8 bytes in hexadecimal); see ``Group``.
struct CommitJournal: Equatable {
    /// The journal's part in a transaction over several folders. The transaction is decided
    /// once, in the coordinator's staging directory: it holds ``StagingArea/decisionFileName``
    /// once every rename of every folder is done. Recovering any one of the folders recovers all
    /// of them the same way: forward (every file stays new) when the decision is there, back
    /// otherwise (and back when the coordinator's staging directory is gone, which a commit
    /// removes only after every member's).
    enum Group: Equatable {
        /// This journal decides; the absolute paths of the other folders' staging directories.
        case coordinator(members: [String])
        /// Decided by the journal in the staging directory at this absolute path.
        case member(coordinator: String)
    }

    /// Nil for a commit into one directory.
    var group: Group?

    enum Step: Equatable {
        /// The file of the directory that a commit removes or replaces, moved into the staging
        /// directory as `.aside.NAME`; its SHA-256.
        case setAside(String, sha256: String)
        /// A staged file moved into the directory; its SHA-256.
        case moveIn(String, sha256: String)
        /// A file of the directory renamed in it (a shard's superseded manifest); its SHA-256.
        case rename(String, to: String, sha256: String)
    }

    static let fileName = ".journal"
    static let header = "cartrender-journal 1"
    /// Prefix, in the staging directory, of a file of the directory set aside.
    static let asidePrefix = ".aside."
    /// Prefix, in the staging directory, of the hard link a commit keeps to a file it moves in:
    /// the proof that the file in the directory is the one it moved.
    static let movedInPrefix = ".in."
    /// Largest journal read (bytes).
    static let maxFileBytes = 64 << 20

    var steps: [Step]

    init(steps: [Step], group: Group? = nil) { self.steps = steps; self.group = group }

    func serialized() -> [UInt8] {
        var text = Self.header + "\n"
        switch group {
        case .coordinator(let members)?: for m in members { text += "member\t\(Self.hex(m))\n" }
        case .member(let coordinator)?: text += "coordinator\t\(Self.hex(coordinator))\n"
        case nil: break
        }
        for step in steps {
            switch step {
            case .setAside(let n, let sha): text += "aside\t\(sha)\t\(n)\n"
            case .moveIn(let n, let sha): text += "movein\t\(sha)\t\(n)\n"
            case .rename(let n, let newName, let sha): text += "rename\t\(sha)\t\(n)\t\(newName)\n"
            }
        }
        return Array(text.utf8)
    }

    /// Parses a journal; nil when it is not one (a damaged journal is not acted on).
    init?(parsing bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(Self.header), lines.last == "" else { return nil }
        var steps: [Step] = []
        var members: [String] = [], coordinator: String?
        for line in lines.dropFirst().dropLast() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if f.count == 2, f[0] == "member" || f[0] == "coordinator" {
                // Before every step, and either members or one coordinator.
                guard steps.isEmpty, let path = Self.unhex(f[1]), path.hasPrefix("/") else { return nil }
                if f[0] == "member" { members.append(path) } else {
                    guard coordinator == nil else { return nil }
                    coordinator = path
                }
                guard members.isEmpty || coordinator == nil else { return nil }
                continue
            }
            guard f.count >= 3, f[1].count == 64, f[1].allSatisfy(\.isHexDigit), f.dropFirst(2).allSatisfy(OwnershipLedger.isPlainName) else { return nil }
            switch (f[0], f.count) {
            case ("aside", 3): steps.append(.setAside(f[2], sha256: f[1]))
            case ("movein", 3): steps.append(.moveIn(f[2], sha256: f[1]))
            case ("rename", 4):
                // A commit renames only a shard's superseded manifest.
                guard f[2] == "manifest.json", f[3] == Manifest.supersededFileName else { return nil }
                steps.append(.rename(f[2], to: f[3], sha256: f[1]))
            default: return nil
            }
        }
        self.steps = steps
        group = coordinator.map { .member(coordinator: $0) } ?? (members.isEmpty ? nil : .coordinator(members: members))
    }

    /// `path`'s UTF-8 bytes in hexadecimal (a path may hold tabs and newlines).
    static func hex(_ path: String) -> String {
        FileSystemPath.bytes(path).map { String(format: "%02x", $0) }.joined()
    }

    /// The path ``hex(_:)`` wrote; nil when `text` is not such hexadecimal.
    static func unhex(_ text: String) -> String? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0, text.allSatisfy(\.isHexDigit) else { return nil }
        let bytes = stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
        return FileSystemPath.string(fromBytes: bytes)
    }

    /// Whether the commit completed: its last step moved the new ownership ledger in.
    func isComplete(directory: DirectoryHandle, staging: DirectoryHandle) -> Bool {
        guard case .moveIn(let n, let sha)? = steps.last else { return false }
        return !staging.contains(n) && Self.holds(directory, n, sha)
    }

    /// What undoing did.
    struct Undone: Equatable {
        /// Files of the earlier run put back.
        var restored = 0
        /// Files the commit had added (replacing nothing) taken out again.
        var removed = 0
        /// Names that could not be put back (their bytes do not match, a rename failed).
        var failed: [String] = []
    }

    /// Undoes the steps that were done, last first. A step counts as done only when the file
    /// is where the step put it with the bytes the journal names.
    /// - Parameters:
    ///   - trusted: the journal is this process's own (a rename of its commit failed); false for
    ///     one read back from disk, which is trusted only as the type's documentation says.
    ///   - dryRun: change nothing; count what would be done (a command that only reads the
    ///     directory asks whether it is whole).
    func rollBack(directory: DirectoryHandle, staging: DirectoryHandle, trusted: Bool = false, dryRun: Bool = false) -> Undone {
        var undone = Undone()
        let replacing = Set(steps.compactMap { step -> String? in if case .setAside(let n, _) = step { return n }; return nil })
        // Names the dry run counts as moved out or put back, so later steps see them as done.
        var freed = Set<String>(), filled = Set<String>()
        func present(_ n: String) -> Bool { filled.contains(n) || (!freed.contains(n) && directory.contains(n)) }
        for step in steps.reversed() {
            switch step {
            case .moveIn(let n, let sha):
                guard !staging.contains(n), Self.holds(directory, n, sha) else { continue }
                // Not provably the file this commit moved in: left alone.
                guard trusted || Self.sameFile(directory, n, staging, Self.movedInPrefix + n) else { continue }
                if dryRun { freed.insert(n); if !replacing.contains(n) { undone.removed += 1 }; continue }
                if directory.rename(n, to: staging, as: n) == 0 {
                    if !replacing.contains(n) { undone.removed += 1 }
                } else {
                    undone.failed.append(n)
                }
            case .setAside(let n, let sha):
                let aside = Self.asidePrefix + n
                guard staging.contains(aside) else { continue }
                guard Self.holds(staging, aside, sha), !present(n) else {
                    undone.failed.append(n)
                    continue
                }
                if dryRun { filled.insert(n); undone.restored += 1; continue }
                guard staging.rename(aside, to: directory, as: n) == 0 else {
                    undone.failed.append(n)
                    continue
                }
                undone.restored += 1
            case .rename(let n, let newName, let sha):
                guard !present(n), Self.holds(directory, newName, sha) else { continue }
                guard trusted || OwnershipLedger.ownFile(newName, in: directory).flatMap({ try? Manifest(json: $0) }) != nil else { continue }
                if dryRun { filled.insert(n); undone.restored += 1; continue }
                if directory.rename(newName, to: directory, as: n) == 0 { undone.restored += 1 } else { undone.failed.append(n) }
            }
        }
        return undone
    }

    /// Whether `a/aName` and `b/bName` are one file (the same device and inode, links not followed).
    static func sameFile(_ a: DirectoryHandle, _ aName: String, _ b: DirectoryHandle, _ bName: String) -> Bool {
        guard let x = a.info(aName), let y = b.info(bName) else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino && x.st_mode & S_IFMT == S_IFREG
    }

    /// Whether `name` in `directory` is a regular file of the running user with these bytes.
    static func holds(_ directory: DirectoryHandle, _ name: String, _ sha256: String) -> Bool {
        guard let bytes = OwnershipLedger.ownFile(name, in: directory) else { return false }
        return Checksum.sha256(bytes) == sha256
    }
}
