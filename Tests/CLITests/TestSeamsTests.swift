import Foundation
import XCTest

/// What exists for tests and the bench stays out of the shipped binary and out of the product
/// library's API.
///
/// The tests build and run only the debug binary, so "the release binary ignores
/// `CARTRENDER_TEST_PAUSE`" cannot be observed by running it. What makes it true is checked
/// instead: the hook is compiled only under `CARTRENDER_TEST_HOOKS`, and the package defines that
/// condition for debug builds only. The bench's switch between damage tracking and full redraws
/// and the tests' extra sinks are checked the same way, by how they are declared.
final class TestSeamsTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    /// The product's sources (`Sources/` without the test-support target), file by file.
    static func productSources() throws -> [(path: String, lines: [String])] {
        let sources = root + "/Sources"
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources)
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("CartRenderTestSupport/") }.sorted()
        return try files.map { ($0, try String(contentsOfFile: sources + "/" + $0, encoding: .utf8).components(separatedBy: "\n")) }
    }

    /// Whether line `index` of `lines` is inside `#if CARTRENDER_TEST_HOOKS` (and not in its
    /// `#else`).
    static func isTestHooksOnly(_ lines: [String], _ index: Int) -> Bool {
        var stack: [Bool] = []
        for line in lines[..<index] {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("#if ") { stack.append(t == "#if CARTRENDER_TEST_HOOKS") }
            else if t.hasPrefix("#else") || t.hasPrefix("#elseif") { if !stack.isEmpty { stack[stack.count - 1] = false } }
            else if t.hasPrefix("#endif") { _ = stack.popLast() }
        }
        return stack.contains(true)
    }

    func testTheTestHooksAreDefinedForDebugBuildsOnly() throws {
        let manifest = try String(contentsOfFile: Self.root + "/Package.swift", encoding: .utf8)
        let defines = manifest.components(separatedBy: "\n").filter { $0.contains("\"CARTRENDER_TEST_HOOKS\"") }
        XCTAssertFalse(defines.isEmpty, "Package.swift defines CARTRENDER_TEST_HOOKS")
        for line in defines {
            XCTAssertTrue(line.contains(#".define("CARTRENDER_TEST_HOOKS", .when(configuration: .debug))"#), line)
        }
    }

    /// `CARTRENDER_TEST_PAUSE` (create a file at any path, then wait up to 60 s) is read only in
    /// code compiled under `CARTRENDER_TEST_HOOKS`; the extra sinks of `RenderOptions` are
    /// settable only there.
    func testTheTestHooksAreCompiledOnlyUnderTheirCondition() throws {
        var found: Set<String> = []
        for (path, lines) in try Self.productSources() {
            for (i, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                for needle in ["CARTRENDER_TEST_PAUSE", "var additionalSinks: [any FrameSink] = "] where line.contains(needle) {
                    found.insert(needle)
                    XCTAssertTrue(Self.isTestHooksOnly(lines, i), "\(path):\(i + 1): \(needle) outside #if CARTRENDER_TEST_HOOKS")
                }
            }
        }
        XCTAssertEqual(found.count, 2, "both seams are still found where this test looks for them")
    }

    /// The switch between damage tracking and full redraws is SPI (`@_spi(DamageTracking)`):
    /// not API of the product library; the bench and the tests reach it through
    /// `CartRenderTestSupport`, the one target besides the product's own modules that imports
    /// that SPI.
    func testFullRedrawsAreNotProductAPI() throws {
        var declarations = 0
        for (path, lines) in try Self.productSources() {
            for (i, line) in lines.enumerated() where line.contains("var tracksDamage") {
                declarations += 1
                XCTAssertTrue(line.contains("@_spi(DamageTracking)") || (i > 0 && lines[i - 1].contains("@_spi(DamageTracking)")),
                              "\(path):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        XCTAssertGreaterThan(declarations, 0)
        var importers: [String] = []
        for top in ["Sources", "Tests", "Benchmarks", "Fuzz"] {
            for file in (try? FileManager.default.subpathsOfDirectory(atPath: Self.root + "/" + top)) ?? [] where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: Self.root + "/" + top + "/" + file, encoding: .utf8)
                if text.components(separatedBy: "\n").contains(where: { $0.hasPrefix("@_spi(DamageTracking) import") }) { importers.append(top + "/" + file) }
            }
        }
        // The product's modules pass the switch on to each other; outside them only the test support imports it.
        XCTAssertTrue(importers.contains { $0.hasPrefix("Sources/CartRenderTestSupport/") }, "\(importers)")
        XCTAssertEqual(importers.filter { !$0.hasPrefix("Sources/") }, [], "the tests and the bench go through CartRenderTestSupport")
    }
}
