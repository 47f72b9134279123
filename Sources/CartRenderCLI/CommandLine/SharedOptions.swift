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

    /// `--port N`: the port of 127.0.0.1 a loopback server (`review`, `preview`) listens on,
    /// 1 to 65535; unset: a free port the kernel chooses.
    static func port(_ port: WritableKeyPath<Options, UInt16?>) -> Option {
        Option("--port", "N", "Listen on this port of 127.0.0.1 (default: a free one), e.g. the one a devcontainer or tunnel forwards.",
               .int(1...65535)) { $0[keyPath: port] = UInt16($1) }
    }

    /// `--allow-host NAME[:PORT]` (repeatable): a host name a loopback server also answers,
    /// for a port forward (``HostAllowance``); parsed once, here.
    static func allowHost(_ hosts: WritableKeyPath<Options, [HostAllowance.Entry]>) -> Option {
        Option("--allow-host", "NAME[:PORT]", "Also answer requests whose Host is NAME (any port) or NAME:PORT: a forwarded address "
               + "(Codespaces, VS Code). The token is still required (repeatable).",
               .checked("a host name, optionally with :PORT (e.g. abc-8123.app.github.dev)") { HostAllowance.Entry($0) },
               repeatable: true) { $0[keyPath: hosts].append($1) }
    }
}
