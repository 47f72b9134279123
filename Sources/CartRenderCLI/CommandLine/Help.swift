import CartRender
import CartRenderCore

/// Help and version texts (printed to stdout).
public enum Help {
    /// `cartrender merge --help`.
    public static var merge: String {
        """
        cartrender merge — join the outputs of `cartrender --shard K/N` runs: checks that the
        shard manifests (shard-K-of-N.json) belong to one render and cover every frame once, and
        that every frame file matches its SHA-256; gathers the frames and writes manifest.json,
        byte-identical to a single run. A failed merge leaves the output directory as it was.

        USAGE
          cartrender merge DIR... [--out DIR] [--quiet]

        OPTIONS

        """ + MergeCommand.options.help
    }

    /// `cartrender view --help`.
    public static var view: String {
        """
        cartrender view — write DIR/index.html, the viewer of a render, from DIR/manifest.json:
        one page (no network, frames by relative path) with a scrubber, play and pause at full
        and quarter speed, ← → Home End, each frame's state and the event list, and overlays of
        the flights' arc paths and the previous frame. `cartrender --viewer` writes the same page.
        On the top directory of a variant matrix render (variants.json) it writes each variant's
        page and DIR/index.html linking them, as `cartrender --viewer` does for a matrix.

        USAGE
          cartrender view DIR [--quiet]

        OPTIONS

        """ + ViewCommand.options.help + """

        EXIT STATUS
          0 written · 64 bad command line · 65 DIR is not a directory, or its manifest is not one
          or contradicts itself (fps, scale, size, frame indices) · 66 no such directory, no
          manifest.json, or a frame file it lists is missing · 73 index.html cannot be written
        """
    }

    /// `cartrender audit --help`.
    public static var audit: String {
        """
        cartrender audit — check every distinct frame of a scene for accessibility: text contrast
        against the pixels behind each glyph (WCAG 2.2), touch targets under 44×44 pt (buttons and
        steppers, Apple HIG), buttons and images without an accessibility label, and text cut to
        fewer lines than it needs or clipped at the scene's Dynamic Type size. Writes no files.

        USAGE
          cartrender audit [SCENE.json | -] [--json] [--level AA|AAA] [--ignore KIND]... [options]

        OPTIONS

        """ + AuditCommand.options.help + """

        A scene with a "variants" matrix is audited per variant (--variant NAME selects some).

        EXIT STATUS
          0 no issue · 1 issues found · 64 bad command line (an unknown --ignore kind names the
          kinds) · 65 invalid scene · 66 scene file unreadable

        EXAMPLES
          cartrender audit Examples/cart.json
          cartrender audit scene.json --json --level AAA --ignore label
          cartrender audit scene.json --at end   # the settled final frame only
          cartrender --audit --out frames/   # the same report, in frames/manifest.json "audit"
        """
    }

    /// `cartrender schema --help`.
    public static let schema = """
        cartrender schema — print the JSON Schema (draft 2020-12) of scene files on stdout, for
        editors. A scene names it with "$schema" (a path or URL), which cartrender ignores:

          cartrender schema > scene.schema.json
          { "$schema": "./scene.schema.json", "screen": "shop", … }

        USAGE
          cartrender schema
        """

    /// `cartrender help --help`.
    public static var help: String {
        """
        cartrender help — print the help of cartrender, or of one command.

        USAGE
          cartrender help [\(CLI.subcommands.map(\.name).joined(separator: " | "))]
        """
    }

    /// `cartrender version --help`.
    public static let versionHelp = """
        cartrender version — print the versions of cartrender and of the libraries it draws and
        encodes with (as cartrender --version).

        USAGE
          cartrender version
        """

    /// The help of `cartrender verify`, its options from ``VerifyCommand/options``.
    public static var verify: String {
        """
        cartrender verify — render a scene and compare every frame with a baseline directory of
        frame_NNNN.png files (pixelmatch 7.1 color distance and anti-aliasing detection).

        USAGE
          cartrender verify [SCENE.json | -] --baseline DIR [options]

        Without SCENE, the built-in demo; with -, the scene on standard input (its relative
        image paths resolve against the working directory).

        OPTIONS

        """ + VerifyCommand.options.help + """

        A frame fails when more pixels differ than allowed; a size mismatch, a missing baseline
        frame and a baseline frame the render does not make (extra) are failures of their own.
        Equal PNG bytes pass without decoding. Recorded frames count as passing.

        RECORD MODES (--record, or CARTRENDER_RECORD)
          all       rewrite every frame; remove extra baseline frames
          missing   write only absent baseline frames, and only when every other frame
                    passes (default, unless CI is set)
          failed    write absent frames, rewrite failing ones; remove extra frames
          never     write nothing; a missing frame fails (default when CI is set)
          --fail-on-record makes a run that records anything fail (exit 1).

        REPORT
          DIR/index.html (for each failing frame: side by side, slider, blend, toggle and diff views;
          every frame reachable from a timeline and thumbnails),
          DIR/report.json (as --json), DIR/junit.xml (one test case per frame), and
          the expected, actual and diff images of each frame that did not pass, named by their
          content (img_HASH.png, diff_HASH.png: identical images are one file; diffs are palette PNGs);
          for a failing run, motion_HASH.webp: the failing segment as one animation, expected,
          actual and differences side by side (report.json's "motionDiff").

        CI
          With CI set and no baseline directory, verify says so in one line and fails. Under
          GitHub Actions (GITHUB_STEP_SUMMARY set) it appends a Markdown summary to the job's
          summary; --summary-markdown FILE writes the same summary to FILE.

        EXIT STATUS
          0 every frame passed · 1 a frame failed · 64 bad command line · 65 invalid scene or
          baseline PNG · 66 scene or baseline file unreadable · 73 report or baseline not writable

        EXAMPLES
          cartrender verify Examples/fly-button.json --baseline snapshots/fly-button
          CI=1 cartrender verify scene.json --baseline snapshots/scene --report out/report --json
          cartrender verify scene.json --baseline b --mask 0,0,393,59 --max-diff-ratio 0.001
          cartrender verify scene.json --baseline snapshots/settled --at end
        """
    }

    /// The help of `cartrender diff`, its options from ``DiffCommand/options``.
    public static var diff: String {
        """
        cartrender diff — compare two PNG files, or the frame_NNNN.png files of two directories,
        as verify does. A is the expected side, B the actual one.

        USAGE
          cartrender diff A.png B.png [--out DIFF.png] [options]
          cartrender diff DIR_A DIR_B [--out DIFF_DIR] [--report DIR] [options]

        OPTIONS

        """ + DiffCommand.options.help + """

        The diff image shows differing pixels red, anti-aliased ones yellow and the rest of A
        faded to gray. For directories, frames only in B are missing and frames only in A extra.

        EXIT STATUS
          0 no difference beyond the tolerance · 1 differences · 64 bad command line ·
          65 corrupt PNG · 66 file or directory missing · 73 output not writable
        """
    }

    /// `cartrender render --help`.
    public static var render: String {
        """
        cartrender render — draw every frame of a scene through Cairo and write them in the chosen
        formats, with manifest.json. The word render may be left out: cartrender [SCENE.json | -]
        [options] is the same command.

        USAGE
          cartrender render \(CLI.subcommand(CLI.defaultCommand)!.usage)

        Without SCENE, the built-in demo; with -, the scene on standard input (its relative image
        paths resolve against the working directory).

        OPTIONS

        """ + RenderCommand.options.help + """

        A scene with a "variants" matrix is rendered per variant, each into its subdirectory of
        the output directory (--variant NAME selects some).

        EXIT STATUS
        \(exitStatus(ExitCode.allCases.filter { $0 != .differences }))

        EXAMPLES
          cartrender render --out frames/
          cartrender render Examples/rapid-taps.json --format svg --out out/
          cartrender render --format png,mp4,webm --scale 2 --out docs/
        """
    }

    /// The main help (`cartrender --help`): USAGE from the subcommands, render's options, EXIT STATUS from ``ExitCode``.
    public static var main: String {
        var s = """
        cartrender — draws every frame of two iOS commerce animations (the Add to Cart fly button
        and the cart page with swipe-to-delete) through Cairo, from a JSON scene file.

        USAGE
        \(usage)
          cartrender -h | --help | --version | version

        Relative image paths in a scene resolve against the scene file's directory, or the
        working directory for a scene on standard input.

        RENDER OPTIONS

        """
        s += RenderCommand.options.help
        s += """

        Run 'cartrender help COMMAND' (or 'cartrender COMMAND --help') for a command's options.

        EXIT STATUS
        \(exitStatus(ExitCode.allCases))

        EXAMPLES
          cartrender --out frames/
          cartrender Examples/rapid-taps.json --format svg --out out/
          cartrender --at 0.6 --scale 1 --out /tmp/mid-flight
          cartrender --at end --out snapshots/settled   # one settled frame, a flake-free snapshot
          make-scene | cartrender - -o out/
          cartrender --format png,mp4,webm --scale 2 --out docs/
          cartrender --viewer --out frames/ && open frames/index.html
        """
        return s
    }

    /// The USAGE lines of the main help, one entry per subcommand with a summary: its synopsis
    /// (the default command's name in brackets, as it may be left out), then its summary from
    /// column 41, on the same line when the synopsis leaves room, else on the next.
    static var usage: String {
        let column = 41
        var lines: [String] = []
        for sub in CLI.subcommands {
            guard let summary = sub.summary else { continue }
            let name = sub.name == CLI.defaultCommand ? "[\(sub.name)]" : sub.name
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
