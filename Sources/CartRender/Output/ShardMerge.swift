import CartRenderCore
import CartRenderRaster
import Foundation

/// A problem joining shard manifests (exit 65: the shards do not make one render).
public struct MergeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// A named directory is missing or unreadable (exit 66) rather than inconsistent (exit 65).
    public var missingInput = false
    public var description: String { message }
}

/// Joins the outputs of `cartrender --shard K/N` runs into one render: checks that the shards
/// belong to the same render (scene, fps, scale, software), together cover every frame once and
/// that each frame file matches the SHA-256 its shard manifest gives,
/// copies frame files into the output directory, and writes `manifest.json` — byte-identical to
/// the manifest a single run would have written.
public enum ShardMerge {
    /// Merges the shard manifests found in `directories` into `output`.
    /// - Parameter cancellation: stops the merge between frames and while it waits for the
    ///   output directory's lock (SIGINT, SIGTERM); the output directory is then as it was.
    /// - Returns: the number of frames in the merged render.
    /// - Throws: `MergeError` for missing, duplicate or inconsistent shards and frames;
    ///   `OutputError` when files cannot be written; `RenderCancelled` when cancelled.
    @discardableResult
    public static func merge(_ directories: [String], into output: String, cancellation: RenderCancellation? = nil) throws -> Int {
        struct Shard { var dir: String; var file: String; var k: Int; var n: Int; var members: [(String, JSONValue)]; var frames: [JSONNode] }
        var shards: [Shard] = []
        let pattern = try! NSRegularExpression(pattern: #"^shard-([0-9]+)-of-([0-9]+)\.json$"#)
        for dir in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else {
                throw MergeError(message: "\(dir): no such directory, or it cannot be read", missingInput: true)
            }
            for name in names.sorted() {
                guard pattern.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil else { continue }
                let path = (dir as NSString).appendingPathComponent(name)
                guard let data = FileManager.default.contents(atPath: path), let root = try? JSONParser.parse(Array(data)),
                      case .object(let members) = root.value else {
                    throw MergeError(message: "\(path): not a shard manifest written by cartrender")
                }
                func int(_ node: JSONNode?) -> Int? { if case .number(let v, _)? = node?.value { return Int(v) }; return nil }
                let shardNode = members.first { $0.key == "shard" }?.value
                guard case .object(let sm)? = shardNode?.value, let k = int(sm.first { $0.key == "index" }?.value),
                      let n = int(sm.first { $0.key == "count" }?.value),
                      case .array(let frames)? = members.first(where: { $0.key == "frames" })?.value.value else {
                    throw MergeError(message: "\(path): not a shard manifest written by cartrender")
                }
                shards.append(Shard(dir: dir, file: name, k: k, n: n,
                                    members: members.filter { $0.key != "shard" && $0.key != "frames" }.map { ($0.key, JSONValue($0.value)) },
                                    frames: frames))
            }
        }
        guard let first = shards.first else { throw MergeError(message: "no shard manifests (shard-K-of-N.json) in \(directories.joined(separator: ", "))") }
        let n = first.n
        for s in shards {
            guard s.n == n else { throw MergeError(message: "\(s.dir)/\(s.file) is shard \(s.k) of \(s.n), but \(first.file) says \(n) shards") }
            guard JSONValue.object(s.members) == JSONValue.object(first.members) else {
                throw MergeError(message: "\(s.dir)/\(s.file) belongs to a different render than \(first.dir)/\(first.file) (scene, options or software differ)")
            }
        }
        let ks = shards.map(\.k).sorted()
        guard ks == Array(1...n) else {
            let missing = Set(1...n).subtracting(ks).sorted()
            if !missing.isEmpty { throw MergeError(message: "shard \(missing.map(String.init).joined(separator: ", ")) of \(n) is missing") }
            throw MergeError(message: "a shard appears more than once: \(ks.map(String.init).joined(separator: ", "))")
        }
        // Frames by index, each once.
        var byIndex: [Int: (JSONNode, Shard)] = [:]
        for s in shards {
            for f in s.frames {
                guard case .object(let fm) = f.value, case .number(let v, _)? = fm.first(where: { $0.key == "index" })?.value.value else {
                    throw MergeError(message: "\(s.dir)/\(s.file): a frame has no index")
                }
                let i = Int(v)
                if byIndex[i] != nil { throw MergeError(message: "frame \(i) appears in more than one shard") }
                byIndex[i] = (f, s)
            }
        }
        let indices = byIndex.keys.sorted()
        if let lo = indices.first, let hi = indices.last, indices.count != hi - lo + 1 {
            let missing = Set(lo...hi).subtracting(indices).sorted().prefix(10)
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
                guard case .object(let fm) = frame.value else { continue }
                // (file, sha256) of the frame's primary file and its alternates.
                var files: [(name: String, sha256: String)] = []
                func add(_ members: [(key: String, keyLocation: SourceLocation, value: JSONNode)]) {
                    guard case .string(let name)? = members.first(where: { $0.key == "file" })?.value.value else { return }
                    let sha: String
                    if case .string(let s)? = members.first(where: { $0.key == "sha256" })?.value.value { sha = s } else { sha = "" }
                    files.append((name, sha))
                }
                add(fm)
                if let alts = fm.first(where: { $0.key == "alternates" }), case .array(let items) = alts.value.value {
                    for a in items { if case .object(let am) = a.value { add(am) } }
                }
                let inPlace = URL(fileURLWithPath: shard.dir).standardizedFileURL.path == outPath
                for (name, sha) in files where !name.contains("/") {
                    let source = (shard.dir as NSString).appendingPathComponent(name)
                    guard FileManager.default.isReadableFile(atPath: source) else {
                        throw MergeError(message: "\(source) is listed in \(shard.file) but missing")
                    }
                    guard let data = FileManager.default.contents(atPath: source) else {
                        throw MergeError(message: "\(source) cannot be read")
                    }
                    // A partly downloaded or overwritten frame must not make a complete render.
                    let bytes = [UInt8](data)
                    guard Checksum.sha256(bytes) == sha else {
                        throw MergeError(message: "\(source) does not match its SHA-256 in \(shard.file) (damaged, or written by another run)")
                    }
                    if inPlace { inPlaceNames.append(name); continue }
                    try staging.write(bytes, to: name)
                    staged.append(name)
                }
            }
            // The single-run manifest: the shared members with the frames in index order.
            var members = first.members
            let framesValue = JSONValue.array(indices.map { JSONValue(byIndex[$0]!.0) })
            let at = members.firstIndex { $0.0 == "outputs" } ?? members.count
            members.insert(("frames", framesValue), at: at)
            try staging.write(Array(JSONValue.object(members).serialized(pretty: true).utf8), to: "manifest.json")
            // Like a render, the merge replaces what an earlier complete render in the directory
            // wrote: its frames that the merged render does not have are removed.
            try staging.commit(files: staged, inPlace: inPlaceNames, manifest: "manifest.json", removeEarlierRun: true)
            for s in shards where URL(fileURLWithPath: s.dir).standardizedFileURL.path == outPath { out.remove(s.file) }
        } catch {
            staging.discard()
            out.removeCreatedDirectories()
            throw error
        }
        return indices.count
    }
}
