@testable import CartRender
import CartRenderTestSupport
import Foundation
import XCTest

/// ``LoopbackHTTPServer`` over raw sockets: connections are served concurrently, requests are
/// handled one at a time.
final class LoopbackHTTPServerTests: XCTestCase {
    private func connect(_ port: UInt16, receiveTimeout seconds: Int) throws -> Int32 {
        try Loopback.connect(port: port, receiveTimeout: seconds)
    }

    /// Sends `raw` and reads until the server closes or the receive timeout passes.
    private func exchange(_ fd: Int32, _ raw: String) -> String {
        Loopback.send(fd, raw)
        return String(decoding: Loopback.receiveAll(fd), as: UTF8.self)
    }

    /// Serves on a thread of its own until `stopped` is set; `respond` answers 200 with the path.
    private func start(_ server: LoopbackHTTPServer, handled: LockedValue<[String]>, stopped: LockedValue<Bool>) -> DispatchGroup {
        let done = DispatchGroup()
        done.enter()
        let box = UncheckedBox(server)
        Thread {
            box.value.serve(until: { stopped.withLock { $0 } }) { request in
                handled.withLock { $0.append(request.path) }
                return .text(200, "served \(request.path)")
            }
            done.leave()
        }.start()
        return done
    }

    /// An idle connection (opened, nothing sent) and a half-sent one do not hold up a request on
    /// another connection: with a 60 s read timeout, the request is answered while both are still
    /// open and unanswered (one connection at a time, it would wait 60 s per stalled connection).
    func testAnIdleConnectionDoesNotStallOtherRequests() throws {
        let server = try LoopbackHTTPServer(timeout: 60)
        let handled = LockedValue([String]()), stopped = LockedValue(false)
        let done = start(server, handled: handled, stopped: stopped)
        let idle = try connect(server.port, receiveTimeout: 1)
        let halfSent = try connect(server.port, receiveTimeout: 1)
        Loopback.send(halfSent, "GET /half HTTP/1.1\r\nHost: x\r\n")
        usleep(200_000)  // both reach the server first

        let normal = try connect(server.port, receiveTimeout: 30)
        let response = exchange(normal, "GET /page HTTP/1.1\r\nHost: x\r\n\r\n")
        close(normal)
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK\r\n"), response)
        XCTAssertTrue(response.hasSuffix("served /page\n"), response)
        // The stalled connections are still open and unanswered (their reads time out after 1 s
        // with nothing received, where a closed connection would read the end at once).
        for fd in [idle, halfSent] {
            var byte: UInt8 = 0
            XCTAssertEqual(recv(fd, &byte, 1, 0), -1, "the stalled connection is still open")
            XCTAssertTrue(errno == EAGAIN || errno == EWOULDBLOCK)
        }
        XCTAssertEqual(handled.withLock { $0 }, ["/page"])

        // Completing the half-sent request gets it answered too.
        let rest = exchange(halfSent, "\r\n")
        XCTAssertFalse(rest.isEmpty)
        close(halfSent)
        close(idle)
        stopped.withLock { $0 = true }
        done.wait()
        XCTAssertEqual(handled.withLock { $0 }, ["/page", "/half"])
    }

    /// Requests that arrive together are all answered, and `respond` never runs for two at once.
    func testRequestsAreHandledOneAtATime() throws {
        let server = try LoopbackHTTPServer(timeout: 60)
        let stopped = LockedValue(false)
        let inside = LockedValue(0), most = LockedValue(0)
        let done = DispatchGroup()
        done.enter()
        let box = UncheckedBox(server)
        Thread {
            box.value.serve(until: { stopped.withLock { $0 } }) { request in
                let n = inside.withLock { $0 += 1; return $0 }
                most.withLock { $0 = max($0, n) }
                usleep(20_000)
                inside.withLock { $0 -= 1 }
                return .text(200, "served \(request.path)")
            }
            done.leave()
        }.start()
        let port = server.port
        let answers = LockedValue([String]())
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            guard let fd = try? connect(port, receiveTimeout: 30) else { return }
            let r = exchange(fd, "GET /\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
            close(fd)
            answers.withLock { $0.append(r) }
        }
        stopped.withLock { $0 = true }
        done.wait()
        XCTAssertEqual(answers.withLock { $0 }.filter { $0.hasPrefix("HTTP/1.1 200 OK\r\n") }.count, 8)
        XCTAssertEqual(most.withLock { $0 }, 1)
    }

    /// A `%` must be followed by two hex digits: `%+f` and `%-0` are broken encodings (Int's
    /// parser would take a sign), and so is a `%` at the end.
    func testPercentDecodingNeedsTwoHexDigits() {
        XCTAssertEqual(HTTPRequest.percentDecoded("/a%20b%2Fc%e2%82%ac"), "/a b/c€")
        XCTAssertEqual(HTTPRequest.percentDecoded("a+b", plusIsSpace: true), "a b")
        for broken in ["%+f", "%-0", "%", "%4", "%g0", "%c3"] {
            XCTAssertNil(HTTPRequest.percentDecoded(Substring(broken)), broken)
        }
        XCTAssertThrowsError(try HTTPRequest.parse(head: Array("GET /%+f HTTP/1.1\r\nHost: x".utf8)))
    }
}

private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
