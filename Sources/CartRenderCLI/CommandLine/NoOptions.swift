import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

/// The options of `schema`, `help` and `version`: `-h` alone.
struct NoOptions {
    static let options = OptionTable<NoOptions>([.help])

    /// The positionals of `arguments`.
    /// - Throws: `UsageError` for any option but `-h`/`--help`.
    static func positionals(_ arguments: [String]) throws -> [String] {
        var none = NoOptions()
        return try options.parse(arguments, into: &none).positionals
    }
}
