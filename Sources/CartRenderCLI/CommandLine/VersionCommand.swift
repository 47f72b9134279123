import CartRender
import CartRenderCore

/// `cartrender version`: the versions of cartrender and its libraries (``Help/version``).
enum VersionCommand: CartRenderCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "version", usage: "", abstract: nil,
            overview: """
                print the versions of cartrender and of the libraries it draws and
                encodes with (as cartrender --version).
                """,
            positionals: { .none }, checksAddressSpace: false)
    }

    /// Prints the versions.
    /// - Throws: `UsageError` for any argument.
    static func run(_ arguments: [String]) throws -> ExitCode {
        guard try NoOptions.positionals(arguments).isEmpty else { throw UsageError("version takes no arguments") }
        StandardOutput.print(Help.version)
        return .success
    }
}
