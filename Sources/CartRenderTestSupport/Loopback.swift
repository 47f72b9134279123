import Foundation

/// Raw TCP to a server on 127.0.0.1 (the review server's tests): bytes exactly as written, and
/// everything the server sends back.
public enum Loopback {
    /// A socket connected to 127.0.0.1:`port`, with a receive timeout of `seconds`; the caller
    /// closes it.
    /// - Throws: `POSIXError` with `errno` when the socket cannot be made or connected.
    public static func connect(port: UInt16, receiveTimeout seconds: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var t = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            close(fd)
            throw POSIXError(code)
        }
        return fd
    }

    /// Sends `text` as UTF-8 (a closed peer gives -1, not SIGPIPE).
    /// - Returns: the bytes sent, or -1.
    @discardableResult
    public static func send(_ fd: Int32, _ text: String) -> Int {
        Array(text.utf8).withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything received until the server closes the connection or the receive timeout passes.
    public static func receiveAll(_ fd: Int32) -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += chunk[..<n]
        }
        return data
    }
}
