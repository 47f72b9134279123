import CartRenderCore
import CartRenderRaster
import Foundation

/// The baseline directory as one `verify` run sees and changes it.
///
/// - **Locked for the whole run** (`DirectoryLock`): shared when the record mode writes nothing,
///   exclusive otherwise, taken before the first frame is read. A render moving its frames into
///   the directory holds the exclusive lock, so verify never compares (or records over) a
///   half-moved render, and a render waits for a verify that may record.
/// - **Recordings are staged**: frames to record go to a staging directory inside the baseline
///   (`StagingArea`), removed extra frames are only noted, and `commit` moves everything into
///   place at the end as one step. A verify that fails or is interrupted leaves the baseline as
///   it was.
/// - **Baselines keep their manifest.** A recording into a directory without manifests writes
///   `manifest.json` (``Manifest/baseline`` set): the render's manifest of the recorded frames,
///   each entry with the frame's `state`. A later recording rewrites the entries of the frames
///   it records (file, SHA-256, state), adds those of new frames and drops those of removed
///   extra frames; the rest of the manifest (scene, events, software) becomes this render's
///   when every frame it lists was recorded by this run or agrees with it (pixels and state),
///   and stays as it was otherwise; so a recording after the scene, fps, scale or size changed
///   is allowed. ``expected`` is the `manifest.json` as the run began (a baseline's or a
///   render's), for comparing states, events and software (``ManifestComparison``).
/// - **Manifests stay true.** When the baseline holds a render's `manifest.json` or shard
///   manifests (it is a render's output directory), recording is allowed only when they describe the render
///   being verified — same scene hash, fps, scale and size, PNG frames: then the recorded frames
///   are exactly what that render would write, and `commit` rewrites the manifests to match
///   (the recorded frames' `sha256`, entries for recorded frames a `manifest.json` did not list,
///   no entries for removed extra frames). Otherwise the first frame to record or remove stops
///   the run with an `OutputError` (exit 73), before anything in the directory changed.
final class BaselineDirectory: @unchecked Sendable {
    let path: String
    /// Whether the directory existed when the run began; frames are read from it only then.
    let existed: Bool
    private let renderer: Renderer
    private var lock: DirectoryLock?
    /// Set when this run created the directory (a recording run into a new baseline).
    private let created: OutputDirectory?
    /// The manifests in the directory, by file name (`manifest.json` first, then shard
    /// manifests by name), when the record mode writes.
    private let manifests: [(name: String, manifest: Manifest)]
    /// Why nothing may be recorded here, when the manifests describe another render.
    private let refusal: OutputError?
    /// The baseline's `manifest.json` as the run began (a baseline's or a render's), when it
    /// exists and can be read; nil otherwise (then ``expectedProblem`` says why).
    let expected: Manifest?
    /// Why states cannot be compared, as a sentence: the existing baseline has no
    /// `manifest.json`, or it cannot be read as one; nil when ``expected`` is set or the
    /// directory did not exist.
    let expectedProblem: String?
    /// The frames the shard manifests list, when the directory holds shard manifests and no
    /// `manifest.json` (a frame none of them lists has no manifest to go into).
    private let listedByShards: Set<Int>?
    private let state = LockedValue(Changes())
    /// Pixel digests by the SHA-256 of the PNG they were computed for: a run of equal frames
    /// (one PNG) is decoded and hashed once, not once per frame.
    private let pixelDigests = LockedValue([String: String]())

    private struct Changes {
        var staging: StagingArea?
        /// Recorded frames by index: their manifest entries (file, SHA-256, state).
        var recorded: [Int: Manifest.Frame] = [:]
        /// Extra frames to remove.
        var removed: [String] = []
    }

    /// Takes the lock on the baseline at `path` (creating the directory when the record mode
    /// writes and it is missing) and reads its manifests.
    /// - Throws: `RenderCancelled` when `cancellation` was cancelled while waiting for the lock;
    ///   `OutputError` when the directory cannot be created; ``InputError`` when it cannot be
    ///   opened.
    init(path: String, record: RecordMode, renderer: Renderer, cancellation: RenderCancellation?) throws {
        self.path = path
        self.renderer = renderer
        existed = FileSystemPath.isDirectory(path) == true
        created = record != .never && !existed ? try OutputDirectory(path: path) : nil
        let cannotOpen = { (e: Int32) -> Error in InputError(.unreadable, path: path, reason: "cannot be read (\(OutputDirectory.describe(e)))") }
        do {
            // A baseline is compared only whole: what a killed recording left half moved is undone first.
            if record != .never {
                lock = try DirectoryLock(path, .exclusive, cancellation: cancellation, cannotOpen: cannotOpen)
                try StagingArea.recoverInterruptedCommits(in: path, holding: lock, cancellation: cancellation)
            } else if existed {
                // A verify that records nothing changes nothing in BASE, not even to repair it.
                lock = try DirectoryLock(path, .shared, cancellation: cancellation, cannotOpen: cannotOpen)
                try StagingArea.refuseHalfCommitted(path, reader: "a verify that records nothing")
            }
        } catch {
            created?.removeCreatedDirectories()
            throw error
        }
        let file = (path as NSString).appendingPathComponent("manifest.json")
        let main = existed ? Self.readManifest(file) : nil
        if case .success(let m)? = main { expected = m } else { expected = nil }
        switch main {
        case nil where existed:
            expectedProblem = "\(path) has no manifest.json: comparing pixels only, not states (verify --record all writes one)"
        case .failure(let why)?:
            expectedProblem = "\(file): \(why): comparing pixels only, not states"
        default:
            expectedProblem = nil
        }
        if record != .never && existed {
            (manifests, refusal) = Self.readManifests(in: path, for: renderer, main: main)
        } else {
            (manifests, refusal) = ([], nil)
        }
        listedByShards = manifests.contains { $0.name == "manifest.json" } || manifests.isEmpty ? nil
            : Set(manifests.flatMap { $0.manifest.frames.map(\.index) })
    }

    /// The manifest at `file`, or why it cannot be read as one (`cannot be read as a manifest
    /// (…)`); nil when there is no such file.
    private static func readManifest(_ file: String) -> Result<Manifest, ManifestProblem>? {
        guard FileSystemPath.isDirectory(file) != nil else { return nil }
        do { return .success(try Manifest(json: try RegularFile.read(file, limit: Manifest.maxFileBytes))) } catch let e as FileReadError {
            return .failure(ManifestProblem("cannot be read as a manifest (it \(e.reason()))"))
        } catch let e as DecodingError {
            return .failure(ManifestProblem("cannot be read as a manifest (\(e.jsonPath.isEmpty ? "" : e.jsonPath + ": ")\(e.reason))"))
        } catch let e as JSONSyntaxError {
            return .failure(ManifestProblem("cannot be read as a manifest (line \(e.location.line), column \(e.location.column): \(e.message))"))
        } catch {
            return .failure(ManifestProblem("cannot be read as a manifest (\(error))"))
        }
    }

    /// Why a manifest cannot be read, as the end of a sentence that starts with its path.
    private struct ManifestProblem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The manifests in `directory` (`main`: its `manifest.json`, read already), and why
    /// recording there is refused when one of them is a render's manifest of another render
    /// than the one `renderer` makes, or cannot be read.
    private static func readManifests(in directory: String, for renderer: Renderer,
                                      main: Result<Manifest, ManifestProblem>?) -> ([(name: String, manifest: Manifest)], OutputError?) {
        let shards = (FileSystemPath.contentsOfDirectory(directory) ?? []).filter(Manifest.isShardFileName).sorted()
        var found: [(name: String, manifest: Manifest)] = []
        let px = renderer.pixelSize
        let sceneHash = Manifest.sceneHash(of: renderer.scene)
        let read: [(String, Result<Manifest, ManifestProblem>)] = (main.map { [("manifest.json", $0)] } ?? [])
            + shards.compactMap { name in readManifest((directory as NSString).appendingPathComponent(name)).map { (name, $0) } }
        for (name, result) in read {
            let file = (directory as NSString).appendingPathComponent(name)
            func refuse(_ why: String) -> OutputError {
                OutputError(path: file, reason: "\(why); verify --record writes nothing into \(directory)")
            }
            let manifest: Manifest
            switch result {
            case .success(let m): manifest = m
            case .failure(let problem): return (found, refuse(problem.description))
            }
            // A baseline's manifest follows the scene it is recorded from; a render's stays that render's.
            guard manifest.baseline || (manifest.sceneHash == sceneHash && manifest.fps == renderer.scene.fps
                  && abs(manifest.scale - renderer.scale) < 5e-7 && manifest.width == px.width && manifest.height == px.height) else {
                return (found, refuse("is the manifest of another render (its scene, fps, scale or size differ from this one's)"))
            }
            if let frame = manifest.frames.first(where: { f in !f.files.contains { $0.name == renderer.fileName(ofFrame: f.index, format: .png) } }) {
                return (found, refuse("lists frame \(frame.index) without its PNG file (a render of other formats)"))
            }
            found.append((name, manifest))
        }
        return (found, nil)
    }

    /// The bytes of baseline frame `name`, or nil when there is none (or the directory did not
    /// exist when the run began). A symbolic link at `name` is not followed. Only under the
    /// lock: a render may be moving frames in once it is released.
    /// - Throws: `FileReadError` for a file that is not a regular file (a link included) or
    ///   cannot be read; ``InputError`` when the lock was released already (a reader out of turn).
    func read(_ name: String) throws -> [UInt8]? {
        guard existed else { return nil }
        guard lock != nil else {
            throw InputError(.unreadable, path: (path as NSString).appendingPathComponent(name),
                             reason: "is read after the lock on \(path) was released")
        }
        return try RegularFile.readIfPresent(name, inDirectory: path, limit: PNGDecoder.maxFileBytes)
    }

    /// Stages `frame`'s PNG bytes as baseline frame `name`, with the ``PixelDigest`` of its
    /// pixels (`frame.pixels()`, so only in ``FrameSink/write(_:)``) for the ownership ledger.
    /// Thread-safe.
    /// - Throws: `OutputError`: the refusal when the baseline's manifests describe another
    ///   render, or a frame no shard manifest lists; when the directory is not writable or the
    ///   frame cannot be staged.
    func record(_ frame: RenderedFrame, as name: String, png: EncodedFrame) throws {
        if let listed = listedByShards, !listed.contains(frame.index) {
            throw OutputError(path: (path as NSString).appendingPathComponent(name),
                              reason: "is listed by none of the shard manifests in \(path); verify --record writes nothing into \(path) until they are merged")
        }
        let staging = try stagingArea()
        // The ledger records the frame's pixels too: a lossless rewrite stays cartrender's.
        // Hashed here, on the worker that drew the frame, not under the commit's lock.
        let pixelDigest: String
        if let known = pixelDigests.withLock({ $0[png.sha256] }) {
            pixelDigest = known
        } else {
            pixelDigest = PixelDigest.of(try frame.pixels())
            pixelDigests.withLock { $0[png.sha256] = pixelDigest }
        }
        try staging.write(png.bytes, to: name, sha256: png.sha256, pixelDigest: pixelDigest)
        let entry = Manifest.Frame(index: frame.index, time: frame.time, files: [Manifest.File(name: name, sha256: png.sha256)],
                                   state: try frame.stateJSON())
        state.withLock { $0.recorded[frame.index] = entry }
    }

    /// Notes that extra baseline frame `name` goes when the run commits.
    /// - Throws: the refusal, as `record`.
    func remove(_ name: String) throws {
        _ = try stagingArea()
        state.withLock { $0.removed.append(name) }
    }

    private func stagingArea() throws -> StagingArea {
        if let refusal { throw refusal }
        return try state.withLock { c in
            if let s = c.staging { return s }
            // Committed under the lock this run holds: nothing to wait for, nothing to cancel.
            let s = try StagingArea(in: try created ?? OutputDirectory(path: path))
            c.staging = s
            return s
        }
    }

    /// The exclusive lock this run holds on the directory, for a report written into the same
    /// directory; nil when the lock is shared or released.
    var exclusiveLock: DirectoryLock? { lock?.mode == .exclusive ? lock : nil }

    /// Moves the recorded frames into place, removes the extra frames, and rewrites the
    /// manifests to match, as one step (`StagingArea.moveIntoPlace`), then releases the lock.
    /// - Parameter agreeing: indices of the frames this run compared and found equal, pixels and
    ///   state, and did not record.
    /// - Throws: `OutputError` when a file cannot be moved (the directory is then as it was).
    func commit(agreeing: Set<Int> = []) throws {
        defer { release() }
        let c = state.withLock { $0 }
        guard let staging = c.staging else {
            created?.removeCreatedDirectories()
            return
        }
        var rewritten: [String] = []
        do {
            let removedIndices = Set(c.removed.compactMap(FrameResult.index(ofFileName:)))
            if manifests.isEmpty && !c.recorded.isEmpty {
                try staging.write(Array(try baselineManifest(frames: c.recorded.keys.sorted().map { c.recorded[$0]! }).serialized().utf8), to: "manifest.json")
                rewritten.append("manifest.json")
            }
            for (k, item) in manifests.enumerated() {
                if item.manifest.baseline {
                    var frames = item.manifest.frames.filter { !removedIndices.contains($0.index) && c.recorded[$0.index] == nil }
                    frames = (frames + c.recorded.values).sorted { $0.index < $1.index }
                    var m = item.manifest
                    if frames.allSatisfy({ c.recorded[$0.index] != nil || agreeing.contains($0.index) }) {
                        m = try baselineManifest(frames: frames)
                    } else {
                        m.frames = frames
                    }
                    guard try m.serialized() != item.manifest.serialized() else { continue }
                    try staging.write(Array(try m.serialized().utf8), to: item.name)
                    rewritten.append(item.name)
                    continue
                }
                var m = item.manifest
                m.frames = m.frames.compactMap { f in
                    if removedIndices.contains(f.index) { return nil }
                    guard let png = c.recorded[f.index]?.files[0] else { return f }
                    var entry = f
                    entry.files = f.files.map { $0.name == png.name ? png : $0 }
                    return entry
                }
                // Recorded frames no manifest lists go into `manifest.json` (shards list only their own).
                if k == 0 && item.name == "manifest.json" {
                    let others = Set(manifests.dropFirst().flatMap { $0.manifest.frames.map(\.index) })
                    let unlisted = c.recorded.values.filter { f in !m.frames.contains { $0.index == f.index } && !others.contains(f.index) }
                    if !unlisted.isEmpty { m.frames = (m.frames + unlisted).sorted { $0.index < $1.index } }
                }
                guard m.frames != item.manifest.frames else { continue }
                try staging.write(Array(try m.serialized().utf8), to: item.name)
                rewritten.append(item.name)
            }
            let names = c.recorded.keys.sorted().map { c.recorded[$0]!.files[0].name }
            try staging.moveIntoPlace(names, removing: c.removed, manifests: rewritten, holding: exclusiveLock)
        } catch {
            discard()
            throw error
        }
    }

    /// A baseline's manifest of `frames`, the rest from this render, with the scene it is
    /// recorded from (``Manifest/canonicalScene``).
    private func baselineManifest(frames: [Manifest.Frame]) throws -> Manifest {
        var m = renderer.manifest(frames: frames)
        m.baseline = true
        m.canonicalScene = renderer.scene.canonicalJSON
        return m
    }

    /// Removes what this run staged (and the directory when this run created it), and releases
    /// the lock: the baseline is as it was.
    func discard() {
        state.withLock { c in
            c.staging?.discard()
            c.staging = nil
        }
        created?.removeCreatedDirectories()
        release()
    }

    /// Releases the lock; the directory is not read or changed after this.
    func release() {
        lock?.release()
        lock = nil
    }
}
