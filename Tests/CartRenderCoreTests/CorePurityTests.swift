import Foundation
import XCTest

/// CartRenderCore stays pure: scene bytes in, timelines, layouts and display lists out. File
/// access (Glibc, FileManager, open/read/stat) lives in CartRenderFiles and the layers above.
final class CorePurityTests: XCTestCase {
    /// What file access looks like in Swift source: a Glibc import, Foundation's file API and
    /// the POSIX calls (as whole words followed by `(`).
    static let forbidden: [(name: String, pattern: String)] = [
        ("import Glibc", #"^\s*import\s+Glibc"#),
        ("FileManager", #"\bFileManager\b"#),
        ("FileHandle", #"\bFileHandle\b"#),
        ("contentsOf:", #"contentsOf:\s*URL|\(contentsOfFile:"#),
        ("write(to:/toFile:)", #"\.write\((to|toFile):"#),
        ("POSIX file calls", #"(?<![\w.])(?<!case )(open|openat|fopen|fstat|stat|lstat|fstatat|opendir|readdir|unlink|unlinkat|rename|renameat|mkdir|realpath|access|getcwd)\("#),
        ("Foundation.read/write", #"Foundation\.(read|write|open)\("#),
    ]

    static var coreSources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/CartRenderCore")
    }

    /// Every hit of `forbidden` in `text`, as `NAME: line N`.
    static func hits(in text: String) throws -> [String] {
        var out: [String] = []
        for (n, line) in text.components(separatedBy: "\n").enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { continue }
            for rule in forbidden where try NSRegularExpression(pattern: rule.pattern).firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                out.append("\(rule.name): line \(n + 1)")
            }
        }
        return out
    }

    func testTheRulesCatchFileAccess() throws {
        XCTAssertEqual(try Self.hits(in: "import Glibc\nlet fd = open(path, O_RDONLY)\nlet m = FileManager.default\n_ = stat(p, &s)"),
                       ["import Glibc: line 1", "POSIX file calls: line 2", "FileManager: line 3", "POSIX file calls: line 4"])
        XCTAssertEqual(try Self.hits(in: "case .open(let item)\ncase open(item: String)\n// FileManager in a comment\nfunc reopen(x)"), [])
    }

    func testCoreSourcesAccessNoFile() throws {
        let files = FileManager.default.enumerator(atPath: Self.coreSources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 50, "the core's sources are at \(Self.coreSources.path)")
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOfFile: Self.coreSources.appendingPathComponent(file).path, encoding: .utf8)
            found += try Self.hits(in: text).map { "\(file): \($0)" }
        }
        XCTAssertEqual(found, [], "CartRenderCore reads no file: move file access to CartRenderFiles")
    }
}
