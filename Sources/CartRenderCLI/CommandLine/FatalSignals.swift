import CartRender
import CartRenderCore
import Foundation

/// What ends the process when a library cannot allocate memory (GLib aborts when it cannot start
/// a thread, the Swift runtime traps, glibc aborts on a broken heap) or the program crashes:
/// instead of a signal and a core, one sentence on stderr, the staging directories of the runs
/// still drawing removed, and exit 70.
///
/// The handler of SIGTRAP, SIGILL, SIGABRT, SIGSEGV, SIGBUS and SIGFPE does only what is safe
/// in a signal handler: `write(2)`, `getdents64(2)`, `unlinkat(2)` and `_exit(2)` on
/// descriptors and names stored beforehand (``StagingSlots``). A staging directory that is
/// being committed is left for the next command, which rolls its journal back. It runs on an
/// alternate signal stack, so a stack overflow is reported too.
public enum FatalSignals {
    static let signals: [Int32] = [SIGTRAP, SIGILL, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// Installs the handler (once, before any thread starts).
    public static func install() {
        _ = StagingSlots.table  // allocated now, never in the handler
        let stackBytes = 64 << 10
        var alternate = stack_t(ss_sp: UnsafeMutableRawPointer.allocate(byteCount: stackBytes, alignment: 16), ss_flags: 0, ss_size: stackBytes)
        sigaltstack(&alternate, nil)
        for sig in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = fatalSignalHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_ONSTACK | Int32(bitPattern: UInt32(truncatingIfNeeded: SA_RESETHAND))
            sigaction(sig, &action, nil)
        }
    }
}

/// The handler: message, cleanup, exit 70. Only async-signal-safe calls.
private let fatalSignalHandler: @convention(c) (Int32) -> Void = { sig in
    let name: StaticString
    switch sig {
    case SIGTRAP: name = "SIGTRAP"
    case SIGILL: name = "SIGILL"
    case SIGABRT: name = "SIGABRT"
    case SIGSEGV: name = "SIGSEGV"
    case SIGBUS: name = "SIGBUS"
    default: name = "SIGFPE"
    }
    let removed = StagingSlots.removeAllFilling()
    writeStatic("cartrender: internal error: the process ran out of memory or crashed (")
    writeStatic(name)
    writeStatic(removed ? "); removed its unfinished files\n" : "); a commit was under way, and the next run in its directory puts the earlier files back\n")
    _exit(ExitCode.software.rawValue)
}

private func writeStatic(_ text: StaticString) {
    _ = write(2, text.utf8Start, text.utf8CodeUnitCount)
}
