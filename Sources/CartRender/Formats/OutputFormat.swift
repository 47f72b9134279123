import CartRenderCore
import CartRenderRaster
import Foundation

/// An output format of a render: its name in `--format`, the files it writes, the options it
/// takes, how the viewer shows it, and the sink that writes it. Each format is one value,
/// declared in a file of its own (`GIFFormat.swift` declares ``gif``), and listed once in
/// ``all``; `--format`'s names, the render's help and option rows, the viewer's choice of file
/// and the order of the manifest's outputs all come from ``all``.
///
/// Two kinds of format (``Output``): one file per frame (``png``, ``svg``: `DIR/frame_NNNN.EXT`,
/// listed in each frame's manifest entry) and one animation file (``gif``, ``webp``, ``apng``,
/// ``mp4``, ``webm``: `DIR/animation.EXT`, listed in the manifest's `outputs`). A new animation is
/// an `AnimationEncoder` (in CartRenderRaster) and a file declaring it with
/// ``animation(name:title:fileName:viewer:options:encoder:)``; a new frame format, a file
/// declaring it with ``frameFiles(name:title:viewer:needs:options:bytes:)``.
///
/// Sendable though its closures and option rows are not declared so: every property is a
/// constant, and the closures capture no mutable state.
public struct OutputFormat: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The name in `--format` and in messages about the command line: `gif`.
    public let name: String
    /// The name in sentences and help: `GIF`, `WebP`.
    public let title: String
    /// What the format writes.
    public let output: Output
    /// How the viewer page shows the format's files; nil: it does not.
    let viewer: ViewerUse?
    /// The render options that set the format's settings (``FormatSettings``), in help order.
    let options: [FormatOption]
    /// The largest canvas (px, width × height) the format's encoder takes, or nil for no limit
    /// besides the scene's: an animation's encoder holds memory in proportion to the canvas
    /// (``animationCanvasBudget``). Checked by ``checkCanvas(_:width:height:)`` before drawing.
    public let maxCanvasPixels: Int?
    /// Whether a file name with this format's extension means this format when `--format` is
    /// not given, over a per-frame format of the same extension: `-o fly.svg` is an
    /// ``animatedSVG``, while `-o frames.png` needs `--format apng`.
    public var isNamedByExtension = false
    /// The sink that writes the format into a render's staging area.
    let makeSink: (FormatContext) throws -> any FrameSink

    /// What a format writes.
    public enum Output: Hashable, Sendable {
        /// `DIR/frame_NNNN.EXT` for every frame (`png`, `svg`).
        case frameFiles(extension: String)
        /// One animation file, `DIR/NAME` (`animation.gif`; APNG's is `animation.png`).
        case animation(fileName: String)
    }

    /// Whether the format is one file per frame rather than one animation.
    public var isPerFrame: Bool { frameExtension != nil }
    /// The extension of a per-frame format's files (`png`), or nil for an animation.
    public var frameExtension: String? {
        if case let .frameFiles(ext) = output { return ext }
        return nil
    }
    /// An animation's file name (`animation.gif`, `animation.png` for APNG), or nil for a
    /// per-frame format.
    public var animationFileName: String? {
        if case let .animation(fileName) = output { return fileName }
        return nil
    }

    /// The name in `--format` (`gif`).
    public var description: String { name }
    /// Formats are equal when their names are.
    public static func == (a: OutputFormat, b: OutputFormat) -> Bool { a.name == b.name }
    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Every format, in the order of `--format`'s list and of the help: per-frame formats, then
    /// animations in the order the manifest lists their files. The one list a new format is added to.
    public static let all: [OutputFormat] = [.png, .svg, .gif, .webp, .apng, .mp4, .webm, .animatedSVG]

    /// The format named `name` in ``all``.
    public static func named(_ name: String) -> OutputFormat? { all.first { $0.name == name } }

    /// The extension of the format's files as a user names them (`gif`; APNG's `png`).
    public var fileExtension: String {
        frameExtension ?? ((animationFileName ?? name) as NSString).pathExtension
    }

    /// The formats a file name with extension `ext` (any case) can name: its animated formats
    /// by their file's extension or their name (`apng`), its per-frame formats by theirs
    /// (`png` names both PNG frames and APNG).
    public static func named(byExtension ext: String) -> [OutputFormat] {
        let e = ext.lowercased()
        return all.filter { $0.fileExtension == e || (!$0.isPerFrame && $0.name == e) }
    }

    /// The extensions of the per-frame formats' files (`png`, `svg`): the only frame files a
    /// manifest may name.
    public static var frameExtensions: [String] { all.compactMap(\.frameExtension) }

    /// The largest canvas of every animation format (GIF, WebP, APNG, MP4, WebM), in px:
    /// 4096 × 4096. Their encoders hold memory in proportion to the canvas (libimagequant's
    /// histogram and remapping for GIF, about 26 bytes a pixel: 6.9 GB for one 16384 × 16384
    /// frame), so a larger canvas is refused before anything is drawn (docs/bad-input.md).
    public static let animationCanvasBudget = 4096 * 4096

    /// Refuses a canvas of `width` × `height` px that a format in `formats` cannot take
    /// (``maxCanvasPixels``): the one check of canvas sizes a render makes, before drawing.
    /// - Parameter member: the scene's member that sets the size (``Scene/canvasMember``), named
    ///   by the sentence; nil for the default scene.
    /// - Throws: ``CanvasBudgetError`` (exit 65) naming the first such format.
    public static func checkCanvas(_ formats: [OutputFormat], width: Int, height: Int, setBy member: SceneMember? = nil) throws {
        for format in formats {
            if let limit = format.maxCanvasPixels, width * height > limit {
                throw CanvasBudgetError(format: format.title, width: width, height: height, limit: limit, member: member)
            }
        }
    }
}

/// A canvas too large for an output format's encoder (``OutputFormat/maxCanvasPixels``): exit 65.
public struct CanvasBudgetError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// The format's title (`GIF`).
    public var format: String
    /// The canvas (px).
    public var width: Int, height: Int
    /// The format's budget (px).
    public var limit: Int
    /// The scene's member that sets the canvas size (nil for the default scene).
    public var member: SceneMember?
    /// The refusal of a `width` × `height` px canvas over `limit` px for `format`, set by `member`.
    public init(format: String, width: Int, height: Int, limit: Int, member: SceneMember? = nil) {
        self.format = format; self.width = width; self.height = height; self.limit = limit; self.member = member
    }
    /// Exit 65: the scene's device and scale make the canvas.
    public var exitCode: ExitCode { .dataError }
    /// `scene.json:2:13: device: a GIF of 16384×16384 px (268.4 million px) is over the 16.8
    /// million px an animation may have; …`.
    public var description: String {
        func millions(_ n: Int) -> String { String(format: "%.1f", Double(n) / 1e6) }
        return (member?.prefix ?? "") + "a \(format) of \(width)×\(height) px (\(millions(width * height)) million px) is over the \(millions(limit)) million px an animation may have; lower --scale or the scene's device size, or render PNG frames (--format png)"
    }
}

extension OutputFormat {
    /// A format of one file per frame, `DIR/frame_NNNN.EXT` with `EXT` its name, written by the
    /// worker that drew the frame (``FrameFilesSink``).
    /// - Parameters:
    ///   - needs: what the frames must carry for `bytes` (``FrameNeeds/png``, ``FrameNeeds/svg``,
    ///     or ``FrameNeeds/canvas`` to encode ``RenderedFrame/pixels()``).
    ///   - bytes: the frame's file; nil is an internal error (the stream did not make them).
    static func frameFiles(name: String, title: String, viewer: ViewerUse?, needs: FrameNeeds, options: [FormatOption] = [],
                           bytes: @escaping (RenderedFrame) throws -> EncodedFrame?) -> OutputFormat {
        OutputFormat(name: name, title: title, output: .frameFiles(extension: name), viewer: viewer, options: options,
                     maxCanvasPixels: nil) { context in
            FrameFilesSink(name: name, needs: needs, bytes: bytes, renderer: context.renderer, staging: context.staging)
        }
    }

    /// A format of one animation file, made by an `AnimationEncoder` fed every frame in order
    /// (``AnimationSink``): it needs each frame's pixels and the rows that changed.
    /// - Parameter encoder: the encoder of a render; throws `AnimationEncodingError` for settings
    ///   or a canvas it cannot take.
    static func animation<Encoder: AnimationEncoder>(name: String, title: String, fileName: String, viewer: ViewerUse?,
                                                     options: [FormatOption] = [],
                                                     encoder: @escaping (FormatContext) throws -> Encoder) -> OutputFormat {
        OutputFormat(name: name, title: title, output: .animation(fileName: fileName), viewer: viewer, options: options,
                     maxCanvasPixels: animationCanvasBudget) { context in
            AnimationSink(fileName: context.fileName ?? fileName, title: title, staging: context.staging, encoder: try encoder(context),
                          progress: context.progress)
        }
    }
}

/// What a format's sink is made from.
struct FormatContext {
    let renderer: Renderer
    /// The settings of every format (``FormatSettings``); a format reads its own.
    let settings: FormatSettings
    /// Worker threads of the render (≥ 1); encoders that compress in parallel use as many.
    let jobs: Int
    /// Where the sink writes its files.
    let staging: StagingArea
    /// Where the sink reports the work of its `finish` (``RenderProgress``).
    var progress: (@Sendable (RenderProgress) -> Void)? = nil
    /// The animation's file name instead of the format's own (`fly.gif` for `-o docs/fly.gif`).
    var fileName: String? = nil

    /// The canvas in px.
    var width: Int { renderer.pixelSize.width }
    var height: Int { renderer.pixelSize.height }
    /// The scene's frames per second.
    var fps: Int { renderer.scene.fps }
}

/// How the viewer page (``ViewerPage``) shows a format's files: frame files as images (the
/// page shows the frame of the best per-frame format present), animations — for a render with
/// no frame files — as a video the scrubber seeks or as an image that plays on its own. Of
/// several, the highest ``preference`` wins.
struct ViewerUse {
    enum Kind { case image, video }
    let kind: Kind
    let preference: Int

    static func image(preference: Int) -> ViewerUse { ViewerUse(kind: .image, preference: preference) }
    static func video(preference: Int) -> ViewerUse { ViewerUse(kind: .video, preference: preference) }
}

extension OptionValue where Value == [OutputFormat] {
    /// `--format png,gif`: formats of ``OutputFormat/all`` by name, separated by commas, each once.
    package static var formats: OptionValue {
        OptionValue { name, text in
            var formats: [OutputFormat] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let f = OutputFormat.named(String(part)) else {
                    throw UsageError("\(name): unknown format \(echoedQuoted(String(part))); expected \(OutputFormat.all.map(\.name).joined(separator: ", "))")
                }
                guard !formats.contains(f) else { throw UsageError("\(name): \(f.name) is given more than once") }
                formats.append(f)
            }
            return formats
        }
    }
}
