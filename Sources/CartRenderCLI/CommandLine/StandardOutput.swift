import CartRender
import CartRenderCore
import Foundation

/// Standard output: the one way the commands print to it — help, the schema, the version,
/// result lines and JSON reports, review's address. Text goes into the C library's buffer of
/// `stdout` (64 KiB, fully buffered: `cartrender` sets it up before any command runs), and
/// ``finish(_:)`` flushes that buffer when the command is done and checks that everything
/// reached its destination.
///
/// A standard output that cannot be written — closed (`>&-`: `cartrender` then holds descriptor
/// 1 on `/dev/null` opened read-only, so writes fail with `EBADF` as on a closed descriptor),
/// a full disk (`>/dev/full`: `ENOSPC`), a file size limit (`EFBIG`) — ends the run with one
/// sentence on stderr and exit 73, whatever the command's own status. A reader that went away
/// (`cartrender audit --json | head -c 10`: `EPIPE`, SIGPIPE being ignored) is not a failure:
/// the run ends quietly with its own status, as if the rest had been read.
public enum StandardOutput {
    /// The `errno` of the first write that failed, 0 while none has.
    private static let failure = LockedValue<Int32>(0)

    /// Writes `text`, then `terminator`, as `print` would; a failure is kept for ``finish(_:)``.
    static func print(_ text: String, terminator: String = "\n") {
        let bytes = Array((text + terminator).utf8)
        guard !bytes.isEmpty else { return }
        if fwrite(bytes, 1, bytes.count, stdout) < bytes.count { record(errno) }
    }

    /// Writes `text` as one line: its control characters escaped visibly (``singleLine(_:)``),
    /// then a line break; for result lines that can hold user text (paths, names, labels).
    static func line(_ text: String) { print(singleLine(text)) }

    /// Writes what is buffered; a failure is kept for ``finish(_:)``. (Before a file that the
    /// process opens as `/dev/stdout` is written through descriptor 1.)
    static func flush() {
        if fflush(stdout) != 0 { record(errno) }
    }

    private static func record(_ e: Int32) {
        failure.withLock { if $0 == 0 { $0 = e == 0 ? EIO : e } }
    }

    /// Flushes standard output now and throws when what was printed did not reach it, whatever
    /// the reason (closed, full, a reader that went away): for a command whose output is the
    /// only way to learn something it is about to act on (`review`'s address with its token),
    /// so that it stops at once instead of serving an address nobody can read. The failure is
    /// then reported by the error, not again by ``finish(_:)``.
    /// - Parameter what: what follows, the end of the sentence.
    /// - Throws: ``StandardOutputError`` (exit 73).
    static func requireWritten(_ what: String) throws {
        flush()
        if ferror(stdout) != 0 { record(EIO) }
        let e = failure.withLock { e in defer { e = 0 }; return e }
        guard e != 0 else { return }
        clearerr(stdout)
        throw StandardOutputError(errorNumber: e, what: what)
    }

    /// Flushes standard output at the end of a run and returns the process's exit status:
    /// `code`, or 73 (``ExitCode/cannotCreate``) with `cartrender: standard output cannot be
    /// written (REASON)` on stderr when a write failed for any reason but a reader that went away.
    public static func finish(_ code: ExitCode) -> ExitCode {
        flush()
        // A write that failed inside the C library's own flush (text printed by other means
        // than ``print(_:terminator:)``) leaves only the stream's error flag.
        if ferror(stdout) != 0 { record(EIO) }
        let e = failure.withLock { $0 }
        guard e != 0 else { return code }
        if e == EPIPE && readerWentAway() { return code }
        Stderr.write("cartrender: standard output cannot be written (\(OutputDirectory.describe(e)))\n")
        return .cannotCreate
    }

    /// Whether descriptor 1 is a pipe or socket whose reader has gone (`POLLERR` or `POLLHUP`).
    private static func readerWentAway() -> Bool {
        var out = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
        return poll(&out, 1, 0) == 1 && out.revents & Int16(POLLERR | POLLHUP) != 0
    }
}

/// Standard output could not take what a command must print before it goes on (`review`'s
/// address): exit 73, `standard output cannot be written (Bad file descriptor): CONSEQUENCE`.
struct StandardOutputError: ReportableError, CustomStringConvertible {
    /// The `errno` of the failed write.
    var errorNumber: Int32
    /// What follows from it (`review serves nothing, as nobody could learn its address`).
    var what: String
    /// 73.
    var exitCode: ExitCode { .cannotCreate }
    /// The sentence.
    var description: String { "standard output cannot be written (\(OutputDirectory.describe(errorNumber))): \(what)" }
}
