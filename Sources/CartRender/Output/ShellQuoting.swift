import CartRenderCore
import Foundation

/// POSIX shell quoting, the one helper for it: the commands the outputs suggest (verify's
/// record-again line) and the words of the shell completion scripts.
package enum ShellQuoting {
    /// `text` as one word of a POSIX shell: unchanged when made of safe characters, in single
    /// quotes otherwise, and in bash's `$'…'` quotes with visible escapes (`$'a\nb'`,
    /// `$'\u202e'`) when it holds a character that ``singleLine(_:)`` escapes: the suggested
    /// command is one line that bash and zsh read back as the same word.
    package static func word(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
        if !text.isEmpty && text.allSatisfy({ safe.contains($0) }) { return text }
        guard text.unicodeScalars.contains(where: isEscapedInMessages) else {
            return singleQuoted(text)
        }
        var out = "$'"
        for u in text.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x80 && isEscapedInMessages(u): out += String(format: "\\x%02x", u.value)
            case _ where isEscapedInMessages(u): out += u.value > 0xFFFF ? String(format: "\\U%08x", u.value) : String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "'"
    }

    /// `'text'`: one word of a POSIX shell or zsh, any `'` in it written `'\''`.
    package static func singleQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
}
