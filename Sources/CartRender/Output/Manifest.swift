import CartRenderCore
import CartRenderRaster
import Foundation

/// `manifest.json` (SPEC.md §5): what each frame shows, the event list, and the software that
/// drew it. Written last, so a directory with a manifest is complete.
///
/// One `Codable` value written by render (`ManifestStream`) and read back by `cartrender merge`
/// (`ShardMerge`) and by the next run in the directory (`filesOfEarlierRun`), always through
/// `JSONValueEncoder` / `JSONValueDecoder`: the bytes are `JSONValue`'s pretty printing
/// (members in the order below, times and lengths with at most 6 fraction digits), and a
/// manifest read and written again is byte-identical.
///
/// `{"version": 1, "scene", "fps", "scale", "size": {"width", "height"}, "duration", "frameCount",
/// "shard"?: {"index", "count"}, "frames": [Frame], "outputs": [{"file", "sha256"}], "events",
/// "software": {"cartrender", "cairo", "pango", "librsvg", "libpng", "zlib", "fonts": [{"file", "package"}]}}`
public struct Manifest {
    /// A file the run wrote: its name in the output directory and the lowercase hex SHA-256 of
    /// its bytes; `{"file", "sha256"}`.
    public struct File: Codable, Equatable, Sendable {
        public var name: String
        public var sha256: String
        public init(name: String, sha256: String) { self.name = name; self.sha256 = sha256 }
        private enum CodingKeys: String, CodingKey { case name = "file", sha256 }
    }

    /// One rendered frame: `{"index", "time", "file", "sha256", "alternates"?: [{"file", "sha256"}], "state"}`
    /// (`file` and `sha256` of the primary format, the others' in `alternates`; neither for a
    /// frame that went only into an animation).
    public struct Frame: Codable, Equatable, Sendable {
        public var index: Int
        /// Seconds since the start.
        public var time: Double
        /// Files written for this frame, primary format first.
        public var files: [File]
        /// The screen's state at `time` (`FrameState`, encoded).
        public var state: JSONValue

        public init(index: Int, time: Double, files: [File], state: JSONValue) {
            self.index = index; self.time = time; self.files = files; self.state = state
        }

        private enum CodingKeys: String, CodingKey { case index, time, file, sha256, alternates, state }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(index, forKey: .index)
            try c.encode(time, forKey: .time)
            if let first = files.first {
                try c.encode(first.name, forKey: .file)
                try c.encode(first.sha256, forKey: .sha256)
            }
            if files.count > 1 { try c.encode(Array(files.dropFirst()), forKey: .alternates) }
            try c.encode(state, forKey: .state)
        }

        /// - Throws: `DecodingError` for a missing or mistyped member, and for `alternates`
        ///   without a `file`.
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            index = try c.decode(Int.self, forKey: .index)
            time = try c.decode(Double.self, forKey: .time)
            files = []
            if let name = try c.decodeIfPresent(String.self, forKey: .file) {
                files.append(File(name: name, sha256: try c.decode(String.self, forKey: .sha256)))
                files += try c.decodeIfPresent([File].self, forKey: .alternates) ?? []
            } else if c.contains(.alternates) {
                throw DecodingError.keyNotFound(CodingKeys.file, .init(codingPath: c.codingPath, debugDescription: "a frame with alternates names its primary file"))
            }
            state = try c.decode(JSONValue.self, forKey: .state)
        }
    }

    /// The programs and fonts that drew the frames; any difference can change their bytes.
    public struct Software: Codable, Equatable, Sendable {
        public var cartrender: String
        public var cairo: String
        public var pango: String
        public var librsvg: String
        public var libpng: String
        public var zlib: String
        public var fonts: [Font]

        /// A font file by name, and the Debian package it comes from.
        public struct Font: Codable, Equatable, Sendable {
            public var file: String
            public var package: String
            public init(file: String, package: String) { self.file = file; self.package = package }
        }

        /// This build of cartrender, the C libraries it runs with, and `fonts`.
        public static func current(fonts: [FontEnvironment.FontFile]) -> Software {
            Software(cartrender: Manifest.version, cairo: LibraryVersions.cairo, pango: LibraryVersions.pango,
                     librsvg: LibraryVersions.librsvg, libpng: LibraryVersions.libpng, zlib: LibraryVersions.zlib,
                     fonts: fonts.map { Font(file: ($0.path as NSString).lastPathComponent, package: $0.package) })
        }
    }

    public var sceneHash: String
    public var fps: Int
    /// Pixels per point.
    public var scale: Double
    /// Canvas size (px).
    public var width: Int
    public var height: Int
    /// Length of the timeline (s) and its frame count.
    public var duration: Double
    public var frameCount: Int
    /// Shard `k` of `n` when this manifest covers one shard of a render.
    public var shard: (Int, Int)?
    public var frames: [Frame]
    /// Other files written by the run (animations, contact sheets), in a fixed order.
    public var outputs: [File] = []
    public var events: [TimelineEvent]
    public var software: Software

    /// A manifest of a render by this build, drawn with `fonts`.
    public init(sceneHash: String, fps: Int, scale: Double, width: Int, height: Int, duration: Double, frameCount: Int,
                frames: [Frame], events: [TimelineEvent], fonts: [FontEnvironment.FontFile]) {
        self.sceneHash = sceneHash; self.fps = fps; self.scale = scale; self.width = width; self.height = height
        self.duration = duration; self.frameCount = frameCount; self.frames = frames; self.events = events
        software = .current(fonts: fonts)
    }

    /// Reads a manifest from the bytes of its file.
    /// - Throws: `JSONSyntaxError` when the bytes are not JSON; `DecodingError` (see
    ///   `DecodingError.jsonPath`) at the first member that a manifest does not have.
    public init(json bytes: [UInt8]) throws {
        self = try JSONValueDecoder().decode(Manifest.self, from: JSONValue(JSONParser.parse(bytes)))
    }

    /// The manifest's file: pretty-printed JSON ending in a newline.
    public func serialized() throws -> String { try JSONValue(encoding: self).serialized(pretty: true) }

    /// File name of a shard's manifest.
    public static func shardFileName(_ k: Int, of n: Int) -> String { "shard-\(k)-of-\(n).json" }

    /// cartrender's version.
    public static let version = "0.1.0"

    /// Largest manifest file read back (merge, the files of an earlier run): 1 GiB, far above
    /// the 100 000 frames a render may have.
    static let maxFileBytes = 1 << 30
    /// The version of the manifest's format, its `"version"`.
    public static let formatVersion = 1

    /// The manifest's text with `frames` written by `writeFrames` where the frames go (streamed
    /// frames are not held in `frames`): the same bytes as `serialized()` with those frames in
    /// `frames`.
    func serialized(streamingFrames count: Int, writeHead: (String) throws -> Void, writeFrames: () throws -> Void,
                    writeTail: (String) throws -> Void) throws {
        let text = try serialized()
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

    /// The files a manifest lists, frames' and outputs'. A manifest that cannot be read as one
    /// names no files, so nothing is removed on its word.
    static func files(listedIn path: String) -> [String] {
        guard let data = try? RegularFile.read(path, limit: maxFileBytes), let manifest = try? Manifest(json: data) else { return [] }
        let names = manifest.frames.flatMap { $0.files.map(\.name) } + manifest.outputs.map(\.name)
        // Only plain file names this program writes: never a path elsewhere.
        return names.filter { !$0.contains("/") && !$0.hasPrefix(".") && ($0.hasPrefix("frame_") || $0.hasPrefix("animation.") || $0 == "contact-sheet.png") }
    }
}

extension Manifest: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, scene, fps, scale, size, duration, frameCount, shard, frames, outputs, events, software
        case width, height, index, count
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.formatVersion, forKey: .version)
        try c.encode(sceneHash, forKey: .scene)
        try c.encode(fps, forKey: .fps)
        try c.encode(scale, forKey: .scale)
        var size = c.nestedContainer(keyedBy: CodingKeys.self, forKey: .size)
        try size.encode(width, forKey: .width)
        try size.encode(height, forKey: .height)
        try c.encode(duration, forKey: .duration)
        try c.encode(frameCount, forKey: .frameCount)
        if let (k, n) = shard {
            var s = c.nestedContainer(keyedBy: CodingKeys.self, forKey: .shard)
            try s.encode(k, forKey: .index)
            try s.encode(n, forKey: .count)
        }
        try c.encode(frames, forKey: .frames)
        try c.encode(outputs, forKey: .outputs)
        try c.encode(events, forKey: .events)
        try c.encode(software, forKey: .software)
    }

    /// - Throws: `DecodingError` for a missing or mistyped member, or a `version` other than 1.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let version = try c.decode(Int.self, forKey: .version)
        guard version == Self.formatVersion else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: c, debugDescription: "this cartrender reads manifest version \(Self.formatVersion), got \(version)")
        }
        sceneHash = try c.decode(String.self, forKey: .scene)
        fps = try c.decode(Int.self, forKey: .fps)
        scale = try c.decode(Double.self, forKey: .scale)
        let size = try c.nestedContainer(keyedBy: CodingKeys.self, forKey: .size)
        width = try size.decode(Int.self, forKey: .width)
        height = try size.decode(Int.self, forKey: .height)
        duration = try c.decode(Double.self, forKey: .duration)
        frameCount = try c.decode(Int.self, forKey: .frameCount)
        if c.contains(.shard) {
            let s = try c.nestedContainer(keyedBy: CodingKeys.self, forKey: .shard)
            shard = (try s.decode(Int.self, forKey: .index), try s.decode(Int.self, forKey: .count))
        }
        frames = try c.decode([Frame].self, forKey: .frames)
        outputs = try c.decode([File].self, forKey: .outputs)
        events = try c.decode([TimelineEvent].self, forKey: .events)
        software = try c.decode(Software.self, forKey: .software)
    }
}
