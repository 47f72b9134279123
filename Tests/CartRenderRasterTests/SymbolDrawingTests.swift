import CartRenderCore
@testable import CartRenderRaster
import XCTest

/// How symbols are drawn: the Bootstrap Icons 1.11 files the setup installs, and weights.
final class SymbolDrawingTests: XCTestCase {
    /// `name` drawn black on white in a `side` pt square at 1 px per point.
    private func draw(_ name: String, side: Double = 64, weight: FontWeight = .regular, tint: Color = .black) throws -> RGBAImage {
        let source = ImageSource.symbol(name)
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: [source]))
        let item = DisplayItem.image(ImageDraw(source: source, frame: Rect(x: 0, y: 0, width: side, height: side), tint: tint, weight: weight))
        return try rasterizer.rasterize(DisplayList(size: Size(width: side, height: side), background: .white, items: [item]), scale: 1)
    }

    /// Ink (255 − red) summed down column `x`, in px: the thickness of a horizontal bar there.
    private func thickness(_ image: RGBAImage, column x: Int) -> Double {
        (0..<image.height).reduce(0.0) { $0 + Double(255 - Int(image[x, $1].r)) / 255 }
    }

    /// The bar of `minus` (Bootstrap's `dash-lg`, 1 unit of 16 thick) measured in pixels at
    /// 64 px: 4 px at regular; each heavier weight is thicker, by `symbolOutlineWidth` units
    /// (4 px each): heavy ≈ 8.2 px.
    func testHeavierSymbolsHaveThickerStrokes() throws {
        var last = 0.0
        for weight in [FontWeight.regular, .medium, .semibold, .bold, .heavy, .black] {
            let t = thickness(try draw("minus", weight: weight), column: 32)
            XCTAssertEqual(t, 4 * (1 + Look.symbolOutlineWidth(weight)), accuracy: 0.15, "\(weight)")
            XCTAssertGreaterThan(t, last, "\(weight) is thicker than the weight before it")
            last = t
        }
        // The chevron's diagonal too: more ink at heavy than at regular, in the same box.
        func ink(_ image: RGBAImage) -> Double { (0..<image.width).reduce(0) { $0 + thickness(image, column: $1) } }
        XCTAssertGreaterThan(ink(try draw("chevron.left", weight: .heavy)), 1.8 * ink(try draw("chevron.left")))
    }

    /// A translucent emboldened symbol is faded as a whole: the stroke does not darken the
    /// fill where they overlap, so the bar's middle has the tint's own opacity.
    func testATranslucentHeavySymbolIsEvenlyTranslucent() throws {
        let image = try draw("minus", weight: .heavy, tint: Color.black.opacity(0.5))
        XCTAssertEqual(Int(image[32, 32].r), 128, accuracy: 2)
    }

    /// `backpack.fill` draws Bootstrap Icons 1.11's backpack, not the shopping bag 1.10 had to
    /// stand in: the two differ in a large part of their pixels, and the backpack's front
    /// pocket is a window in its body where the bag is solid.
    func testTheBackpackIsABackpack() throws {
        let backpack = try draw("backpack.fill"), bag = try draw("bag.fill")
        var differing = 0
        for y in 0..<64 { for x in 0..<64 where abs(Int(backpack[x, y].r) - Int(bag[x, y].r)) > 128 { differing += 1 } }
        XCTAssertGreaterThan(differing, 64 * 64 / 8, "the backpack is not the bag")
        // Backpack: body from x = 8 to 56 (2…14 of 16); the flap's pocket is a white window
        // ring inside the body (between 4…12 × 9…14 and 5…11 × 10…13 of 16).
        XCTAssertLessThan(backpack[32, 60].r, 64, "the body's bottom")
        XCTAssertGreaterThan(backpack[18, 46].r, 192, "the pocket's window")
        XCTAssertLessThan(bag[18, 46].r, 64, "the bag is solid there")
    }

    /// `cart.fill` has solid wheels, as SF Symbols draws them (Bootstrap's `cart-fill` has
    /// rings): the wheels' centers (6.32, 14) and (15.16, 14) of its 18.95 × 15 units (from
    /// y = 1), fitted in 64 px (3.38 px a unit, 6.7 px from the top), are ink.
    func testCartFillHasSolidWheels() throws {
        let cart = try draw("cart.fill")
        XCTAssertLessThan(cart[21, 50].r, 64, "left wheel's center")
        XCTAssertLessThan(cart[51, 50].r, 64, "right wheel's center")
    }

    /// `cart.badge.plus` is an outline cart with a plus badge at its top right, set apart by a
    /// ring of background (SF Symbols' badge), about 1.28 times as wide as tall; Bootstrap's
    /// `cart-plus` had the plus inside the basket.
    func testCartBadgePlusHasItsPlusAtTheTopRight() throws {
        let image = try draw("cart.badge.plus", side: 82)   // 20.5 × 16 units at 4 px a unit: 82 × 64 px, centered
        var minX = Int.max, maxX = 0, minY = Int.max, maxY = 0
        for y in 0..<image.height { for x in 0..<image.width where image[x, y].r < 128 {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        } }
        let aspect = Double(maxX - minX + 1) / Double(maxY - minY + 1)
        XCTAssertEqual(aspect, 1.28, accuracy: 0.08, "ink \(minX)…\(maxX) × \(minY)…\(maxY)")
        // The plus's center (17, 3.5) units → (68, 9 + 14) px (the 64 px tall artwork is centered
        // in the 82 px square: 9 px above it); the ring around it is background, and the basket's
        // middle (9, 7.5) is not filled (an outline).
        let top = (82 - 64) / 2
        XCTAssertLessThan(image[68, top + 14].r, 64, "the plus")
        XCTAssertGreaterThan(image[68 - 14, top + 14 + 4].r, 192, "the ring between the plus and the cart")
        XCTAssertGreaterThan(image[36, top + 30].r, 192, "the basket is an outline")
    }

    /// Every mapped symbol has its file among the icons the setup installs.
    func testEveryMappedSymbolLoads() throws {
        XCTAssertNoThrow(try ImageLibrary(sources: Symbols.names.map { .symbol($0) }))
    }
}

/// Where the setup's icons and fonts are found.
final class ProjectDataTests: XCTestCase {
    /// The test bundle lives in `.build/<triple>/debug/`: a build tree, so after
    /// `PREFIX/share/cartrender` (here `.build/<triple>/share/cartrender`) it looks in the
    /// checkout's `.build/share/cartrender`, where it finds the icons and fonts.
    func testTheTestBundleFindsTheCheckoutsData() throws {
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let prefix = URL(fileURLWithPath: exe).deletingLastPathComponent().deletingLastPathComponent()
        XCTAssertEqual(ProjectData.candidates.first, prefix.appendingPathComponent("share/cartrender").path)
        XCTAssertEqual(Array(ProjectData.candidates.suffix(2)), ["/usr/local/share/cartrender", "/usr/share/cartrender"])
        let found = try XCTUnwrap(ProjectData.directory)
        XCTAssertTrue(found.hasSuffix("/.build/share/cartrender"), found)
        XCTAssertTrue(FileManager.default.fileExists(atPath: try ProjectData.iconDirectory() + "/backpack-fill.svg"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: try ProjectData.fontDirectory() + "/" + FontEnvironment.jostFile))
    }

    /// An installed binary looks beside itself (`../share/cartrender`) and under the two
    /// documented prefixes, each once, and never in the checkout's `.build/share`.
    func testAnInstalledBinaryLooksOnlyBesideItselfAndUnderThePrefixes() {
        XCTAssertEqual(ProjectData.candidates(executable: "/usr/bin/cartrender"), ["/usr/share/cartrender", "/usr/local/share/cartrender"])
        XCTAssertEqual(ProjectData.candidates(executable: "/usr/local/bin/cartrender"), ["/usr/local/share/cartrender", "/usr/share/cartrender"])
        XCTAssertEqual(ProjectData.candidates(executable: "/home/me/.local/bin/cartrender"),
                       ["/home/me/.local/share/cartrender", "/usr/local/share/cartrender", "/usr/share/cartrender"])
        XCTAssertEqual(ProjectData.candidates(executable: "/tmp/x/cartrender"),
                       ["/tmp/share/cartrender", "/usr/local/share/cartrender", "/usr/share/cartrender"])
        XCTAssertEqual(ProjectData.candidates(executable: "/src/cartrender/.build/release/cartrender"),
                       ["/src/cartrender/.build/share/cartrender", ProjectData.checkoutData, "/usr/local/share/cartrender", "/usr/share/cartrender"])
        XCTAssertFalse(ProjectData.isInBuildTree("/opt/.buildx/cartrender"))
    }

    /// The message names what is missing, every place looked in and how to install it, in one
    /// sentence; its exit status is 69.
    func testTheMissingDirectoryIsOneSentenceWithExit69() {
        let e = ProjectData.missing("Bootstrap Icons", "bootstrap-icons", in: ["/tmp/share/cartrender", "/usr/local/share/cartrender", "/usr/share/cartrender"])
        XCTAssertEqual(e.exitCode, .unavailable)
        XCTAssertEqual(e.sentence, "Bootstrap Icons is not installed: no share/cartrender/bootstrap-icons in /tmp/share/cartrender, /usr/local/share/cartrender or /usr/share/cartrender; " + ProjectData.setup)
        XCTAssertFalse(e.sentence.contains("\n"))
    }
}
