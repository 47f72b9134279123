@testable import CartRenderCore
import Foundation
import XCTest

/// "Total" and "Check out": the scene's own words or the seed's English, and locale
/// identifiers in ICU's canonical forms and aliases (docs/scene-file.md, “Cart labels and prices”).
final class CartLabelsTests: XCTestCase {
    private func decode(_ text: String) throws -> Scene {
        try SceneDecoder.decode(Array(text.utf8), file: "s.json", baseDirectory: "/")
    }

    private func cartScene(locale: String, cart extra: String = "") -> String {
        #"{"screen": "cart", "locale": ""# + locale + #"", "cart": {"# + extra + #""items": [{"id": "a", "name": "A", "price": "1"}]}}"#
    }

    /// The texts of the bottom area as the display list draws them.
    private func drawnTexts(_ scene: Scene) -> [String] {
        guard let cart = scene.content as? CartContent else { XCTFail("a cart scene"); return [] }
        let layout = CartLayout(scene: scene, cart: cart, measurer: WrappingMetrics())
        return layout.displayList(for: layout.timeline().state(at: 0)).items.compactMap { item -> String? in
            if case .text(let run) = item { return run.text }
            return nil
        }
    }

    func testLocalesInICUFormsAndAliasesAreAccepted() throws {
        let table: [(given: String, kept: String)] = [
            ("zh_CN", "zh_CN"), ("zh_TW", "zh_TW"), ("zh-Hant-TW", "zh_Hant_TW"), ("pt_BR", "pt_BR"),
            ("sr_Latn_RS", "sr_Latn_RS"), ("en_US", "en_US"), ("de-DE", "de_DE"), ("iw_IL", "he_IL"), ("in_ID", "id_ID"),
        ]
        for (given, kept) in table {
            XCTAssertEqual(try decode(#"{"locale": ""# + given + #""}"#).locale, kept, given)
        }
        for unknown in ["xx_YY", "de_XX", "zz_CN"] {
            XCTAssertThrowsError(try decode(#"{"locale": ""# + unknown + #""}"#), unknown) { e in
                XCTAssertTrue("\(e)".contains("locale: unknown locale \"\(unknown)\""), "\(e)")
            }
        }
    }

    /// Without the scene's words every locale shows the seed's `Text("Total")` and
    /// `Text("Check out")` in English (no invented translations); the scene's `totalLabel` and
    /// `checkoutTitle` are what the display list draws when given.
    func testTheDisplayListShowsTheScenesLabelsElseTheSeedsEnglish() throws {
        for locale in ["en_US", "zh_CN", "de_DE", "ar_SA", "he_IL", "ja_JP"] {
            let texts = drawnTexts(try decode(cartScene(locale: locale)))
            XCTAssertTrue(texts.contains("Total") && texts.contains("Check out"), "\(locale): \(texts)")
        }
        let zh = drawnTexts(try decode(cartScene(locale: "zh_CN")))
        XCTAssertFalse(zh.contains("合计") || zh.contains("去结算"), "\(zh)")
        let own = drawnTexts(try decode(cartScene(locale: "zh_CN", cart: #""totalLabel": "总计", "checkoutTitle": "立即支付", "#)))
        XCTAssertTrue(own.contains("总计") && own.contains("立即支付"), "\(own)")
        XCTAssertFalse(own.contains("Total") || own.contains("Check out"), "\(own)")
    }

    /// The labels enter the canonical scene (its hash) only when the scene gives them.
    func testCanonicalSceneWritesOnlyGivenLabels() throws {
        let plain = try decode(cartScene(locale: "en_US")).canonicalJSON.serialized()
        XCTAssertFalse(plain.contains("totalLabel") || plain.contains("checkoutTitle"), plain)
        let given = try decode(cartScene(locale: "en_US", cart: #""totalLabel": "Sum", "#)).canonicalJSON.serialized()
        XCTAssertTrue(given.contains(#""totalLabel":"Sum""#) || given.contains(#""totalLabel": "Sum""#), given)
    }

    func testLabelsMustBeStrings() {
        XCTAssertThrowsError(try decode(cartScene(locale: "en_US", cart: #""totalLabel": 3, "#))) { e in
            XCTAssertTrue("\(e)".contains("cart.totalLabel: expected a string"), "\(e)")
        }
    }
}
