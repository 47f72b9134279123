import CartRenderCore
import Foundation

/// WCAG 2.2 contrast: relative luminance of sRGB colours, the contrast ratio of two of them, and
/// the ratio text needs at a conformance level.
///
/// Source: WCAG 2.2, "relative luminance" and "contrast ratio" (Understanding SC 1.4.3 and
/// 1.4.6): each 8-bit sRGB channel `c/255` is linearised as `c/12.92` up to 0.04045 and
/// `((c + 0.055)/1.055)^2.4` above; `L = 0.2126 R + 0.7152 G + 0.0722 B`; the ratio is
/// `(L_lighter + 0.05) / (L_darker + 0.05)`, from 1 (equal) to 21 (black on white).
public enum WCAGContrast {
    /// Relative luminance (0…1) of an opaque sRGB colour given as 8-bit channels.
    public static func luminance(r: Double, g: Double, b: Double) -> Double {
        func linear(_ c8: Double) -> Double {
            let c = c8 / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    /// The contrast ratio (1…21) of two relative luminances, in either order.
    public static func ratio(_ a: Double, _ b: Double) -> Double {
        (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// Whether text in `font` is "large" in WCAG's sense: at least 18 pt, or at least 14 pt and
    /// bold (weight ≥ 700), the font's size as laid out (pt). The sizes are read as iOS points,
    /// as Apple's accessibility guidance applies them; on the web WCAG's 18 pt is 24 CSS px.
    public static func isLargeText(_ font: FontSpec) -> Bool {
        font.size >= 18 || (font.size >= 14 && font.weight >= .bold)
    }

    /// The ratio text must reach: AA 4.5 (large text 3), AAA 7 (large text 4.5); WCAG 2.2
    /// SC 1.4.3 and 1.4.6.
    public static func required(for font: FontSpec, level: AuditLevel) -> Double {
        let large = isLargeText(font)
        switch level {
        case .aa: return large ? 3 : 4.5
        case .aaa: return large ? 4.5 : 7
        }
    }
}

/// A WCAG conformance level for the audit's contrast thresholds (`--level AA|AAA`).
public enum AuditLevel: String, Sendable, CaseIterable {
    /// Level AA: text at least 4.5:1, large text 3:1 (WCAG 2.2, 1.4.3 Contrast (Minimum)).
    case aa = "AA"
    /// Level AAA: text at least 7:1, large text 4.5:1 (WCAG 2.2, 1.4.6 Contrast (Enhanced)).
    case aaa = "AAA"
}
