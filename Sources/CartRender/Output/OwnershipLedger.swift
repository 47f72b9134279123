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
///
/// Baseline frames are checked by their pixels too: beside a recorded frame's line the ledger
/// has a comment line `# pixels SHA256  NAME` (``PixelDigest``: the frame decoded to 8-bit
/// straight RGBA; `sha256sum -c` skips comment lines), and a PNG whose bytes differ but whose
/// decoded pixels match is still cartrender's: a PNG optimiser (oxipng, zopflipng, Imgbot)
/// rewrote it losslessly. A PNG whose pixels changed stays the user's.
struct OwnershipLedger: Equatable {
    static let fileName = ".cartrender-files.sha256"
    /// Largest ledger or manifest read (bytes).
    static let maxFileBytes = Manifest.maxFileBytes

    /// File name → lowercase hex SHA-256.
    var entries: [String: String] = [:]
    /// File name → ``PixelDigest`` of the PNG (baseline frames), lowercase hex.
    var pixels: [String: String] = [:]

    /// The comment that starts a pixel digest's line.
    static let pixelsPrefix = "# pixels "

    /// `SHA256  NAME` lines sorted by name, each followed by `# pixels DIGEST  NAME` when the
    /// name has a pixel digest.
    func serialized() -> [UInt8] {
        Array(entries.keys.sorted().map { name in
            "\(entries[name]!)  \(name)\n" + (pixels[name].map { "\(Self.pixelsPrefix)\($0)  \(name)\n" } ?? "")
        }.joined().utf8)
    }

    /// Parses `sha256sum` lines and `# pixels` lines; lines that are not `64 hex digits, two
    /// spaces, a plain name` (after the prefix) are skipped (they prove nothing).
    init(parsing bytes: [UInt8]) {
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let isPixels = line.hasPrefix(Self.pixelsPrefix)
            let parts = line.dropFirst(isPixels ? Self.pixelsPrefix.count : 0).split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[1].isEmpty, parts[0].count == 64,
                  parts[0].allSatisfy({ $0.isHexDigit && !$0.isUppercase }), Self.isPlainName(String(parts[2])) else { continue }
            if isPixels { pixels[String(parts[2])] = String(parts[0]) } else { entries[String(parts[2])] = String(parts[0]) }
        }
    }

    init(entries: [String: String] = [:], pixels: [String: String] = [:]) {
        self.entries = entries
        self.pixels = pixels
    }

    /// What cartrender can prove of one name in a directory (``provenance(of:)``): the SHA-256s
    /// of the bytes it wrote there, and, apart from them, the ``PixelDigest``s of a baseline
    /// frame's pixels.
    struct Known: Equatable {
        /// Lowercase hex SHA-256s of bytes, or ``OwnershipLedger/anyBytes``.
        var sha256s: Set<String> = []
        /// Lowercase hex ``PixelDigest``s (only names the ledger lists).
        var pixels: Set<String> = []
        /// Whether nothing is known.
        var isEmpty: Bool { sha256s.isEmpty && pixels.isEmpty }
    }

    /// Whether `name` is one file name in the directory: not empty, `.` or `..`, no `/`, no
    /// line break (the ledger and the journal are line based).
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\n") && !name.contains("\t")
    }

    /// Everything cartrender can prove it wrote in `directory`: for each name, the SHA-256s
    /// (and, kept apart, the pixel digests) that its ledger or any of its manifests give (a file is cartrender's when its bytes
    /// match any of them: the ledger and a manifest merged by hand from two branches may each
    /// be right about a file). A manifest that reads as cartrender's is its own. Only regular
    /// files of the running user are read.
    static func provenance(of directory: DirectoryHandle) -> [String: Known] {
        var known: [String: Known] = [:]
        let names = directory.names() ?? []
        let manifests = ["manifest.json", Manifest.supersededFileName] + names.filter(Manifest.isShardFileName)
        for m in manifests {
            guard let bytes = ownFile(m, in: directory), let manifest = try? Manifest(json: bytes) else { continue }
            known[m, default: Known()].sha256s.insert(Checksum.sha256(bytes))
            for file in manifest.frames.flatMap(\.files) + manifest.outputs where isPlainName(file.name) {
                known[file.name, default: Known()].sha256s.insert(file.sha256)
            }
        }
        if let bytes = ownFile(fileName, in: directory) {
            let ledger = OwnershipLedger(parsing: bytes)
            for (name, sha) in ledger.entries { known[name, default: Known()].sha256s.insert(sha) }
            for (name, digest) in ledger.pixels where ledger.entries[name] != nil { known[name, default: Known()].pixels.insert(digest) }
            known[fileName, default: Known()].sha256s.insert(Checksum.sha256(bytes))
        } else if let bytes = ownFile(ReportWriter.jsonName, in: directory), let images = ReportWriter.filesListed(inReport: bytes) {
            // A report written before ledgers existed: its report.json reads as cartrender's, so
            // its files are cartrender's (their bytes are not listed anywhere). Its next commit
            // writes a ledger, and the usual rule holds from then on.
            for name in [ReportWriter.jsonName, ReportWriter.junitName, ReportWriter.htmlName] + images {
                known[name, default: Known()].sha256s.insert(anyBytes)
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
    ///   - replacement: the ``PixelDigest`` of the PNG about to replace the file, when known: a
    ///     file the ledger lists without a pixel digest (written before ledgers had them) whose
    ///     pixels are exactly those is adopted (`verify --record all` with the scene it was
    ///     recorded from).
    static func refusal(of name: String, in directory: DirectoryHandle, known: [String: Known], sha256: inout String?,
                        checkingBytes: Bool = true, replacement: String? = nil) -> String? {
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
        guard expected.sha256s.contains(actual) || expected.sha256s.contains(anyBytes) else {
            return pixelRefusal(name, bytes, known: expected.pixels, replacement: replacement, sha256: actual, &sha256)
        }
        sha256 = actual
        return nil
    }

    /// For a file whose bytes are not those cartrender wrote: nil (setting `sha256` to
    /// `actual`) when it is a PNG whose decoded pixels match a recorded pixel digest (or, with no
    /// digest recorded, `replacement`), else why it is left alone.
    private static func pixelRefusal(_ name: String, _ bytes: [UInt8], known: Set<String>, replacement: String?, sha256 actual: String,
                                     _ sha256: inout String?) -> String? {
        let leftAlone = "it is left alone: remove it, or write somewhere else"
        let isPNG = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
        let accepted = known.isEmpty ? replacement.map { [$0] } ?? [] : known
        if isPNG, !accepted.isEmpty, let digest = PixelDigest.of(png: bytes), accepted.contains(digest) {
            sha256 = actual
            return nil
        }
        guard isPNG else {
            return "has changed since cartrender wrote it (its SHA-256 is not the one its manifest lists); \(leftAlone)"
        }
        guard !known.isEmpty else {
            return "has changed since cartrender wrote it (its SHA-256 is not the one its manifest lists, and the ownership ledger, "
                + "written before ledgers recorded pixels, cannot tell a lossless rewrite by a PNG optimiser from an edit: one "
                + "`cartrender verify --record all` with the scene it was recorded from adopts such a baseline); \(leftAlone)"
        }
        return "has changed since cartrender wrote it (neither its bytes nor its decoded pixels are those cartrender wrote); \(leftAlone)"
    }
}
