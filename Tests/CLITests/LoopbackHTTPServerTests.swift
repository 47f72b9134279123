@testable import CartRender
@testable import CartRenderCLI
import CartRenderTestSupport
import Foundation
import XCTest

/// ``LoopbackHTTPServer`` over raw sockets: connections are served concurrently, requests are
/// handled one at a time, slow and unfinished connections cannot keep others out.
final class LoopbackHTTPServerTests: XCTestCase {
    private func connect(_ port: UInt16, receiveTimeout seconds: Int) throws -> Int32 {
        try Loopback.connect(port: port, receiveTimeout: seconds)
    }

    /// Sends `raw` and reads until the server closes or the receive timeout passes.
    private func exchange(_ fd: Int32, _ raw: String) -> String {
        Loopback.send(fd, raw)
        return String(decoding: Loopback.receiveAll(fd), as: UTF8.self)
    }

    /// Serves with `respond` on a thread of its own until `stopped` is set; the group is left
    /// when serving has returned.
    private func start(_ server: LoopbackHTTPServer, stopped: LockedValue<Bool>, respond: @escaping (HTTPRequest) -> HTTPResponse) -> DispatchGroup {
        let done = DispatchGroup()
        done.enter()
        let box = UncheckedBox((server, respond))
        Thread {
            box.value.0.serve(until: { stopped.withLock { $0 } }, respond: box.value.1)
            done.leave()
        }.start()
        return done
    }

    /// Serves as above, answering 200 with the path and adding it to `handled`.
    private func start(_ server: LoopbackHTTPServer, handled: LockedValue<[String]>, stopped: LockedValue<Bool>) -> DispatchGroup {
        start(server, stopped: stopped) { request in
            handled.withLock { $0.append(request.path) }
            return .text(200, "served \(request.path)")
        }
    }

    /// An idle connection (opened, nothing sent) and a half-sent one do not hold up a request on
    /// another connection: with a 60 s request deadline, the request is answered while both are
    /// still open and unanswered (one connection at a time, it would wait 60 s per stalled connection).
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

    /// `Content-Length` is digits only: a sign, a space inside, hex or an empty value is a 400;
    /// plain digits are read as the body's length.
    func testContentLengthIsDigitsOnly() throws {
        let server = try LoopbackHTTPServer(timeout: 30)
        let handled = LockedValue([String]()), stopped = LockedValue(false)
        let done = start(server, handled: handled, stopped: stopped)
        let table: [(value: String, body: String, status: String)] = [
            ("+5", "hello", "400"), ("-0", "", "400"), ("5 5", "hello", "400"), ("0x5", "hello", "400"),
            ("", "", "400"), ("٥", "hello", "400"), ("5", "hello", "200"), ("0", "", "200"),
        ]
        for row in table {
            let fd = try connect(server.port, receiveTimeout: 30)
            let response = exchange(fd, "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: \(row.value)\r\nConnection: close\r\n\r\n\(row.body)")
            close(fd)
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 \(row.status) "), "Content-Length: \(row.value) → \(response)")
        }
        stopped.withLock { $0 = true }
        done.wait()
        XCTAssertEqual(handled.withLock { $0 }, ["/p", "/p"])
    }

    /// Requests that arrive together are all answered, and `respond` never runs for two at once.
    func testRequestsAreHandledOneAtATime() throws {
        let server = try LoopbackHTTPServer(timeout: 60)
        let stopped = LockedValue(false)
        let inside = LockedValue(0), most = LockedValue(0)
        let done = start(server, stopped: stopped) { request in
            let n = inside.withLock { $0 += 1; return $0 }
            most.withLock { $0 = max($0, n) }
            usleep(20_000)
            inside.withLock { $0 -= 1 }
            return .text(200, "served \(request.path)")
        }
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

    /// A client that sends its head one byte every 0.5 s is never silent for the 2 s timeout, yet
    /// never finishes: it is answered 408 once the whole-request deadline (2 s from the accept)
    /// has passed, while it is still sending. (With a silence timeout only, it was read for as
    /// long as it dripped.) The bound is loose, for a loaded machine: 20 s.
    func testADrippedHeadIsAnswered408AtTheDeadline() throws {
        let server = try LoopbackHTTPServer(timeout: 2)
        let handled = LockedValue([String]()), stopped = LockedValue(false)
        let done = start(server, handled: handled, stopped: stopped)
        defer { stopped.withLock { $0 = true }; done.wait() }
        let fd = try connect(server.port, receiveTimeout: 10)
        defer { close(fd) }
        let began = Date()
        Loopback.send(fd, "GET /drip HTTP/1.1\r\nX: ")
        var answer: [UInt8] = []
        while Date().timeIntervalSince(began) < 30 {
            var byte: UInt8 = 0
            let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
            if n == 1 { answer = [byte] + Loopback.receiveAll(fd); break }
            if n == 0 { break }  // closed without an answer
            Loopback.send(fd, "a")
            usleep(500_000)
        }
        let elapsed = Date().timeIntervalSince(began)
        let text = String(decoding: answer, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), text)
        XCTAssertTrue(text.hasSuffix("\r\n\r\nthe request did not arrive within 2 s\n"), text)
        XCTAssertLessThan(elapsed, 20, "the 408 came long after the 2 s deadline")
        XCTAssertEqual(handled.withLock { $0 }, [])
    }

    /// 100 connections that each send a byte a second and never finish their heads do not keep a
    /// request on another connection from being answered, and stay open meanwhile (with a 60 s
    /// deadline they are not cut short). With 16 connections read at once and a silence timeout
    /// only, the first 16 held every slot for as long as they dripped, and the rest filled the
    /// listen queue. The bound is loose, for a loaded machine: 20 s.
    func testARequestIsAnsweredWhile100SlowConnectionsDrip() throws {
        let server = try LoopbackHTTPServer(timeout: 60)
        let handled = LockedValue([String]()), stopped = LockedValue(false)
        let done = start(server, handled: handled, stopped: stopped)
        let port = server.port
        let slow = Dripping(port: port, count: 100)
        XCTAssertEqual(slow.opened.wait(timeout: .now() + 30), .success, "100 connections opened")
        usleep(2_500_000)  // each has sent a byte or two more

        let answer = LockedValue("")
        let answered = DispatchSemaphore(value: 0)
        Thread {
            if let fd = try? Loopback.connect(port: port, receiveTimeout: 30) {
                Loopback.send(fd, "GET /real HTTP/1.1\r\nHost: x\r\n\r\n")
                let text = String(decoding: Loopback.receiveAll(fd), as: UTF8.self)
                close(fd)
                answer.withLock { $0 = text }
            }
            answered.signal()
        }.start()
        XCTAssertEqual(answered.wait(timeout: .now() + 20), .success, "no answer within 20 s while 100 connections drip")
        let text = answer.withLock { $0 }
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.hasSuffix("served /real\n"), text)
        XCTAssertEqual(slow.stillOpen(), 100, "the slow connections are still open and unanswered")

        slow.stop()
        stopped.withLock { $0 = true }
        done.wait()
        XCTAssertEqual(handled.withLock { $0 }, ["/real"])
    }

    /// The deadline is for a request to arrive, not to be answered: with a 1 s deadline, a request
    /// that arrived whole while another one's handler takes 3 s waits its turn and is answered 200,
    /// after it.
    func testARequestWaitingForItsTurnIsNotTimedOut() throws {
        let server = try LoopbackHTTPServer(timeout: 1)
        let stopped = LockedValue(false), handled = LockedValue([String]())
        let done = start(server, stopped: stopped) { request in
            if request.path == "/long" { sleep(3) }
            handled.withLock { $0.append(request.path) }
            return .text(200, "served \(request.path)")
        }
        let long = try connect(server.port, receiveTimeout: 30)
        Loopback.send(long, "GET /long HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(300_000)
        let next = try connect(server.port, receiveTimeout: 30)
        let response = exchange(next, "GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK\r\n") && response.hasSuffix("served /next\n"), response)
        XCTAssertTrue(String(decoding: Loopback.receiveAll(long), as: UTF8.self).hasSuffix("served /long\n"))
        close(next)
        close(long)
        stopped.withLock { $0 = true }
        done.wait()
        XCTAssertEqual(handled.withLock { $0 }, ["/long", "/next"])
    }

    /// When `maxPending` connections are open and unfinished, a new one closes the oldest (503):
    /// 20 slow connections against 8 places do not keep a request from being answered.
    func testTheOldestUnfinishedConnectionMakesRoomForANewOne() throws {
        let server = try LoopbackHTTPServer(timeout: 60, maxPending: 8)
        let handled = LockedValue([String]()), stopped = LockedValue(false)
        let done = start(server, handled: handled, stopped: stopped)
        var slow: [Int32] = []
        for _ in 0..<20 {
            let fd = try connect(server.port, receiveTimeout: 30)
            Loopback.send(fd, "GET /slow HTTP/1.1\r\n")
            slow.append(fd)
            usleep(20_000)  // accepted in this order
        }
        let normal = try connect(server.port, receiveTimeout: 30)
        let response = exchange(normal, "GET /page HTTP/1.1\r\nHost: x\r\n\r\n")
        close(normal)
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK\r\n") && response.hasSuffix("served /page\n"), response)
        let first = String(decoding: Loopback.receiveAll(slow[0]), as: UTF8.self)
        XCTAssertTrue(first.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), first)
        for fd in slow { close(fd) }
        stopped.withLock { $0 = true }
        done.wait()
        XCTAssertEqual(handled.withLock { $0 }, ["/page"])
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

    /// The head is cut at bytes, as every other HTTP implementation cuts it: a space, `?`, `&`,
    /// `=` or `:` followed by a combining mark (U+0301, which Swift's Characters would join to
    /// it) still delimits, and a path may start with `/` and a combining mark.
    func testDelimitersFollowedByACombiningMarkStillDelimit() throws {
        let head = "GET /\u{301}a?\u{301}x=\u{301}1&\u{301}y=2 HTTP/1.1\r\nX-A:\u{301}v\r\nHost: 127.0.0.1"
        let request = try HTTPRequest.parse(head: Array(head.utf8))
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.path, "/\u{301}a")
        XCTAssertEqual(request.query.map(\.name), ["\u{301}x", "\u{301}y"])
        XCTAssertEqual(request.query.map(\.value), ["\u{301}1", "2"])
        XCTAssertEqual(request.headers.map(\.name), ["x-a", "host"])
        XCTAssertEqual(request.header("x-a"), "\u{301}v")
        XCTAssertThrowsError(try HTTPRequest.parse(head: Array("GET /a HTTP/1.1\r\n \u{301}X: v".utf8)), "a folded line")
    }
}

/// `count` connections to 127.0.0.1:`port`, each sending a first request line and then one byte
/// a second from a thread of their own, never the blank line; ``stop()`` closes them.
private final class Dripping: @unchecked Sendable {
    /// Signalled once all connections are open (connect blocks while the server accepts no more).
    let opened = DispatchSemaphore(value: 0)
    private let fds = LockedValue([Int32]())
    private let cancelled = LockedValue(false)
    private let finished = DispatchSemaphore(value: 0)

    init(port: UInt16, count: Int) {
        Thread { [self] in
            for _ in 0..<count where !cancelled.withLock({ $0 }) {
                guard let fd = try? Loopback.connect(port: port, receiveTimeout: 1) else { continue }
                Loopback.send(fd, "GET /slow HTTP/1.1\r\n")
                fds.withLock { $0.append(fd) }
            }
            opened.signal()
            var tick = 0
            while !cancelled.withLock({ $0 }) {
                if tick % 10 == 0 { for fd in fds.withLock({ $0 }) { Loopback.send(fd, "x") } }
                tick += 1
                usleep(100_000)
            }
            for fd in fds.withLock({ $0 }) { close(fd) }
            finished.signal()
        }.start()
    }

    /// How many of the connections have received nothing and are not closed.
    func stillOpen() -> Int {
        fds.withLock { fds in
            fds.filter { fd in
                var byte: UInt8 = 0
                return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)
            }.count
        }
    }

    /// Stops sending and closes every connection (waits at most 120 s for the thread).
    func stop() {
        cancelled.withLock { $0 = true }
        _ = finished.wait(timeout: .now() + 120)
    }
}

private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
