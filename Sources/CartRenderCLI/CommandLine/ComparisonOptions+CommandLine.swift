import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

/// `--threshold`, `--max-diff-pixels`, `--max-diff-ratio`, `--include-aa`: the tolerance options
/// shared by `verify` and `diff`.
extension ComparisonOptions {
    static let options = OptionTable<ComparisonOptions>([
        Option("--threshold", "T", "Color distance from 0 (exact) to 1 (black vs white) over which a pixel differs; pixelmatch's scale. Default: 0.1.",
               .number(0...1, expected: "a number from 0 (exact) to 1 (black vs white)")) { $0.threshold = $1 },
        Option("--max-diff-pixels", "N", "Fail a frame when more than N pixels differ (default: 0).", .int(atLeast: 0)) { $0.maxDiffPixels = $1 },
        Option("--max-diff-ratio", "R", "Instead: fail a frame when more than this share (0…1) of its pixels differ.",
               .number(0...1, expected: "a number from 0 to 1 (a share of the frame's pixels)")) { $0.maxDiffRatio = $1 },
        Option("--include-aa", "Count anti-aliased pixels as differences (no anti-aliasing detection).") { $0.includeAA = true },
    ])

    /// - Throws: `UsageError` when both pixel limits are given on the command line.
    func checkExclusiveLimits() throws {
        if maxDiffPixels != nil && maxDiffRatio != nil {
            throw UsageError("--max-diff-pixels and --max-diff-ratio cannot be used together")
        }
    }
}

extension OptionValue where Value == [Double] {
    /// `X,Y,W,H`: four finite numbers, width and height ≥ 0, in `unit` (`points`).
    static func rectangle(in unit: String) -> OptionValue {
        checked("X,Y,W,H in \(unit) (four numbers, W and H ≥ 0)") { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, parts.allSatisfy({ $0 != nil && $0!.isFinite }), parts[2]! >= 0, parts[3]! >= 0 else { return nil }
            return parts.map { $0! }
        }
    }
}

extension OptionValue where Value == Rect {
    /// `--mask X,Y,W,H` of verify, in points.
    static var pointRect: OptionValue {
        let numbers = OptionValue<[Double]>.rectangle(in: "points")
        return OptionValue { name, text in
            let r = try numbers.parse(name, text)
            return Rect(x: r[0], y: r[1], width: r[2], height: r[3])
        }
    }
}

extension OptionValue where Value == PixelRect {
    /// `--mask X,Y,W,H` of diff, in whole pixels (there is no scene, hence no scale).
    static var pixelRect: OptionValue {
        let numbers = OptionValue<[Double]>.rectangle(in: "pixels")
        return OptionValue { name, text in
            let r = try numbers.parse(name, text)
            guard r.allSatisfy({ $0 == $0.rounded() && abs($0) < 1e9 }) else {
                throw UsageError("\(name): diff takes whole pixels, got \(echoedQuoted(text))")
            }
            return PixelRect(x: Int(r[0]), y: Int(r[1]), width: Int(r[2]), height: Int(r[3]))
        }
    }
}
