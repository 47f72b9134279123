import Foundation
import XCTest

/// Runs the built `cartrender` binary the way a user does and captures its output.
enum Binary {
    /// `cartrender` next to the test bundle (`.build/<config>/`).
    static let url: URL = {
        let products = Bundle(for: Marker.self).bundleURL.deletingLastPathComponent()
        let candidate = products.appendingPathComponent("cartrender")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return URL(fileURLWithPath: #filePath).appendingPathComponent("../../../../.build/debug/cartrender").standardized
    }()
    final class Marker {}

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `cartrender arguments` in `directory` with `environment` added.
    static func run(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = url
        p.arguments = arguments
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CI")
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    static let examples = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../../Examples").standardized.path

    static func tempDir(_ test: XCTestCase) -> String {
        let d = NSTemporaryDirectory() + "cartrender-cli-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: d) }
        return d
    }
}
