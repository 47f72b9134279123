import Foundation
import XCTest

/// What a run of the built `cartrender` printed and returned.
struct CommandOutput {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the built `cartrender` binary like a user (apple/swift-argument-parser's
/// `AssertExecuteCommand` approach): the binary is found beside the test bundle, or at
/// `<package root>/.build/debug/cartrender`.
enum CommandRunner {
    static let binary: String? = {
        var candidates: [String] = []
        let bundleDir = (Bundle.main.bundlePath as NSString).deletingLastPathComponent
        candidates.append((Bundle.main.bundlePath as NSString).appendingPathComponent("cartrender"))
        candidates.append((bundleDir as NSString).appendingPathComponent("cartrender"))
        if let arg0 = CommandLine.arguments.first {
            candidates.append(((arg0 as NSString).deletingLastPathComponent as NSString).appendingPathComponent("cartrender"))
        }
        // Tests/CLITests/Support/CommandRunner.swift → package root
        let root = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/cartrender").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The environment of the test process without the variables that choose a record mode, plus `extra`.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        env["CARTRENDER_RECORD"] = nil
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Runs `cartrender arguments…` in `directory` and waits at most `timeout` seconds: a run that
    /// takes longer is killed and fails the test, so a hang cannot stop the suite.
    static func run(_ arguments: [String], in directory: String, environment: [String: String] = environment(),
                    timeout: TimeInterval = 120, file: StaticString = #filePath, line: UInt = #line) throws -> CommandOutput {
        let path = try XCTUnwrap(binary, "the cartrender binary was not found; run `swift build` first", file: file, line: line)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes on other threads while waiting, so a full pipe never blocks the child
        // and a child that never ends is still seen to time out.
        final class Box: @unchecked Sendable { var data = Data() }
        let outBox = Box(), errBox = Box()
        let group = DispatchGroup()
        for (pipe, box) in [(out, outBox), (err, errBox)] {
            group.enter()
            DispatchQueue.global().async { box.data = pipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            XCTFail("cartrender \(arguments.joined(separator: " ")) did not finish in \(Int(timeout)) s", file: file, line: line)
        }
        process.waitUntilExit()
        group.wait()
        return CommandOutput(status: process.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
                             stderr: String(decoding: errBox.data, as: UTF8.self))
    }
}

/// A fresh temporary directory, removed by `cleanUp`.
func makeTemporaryDirectory() throws -> String {
    let dir = NSTemporaryDirectory() + "cartrender-cli-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}
