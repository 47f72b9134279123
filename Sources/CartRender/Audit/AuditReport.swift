import CartRenderCore
import Foundation

/// One accessibility problem and every frame that shows it.
public struct AuditIssue: Equatable, Sendable {
    /// What was found: contrast, touch target, label or truncation.
    public var kind: AuditKind
    /// The text of the run (contrast, truncation) or the element's name (touch target, label).
    public var subject: String
    /// Frame indices, increasing.
    public var frames: [Int]
    /// Where it is (pt): for contrast the text's box in the frame with the lowest ratio, else in
    /// the first frame.
    public var rect: Rect
    /// Contrast: the lowest ratio over the frames; truncation: the lines shown.
    public var measured: Double?
    /// Contrast: the ratio required; touch target: the side required (pt); truncation: the
    /// lines the text needs.
    public var required: Double?
    /// Contrast: the font size (pt); touch target and label: the element's role; truncation:
    /// `truncated` or `clipped`.
    public var detail: String?

    /// `{"kind": "contrast", "text", "ratio", "required", "fontSize", "frames", "rect"}`,
    /// `{"kind": "touchTarget", "element", "role", "size": {"width", "height"}, "required", "frames", "rect"}`,
    /// `{"kind": "label", "element", "role", "frames", "rect"}`,
    /// `{"kind": "truncation", "text", "reason", "lines"?, "linesNeeded"?, "frames", "rect"}`;
    /// ratios rounded down to 2 decimals (a 4.499 is 4.49, not a passing 4.5), lengths in pt.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("kind", .string(kind.rawValue))]
        switch kind {
        case .contrast:
            members += [("text", .string(subject)), ("ratio", .number(Self.roundedDown(measured ?? 0), decimals: 2)),
                        ("required", .number(required ?? 0, decimals: 2)), ("fontSize", .number(Double(detail ?? "") ?? 0, decimals: 2))]
        case .touchTarget:
            members += [("element", .string(subject)), ("role", .string(detail ?? "")),
                        ("size", .object([("width", .num(rect.width)), ("height", .num(rect.height))])),
                        ("required", .number(required ?? 0, decimals: 2))]
        case .label:
            members += [("element", .string(subject)), ("role", .string(detail ?? ""))]
        case .truncation:
            members += [("text", .string(subject)), ("reason", .string(detail ?? ""))]
            if let m = measured, let r = required { members += [("lines", .int(Int(m))), ("linesNeeded", .int(Int(r)))] }
        }
        members += [("frames", .array(frames.map { .int($0) })),
                    ("rect", .object([("x", .num(rect.x)), ("y", .num(rect.y)), ("width", .num(rect.width)), ("height", .num(rect.height))]))]
        return .object(members)
    }

    /// One line for the terminal: `contrast: "Total" 2.9:1, needs 4.5:1 (17 pt text) at 24,760 88×22 pt; frames 0-150`.
    public var line: String {
        func n(_ v: Double) -> String { JSONValue.format(v, decimals: 1) }
        let place = "at \(n(rect.x)),\(n(rect.y)) \(n(rect.width))×\(n(rect.height)) pt; frames \(Self.ranges(frames))"
        switch kind {
        case .contrast:
            return "contrast: \"\(singleLine(subject))\" \(JSONValue.format(Self.roundedDown(measured ?? 0), decimals: 2)):1, needs \(JSONValue.format(required ?? 0, decimals: 2)):1 (\(detail ?? "?") pt text) \(place)"
        case .touchTarget:
            return "touchTarget: \(subject) (\(detail ?? "")) is \(n(rect.width))×\(n(rect.height)) pt, needs \(n(required ?? 0))×\(n(required ?? 0)) pt \(place)"
        case .label:
            return "label: \(subject) (\(detail ?? "")) has no accessibility label \(place)"
        case .truncation:
            let what = detail == "truncated" && measured != nil && required != nil
                ? "truncated to \(Int(measured!)) of \(Int(required!)) lines" : "clipped by the screen or its container"
            return "truncation: \"\(singleLine(subject))\" \(what) \(place)"
        }
    }

    static func roundedDown(_ v: Double) -> Double { (v * 100 + 1e-9).rounded(.down) / 100 }

    /// `0-41, 57, 60-62`: increasing indices as ranges.
    static func ranges(_ frames: [Int]) -> String {
        var parts: [String] = []
        var i = 0
        while i < frames.count {
            var j = i
            while j + 1 < frames.count && frames[j + 1] == frames[j] + 1 { j += 1 }
            parts.append(i == j ? "\(frames[i])" : "\(frames[i])-\(frames[j])")
            i = j + 1
        }
        return parts.joined(separator: ", ")
    }
}

/// The audit of a render: its issues, gathered over the frames, in a fixed order (kind as in
/// ``AuditKind``, then first frame, then top to bottom, left to right, then text).
public struct AuditReport: Equatable, Sendable {
    /// The WCAG contrast level audited (`--level`: AA or AAA).
    public var level: AuditLevel
    /// Kinds left out (`--ignore`), in ``AuditKind`` order.
    public var ignored: [AuditKind]
    /// Frames audited, and how many of them differ in what they show (each checked once).
    public var frameCount: Int
    /// Frames that differ in what they show, each checked once (≤ ``frameCount``).
    public var distinctFrames: Int
    /// The problems found, sorted (kind, first frame, top to bottom, left to right, text).
    public var issues: [AuditIssue]

    /// Whether no issue remains.
    public var passed: Bool { issues.isEmpty }

    /// Gathers per-frame findings (frame index → findings) into issues.
    init(findings: [(index: Int, findings: [AuditFinding])], distinctFrames: Int, level: AuditLevel, ignored: Set<AuditKind>) {
        self.level = level
        self.ignored = AuditKind.allCases.filter(ignored.contains)
        frameCount = findings.count
        self.distinctFrames = distinctFrames
        var byKey: [String: AuditIssue] = [:]
        var order: [String] = []
        for (index, list) in findings.sorted(by: { $0.index < $1.index }) {
            var seen = Set<String>()
            for f in list where !ignored.contains(f.kind) {
                let key = f.key
                guard seen.insert(key).inserted else {
                    // The same text twice in a frame: keep its lower ratio.
                    if let m = f.measured, f.kind == .contrast, let old = byKey[key]?.measured, m < old { byKey[key]!.measured = m; byKey[key]!.rect = f.rect }
                    continue
                }
                if var issue = byKey[key] {
                    issue.frames.append(index)
                    if f.kind == .contrast, let m = f.measured, let old = issue.measured, m < old { issue.measured = m; issue.rect = f.rect }
                    byKey[key] = issue
                } else {
                    byKey[key] = AuditIssue(kind: f.kind, subject: f.subject, frames: [index], rect: f.rect, measured: f.measured,
                                            required: f.required, detail: f.detail)
                    order.append(key)
                }
            }
        }
        issues = order.map { byKey[$0]! }.sorted { a, b in
            if a.kind != b.kind { return a.kind < b.kind }
            if a.frames[0] != b.frames[0] { return a.frames[0] < b.frames[0] }
            if a.rect.y != b.rect.y { return a.rect.y < b.rect.y }
            if a.rect.x != b.rect.x { return a.rect.x < b.rect.x }
            return a.subject < b.subject
        }
    }

    /// `{"passed", "level", "ignored": [KIND], "frames", "distinctFrames", "issues": [AuditIssue.json]}`.
    public var json: JSONValue {
        .object([("passed", .bool(passed)), ("level", .string(level.rawValue)), ("ignored", .array(ignored.map { .string($0.rawValue) })),
                 ("frames", .int(frameCount)), ("distinctFrames", .int(distinctFrames)), ("issues", .array(issues.map(\.json)))])
    }

    /// `cartrender audit: FAILED, 3 issues in 151 frames (40 distinct), WCAG AA` (or `passed, no issues …`).
    public var summaryLine: String {
        let n = issues.count
        let what = passed ? "passed, no issues" : "FAILED, \(n) issue\(n == 1 ? "" : "s")"
        let ignoring = ignored.isEmpty ? "" : ", ignoring \(ignored.map(\.rawValue).joined(separator: ", "))"
        return "cartrender audit: \(what) in \(frameCount) frame\(frameCount == 1 ? "" : "s") (\(distinctFrames) distinct), WCAG \(level.rawValue)\(ignoring)"
    }
}
