import CartRenderCore
import Foundation

/// stderr for messages and the progress bar. Failures to write are ignored: a closed or full
/// stderr (`2>&-`, `2>/dev/full`) must not turn an error into a crash, and the exit status
/// still tells what happened. (`FileHandle.write` traps on a failed write.) Bytes of a path
/// that are not UTF-8 are shown as `\xFF` (`FileSystemPath.display`).
package enum Stderr {
    /// `cartrender: ` and `text` as one line: its control characters escaped visibly
    /// (``singleLine(_:)``), then a line break. Every message that can hold user text (a path,
    /// a scene's name or value) goes through here or ``CLI/report(_:)``.
    package static func line(_ text: String, prefix: String = "cartrender: ") {
        write(prefix + singleLine(text) + "\n")
    }

    package static func write(_ text: String) {
        var bytes = Array(FileSystemPath.display(text).utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Foundation.write(2, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            bytes = bytes.dropFirst(n)
        }
    }
}
