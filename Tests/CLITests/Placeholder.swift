import XCTest
final class PlaceholderCLITests: XCTestCase { func testBuilds() { XCTAssertTrue(true) } }
