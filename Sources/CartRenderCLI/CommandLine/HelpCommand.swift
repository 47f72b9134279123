import CartRender
import CartRenderCore

/// `cartrender help [COMMAND]`: the main help, or a command's.
enum HelpCommand: CartRenderCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "help", usage: "[COMMAND]", helpUsage: { ["[\(CLI.commandNames.joined(separator: " | "))]"] },
            abstract: ["this help, or a command's"],
            overview: "print the help of cartrender, or of one command.",
            positionals: { .words(CLI.commandNames) }, checksAddressSpace: false)
    }

    /// Prints the help.
    /// - Throws: `UsageError` for more than one argument or an unknown command name (with the nearest).
    static func run(_ arguments: [String]) throws -> ExitCode {
        let arguments = try NoOptions.positionals(arguments)
        guard arguments.count <= 1 else { throw UsageError("help takes at most one command name, got \(arguments.count)") }
        guard let name = arguments.first else { StandardOutput.print(Help.main); return .success }
        let names = CLI.commandNames
        guard let command = CLI.command(named: name) else {
            let hint = nearestKey(to: name, in: names).map { "; did you mean \($0)?" } ?? ""
            throw UsageError("help: unknown command \(echoedQuoted(name))\(hint) (commands: \(names.joined(separator: ", ")))")
        }
        StandardOutput.print(command.help)
        return .success
    }
}
