import Foundation
import XCTest

/// Runs the built `cartrender` binary the way a user does and captures its output: the one
/// runner of the command-line tests (as apple/swift-argument-parser's `AssertExecuteCommand`).
enum Binary {
    /// `cartrender` built beside the running test executable (`.build/<config>/`, or
    /// `.build/optimized/<config>/` under `make test`): the binary of the same build as the tests,
    /// never another build's. Stops the run when there is none (build first: `swift build
    /// --build-tests` builds both).
    static let url: URL = {
        let tests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidate = tests.deletingLastPathComponent().appendingPathComponent("cartrender")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            fatalError("cartrender is not built beside \(tests.path): build it first (swift build --build-tests)")
        }
        return candidate
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The run took longer than its timeout and was killed.
        var timedOut = false
    }

    /// Runs `cartrender arguments` (or `executable arguments`) in `directory` with `environment`
    /// added (``environment(_:)``) and nothing on standard input; kills it with SIGKILL after `timeout` seconds, which fails
    /// the test at `file`, `line` (a hang cannot stop the suite).
    static func run(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
                    timeout: TimeInterval = 300, executable: String? = nil,
                    file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let running = try start(arguments, in: directory, environment: environment, executable: executable,
                                standardInput: FileHandle.nullDevice)
        let deadline = Date().addingTimeInterval(timeout)
        while running.process.isRunning && Date() < deadline { usleep(5_000) }
        let timedOut = running.process.isRunning
        if timedOut {
            kill(running.process.processIdentifier, SIGKILL)
            XCTFail("cartrender \(arguments.joined(separator: " ")) did not finish in \(Int(timeout)) s", file: file, line: line)
        }
        var r = running.finish()
        r.timedOut = timedOut
        return r
    }

    /// The test process's environment without the variables that choose a record mode (`CI`,
    /// `CARTRENDER_RECORD`), plus `extra`.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        env["CARTRENDER_RECORD"] = nil
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// A started run: the process, and its output collected on other threads (so a full pipe
    /// never blocks it).
    final class Running: @unchecked Sendable {
        let process: Process
        private let group = DispatchGroup()
        private var out = Data(), err = Data()

        init(_ process: Process, stdout: Pipe, stderr: Pipe) {
            self.process = process
            group.enter()
            DispatchQueue.global().async { self.out = stdout.fileHandleForReading.readDataToEndOfFile(); self.group.leave() }
            group.enter()
            DispatchQueue.global().async { self.err = stderr.fileHandleForReading.readDataToEndOfFile(); self.group.leave() }
        }

        /// Waits for the process to end and returns what it did.
        func finish() -> Result {
            process.waitUntilExit()
            group.wait()
            return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                          stderr: String(decoding: err, as: UTF8.self))
        }
    }

    /// Starts `cartrender arguments` without waiting for it; `standardInput` is a `Pipe` or
    /// `FileHandle` (nil: the test process's own).
    static func start(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
                      executable: String? = nil, standardInput: Any? = nil) throws -> Running {
        let p = Process()
        p.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? url
        p.arguments = arguments
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        p.environment = Self.environment(environment)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        if let standardInput { p.standardInput = standardInput }
        try p.run()
        return Running(p, stdout: out, stderr: err)
    }

    static let examples = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../../Examples").standardized.path

    static func tempDir(_ test: XCTestCase) -> String {
        let d = NSTemporaryDirectory() + "cartrender-cli-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: d) }
        return d
    }
}

/// A fresh temporary directory, removed by `cleanUp`.
func makeTemporaryDirectory() throws -> String {
    let dir = NSTemporaryDirectory() + "cartrender-cli-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}
