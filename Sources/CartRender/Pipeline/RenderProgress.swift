import CartRenderRaster

/// How far a render is: the phase it is in and how much of the phase is done, reported to
/// ``RenderOptions/progress`` from any thread. Phases come in this order, each only when the
/// render has it: drawing (every frame), palette and encoding (GIF, after the last frame),
/// encoding and muxing (each format's file after the last frame: what a video codec still holds,
/// the container), moving into place (the files, into the directory or to their names).
public struct RenderProgress: Equatable, Sendable {
    /// A render's phases, in the order they come; the raw value is the label shown.
    public enum Phase: String, Sendable, CaseIterable {
        case drawing, palette, encoding, muxing
        case movingIntoPlace = "moving into place"
    }
    /// The phase under way.
    public var phase: Phase
    /// The format the phase works on (`GIF`), nil for drawing and moving into place.
    public var subject: String?
    /// Steps done of `total` (0 when the phase starts).
    public var done: Int
    /// Steps the phase has (≥ 1).
    public var total: Int
    /// What a step is (`frames`, `files`, `steps`), nil for a phase of one step.
    public var unit: String?

    /// `done` of `total` steps of `phase` (on `subject`'s file), each step a `unit`.
    public init(_ phase: Phase, subject: String? = nil, done: Int, total: Int, unit: String? = nil) {
        self.phase = phase; self.subject = subject; self.done = done; self.total = total; self.unit = unit
    }

    /// `drawing`, `palette (GIF)`, `moving into place`.
    public var label: String { subject.map { "\(phase.rawValue) (\($0))" } ?? phase.rawValue }
}

extension EncoderProgress {
    /// Reports an encoder's `finish()` phases as phases of a render, for `format` (its title).
    convenience init(format: String, _ report: @escaping @Sendable (RenderProgress) -> Void) {
        self.init { phase, done, total in
            let p: RenderProgress.Phase = switch phase {
            case .palette: .palette
            case .encoding: .encoding
            case .muxing: .muxing
            }
            report(RenderProgress(p, subject: format, done: done, total: total, unit: total > 1 ? "steps" : nil))
        }
    }
}
