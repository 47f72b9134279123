import XCTest
final class PlaceholderCartRenderRasterTests: XCTestCase { func testBuilds() { XCTAssertTrue(true) } }
