import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// Golden frames with `"systemChrome": true` at scale 1: the status bar and home indicator
/// over the light shop and the dark cart (`Examples/chrome-*.json`).
final class SystemChromeGoldenTests: XCTestCase {
    private func frame(_ example: String, at t: Double) throws -> RGBAImage {
        let path = CartGoldenTests.examples.appendingPathComponent(example).path
        let scene = try SceneDecoder.load(path: path, overrides: SceneOverrides(scale: 1))
        return try Renderer(scene: scene).makeWorker().image(at: t)
    }

    func testLightShop() throws {
        try Golden.assertMatches(frame("chrome-shop.json", at: 0.6), named: "chrome-shop-0.600")
    }

    func testDarkCart() throws {
        try Golden.assertMatches(frame("chrome-cart-dark.json", at: 0), named: "chrome-cart-dark-0.000")
    }
}
