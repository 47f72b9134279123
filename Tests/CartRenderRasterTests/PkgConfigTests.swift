import Foundation
import XCTest

/// `Sources/CPango/CPango.pc` and `Sources/CRsvg/CRsvg.pc`, which Package.swift names instead of
/// the system's pangocairo/librsvg files so that builds print no "prohibited flag(s): -pthread":
/// they give the system's include directories, less `-pthread` and the directories of libraries
/// the modules' headers do not include.
final class PkgConfigTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized.path

    private func cflags(_ arguments: [String]) throws -> Set<String> {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["pkg-config", "--cflags"] + arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "pkg-config --cflags \(arguments.joined(separator: " "))")
        return Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
    }

    func testLocalFilesGiveTheSystemIncludeDirectoriesWithoutPthread() throws {
        // Flags of the system files that the modules do without: -pthread (SwiftPM refuses it;
        // glibc needs no flag for threads), libmount's and libblkid's headers (gio's private
        // requirements; no header of ours includes them) and the multiarch directory (a
        // compiler default).
        func unneeded(_ flag: String) -> Bool {
            flag == "-pthread" || flag == "-I/usr/include/libmount" || flag == "-I/usr/include/blkid"
                || (flag.hasPrefix("-I/usr/include/") && flag.hasSuffix("-linux-gnu"))
        }
        for (module, system) in [("CPango", ["pangocairo", "pangoft2", "fontconfig"]), ("CRsvg", ["librsvg-2.0"])] {
            let local = try cflags(["\(Self.sources)/\(module)/\(module).pc"])
            let wanted = try cflags(system).filter { !unneeded($0) }
            XCTAssertTrue(try cflags(system).contains("-pthread"), "\(module): the system files bring -pthread")
            XCTAssertFalse(local.contains("-pthread"), module)
            XCTAssertEqual(local, wanted, module)
        }
    }
}
