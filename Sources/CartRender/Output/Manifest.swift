import CartRenderCore
import CartRenderRaster
import Foundation

/// `manifest.json` (SPEC.md §5): what each frame shows, the event list, and the software that
/// drew it. Written last, so a directory with a manifest is complete.
public struct Manifest {
    /// One rendered frame.
    public struct Frame {
        public var index: Int
        /// Seconds since the start.
        public var time: Double
        /// Files written for this frame, primary format first: (name, lowercase hex SHA-256).
        public var files: [(name: String, sha256: String)]
        public var state: JSONValue

        /// The frame's entry in `frames`.
        var json: JSONValue {
            var m: [(String, JSONValue)] = [("index", .int(index)), ("time", .num(time))]
            if let first = files.first { m += [("file", .string(first.name)), ("sha256", .string(first.sha256))] }
            if files.count > 1 {
                m.append(("alternates", .array(files.dropFirst().map { .object([("file", .string($0.name)), ("sha256", .string($0.sha256))]) })))
            }
            m.append(("state", state))
            return .object(m)
        }
    }

    public var sceneHash: String
    public var fps: Int
    public var scale: Double
    /// Canvas size (px).
    public var width: Int
    public var height: Int
    /// Length of the timeline (s) and its frame count.
    public var duration: Double
    public var frameCount: Int
    public var frames: [Frame]
    public var events: [TimelineEvent]
    /// Other files written by the run (animations, contact sheets), in a fixed order.
    public var outputs: [(name: String, sha256: String)] = []
    public var fonts: [FontEnvironment.FontFile]
    /// Shard `k` of `n` when this manifest covers one shard of a render.
    public var shard: (Int, Int)?

    /// File name of a shard's manifest.
    public static func shardFileName(_ k: Int, of n: Int) -> String { "shard-\(k)-of-\(n).json" }

    /// cartrender's version.
    public static let version = "0.1.0"

    public var json: JSONValue {
        .object([
            ("version", 1),
            ("scene", .string(sceneHash)),
            ("fps", .int(fps)),
            ("scale", .num(scale)),
            ("size", .object([("width", .int(width)), ("height", .int(height))])),
            ("duration", .num(duration)),
            ("frameCount", .int(frameCount)),
        ] + (shard.map { [("shard", .object([("index", .int($0.0)), ("count", .int($0.1))]))] } ?? []) + [
            ("frames", .array(frames.map(\.json))),
            ("outputs", .array(outputs.map { .object([("file", .string($0.name)), ("sha256", .string($0.sha256))]) })),
            ("events", .array(events.map(\.json))),
            ("software", .object([
                ("cartrender", .string(Self.version)),
                ("cairo", .string(LibraryVersions.cairo)),
                ("pango", .string(LibraryVersions.pango)),
                ("librsvg", .string(LibraryVersions.librsvg)),
                ("libpng", .string(LibraryVersions.libpng)),
                ("zlib", .string(LibraryVersions.zlib)),
                ("fonts", .array(fonts.map { .object([("file", .string(($0.path as NSString).lastPathComponent)), ("package", .string($0.package))]) })),
            ])),
        ])
    }

    /// The manifest's text with `frames` written by `writeFrames` where the frames go (streamed
    /// frames are not held in `frames`): the same bytes as `json.serialized(pretty: true)` with
    /// those frames in `frames`.
    func serialized(streamingFrames count: Int, writeHead: (String) throws -> Void, writeFrames: () throws -> Void,
                    writeTail: (String) throws -> Void) throws {
        let text = json.serialized(pretty: true)
        let empty = "\n  \"frames\": []"
        guard count > 0, frames.isEmpty, let r = text.range(of: empty) else { return try writeHead(text) }
        try writeHead(String(text[..<r.upperBound].dropLast()) + "\n")
        try writeFrames()
        try writeTail("\n  ]" + text[r.upperBound...])
    }

    /// Where a shard run keeps the `manifest.json` of the complete render it replaces, until a
    /// merge or a full render completes the directory again and removes that render's leftovers.
    static let supersededFileName = ".superseded-manifest.json"

    /// Names of the files the manifests already in `directory` (`manifest.json`, the superseded
    /// manifest and shard manifests) say earlier runs wrote, shard manifests included. A manifest
    /// that is not a regular file (a FIFO would block the read) or is absurdly large names no files.
    static func filesOfEarlierRun(in directory: OutputDirectory) -> [String] {
        let shards = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter(isShardFileName).sorted()
        return files(listedIn: directory.url("manifest.json")) + files(listedIn: directory.url(supersededFileName))
            + shards.flatMap { files(listedIn: directory.url($0)) } + shards
    }

    /// Whether `name` is a shard manifest's name, `shard-K-of-N.json`.
    static func isShardFileName(_ name: String) -> Bool {
        name.range(of: #"^shard-[0-9]+-of-[0-9]+\.json$"#, options: .regularExpression) != nil
    }

    static func files(listedIn path: String) -> [String] {
        guard let data = try? SceneFiles.readScene(path, limit: 1 << 30),
              let root = try? JSONParser.parse(data), case .object(let members) = root.value else { return [] }
        var names: [String] = []
        func collect(_ node: JSONNode) {
            switch node.value {
            case .object(let ms):
                for m in ms {
                    if m.key == "file", case .string(let s) = m.value.value { names.append(s) } else { collect(m.value) }
                }
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        for m in members where m.key == "frames" || m.key == "outputs" { collect(m.value) }
        // Only plain file names this program writes: never a path elsewhere.
        return names.filter { !$0.contains("/") && !$0.hasPrefix(".") && ($0.hasPrefix("frame_") || $0.hasPrefix("animation.") || $0 == "contact-sheet.png") }
    }
}
