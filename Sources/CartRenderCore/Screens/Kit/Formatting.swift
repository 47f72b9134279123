import Foundation

/// Locale-aware number and currency formatting with Foundation's `FormatStyle` (Apple's ICU
/// data), as SwiftUI's `Text(_:format: .number)` and `.currency(code:)` do.
public enum Formatting {
    /// An integer as a localized string interpolation formats it — `Text("\(n)")`, whose `%lld`
    /// takes the locale's digits but no grouping: `1000` in en_US, `١٠٠٠` in ar_SA (seed 003's
    /// quantity). Asks Foundation each time; a layout that formats every frame keeps a
    /// ``LocaleDigits`` instead.
    public static func interpolated(_ value: Int, locale: String) -> String {
        LocaleDigits(locale: locale).format(value)
    }

    /// The ten digits a locale writes integers with (`0`…`9` in en_US, `٠`…`٩` in ar_SA), read
    /// once from Foundation, so that formatting an integer per frame costs no formatter.
    public struct LocaleDigits: Equatable, Sendable {
        /// The digits for 0…9, in order.
        public let digits: [Character]

        /// The digits of `locale` (an ICU identifier such as `ar_SA`).
        public init(locale: String) {
            // 1234567890 without grouping: one character per digit, 0 last.
            let shown = Array(1_234_567_890.formatted(IntegerFormatStyle<Int>(locale: Locale(identifier: locale)).grouping(.never)))
            digits = shown.count == 10 ? [shown[9]] + shown[0..<9] : Array("0123456789")
        }

        /// `value` in these digits, without grouping (`-` before a negative value).
        public func format(_ value: Int) -> String {
            String(String(value).map { c in c.wholeNumberValue.map { digits[$0] } ?? c })
        }
    }

    /// `count` in the locale's decimal format: `1,000` in en_US, `1.000` in de_DE, `12,34,567`
    /// in hi_IN (Foundation's `IntegerFormatStyle`).
    public static func count(_ count: Int, locale: String) -> String {
        count.formatted(IntegerFormatStyle<Int>(locale: Locale(identifier: locale)))
    }

    /// `amount` as a currency for the locale and ISO 4217 code, as iOS formats it with
    /// `Decimal.FormatStyle.Currency` (SwiftUI's `Text(_:format: .currency(code:))`): `$291.98`
    /// (en_US, USD), `291,98 €` (de_DE, EUR, with a no-break space), `¥292` (ja_JP, JPY: no
    /// fraction digits), `₹12,34,567.89` (hi_IN, INR: Indian grouping).
    ///
    /// Every locale goes through the same formatter, with no per-locale patch: the patterns,
    /// symbols, grouping and digits are the ICU data of the toolchain's Foundation, which is
    /// Apple's (swift-foundation's FoundationInternationalization over swift-foundation-icu), so
    /// where Apple's data and CLDR's differ, Apple's wins (ja_JP's yen sign is "¥" U+00A5, CLDR
    /// 48's "￥"; docs/motion-and-look.md, “Amounts”). The amount is rounded to the currency's
    /// fraction digits half to even, in decimal: ICU formats the `Decimal`'s digits, never a
    /// `Double`, so amounts of any length stay exact.
    ///
    /// - Parameters:
    ///   - amount: an amount in the currency (a negative one takes the locale's minus sign).
    ///   - code: ISO 4217 code (`USD`).
    ///   - locale: locale identifier (`en_US`).
    public static func currency(_ amount: Decimal, code: String, locale: String) -> String {
        amount.formatted(Decimal.FormatStyle.Currency(code: code, locale: Locale(identifier: locale)))
    }
}

extension Formatting {
    /// A decimal as plain digits with a `.` separator and no grouping (`291.98`), for manifests
    /// and canonical scenes: exact, independent of the locale.
    public static func plainDecimal(_ d: Decimal) -> String {
        (d as NSDecimalNumber).description(withLocale: Locale(identifier: "en_US_POSIX"))
    }
}
