import CartRender
import Foundation

/// The open server-sent-event connections of a ``LoopbackHTTPServer`` (`cartrender preview`'s
/// pages): each `GET` answered `200` with ``contentType`` stays open, and ``broadcast(_:data:)``
/// writes every event to all of them.
///
/// - At most ``maxStreams`` at once: one more closes the oldest (a page that went away without a
///   word holds one until then, or until the next event finds it gone).
/// - A write gives up on a client that takes no byte of an event for 2 s, or has not taken all
///   of it 5 s after the broadcast started; that connection is closed (its page's `EventSource`
///   connects again, and gets the current state first).
/// - ``closeAll()`` ends every stream (the server stops).
/// Thread-safe.
final class EventStreams: @unchecked Sendable {
    /// The `Content-Type` of an event stream.
    static let contentType = "text/event-stream; charset=utf-8"
    /// Streams kept open at once (count).
    static let maxStreams = 32
    /// Guards ``open``, ``closed``, ``writing`` and ``closeLater``; never held while writing.
    private let lock = NSLock()
    /// Held by one broadcast at a time, so events arrive in order.
    private let sending = NSLock()
    private var open: [Int32] = []
    /// Set by ``closeAll()``: a stream adopted afterwards is closed at once.
    private var closed = false
    /// The streams the broadcast under way writes to: one ended meanwhile is shut down at once
    /// (the write fails) but closed by the broadcast, so its descriptor is not reused under it.
    private var writing: Set<Int32> = []
    private var closeLater: Set<Int32> = []

    /// Takes the connection `fd`, whose response head is written, as a stream.
    func adopt(_ fd: Int32) {
        let dropped: [Int32] = lock.withLock {
            if closed { return [fd] }
            open.append(fd)
            let extra = max(0, open.count - Self.maxStreams)
            defer { open.removeFirst(extra) }
            return Array(open.prefix(extra))
        }
        dropped.forEach(release)
    }

    /// How many streams are open.
    var count: Int { lock.withLock { open.count } }

    /// The bytes of one event: `event: NAME`, each line of `data` as a `data:` line, a blank line.
    static func event(_ name: String, data: String) -> [UInt8] {
        var text = "event: \(name)\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return Array((text + "\n").utf8)
    }

    /// Writes event `name` with `data` to every open stream; closes those that fail. Writes one
    /// broadcast at a time, so events arrive in order, without holding the streams' lock: a slow
    /// client delays the caller (up to 5 s), never ``adopt(_:)``, ``count`` or ``closeAll()``.
    func broadcast(_ name: String, data: String) {
        let bytes = Self.event(name, data: data)
        sending.lock()
        defer { sending.unlock() }
        let targets: [Int32] = lock.withLock {
            writing = Set(open)
            return open
        }
        let deadline = LoopbackHTTPServer.now() + 5_000_000_000
        let failed = Set(targets.filter { !Self.write(bytes, to: $0, until: deadline) })
        let ended: Set<Int32> = lock.withLock {
            open.removeAll { failed.contains($0) }
            defer { writing = []; closeLater = [] }
            return failed.union(closeLater)
        }
        ended.forEach(Self.end)
    }

    /// Closes every stream; later ones are closed as they come.
    func closeAll() {
        let all: [Int32] = lock.withLock {
            closed = true
            defer { open = [] }
            return open
        }
        all.forEach(release)
    }

    /// Ends a stream taken out of ``open``: at once, or, while a broadcast writes to it, shut
    /// down now and closed when that broadcast ends.
    private func release(_ fd: Int32) {
        let now: Bool = lock.withLock {
            guard writing.contains(fd) else { return true }
            closeLater.insert(fd)
            return false
        }
        if now { Self.end(fd) } else { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Writes all of `bytes`; false when the client went away or is too slow.
    private static func write(_ bytes: [UInt8], to fd: Int32, until deadline: UInt64) -> Bool {
        // A stream whose client closed it reads as ready with nothing (or an error) left to read.
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, 0) > 0 {
            var byte: UInt8 = 0
            let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
            if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return false }
        }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n; continue }
            if n < 0 && errno == EINTR { continue }
            guard n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else { return false }
            let now = LoopbackHTTPServer.now()
            guard deadline > now else { return false }
            var w = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&w, 1, Int32(min(2000, Int(deadline - now) / 1_000_000 + 1))) > 0 else { return false }
        }
        return true
    }

    /// Shuts and closes a stream.
    private static func end(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}
