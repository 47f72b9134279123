import CartRenderCore
import CartRenderRaster
import Foundation

/// The renames of one commit into a directory, written into the staging directory (`.journal`,
/// `fsync`ed) before the first of them, so that whatever instant a run is killed at, the next
/// run can tell what was done and undo it: the directory is then byte for byte the earlier
/// complete run, or — when the last step, the ownership ledger, is in place — the new one.
///
/// Each step names a file and the SHA-256 of its bytes. Recovery acts on a file only when its
/// bytes match: a journal cannot make cartrender move or remove anything it did not write.
///
/// Text format, one step a line after the header `cartrender-journal 1`, fields separated by tabs:
/// `aside SHA NAME` (`DIR/NAME` → `STAGING/.aside.NAME`), `movein SHA NAME` (`STAGING/NAME` →
/// `DIR/NAME`), `rename SHA NAME NEWNAME` (`DIR/NAME` → `DIR/NEWNAME`).
struct CommitJournal: Equatable {
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
    /// Largest journal read (bytes).
    static let maxFileBytes = 64 << 20

    var steps: [Step]

    init(steps: [Step]) { self.steps = steps }

    func serialized() -> [UInt8] {
        var text = Self.header + "\n"
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
        for line in lines.dropFirst().dropLast() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 3, f[1].count == 64, f[1].allSatisfy(\.isHexDigit), f.dropFirst(2).allSatisfy(OwnershipLedger.isPlainName) else { return nil }
            switch (f[0], f.count) {
            case ("aside", 3): steps.append(.setAside(f[2], sha256: f[1]))
            case ("movein", 3): steps.append(.moveIn(f[2], sha256: f[1]))
            case ("rename", 4): steps.append(.rename(f[2], to: f[3], sha256: f[1]))
            default: return nil
            }
        }
        self.steps = steps
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
    func rollBack(directory: DirectoryHandle, staging: DirectoryHandle) -> Undone {
        var undone = Undone()
        let replacing = Set(steps.compactMap { step -> String? in if case .setAside(let n, _) = step { return n }; return nil })
        for step in steps.reversed() {
            switch step {
            case .moveIn(let n, let sha):
                guard !staging.contains(n), Self.holds(directory, n, sha) else { continue }
                if directory.rename(n, to: staging, as: n) == 0 {
                    if !replacing.contains(n) { undone.removed += 1 }
                } else {
                    undone.failed.append(n)
                }
            case .setAside(let n, let sha):
                let aside = Self.asidePrefix + n
                guard staging.contains(aside) else { continue }
                guard Self.holds(staging, aside, sha), !directory.contains(n), staging.rename(aside, to: directory, as: n) == 0 else {
                    undone.failed.append(n)
                    continue
                }
                undone.restored += 1
            case .rename(let n, let newName, let sha):
                guard !directory.contains(n), Self.holds(directory, newName, sha) else { continue }
                if directory.rename(newName, to: directory, as: n) == 0 { undone.restored += 1 } else { undone.failed.append(n) }
            }
        }
        return undone
    }

    /// Whether `name` in `directory` is a regular file of the running user with these bytes.
    static func holds(_ directory: DirectoryHandle, _ name: String, _ sha256: String) -> Bool {
        guard let bytes = OwnershipLedger.ownFile(name, in: directory) else { return false }
        return Checksum.sha256(bytes) == sha256
    }
}
