/// Several problems with one scene, each a ``SceneError`` (at most
/// ``SceneDecoder/maxErrors``), in file order: printed one sentence a line, as compilers do.
/// The exit status is the first one's.
public struct SceneErrors: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// The problems, at least two, in file order.
    public var errors: [SceneError]
    /// The problems `errors` (at least two).
    public init(_ errors: [SceneError]) { precondition(errors.count > 1); self.errors = errors }
    /// The first problem's exit status.
    public var exitCode: ExitCode { errors[0].exitCode }
    /// Every problem's sentence, one a line.
    public var sentences: [String] { errors.map(\.description) }
    /// The sentences joined by newlines.
    public var description: String { sentences.joined(separator: "\n") }
}

/// A problem with a scene: where it is (file, line, column, JSON path) and what is wrong.
///
/// `description` is the one sentence printed on stderr, e.g.
/// `scene.json:12:9: events[3].at: must be ≥ 0, got -1`.
public struct SceneError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// Which of the two exit codes the problem earns (docs/command-line.md, “Exit status and error
    /// messages”; docs/bad-input.md).
    public enum Kind: Sendable, Equatable {
        /// Malformed JSON, wrong type, unknown key, out-of-range value or corrupt image (exit 65).
        case invalid
        /// The scene file or an image it names is missing or unreadable (exit 66).
        case unreadable
    }
    /// Invalid (exit 65) or unreadable (exit 66).
    public var kind: Kind
    /// The scene file as the user named it (`<default scene>` for the embedded one).
    public var file: String
    /// 1-based line and column in `file`; nil when the problem is not at a place in the file (the
    /// file is missing).
    public var location: SourceLocation?
    /// JSON path of the offending value (`events[3].at`), empty for the whole document.
    public var path: String
    /// What is wrong, as the end of the sentence (`must be ≥ 0, got -1`).
    public var message: String

    /// A scene error; `kind` is `.invalid` unless the file or an image cannot be read.
    public init(kind: Kind = .invalid, file: String, location: SourceLocation?, path: String, message: String) {
        self.kind = kind; self.file = file; self.location = location; self.path = path; self.message = message
    }

    /// One line, whatever the scene holds: control characters in keys, values and paths are
    /// escaped as in JSON (`\n`, `\u0001`).
    public var description: String {
        var s = file
        if let l = location { s += ":\(l.line):\(l.column)" }
        s += ": "
        if !path.isEmpty { s += path + ": " }
        return singleLine(s + message)
    }

    /// 66 for an unreadable file, 65 for anything wrong inside one.
    public var exitCode: ExitCode { kind == .unreadable ? .noInput : .dataError }
}

/// How much of a value an error message echoes (characters): a scene's key or value, or a
/// command-line value, longer than this is cut to it and ends with `…`, so that a pasted file,
/// a 20 000-character key or a 5 000-digit number stays one short line.
public let echoedLength = 40

/// `text`, or its first ``echoedLength`` characters and `…` when it is longer, with its control
/// characters escaped as ``singleLine(_:)`` escapes them: an echoed value never starts a line,
/// moves the cursor or reorders what follows it.
public func echoed(_ text: String) -> String {
    singleLine(text.count > echoedLength ? text.prefix(echoedLength) + "…" : text)
}

/// `"TEXT"`, the text cut and escaped as ``echoed(_:)`` does.
public func echoedQuoted(_ text: String) -> String { "\"" + echoed(text) + "\"" }

/// `text` with line breaks and other invisible controls escaped visibly, as in JSON (`\n`,
/// `\r`, `\t`, `\u001b`; `\u{e0001}` above U+FFFF), so that a message that quotes user input
/// stays one line on stderr, and no value can start a line a CI runner parses as a command
/// (`::error …`), move a terminal's cursor or reorder the text around it. Escaped: C0 controls,
/// DEL, C1 controls, the line and paragraph separators (U+2028, U+2029), and every format
/// character (Unicode category Cf): the bidirectional controls U+200E, U+200F, U+061C,
/// U+202A–U+202E and U+2066–U+2069, U+FEFF, soft hyphens, tags… except the zero-width
/// joiner and non-joiner (U+200D, U+200C), which emoji and many scripts need inside words.
/// The one escaper of messages: error sentences, notices, result lines and closing lines pass
/// through it.
public func singleLine(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isEscapedInMessages) else { return text }
    var out = ""
    for u in text.unicodeScalars {
        switch u {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where isEscapedInMessages(u):
            out += u.value > 0xFFFF ? "\\u{" + String(u.value, radix: 16) + "}" : String(format: "\\u%04x", u.value)
        default: out.unicodeScalars.append(u)
        }
    }
    return out
}

/// Whether ``singleLine(_:)`` escapes `u`: a control (Cc), a line or paragraph separator, or a
/// format character (Cf) other than the zero-width joiner and non-joiner.
public func isEscapedInMessages(_ u: Unicode.Scalar) -> Bool {
    if u.value < 0x20 || (0x7F...0x9F).contains(u.value) || u.value == 0x2028 || u.value == 0x2029 { return true }
    if u.value < 0xA0 || u.value == 0x200C || u.value == 0x200D { return false }
    return u.properties.generalCategory == .format
}

/// The known key closest to `key` by edit distance, if it is close enough to be a likely typo.
public func nearestKey(to key: String, in candidates: [String]) -> String? {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[b.count]
    }
    // Edit distance is O(|key| × |candidate|): long strings are not typos of short names.
    guard key.count <= 64 else { return nil }
    let k = Array(key.lowercased())
    var best: (String, Int)?
    for c in candidates where c.count <= 64 {
        let d = distance(k, Array(c.lowercased()))
        if best == nil || d < best!.1 { best = (c, d) }
    }
    guard let (name, d) = best, d <= max(2, key.count / 3) else { return nil }
    return name
}
