import Foundation

/// Locale-aware number and currency formatting (Foundation / ICU), as SwiftUI's
/// `Text(_:format: .number)` and `.currency(code:)` do.
public enum Formatting {
    /// An integer as a localized string interpolation formats it — `Text("\(n)")`, whose `%lld`
    /// takes the locale's digits but no grouping: `1000` in en_US, `١٠٠٠` in ar_SA (seed 003's
    /// quantity). Asks Foundation each time; a layout that formats every frame keeps a
    /// ``LocaleDigits`` instead.
    public static func interpolated(_ value: Int, locale: String) -> String {
        LocaleDigits(locale: locale).format(value)
    }

    /// The ten digits a locale writes integers with (`0`…`9` in en_US, `٠`…`٩` in ar_SA), read
    /// once from Foundation, so that formatting an integer per frame costs no `NumberFormatter`.
    public struct LocaleDigits: Equatable, Sendable {
        /// The digits for 0…9, in order.
        public let digits: [Character]

        /// The digits of `locale` (an ICU identifier such as `ar_SA`).
        public init(locale: String) {
            let f = NumberFormatter()
            f.locale = Locale(identifier: locale)
            f.numberStyle = .none
            f.usesGroupingSeparator = false
            // 1234567890 without grouping: one character per digit, 0 last.
            let shown = Array(f.string(from: NSNumber(value: 1_234_567_890)) ?? "1234567890")
            digits = shown.count == 10 ? [shown[9]] + shown[0..<9] : Array("0123456789")
        }

        /// `value` in these digits, without grouping (`-` before a negative value).
        public func format(_ value: Int) -> String {
            String(String(value).map { c in c.wholeNumberValue.map { digits[$0] } ?? c })
        }
    }

    /// `count` in the locale's decimal format: `1,000` in en_US, `1.000` in de_DE.
    public static func count(_ count: Int, locale: String) -> String {
        let f = NumberFormatter()
        f.locale = Locale(identifier: locale)
        f.numberStyle = .decimal
        return f.string(from: NSNumber(value: count)) ?? String(count)
    }

    /// Largest number of significant digits for which a decimal survives the trip through
    /// `Double` that Foundation's `NumberFormatter` takes on Linux (`DBL_DIG`).
    static let exactSignificantDigits = 15

    /// `amount` as a currency for the locale and ISO 4217 code: `$291.98` (en_US, USD),
    /// `291,98 €` (de_DE, EUR, with a no-break space), `¥292` (ja_JP, JPY: no fraction digits).
    ///
    /// The amount is rounded in decimal arithmetic to the currency's fraction digits (half to
    /// even, as ICU rounds) and is never approximated by binary floating point: Foundation's
    /// `NumberFormatter` on Linux converts its input to `Double`, which is exact only up to 15
    /// significant digits, so it is used as is only for such amounts (it then prints the same
    /// digits); larger amounts are written digit by digit with the locale's symbols, separators
    /// and digits.
    ///
    /// - Parameters:
    ///   - amount: a non-negative amount in the currency (negative amounts use the locale's
    ///     negative prefix and suffix on the same digits).
    ///   - code: ISO 4217 code (`USD`).
    ///   - locale: locale identifier (`en_US`).
    public static func currency(_ amount: Decimal, code: String, locale: String) -> String {
        let f = NumberFormatter()
        f.locale = Locale(identifier: locale)
        f.numberStyle = .currency
        f.currencyCode = code
        f.generatesDecimalNumbers = true
        let digits = fractionDigits(of: f)
        f.minimumFractionDigits = digits
        f.maximumFractionDigits = digits
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, digits, .bankers)
        if significantDigits(rounded) <= exactSignificantDigits, let s = f.string(from: rounded as NSDecimalNumber) {
            return s
        }
        return spelledOut(rounded, fractionDigits: digits, formatter: f, locale: locale)
    }

    /// The currency's fraction digits in this locale, read from the formatter's pattern
    /// (`¤#,##0.00` → 2, `¤#,##0` → 0): `maximumFractionDigits` still says 2 for JPY on Linux.
    static func fractionDigits(of f: NumberFormatter) -> Int {
        let positive = f.format.split(separator: ";", omittingEmptySubsequences: false).first ?? ""
        guard let dot = positive.firstIndex(of: ".") else { return 0 }
        return positive[positive.index(after: dot)...].prefix { $0 == "0" || $0 == "#" }.count
    }

    /// Number of significant digits of a decimal (0 for zero).
    static func significantDigits(_ d: Decimal) -> Int {
        let text = (d as NSDecimalNumber).description(withLocale: Locale(identifier: "en_US_POSIX"))
        let digits = text.filter(\.isNumber).drop { $0 == "0" }
        return digits.count
    }

    /// `amount` written out with the formatter's prefix, suffix, separators and grouping and
    /// the locale's digits, without any floating point.
    static func spelledOut(_ amount: Decimal, fractionDigits: Int, formatter f: NumberFormatter, locale: String) -> String {
        let negative = amount < 0
        let text = ((negative ? -amount : amount) as NSDecimalNumber).description(withLocale: Locale(identifier: "en_US_POSIX"))
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let integer = Array(parts[0])
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        fraction = String(fraction.prefix(fractionDigits)) + String(repeating: "0", count: max(0, fractionDigits - fraction.count))

        // Grouping from the right: primary size first, then the secondary size (0 = same).
        let primary = f.groupingSize > 0 ? f.groupingSize : 3
        let secondary = f.secondaryGroupingSize > 0 ? f.secondaryGroupingSize : primary
        var groups: [String] = []
        var end = integer.count
        var size = primary
        while end > 0 {
            let start = max(0, end - size)
            groups.insert(String(integer[start..<end]), at: 0)
            end = start
            size = secondary
        }
        let separator = f.usesGroupingSeparator ? (f.currencyGroupingSeparator ?? f.groupingSeparator ?? ",") : ""
        var number = groups.joined(separator: separator)
        if fractionDigits > 0 { number += (f.currencyDecimalSeparator ?? f.decimalSeparator ?? ".") + fraction }

        // The locale's digits (Arabic-Indic in ar_EG, …).
        let digitFormatter = NumberFormatter()
        digitFormatter.locale = Locale(identifier: locale)
        digitFormatter.numberStyle = .none
        var map: [Character: String] = [:]
        for d in 0...9 { map[Character(String(d))] = digitFormatter.string(from: NSNumber(value: d)) ?? String(d) }
        number = String(number.flatMap { map[$0] ?? String($0) })

        let prefix = negative ? (f.negativePrefix ?? "-") : (f.positivePrefix ?? "")
        let suffix = negative ? (f.negativeSuffix ?? "") : (f.positiveSuffix ?? "")
        return prefix + number + suffix
    }
}

extension Formatting {
    /// A decimal as plain digits with a `.` separator and no grouping (`291.98`), for manifests
    /// and canonical scenes: exact, independent of the locale.
    public static func plainDecimal(_ d: Decimal) -> String {
        (d as NSDecimalNumber).description(withLocale: Locale(identifier: "en_US_POSIX"))
    }
}
