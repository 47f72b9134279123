import CartRender
import CartRenderCore

/// `cartrender schema`: prints the JSON Schema of scene files (``SceneSchema``).
enum SchemaCommand: CartRenderCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "schema", usage: "", abstract: ["print the JSON Schema of scene files"],
            overview: """
                print the JSON Schema (draft 2020-12) of scene files on stdout, for
                editors. A scene names it with "$schema" (a path or URL), which cartrender ignores:

                  cartrender schema > scene.schema.json
                  { "$schema": "./scene.schema.json", "screen": "shop", … }
                """,
            positionals: { .none }, checksAddressSpace: false)
    }

    /// Prints the schema.
    /// - Throws: `UsageError` for any argument.
    static func run(_ arguments: [String]) throws -> ExitCode {
        guard try NoOptions.positionals(arguments).isEmpty else { throw UsageError("schema takes no arguments") }
        StandardOutput.print(SceneSchema.json.serialized(pretty: true), terminator: "")
        return .success
    }
}
