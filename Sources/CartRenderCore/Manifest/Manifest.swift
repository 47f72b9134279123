/// `manifest.json` (docs/command-line.md, “Outputs”): what each frame shows, the event list, and the software that
/// drew it. Written last, so a directory with a manifest is complete.
///
/// One `Codable` value written by render (`ManifestStream`) and read back by `cartrender merge`
/// (`ShardMerge`), by `verify --record` (which keeps a baseline's manifest true to its frames)
/// and by the next run in the directory (`filesOfEarlierRun`), always through
/// `JSONValueEncoder` / `JSONValueDecoder`: the bytes are `JSONValue`'s pretty printing
/// (members in the order below, times and lengths with at most 6 fraction digits), and a
/// manifest read and written again is byte-identical.
///
/// `{"version": 1, "scene", "fps", "scale", "size": {"width", "height"}, "duration", "frameCount",
/// "shard"?: {"index", "count"}, "baseline"?: true, "frames": [Frame], "outputs": [{"file", "sha256"}], "events", "audit"?,
/// "canonicalScene"? (baselines), "software": {"cartrender", "cairo", "pango", "librsvg", "libpng", "zlib", "freetype", "harfbuzz", "pixman", "fontconfig", "fonts": [{"file", "package"}]}}`
///
/// The type and its checks are pure (no file system, no C library), so that the fuzz harness
/// (`Fuzz/`) can build them with the rest of this module; what a render adds (the software of
/// this build, streaming, the files of an earlier run) is in CartRender.
public struct Manifest {
    /// A file the run wrote: its name in the output directory and the lowercase hex SHA-256 of
    /// its bytes; `{"file", "sha256"}`.
    public struct File: Codable, Equatable, Sendable {
        /// The file's name in the output directory (`frame_0042.png`).
        public var name: String
        /// Lowercase hex SHA-256 of the file's bytes.
        public var sha256: String
        /// The file `name` with digest `sha256`.
        public init(name: String, sha256: String) { self.name = name; self.sha256 = sha256 }
        private enum CodingKeys: String, CodingKey { case name = "file", sha256 }
    }

    /// One rendered frame: `{"index", "time", "file", "sha256", "alternates"?: [{"file", "sha256"}], "state"}`
    /// (`file` and `sha256` of the primary format, the others' in `alternates`; neither for a
    /// frame that went only into an animation).
    public struct Frame: Codable, Equatable, Sendable {
        /// Frame index (`frame_NNNN`).
        public var index: Int
        /// Seconds since the start.
        public var time: Double
        /// Files written for this frame, primary format first.
        public var files: [File]
        /// The screen's state at `time` (`FrameState`, encoded).
        public var state: JSONValue

        /// Frame `index` at `time` s, with its files (primary first) and state.
        public init(index: Int, time: Double, files: [File], state: JSONValue) {
            self.index = index; self.time = time; self.files = files; self.state = state
        }

        private enum CodingKeys: String, CodingKey { case index, time, file, sha256, alternates, state }

        /// Encodes `{"index", "time", "file", "sha256", "alternates"?, "state"}`.
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
        /// cartrender's version (VERSION).
        public var cartrender: String
        /// Cairo's version.
        public var cairo: String
        /// Pango's version.
        public var pango: String
        /// librsvg's version.
        public var librsvg: String
        /// libpng's version.
        public var libpng: String
        /// zlib's version: the compressor of the PNG image data (it decides the bytes of PNG frames).
        public var zlib: String
        /// The libraries that move glyph and image pixels beside Cairo and Pango: FreeType
        /// rasterises glyphs, HarfBuzz shapes them, pixman composites, fontconfig picks the
        /// fonts. Nil in manifests written before they were recorded.
        public var freetype: String?
        /// HarfBuzz's version (text shaping); nil in older manifests.
        public var harfbuzz: String?
        /// pixman's version (compositing); nil in older manifests.
        public var pixman: String?
        /// fontconfig's version (font matching); nil in older manifests.
        public var fontconfig: String?
        /// The font files drawn with, by name, with their Debian packages.
        public var fonts: [Font]

        /// A font file by name, and the Debian package it comes from.
        public struct Font: Codable, Equatable, Sendable {
            /// The font file's name (`Inter.ttc`).
            public var file: String
            /// The Debian package that installs it (`fonts-inter`).
            public var package: String
            /// The font file `file` of `package`.
            public init(file: String, package: String) { self.file = file; self.package = package }
        }

        /// Software of these versions and fonts (FreeType, HarfBuzz, pixman and fontconfig
        /// optional, as older manifests lack them).
        public init(cartrender: String, cairo: String, pango: String, librsvg: String, libpng: String, zlib: String,
                    freetype: String? = nil, harfbuzz: String? = nil, pixman: String? = nil, fontconfig: String? = nil, fonts: [Font]) {
            self.cartrender = cartrender; self.cairo = cairo; self.pango = pango; self.librsvg = librsvg
            self.libpng = libpng; self.zlib = zlib; self.fonts = fonts
            self.freetype = freetype; self.harfbuzz = harfbuzz; self.pixman = pixman; self.fontconfig = fontconfig
        }

        private enum CodingKeys: String, CodingKey {
            case cartrender, cairo, pango, librsvg, libpng, zlib, freetype, harfbuzz, pixman, fontconfig, fonts
        }

        /// Writes every member, the four later libraries only when known.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(cartrender, forKey: .cartrender)
            try c.encode(cairo, forKey: .cairo)
            try c.encode(pango, forKey: .pango)
            try c.encode(librsvg, forKey: .librsvg)
            try c.encode(libpng, forKey: .libpng)
            try c.encode(zlib, forKey: .zlib)
            try c.encodeIfPresent(freetype, forKey: .freetype)
            try c.encodeIfPresent(harfbuzz, forKey: .harfbuzz)
            try c.encodeIfPresent(pixman, forKey: .pixman)
            try c.encodeIfPresent(fontconfig, forKey: .fontconfig)
            try c.encode(fonts, forKey: .fonts)
        }

        /// Reads a manifest's `software`, with or without the four later libraries.
        /// - Throws: `DecodingError` when a member other than those four is missing or not a string.
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            cartrender = try c.decode(String.self, forKey: .cartrender)
            cairo = try c.decode(String.self, forKey: .cairo)
            pango = try c.decode(String.self, forKey: .pango)
            librsvg = try c.decode(String.self, forKey: .librsvg)
            libpng = try c.decode(String.self, forKey: .libpng)
            zlib = try c.decode(String.self, forKey: .zlib)
            freetype = try c.decodeIfPresent(String.self, forKey: .freetype)
            harfbuzz = try c.decodeIfPresent(String.self, forKey: .harfbuzz)
            pixman = try c.decodeIfPresent(String.self, forKey: .pixman)
            fontconfig = try c.decodeIfPresent(String.self, forKey: .fontconfig)
            fonts = try c.decode([Font].self, forKey: .fonts)
        }
    }

    /// The manifest's `scene`: SHA-256 of the scene's canonical JSON, overrides applied.
    public var sceneHash: String
    /// Frames per second.
    public var fps: Int
    /// Pixels per point.
    public var scale: Double
    /// Canvas size (px).
    public var width: Int
    /// Canvas height (px).
    public var height: Int
    /// Length of the timeline (s) and its frame count.
    public var duration: Double
    /// Frames in the whole render (all shards).
    public var frameCount: Int
    /// Shard `k` of `n` when this manifest covers one shard of a render.
    public var shard: (Int, Int)?
    /// A baseline's manifest, written by `verify --record` (`"baseline": true`; absent in a
    /// render's): its frames were recorded by one or more runs, and the rest describes the
    /// render of the latest. A recording may rewrite it for another render of the scene; a
    /// render's manifest it only keeps true to the files.
    public var baseline = false
    /// The frames written, in index order.
    public var frames: [Frame]
    /// Other files written by the run (animations, contact sheets), in a fixed order.
    public var outputs: [File] = []
    /// The timeline's events, in time order.
    public var events: [TimelineEvent]
    /// The accessibility audit of the frames (`render --audit`: `{"passed", "level", …, "issues"}`),
    /// nil without one.
    public var audit: JSONValue?
    /// A baseline's manifest: the scene it was recorded from (`Scene.canonicalJSON`, whose
    /// SHA-256 is ``sceneHash``), so that `verify` can name what changed (`tint orange → teal`);
    /// nil in a render's manifest and in baselines recorded before.
    public var canonicalScene: JSONValue?
    /// The programs and fonts that drew the frames.
    public var software: Software

    /// A manifest of a render drawn by `software`.
    public init(sceneHash: String, fps: Int, scale: Double, width: Int, height: Int, duration: Double, frameCount: Int,
                frames: [Frame], events: [TimelineEvent], software: Software) {
        self.sceneHash = sceneHash; self.fps = fps; self.scale = scale; self.width = width; self.height = height
        self.duration = duration; self.frameCount = frameCount; self.frames = frames; self.events = events
        self.software = software
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

    /// The version of the manifest's format, its `"version"`.
    public static let formatVersion = 1
}

extension Manifest {
    /// What `cartrender merge` cannot trust in a shard manifest, as the end of a sentence that
    /// starts with the manifest's path (`frames[3].file: must be a plain frame file name …`),
    /// or nil: every frame is one of the render's (`0 ≤ index < frameCount`) and names its files
    /// by plain frame file names (``isFrameFileName(_:index:extensions:)``), and there are no
    /// other outputs.
    /// - Parameter extensions: the extensions of the per-frame formats (`png`, `svg`), the first
    ///   being the one an example names when a file has none of them.
    /// - Complexity: O(frames and their files).
    public func shardProblem(frameExtensions extensions: [String]) -> String? {
        for (position, frame) in frames.enumerated() {
            let entry = "frames[\(position)]"
            guard frameCount > 0 else { return "frameCount: a render has at least one frame, got \(frameCount)" }
            guard (0..<frameCount).contains(frame.index) else {
                return "\(entry).index: the render has frames 0 to \(frameCount - 1), got \(frame.index)"
            }
            guard !frame.files.isEmpty else { return "\(entry).file: is missing" }
            for (k, file) in frame.files.enumerated() {
                let member = k == 0 ? entry + ".file" : entry + ".alternates[\(k - 1)].file"
                guard Self.isFrameFileName(file.name, index: frame.index, extensions: extensions) else {
                    let ext = extensions.first { file.name.hasSuffix("." + $0) } ?? extensions.first ?? "png"
                    let example = "frame_" + String(repeating: "0", count: max(0, 4 - String(frame.index).count)) + String(frame.index) + "." + ext
                    return "\(member): must be a plain frame file name such as \"\(example)\" (frame_ and the frame's index, .\(extensions.joined(separator: " or ."))), got \"\(file.name)\""
                }
            }
        }
        if let extra = outputs.first {
            return "outputs[0].file: a shard writes no animation or contact sheet, got \"\(extra.name)\""
        }
        return nil
    }

    /// Where a manifest's numbers contradict themselves, as the end of a sentence that starts
    /// with the manifest's path (`fps: must be at least 1, got 0`), or nil: `fps` ≥ 1, `scale`
    /// above 0, `size` at least 1×1 px, and frame indices ≥ 0, each greater than the one before
    /// it (so none is listed twice). A render writes no other manifest; readers that show or use
    /// one (`cartrender view`) refuse any other.
    /// - Complexity: O(frames).
    public var numbersProblem: String? {
        guard fps >= 1 else { return "fps: must be at least 1, got \(fps)" }
        guard scale > 0 else { return "scale: must be above 0, got \(JSONValue.format(scale, decimals: 6))" }
        guard width >= 1 else { return "size.width: must be at least 1 px, got \(width)" }
        guard height >= 1 else { return "size.height: must be at least 1 px, got \(height)" }
        for (position, frame) in frames.enumerated() {
            guard frame.index >= 0 else { return "frames[\(position)].index: must be ≥ 0, got \(frame.index)" }
            if position > 0, frame.index <= frames[position - 1].index {
                let previous = frames[position - 1].index
                return "frames[\(position)].index: must be greater than frames[\(position - 1)].index (\(previous)), got \(frame.index)"
                    + (frame.index == previous ? " (listed twice)" : "")
            }
        }
        return nil
    }

    /// Where a frame's `state` is not of the type a screen writes, as the end of a sentence that
    /// starts with the manifest's path (`frames[3].state.flights[0].center.x: expected a number,
    /// got a string`), or nil: every frame's state reads as the state of one screen
    /// (`Screen.frameStateType`, the same screen for all frames), so that numbers are numbers and
    /// texts are texts wherever a page or a comparison uses them. When no screen reads them all,
    /// the problem reported is that of the screen that read the most (the latest frame, then the
    /// deepest member). `cartrender view` and `cartrender merge` refuse such a manifest.
    /// - Complexity: O(size of the states) per screen.
    public var statesProblem: String? {
        var best: (frame: Int, depth: Int, text: String)?
        for screen in Screens.all {
            var failure: (frame: Int, depth: Int, text: String)?
            for (position, frame) in frames.enumerated() {
                do { _ = try JSONValueDecoder().decode(screen.frameStateType, from: frame.state) } catch let e as DecodingError {
                    let path = "frames[\(position)].state" + (e.jsonPath.isEmpty ? "" : (e.jsonPath.hasPrefix("[") ? "" : ".") + e.jsonPath)
                    failure = (position, e.jsonPath.count, path + ": " + e.reason)
                    break
                } catch {
                    failure = (position, 0, "frames[\(position)].state: \(error)")
                    break
                }
            }
            guard let failure else { return nil }
            if best == nil || (failure.frame, failure.depth) > (best!.frame, best!.depth) { best = failure }
        }
        return best?.text
    }

    /// Whether `name` is a file name the renderer gives frame `index`: `frame_`, at least four
    /// digits that read as `index`, and one of `extensions`; so never a path.
    public static func isFrameFileName(_ name: String, index: Int, extensions: [String]) -> Bool {
        guard name.hasPrefix("frame_"), let dot = name.lastIndex(of: ".") else { return false }
        let digits = name[name.index(name.startIndex, offsetBy: 6)..<dot]
        return digits.count >= 4 && digits.allSatisfy { $0.isASCII && $0.isNumber } && Int(digits) == index
            && extensions.contains(String(name[name.index(after: dot)...]))
    }
}

extension Manifest: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, scene, fps, scale, size, duration, frameCount, shard, baseline, frames, outputs, events, audit, canonicalScene, software
        case width, height, index, count
    }

    /// Encodes the manifest's JSON (docs/command-line.md, “Outputs”), `version` first.
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
        if baseline { try c.encode(true, forKey: .baseline) }
        try c.encode(frames, forKey: .frames)
        try c.encode(outputs, forKey: .outputs)
        try c.encode(events, forKey: .events)
        if let audit { try c.encode(audit, forKey: .audit) }
        if let canonicalScene { try c.encode(canonicalScene, forKey: .canonicalScene) }
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
        baseline = try c.decodeIfPresent(Bool.self, forKey: .baseline) ?? false
        frames = try c.decode([Frame].self, forKey: .frames)
        outputs = try c.decode([File].self, forKey: .outputs)
        events = try c.decode([TimelineEvent].self, forKey: .events)
        audit = try c.decodeIfPresent(JSONValue.self, forKey: .audit)
        canonicalScene = try c.decodeIfPresent(JSONValue.self, forKey: .canonicalScene)
        software = try c.decode(Software.self, forKey: .software)
    }
}
