import Foundation

/// `--threshold`, `--max-diff-pixels`, `--max-diff-ratio`, `--include-aa`: the tolerance options
/// shared by `verify` and `diff`.
extension ComparisonOptions {
    static let specs: [OptionSpec] = [
        OptionSpec("--threshold", "T", "Color distance from 0 (exact) to 1 (black vs white) over which a pixel differs; pixelmatch's scale. Default: 0.1."),
        OptionSpec("--max-diff-pixels", "N", "Fail a frame when more than N pixels differ (default: 0)."),
        OptionSpec("--max-diff-ratio", "R", "Instead: fail a frame when more than this share (0…1) of its pixels differ."),
        OptionSpec("--include-aa", nil, "Count anti-aliased pixels as differences (no anti-aliasing detection)."),
    ]

    /// Takes `name` when it is one of these options; returns false for any other option.
    /// - Throws: `UsageError` for a value out of range.
    mutating func parse(_ name: String, _ v: String) throws -> Bool {
        switch name {
        case "--threshold":
            guard let t = Double(v), t.isFinite, (0...1).contains(t) else {
                throw UsageError("--threshold: expected a number from 0 (exact) to 1 (black vs white), got \"\(v)\"")
            }
            threshold = t
        case "--max-diff-pixels":
            guard let n = Int(v), n >= 0 else { throw UsageError("--max-diff-pixels: expected a whole number ≥ 0, got \"\(v)\"") }
            maxDiffPixels = n
        case "--max-diff-ratio":
            guard let r = Double(v), r.isFinite, (0...1).contains(r) else {
                throw UsageError("--max-diff-ratio: expected a number from 0 to 1 (a share of the frame's pixels), got \"\(v)\"")
            }
            maxDiffRatio = r
        case "--include-aa": includeAA = true
        default: return false
        }
        return true
    }

    /// - Throws: `UsageError` when both pixel limits are given on the command line.
    func checkExclusiveLimits() throws {
        if maxDiffPixels != nil && maxDiffRatio != nil {
            throw UsageError("--max-diff-pixels and --max-diff-ratio cannot be used together")
        }
    }
}

/// `X,Y,W,H`: four finite numbers, width and height ≥ 0.
func parseRectangle(_ v: String, option: String, unit: String) throws -> [Double] {
    let parts = v.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 4, parts.allSatisfy({ $0 != nil && $0!.isFinite }), parts[2]! >= 0, parts[3]! >= 0 else {
        throw UsageError("\(option): expected X,Y,W,H in \(unit) (four numbers, W and H ≥ 0), got \"\(v)\"")
    }
    return parts.map { $0! }
}
