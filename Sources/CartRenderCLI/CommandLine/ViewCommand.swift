import CartRender
import CartRenderCore
import Foundation

/// `cartrender view DIR`: (re)writes `DIR/index.html`, the viewer of an existing render
/// (``ViewerPage``), from `DIR/manifest.json`. The page is the one `render --viewer` writes for
/// the same run, byte for byte. It is written atomically under the directory's lock; nothing
/// else in `DIR` changes (the manifest does not list a page written this way).
///
/// On the top directory of a variant matrix render (`variants.json`, no `manifest.json`) it
/// writes each listed variant's page, then `DIR/index.html` linking them (``VariantsIndexPage``),
/// as `render --viewer` does for the matrix.
public struct ViewCommand: Equatable, Sendable {
    /// The render directory whose viewer pages are written.
    public var directory = ""
    /// No summary line (`--quiet`).
    public var quiet = false

    /// A command with no directory yet; set ``directory``.
    public init() {}

    static let options = OptionTable<ViewCommand>([
        .quiet(\.quiet, help: "No summary line."),
        .help,
    ])

    /// Parses view arguments (after `view`).
    /// - Throws: `UsageError`.
    public static func parse(_ arguments: [String]) throws -> ViewCommand {
        var c = ViewCommand()
        c.directory = try options.parse(arguments, into: &c) { positionals in
            guard positionals.count == 1, !positionals[0].isEmpty else {
                throw UsageError("view: expected one render directory (with manifest.json), got \(positionals.count) argument\(positionals.count == 1 ? "" : "s")")
            }
        }.positionals[0]
        return c
    }

    /// Reads the manifest and writes the page.
    /// - Throws: ``InputError``: 66 for a missing directory or manifest, or a frame file the
    ///   manifest lists that is not in the directory (the first one); 65 for a path that is not a
    ///   directory, or a manifest that is not JSON (line, column), not a manifest (its JSON path)
    ///   or whose numbers contradict themselves (``Manifest/numbersProblem``); `OutputError` (73)
    ///   when the page cannot be written.
    public func run() throws -> ExitCode {
        if FileSystemPath.isDirectory(directory) == true, let listing = try VariantsFile.read(in: directory) {
            let pages = try listing.variants.map { v in try Self.readManifest(in: try OutputDirectory.subdirectory(v.directory, of: directory)) }
            for (v, manifest) in zip(listing.variants, pages) {
                try Self.writePage(ViewerPage.html(for: manifest), in: (directory as NSString).appendingPathComponent(v.directory))
            }
            let page = try Self.writePage(VariantsIndexPage.html(for: listing), in: directory)
            if !quiet {
                let n = listing.variants.count
                Stderr.line("wrote \(page) and the page of each of its \(n) variant\(n == 1 ? "" : "s")")
            }
            return .success
        }
        let manifest = try Self.readManifest(in: directory)
        let page = try Self.writePage(ViewerPage.html(for: manifest), in: directory)
        if !quiet {
            Stderr.line("wrote \(page) (\(manifest.frames.count) frame\(manifest.frames.count == 1 ? "" : "s"))")
        }
        return .success
    }

    /// Writes `html` as `directory/index.html`, atomically under the directory's lock.
    /// - Returns: the page's path.
    /// - Throws: `OutputError` (73).
    @discardableResult
    static func writePage(_ html: String, in directory: String) throws -> String {
        let out = try OutputDirectory(path: directory)
        try StagingArea.writeFiles([(ViewerSink.fileName, Array(html.utf8))], into: out)
        return out.url(ViewerSink.fileName)
    }

    /// `DIR/manifest.json`, read with the manifest's one reader, its numbers checked and its
    /// frame files found in `directory`.
    /// - Throws: as ``run()``, before anything is written.
    static func readManifest(in directory: String) throws -> Manifest {
        guard let isDirectory = FileSystemPath.isDirectory(directory) else {
            throw InputError(.unreadable, path: directory, reason: "no such directory")
        }
        guard isDirectory else { throw InputError(.invalid, path: directory, reason: "is not a directory (view takes the directory of a render)") }
        // A render is shown only whole: a commit a killed run left half done is undone first.
        try StagingArea.recoverInterruptedCommits(in: directory, cancellation: nil)
        let path = (directory as NSString).appendingPathComponent("manifest.json")
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(path, limit: Manifest.maxFileBytes) } catch {
            if error.problem == .missing {
                throw InputError(.unreadable, path: path, reason: "no such file: \(directory) is not the directory of a finished render")
            }
            throw InputError(error.exitCode == .noInput ? .unreadable : .invalid, path: path, reason: error.reason(notA: "a manifest file"))
        }
        let manifest: Manifest
        do { manifest = try Manifest(json: bytes) } catch let e as JSONSyntaxError {
            throw InputError(.invalid, path: path, reason: "line \(e.location.line), column \(e.location.column): \(e.message)")
        } catch let e as DecodingError {
            throw InputError(.invalid, path: path, reason: (e.jsonPath.isEmpty ? "" : e.jsonPath + ": ") + e.reason)
        }
        if let problem = manifest.numbersProblem ?? manifest.statesProblem { throw InputError(.invalid, path: path, reason: problem) }
        guard !manifest.frames.isEmpty else { throw InputError(.invalid, path: path, reason: "frames: lists no frame") }
        guard manifest.frameCount >= manifest.frames.count, let last = manifest.frames.last, last.index < manifest.frameCount else {
            throw InputError(.invalid, path: path, reason: "frameCount: \(manifest.frameCount), but frames lists \(manifest.frames.count) frames"
                             + " up to index \(manifest.frames.last?.index ?? 0)")
        }
        for (position, frame) in manifest.frames.enumerated() {
            // Only the renderer's own file names: never a path out of the directory.
            for (k, file) in frame.files.enumerated()
            where !Manifest.isFrameFileName(file.name, index: frame.index, extensions: OutputFormat.frameExtensions) {
                let field = k == 0 ? "frames[\(position)].file" : "frames[\(position)].alternates[\(k - 1)].file"
                throw InputError(.invalid, path: path, reason: "\(field): not the file name of frame \(frame.index), got \(echoedQuoted(file.name))")
            }
            for file in frame.files {
                let full = (directory as NSString).appendingPathComponent(file.name)
                var info = stat()
                guard FileSystemPath.stat(full, &info) != 0 else { continue }
                throw InputError(.unreadable, path: full, reason: "no such file (\(path) lists it at frames[\(position)])")
            }
        }
        return manifest
    }
}

extension ViewCommand: ParsedCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "view", usage: "DIR", helpUsage: { ["DIR [--quiet]"] },
            abstract: ["write DIR/index.html, the viewer of a render"],
            overview: """
                write DIR/index.html, the viewer of a render, from DIR/manifest.json:
                one page (no network, frames by relative path) with a scrubber, play and pause at full
                and quarter speed, ← → Home End, each frame's state and the event list, and overlays of
                the flights' arc paths and the previous frame. `cartrender --viewer` writes the same page.
                On the top directory of a variant matrix render (variants.json) it writes each variant's
                page and DIR/index.html linking them, as `cartrender --viewer` does for a matrix.
                """,
            exitStatus: """
                  0 written · 64 bad command line · 65 DIR is not a directory, or its manifest is not one
                  or contradicts itself (fps, scale, size, frame indices) · 66 no such directory, no
                  manifest.json, or a frame file it lists is missing · 73 index.html cannot be written
                """,
            positionals: { .directories })
    }
}
