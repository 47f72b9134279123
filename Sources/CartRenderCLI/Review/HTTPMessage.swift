// The HTTP messages of `cartrender review`'s server: the request parser and the response.
// Foundation only, no other module of this package, so that Scripts/fuzz-scene.sh can build it
// alone into the fuzz harness (the `http` target, Fuzz/HTTPRequestFuzzer.swift).
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

    /// Parses a request head (everything before the blank line, without it). The head is cut at
    /// its bytes (CR LF, space, `?`, `#`, `&`, `=`, `:`), as other HTTP implementations cut it: a
    /// delimiter followed by a combining mark, which Swift's `Character`s would join to it, still
    /// delimits.
    /// - Throws: ``HTTPResponse`` 400 with one line saying what is wrong: a request line that is
    ///   not `METHOD /path HTTP/1.x`, a header line without a colon or folded, bytes that are not
    ///   UTF-8, a target that is not a path (absolute-form, `*`) or whose percent-encoding is broken.
    static func parse(head: [UInt8]) throws(HTTPResponse) -> HTTPRequest {
        guard String(validating: head, as: UTF8.self) != nil else { throw .text(400, "the request head is not UTF-8") }
        // Every piece is cut at ASCII bytes of valid UTF-8, so it is valid UTF-8 too.
        func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        var lines = pieces(head[...], separatedBy: [13, 10])
        let parts = pieces(lines.removeFirst(), separatedBy: [UInt8(ascii: " ")])
        guard parts.count == 3, !parts[0].isEmpty, parts[2].elementsEqual("HTTP/1.1".utf8) || parts[2].elementsEqual("HTTP/1.0".utf8) else {
            throw .text(400, "the request line is not METHOD /path HTTP/1.1")
        }
        let target = parts[1]
        guard target.first == UInt8(ascii: "/") else { throw .text(400, "the request target is not a path") }
        let pathEnd = target.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? target.endIndex
        guard let path = percentDecoded(utf8: target[..<pathEnd]) else { throw .text(400, "the request path has a broken percent-encoding") }
        var query: [(name: String, value: String)] = []
        if pathEnd < target.endIndex && target[pathEnd] == UInt8(ascii: "?") {
            let rest = target[(pathEnd + 1)...]
            let rawQuery = rest[..<(rest.firstIndex(of: UInt8(ascii: "#")) ?? rest.endIndex)]
            for pair in pieces(rawQuery, separatedBy: [UInt8(ascii: "&")]) where !pair.isEmpty {
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                guard let name = percentDecoded(utf8: pair[..<equals], plusIsSpace: true),
                      let value = percentDecoded(utf8: pair[min(equals + 1, pair.endIndex)...], plusIsSpace: true) else {
                    throw .text(400, "the request query has a broken percent-encoding")
                }
                query.append((name, value))
            }
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), line.first != UInt8(ascii: " "), line.first != UInt8(ascii: "\t") else {
                throw .text(400, "a header line is not NAME: VALUE")
            }
            let name = line[..<colon]
            guard !name.isEmpty, !name.contains(UInt8(ascii: " ")) else { throw .text(400, "a header name is empty or has a space") }
            headers.append((text(name).lowercased(), text(line[(colon + 1)...]).trimmingCharacters(in: .whitespaces)))
        }
        return HTTPRequest(method: text(parts[0]), path: path, query: query, headers: headers, body: [])
    }

    /// `bytes` cut at every occurrence of `separator`, empty pieces included.
    private static func pieces(_ bytes: ArraySlice<UInt8>, separatedBy separator: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex, i = bytes.startIndex
        while i + separator.count <= bytes.endIndex {
            if bytes[i..<(i + separator.count)].elementsEqual(separator) {
                result.append(bytes[start..<i])
                i += separator.count
                start = i
            } else {
                i += 1
            }
        }
        result.append(bytes[start...])
        return result
    }

    /// `%41` → `A` (and `+` → space when `plusIsSpace`, as in a query); every other byte as it is.
    /// - Returns: the decoded text; nil when a `%` is not followed by two hex digits (`%4`, `%+f`)
    ///   or the decoded bytes are not UTF-8.
    /// - Complexity: O(`s.utf8.count`).
    static func percentDecoded(_ s: Substring, plusIsSpace: Bool = false) -> String? {
        percentDecoded(utf8: s.utf8, plusIsSpace: plusIsSpace)
    }

    /// ``percentDecoded(_:plusIsSpace:)`` of UTF-8 bytes.
    static func percentDecoded(utf8 s: some Collection<UInt8>, plusIsSpace: Bool = false) -> String? {
        /// The value of an ASCII hex digit, nil for any other byte.
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        let u = Array(s)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(u.count)
        var i = 0
        while i < u.count {
            if u[i] == UInt8(ascii: "%") {
                guard i + 2 < u.count, let high = hex(u[i + 1]), let low = hex(u[i + 2]) else { return nil }
                bytes.append(high << 4 | low)
                i += 3
            } else {
                bytes.append(plusIsSpace && u[i] == UInt8(ascii: "+") ? UInt8(ascii: " ") : u[i])
                i += 1
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
    var serialized: [UInt8] { head(length: body.count) + body }

    /// The head of a response whose body goes on until the connection closes (server-sent
    /// events): as in ``serialized``, without `Content-Length`.
    var streamingHead: [UInt8] { head(length: nil) }

    private func head(length: Int?) -> [UInt8] {
        var fields = headers
        if let length { fields["Content-Length"] = String(length) }
        fields["Connection"] = "close"
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for name in fields.keys.sorted() { head += "\(name): \(fields[name]!)\r\n" }
        return Array((head + "\r\n").utf8)
    }
}
