import CartRenderCore
import CartRenderRaster
import Foundation

/// What cartrender can prove it wrote in a directory: the name and SHA-256 of every file a
/// commit moved in (`StagingArea`), kept in the directory as `.cartrender-files.sha256` in the
/// format of `sha256sum` (so `sha256sum -c .cartrender-files.sha256` checks it by hand).
///
/// A file at a name cartrender is about to replace or remove is its own only when it is a
/// regular file of the running user whose bytes match the SHA-256 that the ledger, or an
/// earlier cartrender manifest in the directory (`manifest.json`, the superseded manifest,
/// shard manifests: their frames' and outputs' `sha256`), gives for that name. A manifest
/// written before ledgers existed is its own when it reads as a cartrender manifest, and so are
/// the files of a report directory without a ledger whose `report.json` reads as cartrender's
/// (its `report.json`, `junit.xml`, `index.html` and the images it lists). Anything
/// else — a user's `index.html`, a web app's `manifest.json`, a frame edited since, a link, a
/// file of another user — is left alone.
struct OwnershipLedger: Equatable {
    static let fileName = ".cartrender-files.sha256"
    /// Largest ledger or manifest read (bytes).
    static let maxFileBytes = Manifest.maxFileBytes

    /// File name → lowercase hex SHA-256.
    var entries: [String: String] = [:]

    /// `SHA256  NAME` lines sorted by name.
    func serialized() -> [UInt8] {
        Array(entries.keys.sorted().map { "\(entries[$0]!)  \($0)\n" }.joined().utf8)
    }

    /// Parses `sha256sum` lines; lines that are not `64 hex digits, two spaces, a plain name`
    /// are skipped (they prove nothing).
    init(parsing bytes: [UInt8]) {
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[1].isEmpty, parts[0].count == 64,
                  parts[0].allSatisfy({ $0.isHexDigit && !$0.isUppercase }), Self.isPlainName(String(parts[2])) else { continue }
            entries[String(parts[2])] = String(parts[0])
        }
    }

    init(entries: [String: String] = [:]) { self.entries = entries }

    /// Whether `name` is one file name in the directory: not empty, `.` or `..`, no `/`, no
    /// line break (the ledger and the journal are line based).
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\n") && !name.contains("\t")
    }

    /// Everything cartrender can prove it wrote in `directory`: for each name, the SHA-256s
    /// that its ledger or any of its manifests give (a file is cartrender's when its bytes
    /// match any of them: the ledger and a manifest merged by hand from two branches may each
    /// be right about a file). A manifest that reads as cartrender's is its own. Only regular
    /// files of the running user are read.
    static func provenance(of directory: DirectoryHandle) -> [String: Set<String>] {
        var known: [String: Set<String>] = [:]
        let names = directory.names() ?? []
        let manifests = ["manifest.json", Manifest.supersededFileName] + names.filter(Manifest.isShardFileName)
        for m in manifests {
            guard let bytes = ownFile(m, in: directory), let manifest = try? Manifest(json: bytes) else { continue }
            known[m, default: []].insert(Checksum.sha256(bytes))
            for file in manifest.frames.flatMap(\.files) + manifest.outputs where isPlainName(file.name) {
                known[file.name, default: []].insert(file.sha256)
            }
        }
        if let bytes = ownFile(fileName, in: directory) {
            for (name, sha) in OwnershipLedger(parsing: bytes).entries { known[name, default: []].insert(sha) }
            known[fileName, default: []].insert(Checksum.sha256(bytes))
        } else if let bytes = ownFile(ReportWriter.jsonName, in: directory), let images = ReportWriter.filesListed(inReport: bytes) {
            // A report written before ledgers existed: its report.json reads as cartrender's, so
            // its files are cartrender's (their bytes are not listed anywhere). Its next commit
            // writes a ledger, and the usual rule holds from then on.
            for name in [ReportWriter.jsonName, ReportWriter.junitName, ReportWriter.htmlName] + images {
                known[name, default: []].insert(anyBytes)
            }
        }
        return known
    }

    /// Stands, in ``provenance(of:)``, for "any bytes": a file of an earlier report that predates
    /// ledgers (never a SHA-256, which is 64 hex digits).
    static let anyBytes = "*"

    /// The bytes of `name` when it is a regular file of the running user (not a link).
    static func ownFile(_ name: String, in directory: DirectoryHandle) -> [UInt8]? {
        guard let info = directory.info(name), info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else { return nil }
        return try? directory.read(name, limit: maxFileBytes)
    }

    /// Why the entry `name` of `directory` is not cartrender's to replace or remove, as the end
    /// of a sentence that starts with its path; nil when it is (or when there is nothing there).
    /// - Parameters:
    ///   - known: ``provenance(of:)``.
    ///   - sha256: set to the file's SHA-256 when it is cartrender's.
    ///   - checkingBytes: also hash the file and compare (false: a quick check before a run,
    ///     which leaves that to the commit).
    static func refusal(of name: String, in directory: DirectoryHandle, known: [String: Set<String>], sha256: inout String?,
                        checkingBytes: Bool = true) -> String? {
        sha256 = nil
        guard let info = directory.info(name) else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "is a directory; cartrender will not replace it"
        case S_IFLNK: return "is a symbolic link, which cartrender never writes; it is left alone: remove it, or write somewhere else"
        default: return "is not a regular file; it is left alone: remove it, or write somewhere else"
        }
        guard info.st_uid == geteuid() else {
            return "belongs to another user (uid \(info.st_uid)); it is left alone: remove it, or write somewhere else"
        }
        guard let expected = known[name], !expected.isEmpty else {
            return "was not written by cartrender (no manifest in \(directory.path) lists it); it is left alone: remove it, or write somewhere else"
        }
        guard checkingBytes else { return nil }
        guard let bytes = try? directory.read(name, limit: maxFileBytes) else {
            return "cannot be read to check that cartrender wrote it; it is left alone"
        }
        let actual = Checksum.sha256(bytes)
        guard expected.contains(actual) || expected.contains(anyBytes) else {
            return "has changed since cartrender wrote it (its SHA-256 is not the one its manifest lists); it is left alone: remove it, or write somewhere else"
        }
        sha256 = actual
        return nil
    }
}
