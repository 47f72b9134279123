import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

/// `cartrender render [SCENE.json] [--out DIR] …`, or the same without `render`: the render
/// command, parsed and validated. Its options go straight into the ``RenderOptions`` it runs with.
public struct RenderCommand: Sendable {
    /// The scene and the options that change its frames.
    public var scene = SceneOptions()
    /// Where, in which formats, which frames, with how many workers.
    public var options = RenderOptions()
    /// No progress bar and no summary.
    public var quiet = false
    /// `--picture-html FILE`: where the `<picture>` element of `--color-scheme light,dark`
    /// goes; nil: standard output.
    public var pictureHTML: String?

    /// A render of the default scene into `frames/` with the default options.
    public init() {}

    static let options: OptionTable<RenderCommand> = OptionTable([
        .out("PATH", "Output directory (default: frames/), or one animation file by its extension (docs/fly.gif).",
               .nonEmpty("a directory or file name")) { $0.options.outputDirectory = $1 },
        Option("--manifest", "FILE", "With -o FILE.EXT: also write the manifest to FILE.", .nonEmpty("a file name")) { $0.options.manifestFile = $1 },
        Option("--picture-html", "FILE", "With --color-scheme light,dark: write the <picture> element to FILE, not standard output.",
               .nonEmpty("a file name")) { $0.pictureHTML = $1 },
        Option("--format", "FORMAT", "\(listed(OutputFormat.all.map(\.name), "or")); several with commas (png,mp4). Default: png.", .formats) { $0.options.formats = $1 },
        Option("--frames", "A-B", "Render frame indices A through B inclusive.", .frameRange) { $0.options.frames = $1 },
        Option("--at", "TIME", "Render one frame showing the state at exactly TIME seconds; start (0 s) or end (the settled final state).", .time) { $0.options.frames = $1 },
        .jobs(\.options.jobs, help: "Worker threads (default: the number of cores). Output does not depend on it."),
        Option("--shard", "K/N", "Render only the K-th of N blocks of frames (1 ≤ K ≤ N); join with `cartrender merge`.", .shard) { $0.options.shard = $1 },
    ] + OutputFormat.optionRows.map { $0.pullback(\.options.formatSettings) } + [
        Option("--contact-sheet", "Also write contact-sheet.png: 12 frames of the whole timeline on one image.") { $0.options.contactSheet = true },
        Option("--audit", "Also audit accessibility (as cartrender audit, WCAG AA) into manifest.json's \"audit\".") { $0.options.audit = AuditOptions() },
        Option("--viewer", "Also write index.html: a page to scrub, play and step through the frames with their state.") { $0.options.viewer = true },
        .quiet(\.quiet, help: "No progress bar and no summary."),
        .help,
        Option("--version", "Show the version.") { _ in },
    ]).including(SceneOptions.options, at: \.scene)

    /// Parses render arguments (without the program name).
    /// - Throws: `UsageError` with one sentence naming the option.
    public static func parse(_ arguments: [String]) throws -> RenderCommand {
        var c = RenderCommand()
        let (positionals, names) = try options.parse(arguments, into: &c) { try SceneOptions.checkScenePositionals($0, command: nil) }
        c.scene.scenePath = positionals.first
        let given = Set(names)
        if given.contains("--frames") && given.contains("--at") { throw UsageError("--frames and --at cannot be used together") }
        try c.resolveNamedOutput(formatGiven: given.contains("--format"))
        let schemes = c.scene.colorSchemes
        if schemes.count > 1 && c.options.outputFile == nil {
            throw UsageError("--color-scheme \(schemes.map(\.rawValue).joined(separator: ",")) writes one file per appearance: name the file (-o docs/fly.gif writes docs/fly-light.gif and docs/fly-dark.gif)")
        }
        if c.pictureHTML != nil && schemes.count < 2 { throw UsageError("--picture-html writes the <picture> element of --color-scheme light,dark") }
        // Options that would have no effect are errors, not silently ignored.
        try OutputFormat.checkOptions(given: names, formats: c.options.formats, settings: c.options.formatSettings)
        let o = c.options
        if o.shard != nil, let file = o.formats.lazy.compactMap(\.animationFileName).first {
            throw UsageError("--shard cannot make \(file): render the shards as png, merge them, then render the animation in one run")
        }
        if o.shard != nil && o.contactSheet { throw UsageError("--shard and --contact-sheet cannot be used together") }
        if o.shard != nil && o.viewer { throw UsageError("--shard and --viewer cannot be used together: merge the shards, then run cartrender view") }
        if o.shard != nil && (given.contains("--frames") || given.contains("--at")) { throw UsageError("--shard splits the whole timeline: it cannot be used with --frames or --at") }
        if o.shard != nil && o.audit != nil { throw UsageError("--shard and --audit cannot be used together: audit the whole render") }
        return c
    }
}

extension RenderCommand {
    /// `-o docs/fly.gif`: an output path whose extension names an animated format (`.gif`,
    /// `.webp`, `.mp4`, `.webm`, `.apng`, `.svg` (the animated SVG), or `.png` with `--format apng`) is that one file
    /// (``RenderOptions/outputFile``), its format taken from the extension when `--format` is
    /// not given. A path that ends with `/` is a directory, and so is an existing directory
    /// for frame files; an existing directory at an animation's name is refused (exit 73).
    /// - Throws: `UsageError` for a request that is ambiguous or contradicts itself: a file
    ///   name with another format, several formats or frame files, options that need a directory
    ///   (`--viewer`, `--contact-sheet`), `--audit` without `--manifest`, and `--manifest`
    ///   without a file name.
    mutating func resolveNamedOutput(formatGiven: Bool) throws {
        let out = options.outputDirectory
        let ext = (out as NSString).pathExtension
        let claims = ext.isEmpty ? [] : OutputFormat.named(byExtension: ext)
        let animations = claims.filter { !$0.isPerFrame }
        // An existing directory stays one for frames (`--out still.png/` as before); asked for
        // an animation, it is refused when the render starts (exit 73).
        // A name that claims one animation alone (or one named by its extension, `.svg`) is that animation.
        let inferred = animations.count == 1 && (claims.count == 1 || animations[0].isNamedByExtension) ? animations.first : nil
        if formatGiven, options.formats.count == 1, options.formats[0].isPerFrame, let inferred, inferred.fileExtension == options.formats[0].fileExtension {
            options.formats = [inferred]  // `-o fly.svg --format svg`: the animated SVG
        }
        let asksForFrames = formatGiven ? options.formats.contains(where: \.isPerFrame) : inferred == nil
        let frameDirectory = asksForFrames && FileSystemPath.isDirectory(out) == true
        guard !claims.isEmpty, !out.hasSuffix("/"), !frameDirectory else {
            if let manifest = options.manifestFile {
                throw UsageError("--manifest \(manifest) is for a render to one animation file (-o fly.gif); a render into a directory writes its manifest.json")
            }
            return
        }
        let format: OutputFormat
        if formatGiven {
            let asked = options.formats
            guard asked.count == 1 else {
                throw UsageError("-o \(out) names one file, but --format \(asked.map(\.name).joined(separator: ",")) makes \(asked.count) outputs: render each to its own file name, or into a directory")
            }
            guard !asked[0].isPerFrame else {
                throw UsageError("-o \(out) names a file, but \(asked[0].name) writes one file per frame: render frames into a directory (--out DIR/)")
            }
            guard animations.contains(asked[0]) else {
                let stem = (out as NSString).deletingPathExtension
                throw UsageError("-o \(out) names a\(animations.first.map { " " + $0.title } ?? "") file, but --format asks for \(asked[0].name): name it \(stem).\(asked[0].fileExtension), or leave out --format")
            }
            format = asked[0]
        } else {
            guard let only = inferred else {
                throw UsageError("-o \(out) names a file, but \(ext) frames go into a directory: add --format apng for one animated PNG, or end the name with / for a directory")
            }
            format = only
        }
        options.formats = [format]
        options.outputFile = out
        if options.viewer { throw UsageError("--viewer writes index.html beside the frames: it needs a directory (--out DIR), not -o \(out)") }
        if options.contactSheet { throw UsageError("--contact-sheet writes contact-sheet.png beside the frames: it needs a directory (--out DIR), not -o \(out)") }
        if options.audit != nil && options.manifestFile == nil {
            throw UsageError("--audit puts its report in the manifest: add --manifest FILE to -o \(out)")
        }
    }
}

extension OptionValue where Value == (Int, Int) {
    /// `--shard K/N` with 1 ≤ K ≤ N ≤ 10000: (K, N).
    static var shard: OptionValue {
        checked("K/N with 1 ≤ K ≤ N ≤ 10000") { text in
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 10_000, (1...n).contains(k) else { return nil }
            return (k, n)
        }
    }
}

extension RenderCommand: ParsedCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "render", usage: "[SCENE.json | -] [options]",
            abstract: ["render frames (the built-in demo when no SCENE;", "- reads the scene from standard input)"],
            overview: """
                draw every frame of a scene through Cairo and write them in the chosen
                formats, with manifest.json. The word render may be left out: cartrender [SCENE.json | -]
                [options] is the same command.
                """,
            arguments: """
                Without SCENE, the built-in demo; with -, the scene on standard input (its relative image
                paths resolve against the working directory).
                """,
            discussion: [HelpSection(heading: nil, """
                A scene with a "variants" matrix is rendered per variant, each into its subdirectory of
                the output directory (--variant NAME selects some).
                """)],
            exitStatus: Help.exitStatus(ExitCode.allCases.filter { $0 != .differences }),
            examples: [
                "cartrender render --out frames/",
                "cartrender render Examples/rapid-taps.json --format svg --out out/",
                "cartrender render --format png,mp4,webm --scale 2 --out docs/",
            ])
    }

    /// Renders the scene, each appearance of `--color-scheme light,dark`, or each selected
    /// variant of its matrix.
    /// - Throws: what ``render(renderer:)`` throws.
    func run() throws -> ExitCode {
        if scene.colorSchemes.count > 1 { return try renderAppearances() }
        if let variants = try scene.selectedVariants() { return try renderVariants(variants) }
        return try render()
    }

    /// `cartrender [render] ARGUMENTS`: prints the version for `--version`, else parses and runs.
    /// - Throws: `UsageError`, and what ``run()`` throws.
    static func run(_ arguments: [String]) throws -> ExitCode {
        if CLI.asksForVersion(arguments) { StandardOutput.print(Help.version); return .success }
        return try parse(arguments).run()
    }
}
