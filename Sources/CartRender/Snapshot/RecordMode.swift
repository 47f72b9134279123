import CartRenderCore

/// When `verify` writes baseline frames (docs/snapshot-testing.md, “Record modes”; the modes of swift-snapshot-testing).
///
/// A frame that is recorded counts as passing: the baseline now holds what was rendered. Its
/// result keeps the status found before recording (`missing`, `fail`, …) and is marked recorded.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Rewrite every compared frame, and remove baseline frames past the end of the timeline.
    case all
    /// Write only frames whose baseline file is absent; the default outside CI.
    case missing
    /// Write absent frames and rewrite failing ones (`fail`, `sizeMismatch`, an undecodable
    /// baseline), and remove baseline frames past the end of the timeline.
    case failed
    /// Write nothing: a missing baseline frame is a failure. The default when `CI` is set.
    case never

    /// The environment variable that chooses a mode when no `--record` is given.
    public static let environmentVariable = "CARTRENDER_RECORD"

    /// The mode in force: `explicit` when given, else `CARTRENDER_RECORD`, else `never` when the
    /// `CI` variable is set to anything but empty, `0` or `false`, else `missing`.
    ///
    /// - Parameters:
    ///   - explicit: the `--record` option or the library caller's choice.
    ///   - environment: usually `ProcessInfo.processInfo.environment`.
    /// - Throws: `UsageError` when `CARTRENDER_RECORD` holds something other than a mode name.
    public static func resolve(_ explicit: RecordMode?, environment: [String: String]) throws -> RecordMode {
        if let explicit { return explicit }
        if let value = environment[environmentVariable], !value.isEmpty {
            guard let mode = RecordMode(rawValue: value.lowercased()) else {
                throw UsageError("\(environmentVariable): expected all, missing, failed or never, got \(echoedQuoted(value))")
            }
            return mode
        }
        if let ci = environment["CI"], !["", "0", "false"].contains(ci.lowercased()) { return .never }
        return .missing
    }

    /// Whether a frame found with `status` is (re)written under this mode.
    func records(_ status: FrameStatus) -> Bool {
        switch (self, status) {
        case (.never, _): return false
        case (.all, _): return true
        case (.missing, .missing): return true
        case (.missing, _): return false
        case (.failed, .fail), (.failed, .sizeMismatch), (.failed, .missing), (.failed, .extra): return true
        case (.failed, .pass): return false
        }
    }
}
