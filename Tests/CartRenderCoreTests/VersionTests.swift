import CartRenderCore
import Foundation
import XCTest

/// cartrender's version comes from one place, the file VERSION; `make version` writes it into
/// Sources/CartRenderCore/Manifest/Version.swift, which a plain `swift build` compiles.
final class VersionTests: XCTestCase {
    func testTheCompiledVersionIsTheFileVERSION() throws {
        // Tests/CartRenderCoreTests/VersionTests.swift → the checkout.
        let file = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../VERSION").standardized
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertEqual(Manifest.version, text.trimmingCharacters(in: .whitespacesAndNewlines),
                       "VERSION and Version.swift differ: run `make version`")
        XCTAssertNotNil(Manifest.version.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+([~+.-][0-9A-Za-z.+~-]+)?$"#, options: .regularExpression),
                        "a Debian-compatible version starting with a digit: \(Manifest.version)")
    }
}
