import CartRender
import CartRenderCore
import Foundation

/// A minimal HTTP/1.1 server on 127.0.0.1 only, for `cartrender review`: one request per
/// connection (`Connection: close`). One thread reads every connection without blocking; a
/// request that has arrived whole is answered on a thread of its own; `respond` handles one
/// request at a time.
///
/// - Listens on `127.0.0.1` at a port the kernel chooses (bind to port 0), or at the port given,
///   never on another interface.
/// - Reading: every connection is accepted at once and read by the thread in ``serve(until:respond:)``
///   with `poll`, so an idle, half-sent or slowly sent connection holds up no other request. Its
///   whole request (head and body) must arrive within ``timeout`` seconds of the accept, however
///   it is paced: one byte a second does not keep it open longer. Otherwise it is answered 408.
/// - A connection takes no answering slot until its request has arrived whole. Besides those
///   being answered, at most ``maxPending`` connections are open at once (being read, waiting for
///   a slot, or being closed after their response); one more closes the oldest one being closed,
///   or else the oldest one being read (answered 503 first). Every client is 127.0.0.1, so no
///   limit per address could tell a browser from another local program: the deadline and this
///   bound are what keep slow clients from starving the others.
/// - Answering: at most ``maxConnections`` requests are answered at once (handled, then their
///   responses written); requests that arrive meanwhile wait, in order. `respond` is called for
///   one request at a time, in the order the requests finished arriving: a handler that changes
///   state (accept, accept all) needs no lock of its own.
/// - A request head is at most ``maxHeadBytes`` bytes (431 beyond), a body at most
///   ``maxBodyBytes`` bytes with a `Content-Length` (413 beyond; chunked bodies get 501); a head
///   that does not parse gets 400. These answers, and 408 and 503, are one line each and never
///   call `respond`.
/// - Writing: a response is given up when the client takes no byte of it for ``timeout`` s or
///   has not taken all of it ``maxWriteSeconds`` s after the handler returned. Writes never raise
///   `SIGPIPE` (`MSG_NOSIGNAL`): a client that went away costs nothing.
/// - Closing: after a response the sending side is shut and what the client still sends is read
///   and dropped, for at most ``lingerSeconds`` s and ``maxHeadBytes`` × 64 bytes, before the
///   close: closing a socket with unread bytes (a refused request's rest) would reset it, and the
///   client might lose the response.
/// - Streams: a `200` response of type `text/event-stream` (server-sent events) is handed, once
///   its head and first bytes are written, to the ``EventStreams`` given to `serve`, which keeps
///   the connection open and writes to it from then on; it holds no answering slot.
final class LoopbackHTTPServer {
    /// Largest request head, request line and header fields up to the blank line (bytes).
    static let maxHeadBytes = 16 << 10
    /// Largest request body (bytes).
    static let maxBodyBytes = 64 << 10
    /// Requests answered at once: handled (one at a time) and their responses written (count).
    static let maxConnections = 16
    /// The default of ``maxPending`` (connections).
    static let defaultMaxPending = 256
    /// The default of ``timeout`` (s).
    static let defaultTimeout = 5
    /// Longest time a response may take to be written (s).
    static let maxWriteSeconds = 60
    /// Longest time a connection is drained after its response, before it is closed (s).
    static let lingerSeconds = 1

    /// Seconds from a connection's accept by which its whole request must have arrived, and
    /// longest time a client may take no byte of its response (s).
    let timeout: Int
    /// Connections open at once besides those being answered: being read, waiting for an
    /// answering slot, or drained before the close (count).
    let maxPending: Int
    /// The port listened on: the one asked for, or one the kernel chose.
    let port: UInt16
    private let listener: Int32

    /// Listens on 127.0.0.1 at `port` (0: a free port the kernel chooses).
    /// - Parameters:
    ///   - port: the TCP port (`review --port`), 0 for any free one.
    ///   - timeout: seconds a request may take to arrive, and a response write to make progress
    ///     (s), at least 1.
    ///   - maxPending: connections open at once besides those being answered (count), at least 1.
    /// - Throws: ``ReviewServerError`` when no socket can be made, bound or listened on.
    init(port requested: UInt16 = 0, timeout: Int = LoopbackHTTPServer.defaultTimeout,
         maxPending: Int = LoopbackHTTPServer.defaultMaxPending) throws {
        self.timeout = max(1, timeout)
        self.maxPending = max(1, maxPending)
        let fd = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw ReviewServerError(step: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requested.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                bind(fd, a, length) == 0 && listen(fd, 128) == 0 && getsockname(fd, a, &length) == 0
            }
        }
        guard bound else {
            let e = errno
            close(fd)
            throw ReviewServerError(step: "bind", errno: e, port: requested == 0 ? nil : requested)
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(listener) }

    /// Answers requests with `respond` until `stop` returns true (asked at least every 100 ms).
    /// Then connections whose requests have not arrived whole, or wait for an answering slot,
    /// are answered 503 without calling `respond`; the requests being answered are finished
    /// (each within the handler's time and ``maxWriteSeconds`` s), and every connection is
    /// closed, so `respond` is never called after this returns.
    /// - Parameter streams: where `text/event-stream` responses go on; nil: they are written and
    ///   closed as any other.
    func serve(until stop: () -> Bool, streams: EventStreams? = nil, respond: @escaping (HTTPRequest) -> HTTPResponse) {
        let answering = Answering(respond, slots: Self.maxConnections, stall: timeout, streams: streams)
        var open: [Connection] = []  // in the order accepted
        var waiting: [(fd: Int32, request: HTTPRequest)] = []  // arrived whole, in order; no slot yet
        var acceptPaused = false
        while !stop() {
            while !waiting.isEmpty, answering.start(waiting[0].fd, waiting[0].request) { waiting.removeFirst() }
            for fd in answering.takeAnswered() { open.append(Connection(answered: fd)) }
            while open.count + waiting.count > maxPending, Self.makeRoom(in: &open) {}

            var polled = [pollfd(fd: acceptPaused ? -1 : listener, events: Int16(POLLIN), revents: 0)]
            polled += open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            var wait = 100
            if let next = open.map(\.deadline).min() { wait = min(wait, max(0, Int((Int64(next) - Int64(Self.now())) / 1_000_000) + 1)) }
            acceptPaused = false
            let ready = poll(&polled, nfds_t(polled.count), Int32(wait))
            if ready < 0 && errno != EINTR { usleep(10_000) }

            let now = Self.now()
            var kept: [Connection] = []
            for (i, c) in open.enumerated() {
                let event = polled[i + 1].revents != 0
                switch c.draining ? c.drain(readable: event, now: now) : c.read(readable: event, now: now, timeout: timeout) {
                case .open: kept.append(c)
                case .closed: close(c.fd)
                case .arrived(let request): waiting.append((c.fd, request))
                case .refused(let response):
                    c.refuse(response)
                    kept.append(c)
                }
            }
            open = kept
            guard polled[0].revents & Int16(POLLIN) != 0 else { continue }
            // Accept everything queued: a connection holds no answering slot until its request arrived.
            while true {
                let fd = Foundation.accept(listener, nil, nil)
                if fd < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    // Out of descriptors: make room, or leave the queue alone until the next poll.
                    if errno == EMFILE || errno == ENFILE { acceptPaused = !Self.makeRoom(in: &open) }
                    break
                }
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                // Full: the oldest unfinished connection goes; when every place holds a request
                // waiting for a slot, the new one is refused and the rest stay queued until the next poll.
                if open.count + waiting.count >= maxPending && !Self.makeRoom(in: &open) {
                    Self.send(HTTPResponse.text(503, "too many connections waiting for an answer").serialized, to: fd, until: 0)
                    Self.closeAfterDrain(fd)
                    acceptPaused = true
                    break
                }
                open.append(Connection(fd, deadline: now + UInt64(timeout) * 1_000_000_000))
            }
        }
        let stopping = HTTPResponse.text(503, "the server is stopping")
        for (fd, _) in waiting { Self.send(stopping.serialized, to: fd, until: 0); Self.closeAfterDrain(fd) }
        for c in open {
            if !c.draining { Self.send(stopping.serialized, to: c.fd, until: 0) }
            Self.closeAfterDrain(c.fd)
        }
        answering.finish().forEach(Self.closeAfterDrain)
    }

    /// Closes one connection of `open` to make room: the oldest being drained, or else the oldest
    /// being read, answered 503 first.
    /// - Returns: false when `open` is empty.
    private static func makeRoom(in open: inout [Connection]) -> Bool {
        guard !open.isEmpty else { return false }
        let c = open.remove(at: open.firstIndex(where: \.draining) ?? 0)
        if !c.draining { send(HTTPResponse.text(503, "too many unfinished connections: this one was the oldest").serialized, to: c.fd, until: 0) }
        closeAfterDrain(c.fd)
        return true
    }

    /// Monotonic time (ns).
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Sends all of `bytes` on the non-blocking socket `connection`, waiting for room until the
    /// monotonic time `deadline` (ns; 0: only what fits now) and at most `stall` s at a time.
    /// Gives up when the client went away, or at either limit.
    static func send(_ bytes: [UInt8], to connection: Int32, until deadline: UInt64, stall: Int = 1) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let n = rest.withUnsafeBytes { Foundation.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { rest = rest.dropFirst(n); continue }
            if n < 0 && errno == EINTR { continue }
            guard n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else { return }
            let current = Self.now()
            guard deadline > current else { return }
            var p = pollfd(fd: connection, events: Int16(POLLOUT), revents: 0)
            let wait = min(Int(deadline - current) / 1_000_000 + 1, stall * 1000)
            let ready = poll(&p, 1, Int32(wait))
            if ready == 0 || (ready < 0 && errno != EINTR) { return }
        }
    }

    /// Closes `connection` after reading what is already queued on it, so that the close does not
    /// reset it (the client would lose a response not read yet). Never waits.
    private static func closeAfterDrain(_ connection: Int32) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        var drained = 0
        while drained < maxHeadBytes * 64 {
            let n = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            drained += n
        }
        Foundation.close(connection)
    }

    /// The offset of the first `\r\n\r\n` in `bytes` at or after `start`.
    static func blankLine(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4, start <= bytes.count - 4 else { return nil }
        for i in max(0, start)...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }
}

/// What reading or draining a connection came to.
private enum Progress {
    /// Still being read or drained.
    case open
    /// To be closed now.
    case closed
    /// Its request arrived whole: to be answered.
    case arrived(HTTPRequest)
    /// To be answered with this one-line refusal, then drained.
    case refused(HTTPResponse)
}

/// One connection that ``LoopbackHTTPServer/serve(until:respond:)`` reads (its request has not
/// arrived whole) or drains (answered; shut for writing), on the serving thread only.
private final class Connection {
    let fd: Int32
    /// When reading or draining ends (monotonic ns): 408, or the close.
    private(set) var deadline: UInt64
    /// Answered: what arrives is dropped until the end, the deadline or enough bytes.
    private(set) var draining: Bool
    private var buffer: [UInt8] = []
    /// Where the search for the blank line goes on (bytes into `buffer`).
    private var searched = 0
    /// The parsed head and where the body starts, once the head arrived.
    private var head: (request: HTTPRequest, bodyStart: Int, length: Int)?
    private var drained = 0

    /// A connection to read until `deadline`.
    init(_ fd: Int32, deadline: UInt64) {
        self.fd = fd
        self.deadline = deadline
        draining = false
    }

    /// A connection answered elsewhere (shut for writing) to drain from now on.
    init(answered fd: Int32) {
        self.fd = fd
        deadline = LoopbackHTTPServer.now() + UInt64(LoopbackHTTPServer.lingerSeconds) * 1_000_000_000
        self.draining = true
    }

    /// Sends `response` (what fits now), shuts the sending side and drains from now on.
    func refuse(_ response: HTTPResponse) {
        LoopbackHTTPServer.send(response.serialized, to: fd, until: 0)
        shutdown(fd, Int32(SHUT_WR))
        draining = true
        buffer = []
        deadline = LoopbackHTTPServer.now() + UInt64(LoopbackHTTPServer.lingerSeconds) * 1_000_000_000
    }

    /// Reads what arrived (when `readable`) and checks the deadline.
    /// - Parameter timeout: the server's ``LoopbackHTTPServer/timeout`` (s), for the 408 sentence.
    func read(readable: Bool, now: UInt64, timeout: Int) -> Progress {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while readable {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            if n < 0 { return .closed }
            if n == 0 {
                return .refused(.text(400, "the connection closed before the request \(head == nil ? "head" : "body") ended"))
            }
            buffer += chunk[..<n]
            do throws(HTTPResponse) {
                if let request = try parsed() { return .arrived(request) }
            } catch {
                return .refused(error)
            }
        }
        return now >= deadline ? .refused(.text(408, "the request did not arrive within \(timeout) s")) : .open
    }

    /// Drops what arrived (when `readable`); closed at the end, the deadline or after
    /// ``LoopbackHTTPServer/maxHeadBytes`` × 64 bytes.
    func drain(readable: Bool, now: UInt64) -> Progress {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while readable {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            if n <= 0 { return .closed }
            drained += n
            if drained >= LoopbackHTTPServer.maxHeadBytes * 64 { return .closed }
        }
        return now >= deadline ? .closed : .open
    }

    /// The request, once its head and `Content-Length` bytes of body are in `buffer`; nil while
    /// more is to come.
    /// - Throws: the ``HTTPResponse`` that answers a request that cannot be read (400, 411, 413,
    ///   431, 501).
    private func parsed() throws(HTTPResponse) -> HTTPRequest? {
        if head == nil {
            let end = LoopbackHTTPServer.blankLine(in: buffer, from: searched)
            searched = max(0, buffer.count - 3)
            if end ?? buffer.count > LoopbackHTTPServer.maxHeadBytes {
                throw .text(431, "the request head is longer than \(LoopbackHTTPServer.maxHeadBytes) bytes")
            }
            guard let end else { return nil }
            let request = try HTTPRequest.parse(head: Array(buffer[..<end]))
            if request.headers.contains(where: { $0.name == "transfer-encoding" }) {
                throw .text(501, "chunked request bodies are not accepted")
            }
            let lengths = request.headers.filter { $0.name == "content-length" }
            guard lengths.count <= 1 else { throw .text(400, "Content-Length is given more than once") }
            var length = 0
            if let v = lengths.first?.value {
                // Digits only (RFC 9110, 8.6): Swift's Int("+5") would take a sign.
                guard !v.isEmpty, v.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let n = Int(v) else {
                    throw .text(400, "Content-Length is not a number of bytes")
                }
                length = n
            }
            guard length <= LoopbackHTTPServer.maxBodyBytes else {
                throw .text(413, "the request body is longer than \(LoopbackHTTPServer.maxBodyBytes) bytes")
            }
            head = (request, end + 4, length)
        }
        guard let (request, start, length) = head, buffer.count - start >= length else { return nil }
        var whole = request
        whole.body = Array(buffer[start..<(start + length)])
        return whole
    }
}

/// The threads that answer requests for ``LoopbackHTTPServer/serve(until:respond:)``: at most
/// `slots` at once, `respond` called for one at a time in the order ``start(_:_:)`` was called.
/// A connection answered (its response written, its sending side shut) comes back through
/// ``takeAnswered()`` to be drained and closed.
private final class Answering: @unchecked Sendable {
    private let respond: (HTTPRequest) -> HTTPResponse
    private let slots: Int
    /// Seconds a client may take no byte of its response (s).
    private let stall: Int
    /// Guards the counters and `answered`; signalled when a handler returns.
    private let condition = NSCondition()
    private var busy = 0
    /// The turn given to the next request started, and the turn of the next to be handled.
    private var issued = 0, serving = 0
    private var answered: [Int32] = []
    private let running = DispatchGroup()
    private let streams: EventStreams?

    init(_ respond: @escaping (HTTPRequest) -> HTTPResponse, slots: Int, stall: Int, streams: EventStreams?) {
        self.respond = respond
        self.slots = slots
        self.stall = stall
        self.streams = streams
    }

    /// Starts answering `request` on `fd` on a thread of its own; false when every slot is taken.
    func start(_ fd: Int32, _ request: HTTPRequest) -> Bool {
        condition.lock()
        guard busy < slots else { condition.unlock(); return false }
        busy += 1
        let turn = issued
        issued += 1
        condition.unlock()
        running.enter()
        Thread { [self] in
            condition.lock()
            while serving != turn { condition.wait() }
            condition.unlock()
            // Alone until `serving` moves on; the lock stays free, so the serving thread is never held up.
            let response = respond(request)
            condition.lock()
            serving += 1
            condition.broadcast()
            condition.unlock()
            let deadline = LoopbackHTTPServer.now() + UInt64(LoopbackHTTPServer.maxWriteSeconds) * 1_000_000_000
            let streaming = streams != nil && response.status == 200 && response.headers["Content-Type"] == EventStreams.contentType
            LoopbackHTTPServer.send(streaming ? response.streamingHead + response.body : response.serialized, to: fd, until: deadline, stall: stall)
            if streaming, let streams {
                streams.adopt(fd)
            } else {
                shutdown(fd, Int32(SHUT_WR))
            }
            condition.lock()
            if !streaming { answered.append(fd) }
            busy -= 1
            condition.unlock()
            running.leave()
        }.start()
        return true
    }

    /// The connections answered since the last call.
    func takeAnswered() -> [Int32] {
        condition.lock()
        defer { condition.unlock() }
        let fds = answered
        answered = []
        return fds
    }

    /// Waits for every answer under way; returns the connections not yet taken.
    func finish() -> [Int32] {
        running.wait()
        return takeAnswered()
    }
}

/// `cartrender review` or `preview` could not listen on 127.0.0.1: at the port `--port` chose
/// (exit 69, as a service that is not available), or at all (exit 70).
struct ReviewServerError: ReportableError, CustomStringConvertible {
    /// The call that failed: `socket` or `bind` (bind, listen or getsockname).
    var step: String
    var errno: Int32
    /// The port `--port` asked for; nil for a free port.
    var port: UInt16? = nil
    var description: String {
        if let port {
            return "cannot listen on 127.0.0.1:\(port) (\(step): \(OutputDirectory.describe(errno))): choose another --port, or leave it out for a free one"
        }
        return "internal error: cannot listen on 127.0.0.1 (\(step): \(OutputDirectory.describe(errno)))"
    }
    var exitCode: ExitCode { port == nil ? .software : .unavailable }
}
