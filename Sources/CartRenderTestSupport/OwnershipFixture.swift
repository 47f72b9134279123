import CartRenderRaster
import Foundation

/// For tests that edit a baseline or an output directory by hand to stand for what a run of
/// cartrender would have left there (a frame of a changed render, an extra frame of a longer
/// recording): records the files' current SHA-256 in the directory's ownership ledger
/// (`.cartrender-files.sha256`), as the commit that wrote them would have. Without it,
/// cartrender rightly refuses to replace or remove files it cannot prove it wrote.
public enum OwnershipFixture {
    /// The ledger's file name in a directory (as `OwnershipLedger` names it).
    public static let ledgerName = ".cartrender-files.sha256"

    /// Adds (or updates) ledger lines for `names` in `directory` with their bytes' SHA-256
    /// (their `# pixels` lines, which describe the pixels before the edit, are dropped).
    public static func adopt(_ names: [String], in directory: String) throws {
        let ledger = (directory as NSString).appendingPathComponent(ledgerName)
        var entries: [String: String] = [:], pixels: [String: String] = [:]
        if let text = try? String(contentsOfFile: ledger, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let isPixels = line.hasPrefix(pixelsPrefix)
                let parts = line.dropFirst(isPixels ? pixelsPrefix.count : 0).split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count == 3 else { continue }
                if isPixels { pixels[String(parts[2])] = String(parts[0]) } else { entries[String(parts[2])] = String(parts[0]) }
            }
        }
        for name in names {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: (directory as NSString).appendingPathComponent(name)))
            entries[name] = Checksum.sha256(Array(bytes))
            pixels[name] = nil
        }
        try entries.keys.sorted().map { name in "\(entries[name]!)  \(name)\n" + (pixels[name].map { "\(pixelsPrefix)\($0)  \(name)\n" } ?? "") }.joined()
            .write(toFile: ledger, atomically: true, encoding: .utf8)
    }

    /// Removes the `# pixels` lines of the ledger in `directory`: a ledger as cartrender wrote
    /// it before ledgers recorded baseline frames' pixels.
    public static func forgetPixels(in directory: String) throws {
        let ledger = (directory as NSString).appendingPathComponent(ledgerName)
        let text = try String(contentsOfFile: ledger, encoding: .utf8)
        try text.split(separator: "\n").filter { !$0.hasPrefix(pixelsPrefix) }.map { $0 + "\n" }.joined()
            .write(toFile: ledger, atomically: true, encoding: .utf8)
    }

    /// The comment that starts a pixel digest's line in the ledger.
    public static let pixelsPrefix = "# pixels "
}
