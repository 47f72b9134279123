import CartRenderCore

/// The one escaper of each language cartrender writes text into: HTML (report, viewer, variants
/// index), XML (JUnit), JSON inside an HTML `<script>` element (viewer data, review controls)
/// and Markdown (the step summary). Each takes any text and returns text that the language reads
/// back as that text.
package enum Escaping {
    /// Text for HTML content and double- or single-quoted attribute values: `&`, `<`, `>`, `"`
    /// and `'` as character references (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`); line breaks,
    /// tabs and format characters (bidirectional controls and the rest that ``singleLine(_:)``
    /// escapes) as numeric references (`&#10;`, `&#x202e;`), which read back as the same text;
    /// other controls, which HTML cannot hold, as U+FFFD. So the markup has no raw control: a
    /// `<picture>` element printed on standard output cannot start a line with user text or
    /// reorder it on a terminal.
    package static func html<S: StringProtocol>(_ text: S) -> String {
        var out = ""
        for u in text.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\r", "\t": out += "&#\(u.value);"
            case _ where isEscapedInMessages(u):
                out += u.value < 0x20 || (0x7F...0x9F).contains(u.value) ? "\u{FFFD}" : "&#x" + String(u.value, radix: 16) + ";"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// Text for XML 1.0 attribute values and content: the five predefined entities, line breaks
    /// and tabs as character references (kept in attributes), and the characters XML 1.0 cannot
    /// hold (controls, U+FFFE, U+FFFF) as U+FFFD.
    static func xml(_ text: String) -> String {
        var out = ""
        for u in text.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            case _ where u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// `value` as compact JSON to put inside an HTML `<script>` element: every `<` is written
    /// `\u003c`, so that no `</script>` or `<!--` in a string can end or change the element; the
    /// text is still the same JSON (and JavaScript) value.
    package static func scriptJSON(_ value: JSONValue) -> String {
        value.serialized().replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// A path as a Markdown link's target: space, parentheses, angle brackets, `|` and line
    /// breaks percent-encoded (`%20`, `%28`, …), so that neither the link nor a table cell
    /// around it ends early; every other character as it is.
    static func markdownLinkTarget(_ path: String) -> String {
        var target = ""
        for c in path.unicodeScalars {
            switch c {
            case " ": target += "%20"
            case "(": target += "%28"
            case ")": target += "%29"
            case "<": target += "%3C"
            case ">": target += "%3E"
            case "|": target += "%7C"
            case "\n", "\r": target += "%0A"
            default: target.unicodeScalars.append(c)
            }
        }
        return target
    }

    /// Text with Markdown's punctuation (`` \ ` * _ [ ] ( ) < > # | ! ``) backslash-escaped.
    static func markdown(_ text: String) -> String {
        var out = ""
        for c in text {
            if "\\`*_[]()<>#|!".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
