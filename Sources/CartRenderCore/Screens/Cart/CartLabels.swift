import Foundation

/// The fixed texts of the cart page — "Total" and "Check out" (seed 003) — in the scene's
/// locale, as an app's `Localizable.strings` would give them. A scene's `cart.totalLabel` and
/// `cart.checkoutTitle` take their place (`CartContent`).
///
/// Translations are looked up by language and script, so that every region of a language gets
/// its texts (`de_AT` as `de_DE`, `zh_CN` and `zh_SG` as `zh_Hans`, `zh_TW` and `zh_HK` as
/// `zh_Hant`); a language without built-in texts gets the English ones. The table covers the
/// locales of `Examples/` and the tests (English, German, Arabic, Hebrew) and the languages of
/// the largest App Store markets (Chinese in both scripts, Japanese, Korean, French, Spanish,
/// Portuguese, Italian), in the wording their stores' checkout screens use.
public struct CartLabels: Equatable, Sendable {
    /// The label left of the total ("Total").
    public var total: String
    /// The title of the checkout button ("Check out").
    public var checkout: String
    /// The two texts, as shown.
    public init(total: String, checkout: String) { self.total = total; self.checkout = checkout }

    /// The seed's English texts.
    public static let english = CartLabels(total: "Total", checkout: "Check out")

    /// Built-in texts by language code, or language code `_` script code where the script
    /// decides the spelling (Chinese).
    public static let builtIn: [String: CartLabels] = [
        "en": english,
        "de": CartLabels(total: "Gesamt", checkout: "Zur Kasse"),
        "ar": CartLabels(total: "الإجمالي", checkout: "إتمام الشراء"),
        "he": CartLabels(total: "סה״כ", checkout: "לתשלום"),
        "zh_Hans": CartLabels(total: "合计", checkout: "去结算"),
        "zh_Hant": CartLabels(total: "合計", checkout: "結帳"),
        "ja": CartLabels(total: "合計", checkout: "レジに進む"),
        "ko": CartLabels(total: "합계", checkout: "결제하기"),
        "fr": CartLabels(total: "Total", checkout: "Payer"),
        "es": CartLabels(total: "Total", checkout: "Pagar"),
        "pt": CartLabels(total: "Total", checkout: "Finalizar compra"),
        "it": CartLabels(total: "Totale", checkout: "Vai alla cassa"),
    ]

    /// The built-in texts of a locale identifier (`zh_CN` → 合计 / 去结算), English when its
    /// language has none. The script is the identifier's own or the one ICU's likely-subtags
    /// data gives its language and region (`zh_TW` → Hant), as `Locale.Language.script` reads it.
    public static func builtIn(locale: String) -> CartLabels {
        let language = Locale(identifier: locale).language
        let code = language.languageCode?.identifier ?? ""
        if let script = language.script?.identifier, let labels = builtIn["\(code)_\(script)"] {
            return labels
        }
        return builtIn[code] ?? english
    }
}
