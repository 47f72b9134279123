import CartRenderCore

/// What the audit checks (`--ignore KIND` names them), in the order issues are reported.
public enum AuditKind: String, Sendable, CaseIterable, Comparable {
    /// Text whose contrast with the pixels behind it is below WCAG 2.2's ratio.
    case contrast
    /// A button or stepper smaller than 44×44 pt (Apple HIG, "Accessibility": hit targets).
    case touchTarget
    /// A button or image without an accessibility label.
    case label
    /// Text cut to fewer lines than it needs ("…"), or running past the screen or its clip.
    case truncation

    /// Kinds sort in the order they are declared (the report's order).
    public static func < (a: AuditKind, b: AuditKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One problem in one frame, before the frames that show it are gathered into an
/// ``AuditIssue``. Findings of one ``key`` across frames are one issue.
struct AuditFinding: Equatable, Sendable {
    var kind: AuditKind
    /// The text of the run, or the element's name.
    var subject: String
    /// Screen rectangle (pt) of the text's box or the element.
    var rect: Rect
    /// Contrast: the lowest ratio over the glyphs' pixels; truncation: the lines shown.
    var measured: Double?
    /// Contrast: the ratio required; touch target: 44; truncation: the lines the text needs.
    var required: Double?
    /// Contrast: the text's size (pt); truncation: `truncated` or `clipped` and by how much.
    var detail: String?

    init(kind: AuditKind, subject: String, rect: Rect, measured: Double? = nil, required: Double? = nil, detail: String? = nil) {
        self.kind = kind; self.subject = subject; self.rect = rect; self.measured = measured; self.required = required; self.detail = detail
    }

    /// Findings with equal keys are the same issue in different frames.
    var key: String { "\(kind.rawValue)\u{0}\(subject)\u{0}\(required.map { "\($0)" } ?? "")\u{0}\(detail ?? "")" }
}
