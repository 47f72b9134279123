import XCTest
final class PlaceholderCartRenderTests: XCTestCase { func testBuilds() { XCTAssertTrue(true) } }
