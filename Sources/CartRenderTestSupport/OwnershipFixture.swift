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

    /// Adds (or updates) ledger lines for `names` in `directory` with their bytes' SHA-256.
    public static func adopt(_ names: [String], in directory: String) throws {
        let ledger = (directory as NSString).appendingPathComponent(ledgerName)
        var entries: [String: String] = [:]
        if let text = try? String(contentsOfFile: ledger, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                if parts.count == 3 { entries[String(parts[2])] = String(parts[0]) }
            }
        }
        for name in names {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: (directory as NSString).appendingPathComponent(name)))
            entries[name] = Checksum.sha256(Array(bytes))
        }
        try entries.keys.sorted().map { "\(entries[$0]!)  \($0)\n" }.joined()
            .write(toFile: ledger, atomically: true, encoding: .utf8)
    }
}
