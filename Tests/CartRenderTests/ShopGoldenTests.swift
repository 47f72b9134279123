import CartRender
import CartRenderCore
import CartRenderRaster
import XCTest

/// The default scene at scale 1 at a few fixed times: the first frame, mid-flight with two
/// flights overlapping, a landing with the badge bump, and the last frame.
final class ShopGoldenTests: XCTestCase {
    static let renderer: Renderer = {
        let scene = try! DefaultScene.scene(overrides: SceneOverrides(scale: 1), baseDirectory: "/")
        return try! Renderer(scene: scene)
    }()

    func check(_ t: Double, _ name: String) throws {
        let worker = try Self.renderer.makeWorker()
        try Golden.assertMatches(try worker.image(at: t), named: name)
    }

    func testFirstFrame() throws { try check(0, "shop-0.000") }
    func testMidFlight() throws { try check(0.6, "shop-0.600") }
    func testLandingBump() throws { try check(1.0, "shop-1.000") }
    func testLastFrame() throws { try check(Self.renderer.duration, "shop-end") }

    func testDarkMidFlight() throws {
        let scene = try DefaultScene.scene(overrides: SceneOverrides(scale: 1, colorScheme: .dark), baseDirectory: "/")
        try Golden.assertMatches(try Renderer(scene: scene).makeWorker().image(at: 0.6), named: "shop-dark-0.600")
    }
}
