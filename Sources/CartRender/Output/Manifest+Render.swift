import CartRenderCore
import CartRenderRaster
import Foundation

/// What a render adds to the manifest (`Manifest`, in CartRenderCore): the software of this
/// build, streaming its frames, and the files an earlier run in a directory wrote.
extension Manifest.Software {
    /// FreeType's, HarfBuzz's, pixman's and fontconfig's versions, read once.
    private static let libraries = (freetype: LibraryVersions.freetype, harfbuzz: LibraryVersions.harfbuzz,
                                    pixman: LibraryVersions.pixman, fontconfig: LibraryVersions.fontconfig)

    /// This build of cartrender, the C libraries it runs with, and `fonts`.
    public static func current(fonts: [FontEnvironment.FontFile]) -> Manifest.Software {
        Manifest.Software(cartrender: Manifest.version, cairo: LibraryVersions.cairo, pango: LibraryVersions.pango,
                          librsvg: LibraryVersions.librsvg, libpng: LibraryVersions.libpng, zlib: LibraryVersions.zlib,
                          freetype: Self.libraries.freetype, harfbuzz: Self.libraries.harfbuzz, pixman: Self.libraries.pixman,
                          fontconfig: Self.libraries.fontconfig,
                          fonts: fonts.map { Font(file: ($0.path as NSString).lastPathComponent, package: $0.package) })
    }
}

extension Manifest {
    /// A manifest of a render by this build, drawn with `fonts`.
    public init(sceneHash: String, fps: Int, scale: Double, width: Int, height: Int, duration: Double, frameCount: Int,
                frames: [Frame], events: [TimelineEvent], fonts: [FontEnvironment.FontFile]) {
        self.init(sceneHash: sceneHash, fps: fps, scale: scale, width: width, height: height, duration: duration,
                  frameCount: frameCount, frames: frames, events: events, software: .current(fonts: fonts))
    }

    /// The manifest's `scene`: the SHA-256 of the scene's canonical JSON (overrides applied).
    static func sceneHash(of scene: Scene) -> String {
        Checksum.sha256(Array(scene.canonicalJSON.serialized().utf8))
    }

    /// Largest manifest file read back (merge, the files of an earlier run): 1 GiB, far above
    /// the 100 000 frames a render may have.
    package static let maxFileBytes = 1 << 30
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
    /// manifest and shard manifests) say earlier runs wrote, shard manifests included. Only
    /// manifests that are regular files of the running user are read (a FIFO would block the
    /// read, a link could lead elsewhere); one that cannot be read as a manifest names no files.
    static func filesOfEarlierRun(in directory: DirectoryHandle) -> [String] {
        let shards = (directory.names() ?? []).filter(isShardFileName)
        return (["manifest.json", supersededFileName] + shards).flatMap { files(listedIn: $0, in: directory) } + shards
    }

    /// Whether `name` is a shard manifest's name, `shard-K-of-N.json`.
    static func isShardFileName(_ name: String) -> Bool {
        name.range(of: #"^shard-[0-9]+-of-[0-9]+\.json$"#, options: .regularExpression) != nil
    }

    /// The files the manifest `name` in `directory` lists, frames' and outputs': plain file
    /// names this program writes (frame files, the animation files of ``OutputFormat/all``, the
    /// contact sheet and the viewer page), never a path elsewhere.
    static func files(listedIn name: String, in directory: DirectoryHandle) -> [String] {
        guard let data = OwnershipLedger.ownFile(name, in: directory), let manifest = try? Manifest(json: data) else { return [] }
        let names = manifest.frames.flatMap { $0.files.map(\.name) } + manifest.outputs.map(\.name)
        let outputs = Set(OutputFormat.all.compactMap(\.animationFileName) + [ContactSheetSink.fileName, ViewerSink.fileName])
        return names.filter { !$0.contains("/") && !$0.hasPrefix(".") && ($0.hasPrefix("frame_") || outputs.contains($0)) }
    }
}
