import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory cartrender ARGUMENTS…`: runs the
/// `cartrender` executable (built from this package for the host) with ARGUMENTS in the package's
/// directory, so that a package depending on cartrender renders its scenes without installing it:
///
///     swift package --allow-writing-to-package-directory cartrender Scenes/fly.json -o docs/fly
///
/// Relative paths in ARGUMENTS resolve against the package's directory. cartrender's messages
/// go to the terminal, and an exit status other than 0 (64 bad command line, 65 invalid scene,
/// 66 no such scene file, 69 icons and fonts missing: `make deps` in the cartrender checkout, …)
/// fails the command.
@main
struct CartRenderPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "cartrender")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            Diagnostics.error("cartrender was killed by signal \(process.terminationStatus)")
            exit(70)
        }
        if process.terminationStatus != 0 { exit(process.terminationStatus) }
    }
}
