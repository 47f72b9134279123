@testable import CartRenderCore
import Foundation
import XCTest

/// Currency formatting of the cart's prices and totals (docs/scene-file.md, “Cart labels and prices”: decimal money, formatted
/// for the scene's locale and currency code).
final class FormattingTests: XCTestCase {
    private func d(_ s: String) -> Decimal { Decimal(string: s, locale: Locale(identifier: "en_US_POSIX"))! }

    func testTotalsInThreeLocales() {
        let cases: [(amount: String, code: String, locale: String, expected: String)] = [
            ("291.98", "USD", "en_US", "$291.98"),
            ("291.98", "EUR", "de_DE", "291,98\u{A0}€"),
            ("291.98", "JPY", "ja_JP", "¥292"),
            ("0", "USD", "en_US", "$0.00"),
            ("1234567.5", "USD", "en_US", "$1,234,567.50"),
            ("1234567.5", "EUR", "de_DE", "1.234.567,50\u{A0}€"),
            ("1234567", "JPY", "ja_JP", "¥1,234,567"),
        ]
        for c in cases {
            XCTAssertEqual(Formatting.currency(d(c.amount), code: c.code, locale: c.locale), c.expected, "\(c.amount) \(c.code) \(c.locale)")
        }
    }

    /// The quantity as seed 003's `Text("\(item.quantity)")` shows it: the locale's digits
    /// (`%lld` in a localized string), never a grouping separator.
    func testInterpolatedIntegersTakeTheLocalesDigitsWithoutGrouping() {
        let cases: [(Int, String, String)] = [
            (1, "en_US", "1"), (1000, "en_US", "1000"), (1000000, "de_DE", "1000000"),
            (3, "ar_SA", "٣"), (1000, "ar_SA", "١٠٠٠"), (12, "he_IL", "12"), (7, "fa_IR", "۷"),
        ]
        for (n, locale, expected) in cases {
            XCTAssertEqual(Formatting.interpolated(n, locale: locale), expected, "\(n) \(locale)")
        }
        XCTAssertEqual(Formatting.LocaleDigits(locale: "ar_SA").digits, Array("٠١٢٣٤٥٦٧٨٩"))
        XCTAssertEqual(Formatting.LocaleDigits(locale: "en_US").digits, Array("0123456789"))
    }

    /// Rounding to the currency's digits happens in decimal, half to even (as ICU rounds).
    func testRoundingIsDecimalHalfToEven() {
        XCTAssertEqual(Formatting.currency(d("291.5"), code: "JPY", locale: "ja_JP"), "¥292")
        XCTAssertEqual(Formatting.currency(d("292.5"), code: "JPY", locale: "ja_JP"), "¥292")
        XCTAssertEqual(Formatting.currency(d("0.125"), code: "USD", locale: "en_US"), "$0.12")
        XCTAssertEqual(Formatting.currency(d("0.135"), code: "USD", locale: "en_US"), "$0.14")
    }

    /// Amounts beyond 15 significant digits, where a `Double` would lose cents, stay exact.
    func testLargeAmountsStayExact() {
        XCTAssertEqual(Formatting.currency(d("123456789012345678.91"), code: "USD", locale: "en_US"), "$123,456,789,012,345,678.91")
        XCTAssertEqual(Formatting.currency(d("123456789012345678.91"), code: "EUR", locale: "de_DE"), "123.456.789.012.345.678,91\u{A0}€")
        XCTAssertEqual(Formatting.currency(d("9007199254740993"), code: "JPY", locale: "ja_JP"), "¥9,007,199,254,740,993")
    }

    /// The digit-by-digit path agrees with Foundation wherever Foundation is exact.
    func testSpelledOutAgreesWithNumberFormatter() {
        for (code, locale) in [("USD", "en_US"), ("EUR", "de_DE"), ("JPY", "ja_JP"), ("EUR", "fr_FR"), ("CHF", "de_CH"), ("USD", "ar_EG")] {
            let f = NumberFormatter()
            f.locale = Locale(identifier: locale)
            f.numberStyle = .currency
            f.currencyCode = code
            let digits = Formatting.fractionDigits(of: f)
            f.minimumFractionDigits = digits
            f.maximumFractionDigits = digits
            for text in ["0", "7", "12.34", "999.99", "1000", "20480.5", "7654321.09"] {
                var value = d(text), rounded = Decimal()
                NSDecimalRound(&rounded, &value, digits, .bankers)
                XCTAssertEqual(Formatting.spelledOut(rounded, fractionDigits: digits, formatter: f, locale: locale),
                               f.string(from: rounded as NSDecimalNumber), "\(text) \(code) \(locale)")
            }
        }
    }

    func testPlainDecimal() {
        XCTAssertEqual(Formatting.plainDecimal(d("291.98")), "291.98")
        XCTAssertEqual(Formatting.plainDecimal(d("10.00")), "10")
        XCTAssertEqual(Formatting.plainDecimal(d("0.1") * 3), "0.3")
    }
}
