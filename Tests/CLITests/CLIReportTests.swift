import CartRender
@testable import CartRenderCLI
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// `CLI.report` prints an error's sentence on stderr exactly (docs/command-line.md): one line, then its hint.
final class CLIReportTests: XCTestCase {
    func testReportPrintsTheSentenceOnOneLineThenTheHint() throws {
        struct Unknown: Error {}
        let table: [(Error, ExitCode, String, UInt)] = [
            (UsageError("unknown option --fsp; did you mean --fps?"), .usage,
             "cartrender: unknown option --fsp; did you mean --fps?\nRun 'cartrender --help' for usage.\n", #line),
            (InputError(.unreadable, path: "a\nb.png", reason: "no such file"), .noInput, "cartrender: a\\nb.png: no such file\n", #line),
            (AnimationEncodingError.alreadyFinished, .software, "cartrender: internal error: The animation encoder was already finished.\n", #line),
            (Unknown(), .software, "cartrender: internal error: Unknown()\n", #line),
        ]
        for (error, code, stderr, line) in table {
            let (returned, printed) = try capturingStderr { CLI.report(error) }
            XCTAssertEqual(returned, code, line: line)
            XCTAssertEqual(printed, stderr, line: line)
        }
    }

    /// Runs `body` with file descriptor 2 pointed at a temporary file and returns what it wrote.
    private func capturingStderr<T>(_ body: () -> T) throws -> (T, String) {
        let path = NSTemporaryDirectory() + "cartrender-stderr-\(UUID().uuidString)"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let saved = dup(2)
        dup2(fd, 2)
        close(fd)
        let result = body()
        dup2(saved, 2)
        close(saved)
        return (result, try String(contentsOfFile: path, encoding: .utf8))
    }
}
