/// Exit statuses (docs/command-line.md, “Exit status and error messages”; BSD `sysexits.h` names). Every ``ReportableError`` names one.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Everything asked for was done and, for `verify` and `diff`, nothing differs (`EX_OK`).
    case success = 0
    /// `verify` / `diff` found differences.
    case differences = 1
    /// Bad command line (`EX_USAGE`).
    case usage = 64
    /// Invalid scene or input data (`EX_DATAERR`).
    case dataError = 65
    /// Input file missing or unreadable (`EX_NOINPUT`).
    case noInput = 66
    /// A required system package (font, icons) is not installed (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// Internal error (`EX_SOFTWARE`).
    case software = 70
    /// Output cannot be written (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// Interrupted by SIGINT (128 + 2).
    case interrupted = 130
    /// Terminated by SIGTERM (128 + 15).
    case terminated = 143
}
