import CartRenderCore
import CartRenderFiles
import Foundation
import XCTest

/// `RegularFile`: whole regular files, and every other kind of path refused at once with a
/// sentence, never waited on.
final class RegularFileTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "cartrender-regular-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    /// `RegularFile.read` on another thread: nil when it has not returned within 10 s (a
    /// blocking open), so that a regression fails the test instead of hanging the suite.
    private func read(_ path: String, limit: Int = 1 << 20) -> Result<[UInt8], FileReadError>? {
        final class Box: @unchecked Sendable { var result: Result<[UInt8], FileReadError>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.result = Result { () throws(FileReadError) in try RegularFile.read(path, limit: limit) }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else {
            XCTFail("reading \(path) did not return within 10 s")
            return nil
        }
        return box.result
    }

    private func failure(_ path: String, limit: Int = 1 << 20, line: UInt = #line) -> FileReadError? {
        guard case .failure(let e)? = read(path, limit: limit) else {
            XCTFail("\(path) was read", line: line)
            return nil
        }
        return e
    }

    func testReadsTheWholeFile() throws {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/big.bin"))
        XCTAssertEqual(try RegularFile.read(dir + "/big.bin", limit: bytes.count), bytes)
        XCTAssertEqual(try RegularFile.readIfPresent(dir + "/big.bin", limit: bytes.count), bytes)
        try Data().write(to: URL(fileURLWithPath: dir + "/empty"))
        XCTAssertEqual(try RegularFile.read(dir + "/empty", limit: 0), [])
    }

    func testAMissingFileIsMissing() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        for path in [dir + "/nope.png", dir + "/file/under-a-file.png"] {
            let e = failure(path)
            XCTAssertEqual(e?.problem, .missing)
            XCTAssertEqual(e?.description, "\(path): no such file")
            XCTAssertEqual(e?.exitCode, .noInput)
            XCTAssertNil(try RegularFile.readIfPresent(path, limit: 10))
        }
    }

    /// A FIFO with no writer, a directory and a device are refused before a byte is read; the
    /// FIFO's open does not block. `readIfPresent` refuses them too (they are present).
    func testAnythingButARegularFileIsRefusedAtOnce() throws {
        XCTAssertEqual(mkfifo(dir + "/fifo.png", 0o644), 0)
        try FileManager.default.createDirectory(atPath: dir + "/folder.png", withIntermediateDirectories: true)
        let table: [(String, String, UInt)] = [
            (dir + "/fifo.png", "a FIFO (named pipe)", #line),
            (dir + "/folder.png", "a directory", #line),
            ("/dev/null", "a device", #line),
        ]
        for (path, what, line) in table {
            let e = failure(path, line: line)
            XCTAssertEqual(e?.problem, .notRegularFile(what: what), line: line)
            XCTAssertEqual(e?.description, "\(path): is \(what), not a regular file", line: line)
            XCTAssertEqual(e?.reason(notA: "a scene file"), "is \(what), not a scene file", line: line)
            XCTAssertEqual(e?.exitCode, .noInput, line: line)
        }
        XCTAssertThrowsError(try RegularFile.readIfPresent(dir + "/fifo.png", limit: 10))
    }

    func testTheLimitIsCheckedBeforeAndWhileReading() throws {
        try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: dir + "/hundred"))
        XCTAssertEqual(try RegularFile.read(dir + "/hundred", limit: 100).count, 100)
        let e = failure(dir + "/hundred", limit: 99)
        XCTAssertEqual(e?.problem, .tooLarge(limit: 99))
        XCTAssertEqual(e?.reason(), "is larger than 99 bytes")
        XCTAssertEqual(e?.exitCode, .dataError)
        XCTAssertEqual(FileReadError(path: "s.json", problem: .tooLarge(limit: 16 << 20)).description, "s.json: is larger than 16 MiB")

        // /proc files report size 0 and hold more: read whole, and held to the limit as they are read.
        var info = stat()
        XCTAssertEqual(stat("/proc/self/status", &info), 0)
        XCTAssertEqual(info.st_size, 0)
        let status = try RegularFile.read("/proc/self/status", limit: 1 << 20)
        XCTAssertTrue(String(decoding: status, as: UTF8.self).hasPrefix("Name:"))
        XCTAssertEqual(failure("/proc/self/status", limit: 10)?.problem, .tooLarge(limit: 10))
    }

    /// Failures of `open` and `read` say the system's reason; a failed read is not the end of the file.
    func testReadErrorsAreReportedWithTheirReason() throws {
        let mem = failure("/proc/self/mem")
        XCTAssertEqual(mem?.problem, .unreadable(errno: EIO))
        XCTAssertEqual(mem?.description, "/proc/self/mem: cannot be read (input/output error)")
        XCTAssertEqual(mem?.exitCode, .noInput)

        XCTAssertEqual(symlink("loop", dir + "/loop"), 0)
        let loop = failure(dir + "/loop")
        XCTAssertEqual(loop?.problem, .unreadable(errno: ELOOP))
        XCTAssertEqual(loop?.reason(), "cannot be read (too many levels of symbolic links)")
    }

    func testCallersChooseTheirWords() {
        let missing = FileReadError(path: "/i/a.png", problem: .missing)
        XCTAssertEqual(missing.reason(missing: "does not exist", notA: "an image"), "does not exist")
        let fifo = FileReadError(path: "/i/a.png", problem: .notRegularFile(what: "a FIFO (named pipe)"))
        XCTAssertEqual(fifo.reason(missing: "does not exist", notA: "an image"), "is a FIFO (named pipe), not an image")
    }
}
