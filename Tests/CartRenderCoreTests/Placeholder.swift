import XCTest
final class PlaceholderCartRenderCoreTests: XCTestCase { func testBuilds() { XCTAssertTrue(true) } }
