import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

/// `cartrender merge DIR… [--out DIR] [--quiet]`: joins the outputs of `--shard` runs.
struct MergeCommand {
    var directories: [String] = []
    /// nil = the first directory.
    var out: String?
    var quiet = false

    static let options = OptionTable<MergeCommand>([
        Option("--out", short: "-o", "DIR", "Where the merged frames and manifest.json go (default: the first DIR).", .text) { $0.out = $1 },
        .help,
        Option("--quiet", "No summary line.") { $0.quiet = true },
    ])

    /// Parses merge arguments (after `merge`).
    /// - Throws: `UsageError`.
    static func parse(_ arguments: [String]) throws -> MergeCommand {
        var c = MergeCommand()
        c.directories = try options.parse(arguments, into: &c) { dirs in
            guard !dirs.isEmpty else { throw UsageError("merge needs at least one directory with shard manifests") }
        }.positionals
        return c
    }

    /// Merges; prints `merged N frames into OUT/manifest.json` on stderr unless ``quiet``.
    /// - Throws: what `ShardMerge.merge` throws.
    func run() throws -> ExitCode {
        let interrupts = InterruptWatcher()
        defer { interrupts.stop() }
        let out = self.out ?? directories[0]
        let n = try interrupts.during(.merge(out: out)) {
            try ShardMerge.merge(directories, into: out, cancellation: interrupts.cancellation)
        }
        if !quiet {
            Stderr.line("merged \(n) frames into \(out)/manifest.json")
        }
        return .success
    }
}
