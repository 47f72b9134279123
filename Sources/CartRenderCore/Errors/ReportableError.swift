/// An error that knows how the command line reports it: its exit status and its one sentence
/// (docs/command-line.md, “Exit status and error messages”), in the spirit of swift-argument-parser's small error values.
///
/// Every error type that can reach the command line conforms where it is defined. `cartrender`
/// prints `cartrender: ` + ``sentence`` on stderr, with control characters escaped so that it
/// stays one line (`singleLine`), then ``hint`` on a line of its own when there is one, and exits
/// with ``exitCode``. An error that does not conform is an internal error: it is printed as
/// `cartrender: internal error: …` and exits 70.
///
/// ```swift
/// struct TooManyItems: ReportableError, CustomStringConvertible {
///     var count: Int
///     var exitCode: ExitCode { .dataError }
///     var description: String { "cart.items: has \(count) items; at most 1000" }
/// }
/// ```
public protocol ReportableError: Error {
    /// The process's exit status for this error.
    var exitCode: ExitCode { get }
    /// What went wrong, as one sentence without the `cartrender: ` prefix. Errors of exit 70
    /// start with `internal error: `.
    var sentence: String { get }
    /// A line printed after the sentence (usage errors: where to find the usage), or nil.
    var hint: String? { get }
    /// The sentences printed, one a line each with the `cartrender: ` prefix: ``sentence``
    /// alone, unless the error is several problems at once (``SceneErrors``).
    var sentences: [String] { get }
}

extension ReportableError {
    /// No hint line.
    public var hint: String? { nil }
    /// One sentence: ``sentence``.
    public var sentences: [String] { [sentence] }
}

extension ReportableError where Self: CustomStringConvertible {
    /// An error's `description` is its sentence unless it says otherwise.
    public var sentence: String { description }
}
