import CartRender
import CartRenderCore
import Foundation

/// `cartrender review [SCENE.json] --baseline DIR [verify's options]`: runs `verify`, then
/// serves its report on 127.0.0.1 with an Accept button per failing frame and Accept all
/// (``ReviewSession``, ``ReviewServer``), until Ctrl-C.
public struct ReviewCommand: Sendable {
    /// Every option of verify but `--json` and `--summary-markdown` (refused).
    public var verify = VerifyCommand()
    /// `--port N`: the port of 127.0.0.1 to listen on; nil: a free one.
    var port: UInt16?
    /// `--allow-host NAME[:PORT]`: the host names besides 127.0.0.1 and localhost whose
    /// requests are answered, for a port forward (``HostAllowance``).
    var allowedHosts: [HostAllowance.Entry] = []

    /// A review of the default scene; set the baseline of ``verify``.
    public init() {}

    /// review's own options: the server's.
    static let ownOptions = OptionTable<ReviewCommand>([
        .port(\.port),
        .allowHost(\.allowedHosts),
    ])

    /// review's own options, then verify's.
    static let options = ownOptions.including(VerifyCommand.options, at: \.verify)

    /// Parses review arguments (after `review`): its own options, and verify's as verify parses
    /// them (so the line verify suggests to record again holds verify's options only).
    /// - Throws: `UsageError` with one sentence naming the option.
    public static func parse(_ arguments: [String]) throws -> ReviewCommand {
        var c = ReviewCommand()
        // Both tables at once: an unknown option is named with the nearest of either.
        _ = try options.parse(arguments, into: &c) { try SceneOptions.checkScenePositionals($0, command: "review") }
        c.verify = try VerifyCommand.parse(ownOptions.removing(from: arguments))
        if c.verify.json { throw UsageError("--json is verify's: review prints the address of the report it serves") }
        if c.verify.summaryMarkdown != nil { throw UsageError("--summary-markdown is verify's: review writes no summary") }
        return c
    }

    /// Verifies, prints the lines `verify` prints and then the address of the report
    /// (`http://127.0.0.1:PORT/?token=…`) on stdout, and serves it until SIGINT or SIGTERM.
    /// - Returns: 0 when stopped while serving; 130 or 143 when a verify run was interrupted
    ///   (the baseline is as it was before that run).
    /// - Throws: what `verify` throws, before serving (the exit codes of verify);
    ///   `UsageError` for a scene with several variants selected; ``ReviewServerError``.
    public func run(environment: [String: String]) throws -> ExitCode {
        let interrupts = InterruptWatcher()
        defer { interrupts.stop() }
        let renderer: Renderer
        // The scene file is read once (see VerifyCommand.run).
        var verify = self.verify
        verify.options.sceneSource = try verify.scene.readSource()
        var baseline = verify.options.baseline
        var reports = verify.options.reportDirectory
        if let variants = try verify.scene.selectedVariants(source: verify.options.sceneSource) {
            guard variants.count == 1 else {
                throw UsageError("\(verify.scene.sceneName) has \(variants.count) variants; review serves one: choose it with --variant NAME")
            }
            renderer = try verify.scene.makeRenderer(for: variants[0].scene)
            baseline = try OutputDirectory.subdirectory(variants[0].name, of: baseline)
            reports = try OutputDirectory.subdirectory(variants[0].name, of: reports ?? VerifyOptions.defaultReportDirectory(forBaseline: verify.options.baseline))
        } else {
            renderer = try verify.scene.makeRenderer(source: verify.options.sceneSource)
        }
        let session = try ReviewSession(command: verify, renderer: renderer, baseline: baseline, reportDirectory: reports,
                                        environment: environment, interrupts: interrupts)
        printResult(session.result, json: false)
        let server = try ReviewServer(session: session, port: port ?? 0, allowedHosts: allowedHosts)
        StandardOutput.print(server.url)
        // The address with its token is printed only there: serving what nobody can reach would
        // only hold the port until killed.
        try StandardOutput.requireWritten("review serves nothing, as nobody could learn its address")
        Stderr.line("serving \(FileSystemPath.display(session.reportDirectory)) on http://127.0.0.1:\(server.port)/ (the address above has the token); Ctrl-C stops", prefix: "cartrender review: ")
        server.serve { interrupts.received != nil }
        if server.interrupted { return interrupts.exitCode }
        Stderr.write("cartrender review: stopped by \(interrupts.signalName)\n")
        return .success
    }
}

extension ReviewCommand: ParsedCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "review", usage: "[SCENE.json | -] --baseline DIR [options]",
            helpUsage: { ["[SCENE.json | -] --baseline DIR [verify's options]"] },
            abstract: ["verify, then accept frames from the served report"],
            overview: """
                verify a scene against a baseline, then serve the report on
                127.0.0.1 with an Accept button on each failing frame and Accept all. Accepting rewrites
                the baseline frames (and the baseline's manifests) exactly as verify --record failed
                does, then verifies again and reloads the page. Ctrl-C stops it.
                """,
            discussion: [HelpSection(heading: "SERVER", """
                  Listens on 127.0.0.1 only, at a free port or --port N, and prints the address to open:
                  http://127.0.0.1:PORT/?token=TOKEN (http://localhost:PORT/?token=TOKEN works too).
                  Requests without the run's token, with a Host other than 127.0.0.1:PORT,
                  localhost:PORT or one --allow-host names, or accepting by anything but POST are
                  refused (403, 405). Through a port forward (a Codespace, a VS Code tunnel), give its
                  host name: --port 8123 --allow-host abc-8123.app.github.dev, then open that address
                  with ?token=TOKEN. A port in use stops review with exit 69.
                  Extra baseline frames are removed by Accept all when every frame is verified.
                """)],
            exitStatus: """
                  0 stopped by Ctrl-C · 64 bad command line · 65 invalid scene or baseline PNG ·
                  66 scene or baseline file unreadable · 69 the --port is in use ·
                  73 report or baseline not writable ·
                  130/143 interrupted while verifying (the baseline is as it was)
                """,
            examples: ["cartrender review Examples/fly-button.json --baseline snapshots/fly-button"])
    }

    /// Its own options (`--port`, `--allow-host`) and verify's but `--json` and
    /// `--summary-markdown` (``parse(_:)`` refuses those).
    static var optionRows: [CommandReference.OptionRow] {
        CommandReference.rows(options).filter { !["--json", "--summary-markdown"].contains($0.name) }
    }

    /// Its own options, then a line pointing to verify's instead of repeating them.
    static var optionsHelp: String? {
        ownOptions.help + "  And those of verify (cartrender verify --help), except --json and --summary-markdown.\n"
    }

    /// Runs the command with this process's environment (``run(environment:)``).
    func run() throws -> ExitCode { try run(environment: ProcessInfo.processInfo.environment) }
}
