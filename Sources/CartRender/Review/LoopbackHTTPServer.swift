import CartRenderCore
import Foundation

/// A minimal HTTP/1.1 server on 127.0.0.1 only, for `cartrender review`: one request per
/// connection (`Connection: close`), connections read and answered concurrently, requests
/// handled one at a time.
///
/// - Listens on `127.0.0.1` at a port the kernel chooses (bind to port 0), never on another
///   interface.
/// - Each connection is read and answered on a thread of its own, at most
///   ``maxConnections`` at once; further connections wait in the listen queue until one ends.
///   So an idle or half-sent connection does not hold up the others.
/// - `respond` is called for one request at a time (under a lock), in the order the requests
///   finished arriving: a handler that changes state (accept, accept all) needs no lock of its own.
/// - A request head is at most ``maxHeadBytes`` (431 beyond), a body at most ``maxBodyBytes``
///   with a `Content-Length` (413 beyond; chunked bodies get 501). A client that sends nothing
///   for ``timeout`` seconds is answered 408 and closed.
/// - Writes never raise `SIGPIPE` (`MSG_NOSIGNAL`): a client that went away costs nothing.
final class LoopbackHTTPServer {
    static let maxHeadBytes = 16 << 10
    static let maxBodyBytes = 64 << 10
    /// Connections served at once.
    static let maxConnections = 16
    /// The default of ``timeout``: seconds a connection may stay silent (s).
    static let defaultTimeout = 5

    /// Seconds a connection may stay silent while its request is read, or block a write (s).
    let timeout: Int
    /// The port listened on, chosen by the kernel.
    let port: UInt16
    private let listener: Int32

    /// Listens on 127.0.0.1 at a free port.
    /// - Parameter timeout: seconds a connection may stay silent (s), at least 1.
    /// - Throws: ``ReviewServerError`` when no socket can be made, bound or listened on.
    init(timeout: Int = LoopbackHTTPServer.defaultTimeout) throws {
        self.timeout = max(1, timeout)
        let fd = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ReviewServerError(step: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                bind(fd, a, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, a, &length) == 0
            }
        }
        guard bound else {
            let e = errno
            close(fd)
            throw ReviewServerError(step: "bind", errno: e)
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(listener) }

    /// Answers requests with `respond` until `stop` returns true (asked every 100 ms while idle,
    /// and after every accepted connection), then waits for the connections being served to end
    /// (each within ``timeout`` s and the second of ``closeGracefully(_:)``), so `respond` is
    /// never called after this returns.
    func serve(until stop: () -> Bool, respond: @escaping (HTTPRequest) -> HTTPResponse) {
        let slots = DispatchSemaphore(value: Self.maxConnections)
        let running = DispatchGroup()
        let handling = NSLock()
        let timeout = self.timeout
        let handler = UncheckedSendable(respond)
        defer { running.wait() }
        while !stop() {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            // A free slot before the next accept: beyond the bound, connections wait in the kernel's queue.
            while slots.wait(timeout: .now() + .milliseconds(100)) == .timedOut { if stop() { return } }
            let connection = Foundation.accept(listener, nil, nil)
            guard connection >= 0 else { slots.signal(); continue }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            var t = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
            running.enter()
            let thread = Thread {
                defer { slots.signal(); running.leave() }
                let response: HTTPResponse
                do throws(HTTPResponse) {
                    let request = try Self.read(connection, timeout: timeout)
                    response = handling.withLock { handler.value(request) }
                } catch { response = error }
                Self.send(response.serialized, to: connection)
                Self.closeGracefully(connection)
            }
            thread.start()
        }
    }

    /// Reads one request: the head up to the blank line, then `Content-Length` bytes of body.
    /// - Throws: the ``HTTPResponse`` that answers a request that cannot be read (400, 408, 411,
    ///   413, 431, 501).
    /// - Parameter timeout: the connection's receive timeout (s), for the 408 sentence.
    static func read(_ connection: Int32, timeout: Int) throws(HTTPResponse) -> HTTPRequest {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var headEnd: Int?
        func receive() throws(HTTPResponse) -> Bool {
            let n = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { return true }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw .text(408, "the request did not arrive within \(timeout) s") }
            guard n > 0 else { return false }
            buffer += chunk[..<n]
            return true
        }
        while headEnd == nil {
            guard try receive() else { throw .text(400, "the connection closed before the request head ended") }
            headEnd = blankLine(in: buffer)
            if headEnd ?? buffer.count > maxHeadBytes { throw .text(431, "the request head is longer than \(maxHeadBytes) bytes") }
        }
        var request = try HTTPRequest.parse(head: Array(buffer[..<headEnd!]))
        if request.headers.contains(where: { $0.name == "transfer-encoding" }) {
            throw .text(501, "chunked request bodies are not accepted")
        }
        let lengths = request.headers.filter { $0.name == "content-length" }
        guard lengths.count <= 1 else { throw .text(400, "Content-Length is given more than once") }
        let length: Int
        if let v = lengths.first?.value {
            guard let n = Int(v), n >= 0, v.allSatisfy(\.isASCII) else { throw .text(400, "Content-Length is not a number of bytes") }
            length = n
        } else {
            length = 0
        }
        guard length <= maxBodyBytes else { throw .text(413, "the request body is longer than \(maxBodyBytes) bytes") }
        var body = Array(buffer[(headEnd! + 4)...])
        buffer = []
        while body.count < length {
            guard try receive() else { throw .text(400, "the connection closed before the request body ended") }
            body += buffer
            buffer = []
        }
        request.body = Array(body.prefix(length))
        return request
    }

    /// Ends the connection after the response: closing a socket with unread bytes (a refused
    /// request's rest) would reset it, and the client might lose the response. So the sending
    /// side is shut first and what the client still sends is read and dropped — at most
    /// ``maxHeadBytes`` × 64 bytes, for at most 1 s of silence — before closing.
    private static func closeGracefully(_ connection: Int32) {
        shutdown(connection, Int32(SHUT_WR))
        var t = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 4096)
        var drained = 0
        while drained < maxHeadBytes * 64 {
            let n = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            drained += n
        }
        close(connection)
    }

    /// The offset of the first `\r\n\r\n` in `bytes`.
    private static func blankLine(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Sends all of `bytes`, giving up when the client went away or stalls for the connection's send timeout.
    private static func send(_ bytes: [UInt8], to connection: Int32) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let n = rest.withUnsafeBytes { Foundation.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            rest = rest.dropFirst(n)
        }
    }
}

/// A value handed to another thread that only ever uses it there under a lock.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// `cartrender review` could not listen on 127.0.0.1 (exit 70).
struct ReviewServerError: ReportableError, CustomStringConvertible {
    /// The call that failed: `socket` or `bind` (bind, listen or getsockname).
    var step: String
    var errno: Int32
    var description: String {
        "internal error: review cannot listen on 127.0.0.1 (\(step): \(String(cString: strerror(errno))))"
    }
    var exitCode: ExitCode { .software }
}
