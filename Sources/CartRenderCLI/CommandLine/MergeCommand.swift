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
        .out("DIR", "Where the merged frames and manifest.json go (default: the first DIR).", .text) { $0.out = $1 },
        .help,
        .quiet(\.quiet, help: "No summary line."),
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

extension MergeCommand: ParsedCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "merge", usage: "DIR... [--out DIR]", helpUsage: { ["DIR... [--out DIR] [--quiet]"] },
            abstract: ["join the outputs of --shard runs"],
            overview: """
                join the outputs of `cartrender --shard K/N` runs: checks that the
                shard manifests (shard-K-of-N.json) belong to one render and cover every frame once, and
                that every frame file matches its SHA-256; gathers the frames and writes manifest.json,
                byte-identical to a single run. A failed merge leaves the output directory as it was.
                """,
            positionals: { .directories })
    }
}
