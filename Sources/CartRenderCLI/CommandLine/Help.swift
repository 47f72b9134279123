import CartRender
import CartRenderCore

/// Help and version texts (printed to stdout).
public enum Help {

    /// The main help (`cartrender --help`): ``mainPage``'s text.
    public static var main: String { mainPage.text }

    /// The main help as sections: USAGE from the commands' ``CommandConfiguration/abstract``,
    /// render's options, EXIT STATUS from ``ExitCode``; the man page sets it as its first part.
    static var mainPage: HelpPage {
        HelpPage(name: "", overview: """
            draws every frame of two iOS commerce animations (the Add to Cart fly button
            and the cart page with swipe-to-delete) through Cairo, from a JSON scene file.
            """, sections: [
                HelpSection(heading: "USAGE", usage + "\n  cartrender -h | --help | --version | version"),
                HelpSection(heading: nil, """
                    Relative image paths in a scene resolve against the scene file's directory, or the
                    working directory for a scene on standard input.
                    """),
                HelpSection(heading: "RENDER OPTIONS", String(RenderCommand.options.help.dropLast())),
                HelpSection(heading: nil, "Run 'cartrender help COMMAND' (or 'cartrender COMMAND --help') for a command's options."),
                HelpSection(heading: "EXIT STATUS", exitStatus(ExitCode.allCases)),
                HelpSection(heading: "EXAMPLES", """
                      cartrender --out frames/
                      cartrender Examples/rapid-taps.json --format svg --out out/
                      cartrender --at 0.6 --scale 1 --out /tmp/mid-flight
                      cartrender --at end --out snapshots/settled   # one settled frame, a flake-free snapshot
                      make-scene | cartrender - -o out/
                      cartrender --format png,mp4,webm --scale 2 --out docs/
                      cartrender --viewer --out frames/ && open frames/index.html
                    """),
            ])
    }

    /// The USAGE lines of the main help, one entry per subcommand with an abstract: its synopsis
    /// (the default command's name in brackets, as it may be left out), then its abstract from
    /// column 41, on the same line when the synopsis leaves room, else on the next.
    static var usage: String {
        let column = 41
        var lines: [String] = []
        for command in CLI.commands {
            let sub = command.configuration
            guard let summary = sub.abstract else { continue }
            let name = sub.name == CLI.defaultCommand.configuration.name ? "[\(sub.name)]" : sub.name
            let synopsis = "  cartrender " + ([name, sub.usage].filter { !$0.isEmpty }.joined(separator: " "))
            let indent = String(repeating: " ", count: column)
            if synopsis.count + 2 <= column {
                lines.append(synopsis.padding(toLength: column, withPad: " ", startingAt: 0) + summary[0])
                lines += summary.dropFirst().map { indent + $0 }
            } else {
                lines.append(synopsis)
                lines += summary.map { indent + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The lines of an EXIT STATUS section: each of `codes` with its ``ExitCode/meaning``
    /// (`64 bad command line`), those of the same meaning together (`130/143 interrupted`),
    /// separated by ` · ` and wrapped at 90 columns, indented by two.
    static func exitStatus(_ codes: [ExitCode]) -> String {
        var entries: [(codes: [ExitCode], meaning: String)] = []
        for code in codes {
            if let i = entries.firstIndex(where: { $0.meaning == code.meaning }) { entries[i].codes.append(code) } else { entries.append(([code], code.meaning)) }
        }
        let words = entries.map { e in e.codes.map { String($0.rawValue) }.joined(separator: "/") + " " + e.meaning }
            .joined(separator: " · ").split(separator: " ")
        var lines: [String] = []
        var line = " "
        for word in words {
            if line.count + 1 + word.count > 90 { lines.append(line); line = " " }
            line += " " + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

extension ExitCode {
    /// What the status means, in the help's EXIT STATUS.
    var meaning: String {
        switch self {
        case .success: return "success"
        case .differences: return "differences found (verify, diff) or issues found (audit)"
        case .usage: return "bad command line"
        case .dataError: return "invalid scene or input data"
        case .noInput: return "input file missing or unreadable"
        case .unavailable: return "a required Debian package is missing"
        case .software: return "internal error"
        case .cannotCreate: return "output cannot be written"
        case .interrupted, .terminated: return "interrupted"
        }
    }
}
