import Foundation

/// Locale-aware number and currency formatting (Foundation / ICU), as SwiftUI's
/// `Text(_:format: .number)` and `.currency(code:)` do.
public enum Formatting {
    /// `count` in the locale's decimal format: `1,000` in en_US, `1.000` in de_DE.
    public static func count(_ count: Int, locale: String) -> String {
        let f = NumberFormatter()
        f.locale = Locale(identifier: locale)
        f.numberStyle = .decimal
        return f.string(from: NSNumber(value: count)) ?? String(count)
    }

    /// `amount` as a currency for the locale and ISO 4217 code: `$291.98` (en_US, USD),
    /// `291,98 €` (de_DE, EUR), `￥292` (ja_JP, JPY: no fraction digits). Formats the decimal
    /// exactly; never goes through binary floating point.
    public static func currency(_ amount: Decimal, code: String, locale: String) -> String {
        let f = NumberFormatter()
        f.locale = Locale(identifier: locale)
        f.numberStyle = .currency
        f.currencyCode = code
        f.generatesDecimalNumbers = true
        return f.string(from: amount as NSDecimalNumber) ?? "\(amount) \(code)"
    }
}
