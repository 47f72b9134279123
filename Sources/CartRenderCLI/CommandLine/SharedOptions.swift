import CartRender
import CartRenderCore

/// The options that several commands take, spelled once: each command embeds them in its
/// table with where the value goes and, where its effect differs, its own help.
extension Option {
    /// `--quiet`: no progress bar or summary line; `help` says which for the command.
    static func quiet(_ flag: WritableKeyPath<Options, Bool>, help: String = "No progress bar.") -> Option {
        Option("--quiet", help) { $0[keyPath: flag] = true }
    }

    /// `--jobs N`: the number of worker threads (nil: the number of cores).
    static func jobs(_ jobs: WritableKeyPath<Options, Int?>,
                     help: String = "Worker threads (default: the number of cores). Results do not depend on it.") -> Option {
        Option("--jobs", "N", help, .jobs) { $0[keyPath: jobs] = $1 }
    }

    /// `-o, --out PLACEHOLDER`: where the command writes; `placeholder`, `help` and the value's
    /// parser are the command's.
    static func out<Value>(_ placeholder: String, _ help: String, _ value: OptionValue<Value>,
                           _ set: @escaping (inout Options, Value) throws -> Void) -> Option {
        Option("--out", short: "-o", placeholder, help, value, set)
    }
}
