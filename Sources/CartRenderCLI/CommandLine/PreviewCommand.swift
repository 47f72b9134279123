import CartRender
import CartRenderCore
import Foundation

/// `cartrender preview SCENE.json [--port N] [--scale S] [--variant NAME]…`: renders the scene,
/// serves its viewer on 127.0.0.1 (``PreviewServer``), and renders it again whenever the scene
/// file or an image or font it names is saved (``FileWatcher``), pushing the new frames to every
/// open page (``PreviewSession``), until Ctrl-C.
public struct PreviewCommand: Sendable {
    /// The scene file and the options that change what the frames show; the scale is 1 unless given.
    public var scene = SceneOptions()
    /// `--port N`: the port of 127.0.0.1 to listen on; nil: a free one.
    var port: UInt16?
    /// `--allow-host NAME[:PORT]`: the host names besides 127.0.0.1 and localhost whose
    /// requests are answered, for a port forward (``HostAllowance``), as review's.
    var allowedHosts: [HostAllowance.Entry] = []

    /// A preview with no scene yet; set ``scene``'s path.
    public init() {}

    static let options = OptionTable<PreviewCommand>([
        .port(\.port),
        .allowHost(\.allowedHosts),
        .help,
    ]).including(SceneOptions.options, at: \.scene)

    /// Parses preview arguments (after `preview`).
    /// - Throws: `UsageError`: no scene file, more than one, or `-` (the preview watches a file);
    ///   `--color-scheme light,dark` (the preview shows one appearance).
    public static func parse(_ arguments: [String]) throws -> PreviewCommand {
        var c = PreviewCommand()
        let positionals = try options.parse(arguments, into: &c) { positionals in
            try SceneOptions.checkScenePositionals(positionals, command: "preview")
            guard let path = positionals.first else { throw UsageError("preview: expected a scene file (cartrender preview SCENE.json)") }
            guard path != SceneOptions.standardInput else { throw UsageError("preview watches a scene file: - (standard input) cannot be saved again") }
        }.positionals
        c.scene.scenePath = positionals[0]
        try c.scene.checkOneColorScheme()
        return c
    }

    /// Renders, prints the address (`http://127.0.0.1:PORT/?token=…`) on stdout, then serves
    /// and renders again after each save until SIGINT or SIGTERM. Writes nothing beside the scene:
    /// the frames live in a private temporary directory (``PreviewFrames``), removed on the way out.
    /// - Returns: 130 or 143 when stopped by SIGINT or SIGTERM.
    /// - Throws: ``ReviewServerError`` (69 for a `--port` in use), ``FileWatchError``,
    ///   `OutputError` (73) when the temporary directory cannot be made. A scene that does not
    ///   render is no error: its sentences go to stderr and to the page, and the preview waits
    ///   for the next save.
    public func run(environment: [String: String]) throws -> ExitCode {
        let interrupts = InterruptWatcher()
        defer { interrupts.stop() }
        var options = scene
        options.scale = options.scale ?? 1
        let frames = try PreviewFrames(environment: environment, cancellation: interrupts.cancellation)
        defer { frames.remove() }
        let session = PreviewSession(scene: options, frames: frames)
        let watcher = try FileWatcher()
        let stopped = { interrupts.received != nil }
        let sceneName = options.sceneName

        var started = Date()
        let rendered = session.render(assetsChanged: true, superseded: stopped)
        if !rendered {
            // A command line the scene cannot satisfy (`--variant nope`) is a usage error (64),
            // not a scene to show: there is nothing to serve until the command line changes.
            if let usage = session.errors.first(where: { $0 is any UsageProblem }) { throw usage }
            reportErrors(session)
        }
        if stopped() { return stopping(interrupts) }
        try watcher.watch(session.watched)
        let server = try PreviewServer(session: session, port: port ?? 0, allowedHosts: allowedHosts)
        session.onPublish = { [server] payload in server.push(payload) }
        StandardOutput.print(server.gate.url)
        try StandardOutput.requireWritten("preview serves nothing, as nobody could learn its address")
        let outcome = rendered ? "rendered \(sceneName) in \(Self.milliseconds(since: started)) ms" : "\(sceneName) does not render yet (above)"
        Stderr.line(outcome + "; serving it on http://127.0.0.1:\(server.gate.port)/ (the address above has the token); watching it and the files it names; Ctrl-C stops",
                    prefix: "cartrender preview: ")

        let done = DispatchSemaphore(value: 0)
        let serving = Thread { server.serve(until: stopped); done.signal() }
        serving.start()
        while !stopped() {
            let changed = watcher.wait(until: stopped)
            if changed.isEmpty { continue }
            started = Date()
            let assets = changed.contains { $0 != session.watched[0] }
            if session.render(assetsChanged: assets, superseded: { watcher.hasPending || stopped() }) {
                if !watcher.hasPending && !stopped() {
                    Stderr.line("rendered again in \(Self.milliseconds(since: started)) ms after a change to \(changed.map { FileSystemPath.display($0) }.joined(separator: ", "))",
                                prefix: "cartrender preview: ")
                }
            } else {
                reportErrors(session)
            }
            // Not fatal: the files watched before stay watched; the sentence says what is not.
            do { try watcher.watch(session.watched) } catch { PreviewSession.sentences(of: error).forEach { Stderr.line($0) } }
        }
        done.wait()
        return stopping(interrupts)
    }

    /// The sentences of the last render's errors, on stderr, one per problem; while the page
    /// has good frames, each says that it still shows them.
    private func reportErrors(_ session: PreviewSession) {
        let shown = session.hasGoodFrames ? " (the page shows the last good frames)" : ""
        for error in session.errors {
            for sentence in PreviewSession.sentences(of: error) { Stderr.line(sentence + shown) }
        }
    }

    private func stopping(_ interrupts: InterruptWatcher) -> ExitCode {
        Stderr.write("cartrender preview: stopped by \(interrupts.signalName); removed its frames\n")
        return interrupts.exitCode
    }

    private static func milliseconds(since start: Date) -> Int { Int((Date().timeIntervalSince(start) * 1000).rounded()) }
}

extension PreviewCommand: ParsedCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "preview", usage: "SCENE.json [options]",
            helpUsage: { ["SCENE.json [--port N] [--scale S] [--variant NAME]… [options]"] },
            abstract: ["serve the viewer, updated on every save of the scene"],
            overview: """
                render a scene, serve its viewer on 127.0.0.1, and update every open
                page when the scene file or an image or font it names is saved: the frame under the
                playhead first, then the rest, without a reload (the page keeps its time and panel).
                """,
            discussion: [
                HelpSection(heading: "SERVER", """
                      Listens on 127.0.0.1 only, at a free port or --port N, and prints the address to open:
                      http://127.0.0.1:PORT/?token=TOKEN (http://localhost:PORT/?token=TOKEN works too).
                      Requests without the run's token, or with a Host other than 127.0.0.1:PORT,
                      localhost:PORT or one --allow-host names, are refused (403), as review's are.
                    """),
                HelpSection(heading: "SAVES", """
                      A scene that does not render (bad JSON, an unknown key, a missing image) shows its
                      sentences — file, line, column, JSON path — in the page above the last good frames,
                      and on stderr; the next good save clears them. Frames are drawn at 1 px per point
                      unless --scale, and live in a private temporary directory ($TMPDIR or /tmp,
                      cartrender-preview-UID), removed on exit; nothing is written beside the scene.
                    """),
            ],
            exitStatus: """
                  130/143 stopped by Ctrl-C or SIGTERM · 64 bad command line (also a --variant the scene
                  does not have) · 66 a file to watch is missing or unreadable · 69 the --port is in use ·
                  73 temporary directory not writable · 70 internal error
                """,
            examples: ["cartrender preview Examples/fly-button.json"])
    }

    /// Runs the command with this process's environment (``run(environment:)``).
    func run() throws -> ExitCode { try run(environment: ProcessInfo.processInfo.environment) }
}
