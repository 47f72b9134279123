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

    /// Amounts in six locales as Foundation's `FormatStyle` prints them with the toolchain's
    /// (Apple's) ICU data: Indian grouping in hi_IN (the `NumberFormatter` path wrote
    /// "₹1,234,567.89"), Apple's "¥" in ja_JP (CLDR 48 has "￥"), the left-to-right mark that
    /// leads fa_IR's amounts and the right-to-left marks around ar_EG's.
    func testAmountsAreFormatStylesInEveryLocale() {
        let cases: [(code: String, locale: String, expected: String)] = [
            ("INR", "hi_IN", "₹12,34,567.89"),
            ("JPY", "ja_JP", "\u{A5}1,234,568"),
            ("IRR", "fa_IR", "\u{200E}ریال\u{A0}۱٬۲۳۴٬۵۶۸"),
            ("EGP", "ar_EG", "\u{200F}١٬٢٣٤٬٥٦٧٫٨٩\u{A0}ج.م.\u{200F}"),
            ("EUR", "de_DE", "1.234.567,89\u{A0}€"),
            ("CNY", "zh_CN", "\u{A5}1,234,567.89"),
        ]
        for c in cases {
            XCTAssertEqual(Formatting.currency(d("1234567.89"), code: c.code, locale: c.locale), c.expected, "\(c.code) \(c.locale)")
        }
        // A negative amount takes the locale's minus sign; a currency of no minor unit rounds.
        XCTAssertEqual(Formatting.currency(d("-12.5"), code: "USD", locale: "en_US"), "-$12.50")
        XCTAssertEqual(Formatting.currency(d("0.5"), code: "JPY", locale: "ja_JP"), "\u{A5}0")
        XCTAssertEqual(Formatting.currency(d("10"), code: "IRR", locale: "fa_IR"), "\u{200E}ریال\u{A0}۱۰")
        XCTAssertEqual(Formatting.count(1_234_567, locale: "hi_IN"), "12,34,567")
    }

    func testPlainDecimal() {
        XCTAssertEqual(Formatting.plainDecimal(d("291.98")), "291.98")
        XCTAssertEqual(Formatting.plainDecimal(d("10.00")), "10")
        XCTAssertEqual(Formatting.plainDecimal(d("0.1") * 3), "0.3")
    }
}
