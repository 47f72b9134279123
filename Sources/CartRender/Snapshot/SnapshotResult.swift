import CartRenderCore
import Foundation

/// The outcome of one frame of `verify` or of a directory `diff`.
public struct FrameResult: Sendable {
    /// The frame's file name, `frame_0042.png`.
    public var name: String
    /// Frame index and the time (s) it shows, when known (renders; directory diffs parse the index).
    public var index: Int?
    /// The time the frame shows (s), when known.
    public var time: Double?
    /// What the comparison found, before any recording.
    public var status: FrameStatus
    /// Pixel counts, when pixels were compared (or the bytes were equal).
    public var result: DiffResult?
    /// The two files had the same bytes and were accepted without decoding.
    public var byteEqual = false
    /// Sizes (px), when known.
    public var expectedSize: PixelSize?
    /// Size of the actual frame (px), when known.
    public var actualSize: PixelSize?
    /// The baseline was written (or, for an `extra` frame, removed) by the record mode.
    public var recorded = false
    /// The baseline frame exists but could not be decoded (it was recorded over).
    public var undecodable: String?
    /// Files written into the report directory for this frame (names relative to it), each
    /// named by its content (`img_HASH.png`, `diff_HASH.png`): frames of the same bytes share one.
    /// The baseline frame's copy.
    public var expectedFile: String?
    /// The actual frame's copy in the report directory.
    public var actualFile: String?
    /// The diff image in the report directory (a palette PNG).
    public var diffFile: String?
    /// A downscaled image (``ReportThumbnail``), shared by the frames of the same content: of
    /// the frame, for the frames the report shows without images of their own; of the diff
    /// image, differences kept visible, for the filmstrip and grid entry of a failing frame.
    public var thumbnailFile: String?
    /// Seconds spent checking the frame — reading and comparing the baseline, recording it,
    /// writing its report images; not drawing it — on a monotonic clock; nil when not measured.
    /// Only `junit.xml` shows it: the other outputs stay the same bytes from run to run.
    public var seconds: Double?
    /// How the frame's `state` differs from its entry in the baseline's `manifest.json`, JSON
    /// paths in ``ManifestComparison/changes(expected:actual:path:)``'s order: empty when they
    /// agree, nil when not compared (no baseline manifest, or it has no entry for the frame).
    public var stateChanges: [ManifestComparison.Change]?
    /// Whether a state difference fails the frame (false with `--ignore-state`).
    public var stateCounts = true

    /// A frame's result with nothing compared yet but its status.
    public init(name: String, index: Int?, time: Double?, status: FrameStatus) {
        self.name = name
        self.index = index
        self.time = time
        self.status = status
    }

    /// Whether the frame counts as passing: it matched (pixels, and its state unless ignored),
    /// or its baseline was just recorded.
    public var passed: Bool { (status == .pass && !(stateDiffers && stateCounts)) || recorded }

    /// Whether the frame's state differs from the baseline manifest's.
    public var stateDiffers: Bool { !(stateChanges ?? []).isEmpty }

    /// Whether the report shows this frame: every frame that did not match, except a missing
    /// one that was just recorded (there is nothing to compare it with).
    public var isReported: Bool { status != .pass && !(status == .missing && recorded) }

    /// Seconds from `start` to now on the monotonic clock (for ``seconds``).
    package static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// The frame index parsed from a `frame_NNNN.png` name.
    package static func index(ofFileName name: String) -> Int? {
        guard name.hasPrefix("frame_"), name.hasSuffix(".png") else { return nil }
        let digits = name.dropFirst(6).dropLast(4)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// The §6 JSON object: `frame`, `status`, the four counts of ``DiffResult`` (null when pixels
    /// were not compared), and cartrender's additions.
    var json: JSONValue {
        var m: [(String, JSONValue)] = [("frame", .string(name))]
        if let index { m.append(("index", .int(index))) }
        if let time { m.append(("time", .num(time))) }
        m.append(("status", .string(status.rawValue)))
        m.append(("differingPixels", result.map { .int($0.differingPixels) } ?? .null))
        m.append(("antialiasedPixels", result.map { .int($0.antialiasedPixels) } ?? .null))
        m.append(("totalPixels", result.map { .int($0.totalPixels) } ?? actualSize.map { .int($0.pixelCount) } ?? .null))
        m.append(("identical", .bool(result?.identical ?? false)))
        m.append(("byteEqual", .bool(byteEqual)))
        if status == .sizeMismatch || result == nil {
            if let s = expectedSize { m.append(("expectedSize", .object([("width", .int(s.width)), ("height", .int(s.height))]))) }
            if let s = actualSize { m.append(("actualSize", .object([("width", .int(s.width)), ("height", .int(s.height))]))) }
        }
        if let undecodable { m.append(("baselineError", .string(undecodable))) }
        if let stateChanges, !stateChanges.isEmpty { m.append(("stateChanges", .array(stateChanges.map(\.json)))) }
        m.append(("recorded", .bool(recorded)))
        var files: [(String, JSONValue)] = []
        if let expectedFile { files.append(("expected", .string(expectedFile))) }
        if let actualFile { files.append(("actual", .string(actualFile))) }
        if let diffFile { files.append(("diff", .string(diffFile))) }
        if let thumbnailFile { files.append(("thumbnail", .string(thumbnailFile))) }
        if !files.isEmpty { m.append(("files", .object(files))) }
        return .object(m)
    }
}

extension SnapshotResult {
    /// A result of `command` with every field not named here at its default (the command line's
    /// `diff` of two files builds its one-frame result so).
    package init(command: Command, subject: String, baseline: String, reportDirectory: String?, record: RecordMode?,
                 options: ComparisonOptions, fps: Int?, frames: [FrameResult]) {
        self.init(command: command, subject: subject, baseline: baseline, reportDirectory: reportDirectory, record: record,
                  variant: nil, options: options, fps: fps, frames: frames)
    }
}

/// Everything a `verify` run or a directory `diff` found, in frame order, and where its report is.
public struct SnapshotResult: Sendable {
    /// The command that made the result.
    public enum Command: String, Sendable { case verify, diff }

    /// `verify` or `diff`.
    public var command: Command
    /// What was checked: the scene file (verify) or the actual directory (diff).
    public var subject: String
    /// The expected frames: the baseline directory (verify) or the first directory (diff).
    public var baseline: String
    /// The report directory, when one was written.
    public var reportDirectory: String?
    /// The record mode in force (verify only).
    public var record: RecordMode?
    /// The variant of the scene's `"variants"` matrix this run verified (`dark-ar_SA`), nil
    /// for a scene without one: it names the suite, class and tests of `junit.xml`.
    public var variant: String? = nil
    /// The tolerance the frames were compared with.
    public var options: ComparisonOptions
    /// Frames per second of the render, for times in the report (nil for directory diffs).
    public var fps: Int?
    /// One result per frame: compared frames in index order, then extra baseline frames.
    public var frames: [FrameResult]
    /// The accessibility audit of the frames (`verify --audit`), nil without one.
    public var audit: AuditReport? = nil
    /// Whether every compared frame's state was compared with its entry in the baseline's
    /// `manifest.json` (verify only): false without a readable manifest, or when some frames
    /// have no one entry with a state there (``framesWithoutState``).
    public var stateCompared = false
    /// Indices of the frames compared with a baseline PNG whose state was not compared, because
    /// the baseline's `manifest.json` does not list them, lists them more than once or gives no
    /// `state` (verify with a manifest only; empty otherwise).
    public var framesWithoutState: [Int] = []
    /// The baseline manifest's events whose time moved, or that only one side has
    /// (``ManifestComparison/movedEvents(expected:actual:)``). They do not fail the run on
    /// their own: the frames whose state they change do.
    public var movedEvents: [ManifestComparison.MovedEvent] = []
    /// Programs and fonts of the baseline manifest's `software` that this run uses in another
    /// version, or not at all.
    public var softwareDifferences: [ManifestComparison.SoftwareDifference] = []
    /// Sentences for stderr, without the `cartrender: ` prefix: that states were not compared
    /// (no readable baseline manifest), and one per ``softwareDifferences``, naming the manifest.
    public var warnings: [String] = []
    /// Settings of this render that differ from the baseline manifest's (fps, scale, canvas
    /// size in points — the device —, canvas size in pixels), in that order: a
    /// frame-by-frame comparison against such a baseline cannot mean much, so the outputs name
    /// these first and summarise the frames (verify with a readable manifest only).
    public var settingMismatches: [SettingMismatch] = []
    /// The command that records the baseline again with this run's settings, for the
    /// mismatch line; nil = `cartrender verify SCENE --baseline DIR --record all`.
    public var recordAgainCommand: String?
    /// Frames the record mode would have written but did not, because the run failed
    /// (`--record missing` records only in a run whose other frames all pass), by file name.
    public var notRecorded: [String] = []
    /// A run that records any frame fails (`--fail-on-record`).
    public var failOnRecord = false
    /// Where the input behind the first of ``movedEvents`` that one caused is written in the
    /// scene file: its index in `events` and the 1-based line and column of its object (the
    /// action's annotation points there); nil when no moved event has one.
    public var firstMovedEventSource: (index: Int, location: SourceLocation)?
    /// The animation of the failing segment in the report (``MotionDiff``); nil when the run
    /// passed or wrote no report.
    public var motionDiff: MotionDiffFile?

    /// How the scene differs from the one the baseline was recorded from (its manifest's
    /// ``Manifest/canonicalScene``); nil when they are the same or the baseline does not say.
    package var sceneChanges: SceneChanges?
    /// The directory JUnit's `file` attributes are relative to; nil = `GITHUB_WORKSPACE`, else
    /// the working directory, when the report is written (``AnnotationPath``).
    var workspace: String?

    /// When the scene changed since the baseline was recorded but every frame passes (no
    /// pixel differs beyond the threshold, no state differs) and nothing was recorded: one
    /// sentence saying so, for the warnings and the report; nil otherwise.
    var sceneChangeWarning: String? {
        guard let scene = sceneChanges, passed, recordedCount == 0, !frames.isEmpty else { return nil }
        return "\(scene.summary), but every frame passes: no pixel differs beyond the threshold "
            + "(\(JSONValue.format(options.threshold, decimals: 6)), allowed \(allowance)); the change may be too faint to see at this "
            + "threshold: lower --threshold to catch it, or record it with --record all"
    }

    /// The line of the scene file that explains the failures, for CI annotations (JUnit's
    /// `line`, the action's `::error line=`): the input behind the first moved event, else the
    /// first changed scene member; nil when neither is known.
    public var annotationLine: Int? { firstMovedEventSource?.location.line ?? sceneChanges?.line }

    /// Whether every frame passed (or was recorded), and nothing was recorded under `--fail-on-record`.
    public var passed: Bool { frames.allSatisfy(\.passed) && !(failOnRecord && recordedCount > 0) }
    /// Frames that did not pass and were not recorded, in frame order.
    public var failures: [FrameResult] { frames.filter { !$0.passed } }
    /// The first frame, in index order, whose state differs from the baseline manifest's (its
    /// ``FrameResult/stateChanges``); nil when none does.
    public var stateDivergence: FrameResult? { frames.first(where: \.stateDiffers) }

    /// Frames whose baseline was written or removed.
    public var recordedCount: Int { frames.filter(\.recorded).count }

    /// How many frames have each status.
    public func count(_ status: FrameStatus) -> Int { frames.filter { $0.status == status }.count }

    /// `DIR/index.html`, when a report was written.
    public var reportIndex: String? { reportDirectory.map { ($0 as NSString).appendingPathComponent("index.html") } }

    /// The report object, printed by `--json` and written as `report.json`: `passed`, a
    /// `summary` of counts, and a `frames` array of ``FrameResult`` objects (docs/snapshot-testing.md, “The report”); with
    /// `--audit`, the ``AuditReport`` as `audit` (its own `passed`).
    public var json: JSONValue {
        var m: [(String, JSONValue)] = [
            ("version", 1),
            ("command", .string(command.rawValue)),
            (command == .verify ? "scene" : "actual", .string(subject)),
            (command == .verify ? "baseline" : "expected", .string(baseline)),
        ]
        m.append(("report", reportDirectory.map { .string($0) } ?? .null))
        if let record { m.append(("record", .string(record.rawValue))) }
        if let variant { m.append(("variant", .string(variant))) }
        if let fps { m.append(("fps", .int(fps))) }
        m.append(("options", .object([
            ("threshold", .number(options.threshold, decimals: 6)),
            ("includeAA", .bool(options.includeAA)),
            ("maxDiffPixels", options.maxDiffPixels.map { .int($0) } ?? .null),
            ("maxDiffRatio", options.maxDiffRatio.map { .number($0, decimals: 9) } ?? .null),
            ("masks", .array(options.masks.map { .array([.int($0.x), .int($0.y), .int($0.width), .int($0.height)]) })),
        ])))
        m.append(("passed", .bool(passed)))
        var summary: [(String, JSONValue)] = [("frames", .int(frames.count))]
        for s in FrameStatus.allCases { summary.append((s.rawValue, .int(count(s)))) }
        if command == .verify { summary.append(("stateDiffers", .int(frames.filter(\.stateDiffers).count))) }
        summary.append(("recorded", .int(recordedCount)))
        if command == .verify { summary.append(("notRecorded", .int(notRecorded.count))) }
        summary.append(("failed", .int(failures.count)))
        m.append(("summary", .object(summary)))
        if command == .verify {
            m.append(("settingsDiffer", .array(settingMismatches.map(\.json))))
            m.append(("settingsNote", settingMismatchLine.map(JSONValue.string) ?? .null))
            m.append(("recording", .object([
                ("recorded", .array(frames.filter(\.recorded).map { .string($0.name) })),
                ("notRecorded", .array(notRecorded.map(JSONValue.string))),
                ("failOnRecord", .bool(failOnRecord)),
                ("note", recordingNote.map(JSONValue.string) ?? .null),
            ])))
        }
        if command == .verify {
            m.append(("stateCompared", .bool(stateCompared)))
            m.append(("framesWithoutState", .array(framesWithoutState.map(JSONValue.int))))
            m.append(("stateDivergence", stateDivergence.map { f in
                .object([("frame", f.index.map(JSONValue.int) ?? .null), ("time", f.time.map(JSONValue.num) ?? .null),
                         ("ignored", .bool(!f.stateCounts)), ("changes", .array((f.stateChanges ?? []).map(\.json)))])
            } ?? .null))
            m.append(("events", .array(movedEvents.map(\.json))))
            m.append(("firstMovedEvent", firstMovedEventSource.map { s in
                .object([("event", .int(s.index)), ("line", .int(s.location.line)), ("column", .int(s.location.column))])
            } ?? .null))
            m.append(("sceneChanged", sceneChanges?.json ?? .null))
            m.append(("annotationLine", annotationLine.map(JSONValue.int) ?? .null))
            m.append(("provenance", .array(softwareDifferences.map(\.json))))
            m.append(("motionDiff", motionDiff?.json ?? .null))
        }
        m.append(("frames", .array(frames.map(\.json))))
        if let audit { m.append(("audit", audit.json)) }
        return .object(m)
    }

    /// A setting of the render that differs from the baseline manifest's: `fps 10 → 20`.
    public struct SettingMismatch: Equatable, Sendable {
        /// `fps`, `scale`, `device size`, `canvas size`. (Not the duration: a moved last event
        /// lengthens the timeline, and its frames show as missing or extra.)
        public var setting: String
        /// The values as text with their units (`10`, `2x`, `393×852 pt`, `2.5 s`).
        public var baseline: String
        /// This run's value, as text with its unit.
        public var current: String

        /// `{"setting", "baseline", "current"}`.
        var json: JSONValue { .object([("setting", .string(setting)), ("baseline", .string(baseline)), ("current", .string(current))]) }
    }

    /// The baseline manifest's settings against this render's, each that differs.
    static func settingMismatches(baseline m: Manifest, current c: Manifest) -> [SettingMismatch] {
        func n(_ v: Double) -> String { JSONValue.format(v, decimals: 3) }
        var out: [SettingMismatch] = []
        if m.fps != c.fps { out.append(.init(setting: "fps", baseline: "\(m.fps)", current: "\(c.fps)")) }
        if abs(m.scale - c.scale) >= 5e-7 { out.append(.init(setting: "scale", baseline: n(m.scale) + "x", current: n(c.scale) + "x")) }
        let mp = (m.scale > 0 ? Double(m.width) / m.scale : 0, m.scale > 0 ? Double(m.height) / m.scale : 0)
        let cp = (Double(c.width) / c.scale, Double(c.height) / c.scale)
        if abs(mp.0 - cp.0) >= 0.5 || abs(mp.1 - cp.1) >= 0.5 {
            out.append(.init(setting: "device size", baseline: "\(n(mp.0))×\(n(mp.1)) pt", current: "\(n(cp.0))×\(n(cp.1)) pt"))
        }
        if m.width != c.width || m.height != c.height {
            out.append(.init(setting: "canvas size", baseline: "\(m.width)×\(m.height) px", current: "\(c.width)×\(c.height) px"))
        }
        return out
    }

    /// `the baseline was recorded with other settings: fps 10, this run 20; …; frame-by-frame
    /// results cannot mean much: record it again with cartrender verify … --record all`, the
    /// first line of every output; nil when the settings agree.
    public var settingMismatchLine: String? {
        guard !settingMismatches.isEmpty else { return nil }
        let list = settingMismatches.map { "\($0.setting) \($0.baseline), this run \($0.current)" }.joined(separator: "; ")
        let command = recordAgainCommand ?? "cartrender verify \(ShellQuoting.word(subject)) --baseline \(ShellQuoting.word(baseline)) --record all"
        return "the baseline was recorded with other settings (\(list)): frame-by-frame results cannot mean much; "
            + "if this run's settings are right, record it again with: \(command)"
    }

    /// `N frames compared against a baseline of other settings (…): not listed one by one`, in
    /// place of the frames' lines when the settings differ.
    package var mismatchedFramesLine: String {
        let f = failures.count
        return "\(f) of \(frames.count) frames differ from a baseline recorded with other settings: not listed one by one (the report has them)"
    }

    // MARK: Console text

    /// Most state changes named in one line of text; the rest are counted.
    static let maxChangesInLine = 6

    /// `count 1 → 0, flights[0].progress 0.97 → 0.81, … and 3 more`.
    static func describe(_ changes: [ManifestComparison.Change]) -> String {
        var s = changes.prefix(maxChangesInLine).map(\.description).joined(separator: ", ")
        if changes.count > maxChangesInLine { s += ", … and \(changes.count - maxChangesInLine) more" }
        return s
    }

    /// `state diverges first at frame 18 (t=0.9 s): count 1 → 0, flights[0].progress 0.97 → 0.81`,
    /// printed before the frames' lines; nil when no state differs.
    public var stateDivergenceLine: String? {
        guard let f = stateDivergence else { return nil }
        var s = "state diverges first at frame \(f.index.map(String.init) ?? f.name)"
        if let t = f.time { s += " (t=\(JSONValue.format(t, decimals: 3)) s)" }
        s += ": " + Self.describe(f.stateChanges ?? [])
        if !f.stateCounts { s += " (ignored: --ignore-state)" }
        return s
    }

    /// Most moved events named in one line; the rest are counted.
    static let maxEventsInLine = 20

    /// `events moved: land (flight 1) at 0.95 s → 1 s, …`, at most ``maxEventsInLine`` of them
    /// then `… and N more`; nil when none did.
    public var movedEventsLine: String? {
        guard !movedEvents.isEmpty else { return nil }
        var s = "events moved: " + movedEvents.prefix(Self.maxEventsInLine).map(\.description).joined(separator: ", ")
        if movedEvents.count > Self.maxEventsInLine { s += ", … and \(movedEvents.count - Self.maxEventsInLine) more" }
        return s
    }

    /// The one line printed for a frame that did not pass, or that was recorded over a difference;
    /// nil for the others.
    public func line(for frame: FrameResult) -> String? {
        guard frame.isReported else { return nil }
        let label: String
        switch frame.status {
        case .fail: label = "FAIL"
        case .missing: label = "MISSING"
        case .extra: label = "EXTRA"
        case .sizeMismatch: label = "SIZE"
        case .pass: label = "PASS"
        }
        var s = (frame.recorded ? "RECORDED" : label).padding(toLength: 9, withPad: " ", startingAt: 0) + frame.name
        if let t = frame.time { s += " (t=\(JSONValue.format(t, decimals: 3)) s)" }
        s += ": " + explanation(of: frame)
        if frame.recorded { s += frame.status == .extra ? "; removed from the baseline" : "; baseline rewritten" }
        if let diff = frame.diffFile ?? frame.actualFile ?? frame.expectedFile, let dir = reportDirectory, !frame.recorded {
            s += " → " + (dir as NSString).appendingPathComponent(diff)
        }
        return s
    }

    /// Why a frame did not pass, as one clause.
    public func explanation(of frame: FrameResult) -> String {
        let expectedPath = (baseline as NSString).appendingPathComponent(frame.name)
        switch frame.status {
        case .pass:
            if frame.stateDiffers { return "pixels match, but the state differs from the baseline manifest's: " + Self.describe(frame.stateChanges!) }
            return "matches"
        case .fail:
            if let reason = frame.undecodable { return "the baseline frame cannot be decoded (\(reason))" }
            guard let r = frame.result else { return "differs" }
            var s = "\(r.differingPixels) px differ\(r.differingPixels == 1 ? "s" : "") (\(percentText(of: r)) %)"
            if r.antialiasedPixels > 0 { s += ", \(r.antialiasedPixels) anti-aliased px ignored" }
            return s + ", allowed \(allowance)"
        case .missing:
            if command == .diff { return "only in \(subject), not in \(baseline)" }
            if frame.recorded { return "recorded a new baseline frame at \(expectedPath)" }
            if notRecorded.contains(frame.name) {
                return "no baseline frame at \(expectedPath); not recorded: record mode missing records only when every other frame passes"
            }
            return "no baseline frame at \(expectedPath); record it with --record missing (or \(RecordMode.environmentVariable)=missing)"
        case .extra:
            if command == .diff { return "only in \(baseline), not in \(subject)" }
            return "the baseline has this frame but the render has none with that name; delete it or re-record with --record all"
        case .sizeMismatch:
            let e = frame.expectedSize.map { "\($0) px" } ?? "?"
            let a = frame.actualSize.map { "\($0) px" } ?? "?"
            return "size differs: expected \(e), got \(a)"
        }
    }

    /// The share of differing pixels in percent, with the digits that explain the verdict: a
    /// share that is not zero never reads as `0` (at least two significant digits), and one that
    /// differs from the allowed share (`--max-diff-ratio`) never reads as equal to it:
    /// `0.000033` for 1 px of 3 013 524, `0.1` for 120 of 120 000.
    func percentText(of r: DiffResult) -> String {
        guard r.totalPixels > 0, r.differingPixels > 0 else { return "0" }
        let pct = Double(r.differingPixels) * 100 / Double(r.totalPixels)
        let allowed = options.maxDiffRatio.map { $0 * 100 }
        var decimals = 4
        while decimals < 12 {
            let text = JSONValue.format(pct, decimals: decimals)
            let significant = pct * pow(10, Double(decimals)) >= 10
            let distinct = allowed.map { a in a == pct || JSONValue.format(a, decimals: decimals) != text } ?? true
            if significant && distinct { return text }
            decimals += 1
        }
        return JSONValue.format(pct, decimals: decimals)
    }

    /// The tolerance in words: `0 px`, `120 px`, `0.1 % of pixels`.
    var allowance: String {
        var parts: [String] = []
        if let r = options.maxDiffRatio { parts.append("\(JSONValue.format(r * 100, decimals: 9)) % of pixels") }
        if let n = options.maxDiffPixels ?? (options.maxDiffRatio == nil ? 0 : nil) { parts.append("\(n) px") }
        return parts.joined(separator: " and ")
    }

    /// The closing line: `cartrender verify: FAILED, 1 of 198 frames failed (1 fail) …`.
    public var summaryLine: String {
        let n = frames.count
        var s = "cartrender \(command.rawValue): "
        if passed {
            // A frame is counted once: recorded (its pixels may have matched while its state
            // changed), or matched.
            let matched = frames.filter { $0.status == .pass && !$0.recorded }
            let same = matched.filter(\.byteEqual).count
            s += "passed, \(n) frame\(n == 1 ? "" : "s")"
            if recordedCount > 0 { s += ", \(recordedCount) recorded in \(baseline)" }
            let compared = matched.count
            if compared > 0 { s += ", \(compared) matched (\(same) byte-identical)" }
        } else {
            let f = failures
            var kinds: [String] = []
            for status in FrameStatus.allCases where status != .pass {
                let k = f.filter { $0.status == status }.count
                if k > 0 { kinds.append("\(k) \(status.rawValue)") }
            }
            let states = f.filter { $0.status == .pass }.count
            if states > 0 { kinds.append("\(states) state") }
            if f.isEmpty {
                s += "FAILED (--fail-on-record), \(n) frame\(n == 1 ? "" : "s"), \(recordedCount) recorded in \(baseline)"
            } else {
                s += "FAILED, \(f.count) of \(n) frame\(n == 1 ? "" : "s") failed (\(kinds.joined(separator: ", ")))"
                if recordedCount > 0 { s += ", \(recordedCount) recorded" }
                if !notRecorded.isEmpty { s += ", \(notRecorded.count) not recorded" }
            }
        }
        if let index = reportIndex { s += "; report: \(index)" }
        return s
    }

    /// What recording did, one sentence, the same in every output (terminal, `report.json`,
    /// `junit.xml`, the summary, the HTML page): `recorded 6 baseline frames in DIR (frames
    /// 198-203, record mode missing); review them and commit DIR`, or `did not record 6 missing
    /// frames in DIR (frames 198-203): record mode missing records only when every other frame
    /// passes, and 3 failed; …`; nil when there is nothing to say.
    public var recordingNote: String? {
        func indices(_ names: [String]) -> String {
            let i = names.compactMap(FrameResult.index(ofFileName:)).sorted()
            return i.count == names.count && !i.isEmpty ? "frame\(i.count == 1 ? "" : "s") \(Verifier.frameList(i))" : names.joined(separator: ", ")
        }
        let mode = record.map { ", record mode \($0.rawValue)" } ?? ""
        var parts: [String] = []
        let recorded = frames.filter(\.recorded).map(\.name)
        if !recorded.isEmpty {
            let n = recorded.count
            var s = "recorded \(n) baseline frame\(n == 1 ? "" : "s") in \(baseline) (\(indices(recorded))\(mode)); review them and commit \(baseline)"
            if failOnRecord { s += "; the run fails because it recorded (--fail-on-record)" }
            parts.append(s)
        }
        if !notRecorded.isEmpty {
            let n = notRecorded.count
            let failed = failures.count - n
            parts.append("did not record \(n) missing frame\(n == 1 ? "" : "s") in \(baseline) (\(indices(notRecorded))): record mode missing records "
                + "only when every other frame passes, and \(failed) failed; fix \(failed == 1 ? "it" : "them") and run again, "
                + "or record over the failures too with --record failed")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The report images of the frames that did not pass (diff, expected, actual), as
    /// paths in the report directory: what a test attaches to its failure (Swift Testing's
    /// `Attachment.record`, XCTest's `XCTAttachment`). Empty without a report.
    public var failureArtifacts: [String] {
        guard let dir = reportDirectory else { return [] }
        var seen = Set<String>()
        return failures.flatMap { [$0.diffFile, $0.expectedFile, $0.actualFile].compactMap { $0 } }
            .filter { seen.insert($0).inserted }
            .map { (dir as NSString).appendingPathComponent($0) }
    }

    /// The report images of the frames that did not pass, each with the name a test attaches
    /// it under (`frame_0036.diff.png`, `frame_0036.expected.png`, `frame_0036.actual.png`, in
    /// that order, frame by frame) and its path in the report directory, where it is stored by
    /// content (``failureArtifacts``). Empty without a report.
    public var failureAttachments: [(name: String, path: String)] {
        guard let dir = reportDirectory else { return [] }
        return failures.flatMap { frame in
            let stem = String(frame.name.dropLast((frame.name as NSString).pathExtension.count + 1))
            return [("diff", frame.diffFile), ("expected", frame.expectedFile), ("actual", frame.actualFile)].compactMap { kind, file in
                file.map { (name: "\(stem).\(kind).png", path: (dir as NSString).appendingPathComponent($0)) }
            }
        }
    }

    /// A failure message for a test: the first state divergence, the failing frames, one per
    /// line, the report's paths and what was recorded; nil when every frame passed.
    public var failureMessage: String? {
        guard !passed else { return nil }
        var lines = [summaryLine]
        if let line = stateDivergenceLine { lines.append("  " + line) }
        let f = failures
        for frame in f.prefix(20) { if let l = line(for: frame) { lines.append("  " + l) } }
        if f.count > 20 { lines.append("  … and \(f.count - 20) more") }
        if let dir = reportDirectory {
            lines.append("  report: \((dir as NSString).appendingPathComponent("index.html")), \((dir as NSString).appendingPathComponent("report.json")), \((dir as NSString).appendingPathComponent("junit.xml"))")
        }
        if let note = recordingNote { lines.append("  " + note) }
        return lines.joined(separator: "\n")
    }
}
