import CartRender
import CartRenderCore

/// What a command says about itself, as swift-argument-parser's `CommandConfiguration` does:
/// its name, usage, abstract, discussion and examples. Its help (``page(options:)``), the main
/// help's USAGE, the completions and the man page are derived from it.
struct CommandConfiguration {
    /// The word after `cartrender` (`verify`).
    var name: String
    /// What follows `cartrender NAME` in the USAGE of the main help and, unless ``helpUsage``
    /// says more, of its own help (`A B [options]`).
    var usage: String
    /// The USAGE lines of its own help after `cartrender NAME`, when they say more than
    /// ``usage`` (diff's two forms, help's command names); nil: ``usage``. Evaluated when the
    /// help is made (`help` lists the names of ``CLI/commands``, itself among them).
    var helpUsage: (() -> [String])? = nil
    /// What it does in a few words, as the lines printed in the main help's USAGE; nil for a
    /// command listed only in the main help's last line (`version`).
    var abstract: [String]?
    /// The first paragraphs of its help, after `cartrender NAME — `: what it does, wrapped as
    /// printed (at most 92 columns). Its first clause is what the completions say of it.
    var overview: String
    /// Paragraphs about its arguments, after the USAGE lines (`Without SCENE, the built-in demo`).
    var arguments: String? = nil
    /// The sections after OPTIONS (`RECORD MODES`, `SERVER`), each as printed; one without a
    /// heading continues the section before it.
    var discussion: [HelpSection] = []
    /// The lines of its EXIT STATUS, as printed (indented by two); nil: no such section.
    var exitStatus: String? = nil
    /// Command lines, each with a comment where it helps; printed under EXAMPLES (EXAMPLE for one).
    var examples: [String] = []
    /// What its positional arguments are, for the completions; evaluated when they are
    /// generated (`help` offers the names of ``CLI/commands``).
    var positionals: () -> CommandReference.Values = { .files }
    /// Whether it checks before running that the address-space limit leaves room for a drawing
    /// worker (``CLI/checkAddressSpace()``); false for commands that draw nothing.
    var checksAddressSpace = true

    /// Its help as sections: USAGE (with ``arguments``), OPTIONS when `options` (the lines of
    /// its option table) is given, the ``discussion``, EXIT STATUS and EXAMPLES.
    func page(options: String?) -> HelpPage {
        let synopsis = (helpUsage?() ?? [usage]).map { "  cartrender " + ([name, $0].filter { !$0.isEmpty }.joined(separator: " ")) }
        var sections = [HelpSection(heading: "USAGE", synopsis.joined(separator: "\n"))]
        if let arguments { sections.append(HelpSection(heading: nil, arguments)) }
        if let options { sections.append(HelpSection(heading: "OPTIONS", String(options.dropLast(options.hasSuffix("\n") ? 1 : 0)))) }
        sections += discussion
        if let exitStatus { sections.append(HelpSection(heading: "EXIT STATUS", exitStatus)) }
        if !examples.isEmpty {
            sections.append(HelpSection(heading: examples.count == 1 ? "EXAMPLE" : "EXAMPLES", examples.map { "  " + $0 }.joined(separator: "\n")))
        }
        return HelpPage(name: name, overview: overview, sections: sections)
    }
}

/// A part of a help text: a heading (`RECORD MODES (--record, or CARTRENDER_RECORD)`) and its
/// text, or, without a heading, a paragraph that continues the section before it.
struct HelpSection {
    /// Capitals at the left margin; nil: the text continues the section before.
    var heading: String?
    /// The lines as printed: unindented lines are filled paragraphs in the man page, indented
    /// ones (by two) are shown as written.
    var text: String

    init(heading: String?, _ text: String) {
        self.heading = heading
        self.text = text
    }
}

/// A help as printed by `--help` and set by the man page: `cartrender NAME — OVERVIEW`, then
/// its sections, a blank line before each block.
struct HelpPage {
    /// The command's name; "" for the main help.
    var name: String
    /// The first paragraphs, after `cartrender NAME — `.
    var overview: String
    /// The sections in order, those without a heading continuing the one before.
    var sections: [HelpSection]

    /// The text: the title paragraph, then each section's heading and text, separated by blank lines.
    var text: String {
        var s = (name.isEmpty ? "cartrender" : "cartrender \(name)") + " — " + overview
        for section in sections {
            s += "\n\n" + (section.heading.map { $0 + "\n" } ?? "") + section.text
        }
        return s
    }

    /// The headings in order, each with the lines of its text and of the sections without a
    /// heading after it (separated by a blank line), as the man page sets them.
    var headed: [(heading: String, lines: [String])] {
        var result: [(heading: String, lines: [String])] = []
        for section in sections {
            let lines = section.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let heading = section.heading {
                result.append((heading, lines))
            } else if !result.isEmpty {
                result[result.count - 1].lines += [""] + lines
            }
        }
        return result
    }

    /// The lines of the section `heading`, as ``headed`` gives them.
    func section(_ heading: String) -> [String]? { headed.first { $0.heading == heading }?.lines }

    /// The overview's paragraphs, each on one line (lines trimmed and joined by spaces), the
    /// first starting with a capital: the man page's description of the command.
    var paragraphs: [String] {
        var result: [String] = []
        var paragraph: [String] = []
        for line in overview.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                if !paragraph.isEmpty { result.append(paragraph.joined(separator: " ")); paragraph = [] }
            } else {
                paragraph.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        if !paragraph.isEmpty { result.append(paragraph.joined(separator: " ")) }
        if let first = result.first { result[0] = first.prefix(1).uppercased() + first.dropFirst() }
        return result
    }
}
