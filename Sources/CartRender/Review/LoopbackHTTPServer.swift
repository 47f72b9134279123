import CartRenderCore
import Foundation

/// An HTTP/1.1 request as ``LoopbackHTTPServer`` read it.
struct HTTPRequest: Sendable {
    /// `GET`, `POST`, … as sent (methods are case-sensitive).
    var method: String
    /// The request target's path, percent-decoded (`/frame_0001.png`); may hold `..` or any
    /// other bytes the client sent: the handler decides what it names.
    var path: String
    /// The query's `name=value` pairs, percent-decoded (`+` is a space), in order.
    var query: [(name: String, value: String)]
    /// Header fields with lowercased names, in order.
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The value of the first query parameter `name`.
    func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The value of header `name` (lowercase) when it occurs once; nil when absent or repeated.
    func header(_ name: String) -> String? {
        let values = headers.filter { $0.name == name }
        return values.count == 1 ? values[0].value : nil
    }

    /// Parses a request head (everything before the blank line, without it).
    /// - Throws: ``HTTPResponse`` 400 with one line saying what is wrong: a request line that is
    ///   not `METHOD /path HTTP/1.x`, a header line without a colon or folded, bytes that are not
    ///   UTF-8, a target that is not a path (absolute-form, `*`) or whose percent-encoding is broken.
    static func parse(head: [UInt8]) throws(HTTPResponse) -> HTTPRequest {
        guard let text = String(validating: head, as: UTF8.self) else { throw .text(400, "the request head is not UTF-8") }
        var lines = text.components(separatedBy: "\r\n")
        let parts = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            throw .text(400, "the request line is not METHOD /path HTTP/1.1")
        }
        let target = String(parts[1])
        guard target.hasPrefix("/") else { throw .text(400, "the request target is not a path") }
        let rawPath = target.prefix { $0 != "?" && $0 != "#" }
        guard let path = percentDecoded(rawPath) else { throw .text(400, "the request path has a broken percent-encoding") }
        var query: [(name: String, value: String)] = []
        if let q = target.firstIndex(of: "?") {
            let rawQuery = target[target.index(after: q)...].prefix { $0 != "#" }
            for pair in rawQuery.split(separator: "&") {
                let nv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = percentDecoded(nv[0], plusIsSpace: true),
                      let value = percentDecoded(nv.count > 1 ? nv[1] : "", plusIsSpace: true) else {
                    throw .text(400, "the request query has a broken percent-encoding")
                }
                query.append((name, value))
            }
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), !line.hasPrefix("\t") else {
                throw .text(400, "a header line is not NAME: VALUE")
            }
            let name = line[..<colon]
            guard !name.isEmpty, !name.contains(" ") else { throw .text(400, "a header name is empty or has a space") }
            headers.append((name.lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return HTTPRequest(method: String(parts[0]), path: path, query: query, headers: headers, body: [])
    }

    /// `%41` → `A`; nil when a `%` is not followed by two hex digits or the bytes are not UTF-8.
    static func percentDecoded(_ s: Substring, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        var i = s.utf8.startIndex
        let u = s.utf8
        while i < u.endIndex {
            let c = u[i]
            if c == UInt8(ascii: "%") {
                let h1 = u.index(after: i)
                guard h1 < u.endIndex, u.index(after: h1) < u.endIndex,
                      let v = UInt8(String(decoding: u[h1...u.index(after: h1)], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(v)
                i = u.index(h1, offsetBy: 2)
            } else {
                bytes.append(plusIsSpace && c == UInt8(ascii: "+") ? UInt8(ascii: " ") : c)
                i = u.index(after: i)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// An HTTP/1.1 response: status, header fields and body. Also thrown by request parsing, as
/// the answer to a request that cannot be served.
struct HTTPResponse: Error, Sendable {
    var status: Int
    /// Header fields besides `Content-Length` and `Connection`, which the server adds.
    var headers: [String: String]
    var body: [UInt8]

    /// A response whose body is `line` and a newline, as `text/plain`.
    static func text(_ status: Int, _ line: String, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers.merging(["Content-Type": "text/plain; charset=utf-8"]) { a, _ in a },
                     body: Array((line + "\n").utf8))
    }

    /// The reason phrases of the statuses this program sends.
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 303: "See Other"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    /// The bytes sent: status line, header fields sorted by name (`Connection: close` and
    /// `Content-Length` included), blank line, body.
    var serialized: [UInt8] {
        var fields = headers
        fields["Content-Length"] = String(body.count)
        fields["Connection"] = "close"
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for name in fields.keys.sorted() { head += "\(name): \(fields[name]!)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }
}

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
