import CartRenderCore
import CartRenderRaster
import Foundation

/// A problem joining shard manifests (exit 65: the shards do not make one render).
public struct MergeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sentence, naming the directory or shard manifest and what is wrong with it.
    public var message: String
    /// A named directory is missing or unreadable (exit 66) rather than inconsistent (exit 65).
    public var missingInput = false
    /// The sentence (``message``).
    public var description: String { message }
}

extension MergeError: ReportableError {
    /// 66 when a shard manifest is missing, 65 when one is wrong.
    public var exitCode: ExitCode { missingInput ? .noInput : .dataError }
}

/// Joins the outputs of `cartrender --shard K/N` runs into one render: checks that the shards
/// belong to the same render (scene, fps, scale, software), together cover every frame of it
/// once, name only their own frame files (`frame_NNNN.png` / `.svg`, NNNN the frame's index:
/// never a path), and that each frame file exists and matches the SHA-256 its shard manifest
/// gives; copies frame files into the output directory, and writes `manifest.json` —
/// byte-identical to the manifest a single run would have written.
public enum ShardMerge {
    /// Merges the shard manifests found in `directories` into `output`.
    /// - Parameter cancellation: stops the merge between frames and while it waits for the
    ///   output directory's lock (SIGINT, SIGTERM); the output directory is then as it was.
    /// - Returns: the number of frames in the merged render.
    /// - Throws: `MergeError` for missing, duplicate or inconsistent shards and frames, and for
    ///   a shard manifest entry that is missing or not a plain frame file name (naming the
    ///   manifest and the entry, `frames[3].file`); `OutputError` when files cannot be written;
    ///   `RenderCancelled` when `cancellation` was cancelled.
    @discardableResult
    public static func merge(_ directories: [String], into output: String, cancellation: RenderCancellation? = nil) throws -> Int {
        struct Shard { var dir: String; var file: String; var manifest: Manifest; var k: Int; var n: Int }
        var shards: [Shard] = []
        for dir in directories {
            // A shard directory is read only whole: a commit a killed run left half done is undone first.
            try StagingArea.recoverInterruptedCommits(in: dir, cancellation: cancellation)
            guard let names = FileSystemPath.contentsOfDirectory(dir) else {
                var info = stat()
                let exists = FileSystemPath.stat(dir, &info) == 0
                let reason = !exists ? "no such directory" : (info.st_mode & S_IFMT) != S_IFDIR ? "is not a directory (merge takes shard directories)"
                    : "cannot be read"
                throw MergeError(message: "\(dir): \(reason)", missingInput: true)
            }
            for name in names.sorted() where Manifest.isShardFileName(name) {
                let path = (dir as NSString).appendingPathComponent(name)
                let manifest = try shardManifest(at: path)
                guard let (k, n) = manifest.shard else { throw MergeError(message: "\(path): not a shard manifest written by cartrender") }
                shards.append(Shard(dir: dir, file: name, manifest: manifest, k: k, n: n))
            }
        }
        guard let first = shards.first else { throw MergeError(message: "no shard manifests (shard-K-of-N.json) in \(directories.joined(separator: ", "))") }
        let n = first.n
        let render = try identity(first.manifest)
        for s in shards {
            guard s.n == n else { throw MergeError(message: "\(s.dir)/\(s.file) is shard \(s.k) of \(s.n), but \(first.file) says \(n) shards") }
            guard try identity(s.manifest) == render else {
                throw MergeError(message: "\(s.dir)/\(s.file) belongs to a different render than \(first.dir)/\(first.file) (scene, options or software differ)")
            }
        }
        let ks = shards.map(\.k).sorted()
        guard ks == Array(1...n) else {
            let missing = Set(1...n).subtracting(ks).sorted()
            if !missing.isEmpty {
                // Which shards were found where, and which directories held none: the sentence
                // says what to add to the command line.
                let found = Array(Set(ks)).sorted()
                let named = directories.enumerated().filter { i, d in !directories[..<i].contains(d) }.map(\.element)
                var m = "shard\(missing.count == 1 ? "" : "s") \(ranges(missing)) of \(n) \(missing.count == 1 ? "is" : "are") missing"
                m += "; found shard\(found.count == 1 ? "" : "s") \(ranges(found)) in \(named.filter { d in shards.contains { $0.dir == d } }.joined(separator: ", "))"
                let empty = named.filter { d in !shards.contains { $0.dir == d } }
                if !empty.isEmpty { m += "; \(empty.joined(separator: ", ")) \(empty.count == 1 ? "holds" : "hold") no shard manifest" }
                throw MergeError(message: m)
            }
            throw MergeError(message: "a shard appears more than once: \(ks.map(String.init).joined(separator: ", "))")
        }
        // Frames by index, each once, every one of the render's.
        var byIndex: [Int: (frame: Manifest.Frame, shard: Shard)] = [:]
        let frameCount = first.manifest.frameCount
        for s in shards {
            for f in s.manifest.frames {
                if byIndex[f.index] != nil { throw MergeError(message: "frame \(f.index) appears in more than one shard") }
                byIndex[f.index] = (f, s)
            }
        }
        let indices = byIndex.keys.sorted()
        if indices.count != frameCount {
            let missing = Set(0..<frameCount).subtracting(indices).sorted().prefix(10)
            throw MergeError(message: "frames are missing: \(missing.map(String.init).joined(separator: ", "))")
        }
        let out = try OutputDirectory(path: output)
        // Like a render: gather into a staging directory and move everything into place at the
        // end, so a failed merge leaves the output directory as it was.
        let staging: StagingArea
        do { staging = try StagingArea(in: out, cancellation: cancellation) } catch {
            out.removeCreatedDirectories()
            throw error
        }
        do {
            let outPath = URL(fileURLWithPath: output).standardizedFileURL.path
            var staged: [String] = [], inPlaceNames: [String] = []
            for i in indices {
                if cancellation?.isCancelled == true { throw RenderCancelled() }
                let (frame, shard) = byIndex[i]!
                let inPlace = URL(fileURLWithPath: shard.dir).standardizedFileURL.path == outPath
                for file in frame.files {
                    let source = (shard.dir as NSString).appendingPathComponent(file.name)
                    // A link at a frame's name is not followed: frames are read from inside the shard directory.
                    let read: [UInt8]?
                    do { read = try RegularFile.readIfPresent(file.name, inDirectory: shard.dir, limit: PNGDecoder.maxFileBytes) } catch {
                        throw MergeError(message: "\(source) \(error.reason(notA: "a frame file"))")
                    }
                    guard let bytes = read else { throw MergeError(message: "\(source) is listed in \(shard.file) but missing") }
                    // A partly downloaded or overwritten frame must not make a complete render.
                    guard Checksum.sha256(bytes) == file.sha256 else {
                        throw MergeError(message: "\(source) does not match its SHA-256 in \(shard.file) (damaged, or written by another run)")
                    }
                    if inPlace { inPlaceNames.append(file.name); continue }
                    try staging.write(bytes, to: file.name)
                    staged.append(file.name)
                }
            }
            // The single-run manifest: the shared members with the frames in index order.
            var merged = first.manifest
            merged.shard = nil
            merged.frames = indices.map { byIndex[$0]!.frame }
            try staging.write(Array(try merged.serialized().utf8), to: "manifest.json")
            // Like a render, the merge replaces what an earlier complete render in the directory
            // wrote: its frames that the merged render does not have are removed.
            // The shard manifests in the directory go with the earlier run's files.
            try staging.commit(files: staged, inPlace: inPlaceNames, manifest: "manifest.json", removeEarlierRun: true)
        } catch {
            staging.discard()
            out.removeCreatedDirectories()
            throw error
        }
        return indices.count
    }

    /// Reads the shard manifest at `path` and checks what merge trusts it for: every frame is
    /// one of the render's and names its files by plain frame file names, there are no other
    /// outputs, and every state is of its screen's type (`Manifest.statesProblem`, as `view`
    /// checks).
    /// - Throws: `MergeError` naming `path`, and the entry when one is at fault.
    static func shardManifest(at path: String) throws -> Manifest {
        let data: [UInt8]
        do { data = try RegularFile.read(path, limit: Manifest.maxFileBytes) } catch {
            // A FIFO or a directory named like a shard manifest is refused, not waited on (66).
            var e = MergeError(message: "\(path) \(error.reason(notA: "a shard manifest"))")
            e.missingInput = error.exitCode == .noInput
            throw e
        }
        let manifest: Manifest
        do { manifest = try Manifest(json: data) } catch let e as DecodingError where !e.jsonPath.isEmpty {
            throw MergeError(message: "\(path): \(e.jsonPath): \(e.reason)")
        } catch {
            throw MergeError(message: "\(path): not a shard manifest written by cartrender")
        }
        if let problem = manifest.shardProblem(frameExtensions: OutputFormat.frameExtensions) ?? manifest.statesProblem {
            throw MergeError(message: singleLine("\(path): \(problem)"))
        }
        return manifest
    }


    /// What every shard of one render shares: its manifest without frames and shard.
    private static func identity(_ manifest: Manifest) throws -> JSONValue {
        var m = manifest
        m.frames = []
        m.shard = nil
        return try JSONValue(encoding: m)
    }

    /// `1-3, 5, 7-9`: sorted whole numbers as runs.
    private static func ranges(_ sorted: [Int]) -> String {
        var runs: [String] = []
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count && sorted[j + 1] == sorted[j] + 1 { j += 1 }
            runs.append(j > i ? "\(sorted[i])-\(sorted[j])" : "\(sorted[i])")
            i = j + 1
        }
        return runs.joined(separator: ", ")
    }
}
