// The http target of the fuzz harness: the request parser of `cartrender review`'s server,
// `HTTPRequest.parse(head:)` and `HTTPRequest.percentDecoded`, which read what any local program
// sends to 127.0.0.1. Scripts/fuzz-scene.sh builds Sources/CartRenderCLI/Review/HTTPMessage.swift
// (Foundation only) into the harness with these files.
//
// For every input, as a request head (the server passes the bytes before the first blank line,
// at most 16 KiB; the fuzzer sends anything):
//   - parsing returns a request or throws a 400 whose body is one line — never crashes, traps,
//     hangs or answers another status;
//   - a request that parses has a method without spaces, a path that starts with `/`, header names
//     without colons, spaces or capitals, and an empty body; written again as a head (path and
//     query percent-encoded in full) it parses to the same request.
// And as text: `percentDecoded` gives back text without `%` unchanged (`+` becomes a space in a
// query), decodes only text whose every `%` is followed by two hex digits, and decodes the full
// percent-encoding of what it decoded back to the same.
import Foundation

/// Checks one input as a request head and as percent-encoded text.
func fuzzHTTPRequest(_ bytes: [UInt8]) {
    do throws(HTTPResponse) {
        let request = try HTTPRequest.parse(head: bytes)
        checkParsed(request)
    } catch {
        precondition(error.status == 400, "parsing answered \(error.status), not 400")
        let body = String(decoding: error.body, as: UTF8.self)
        precondition(body.hasSuffix("\n") && !body.dropLast().contains(where: \.isNewline), "a refusal not on one line: \(body)")
        precondition(error.serialized.starts(with: Array("HTTP/1.1 400 Bad Request\r\n".utf8)), "a refusal without its status line")
    }
    if let text = String(validating: bytes, as: UTF8.self) {
        checkPercentDecoding(text[...])
    }
}

/// The properties of a parsed request, and that writing it again gives the same request.
private func checkParsed(_ request: HTTPRequest) {
    // Bytes, not Characters: a combining mark after a delimiter joins it into one Character.
    precondition(!request.method.isEmpty && !request.method.utf8.contains(UInt8(ascii: " ")), "method \(request.method.debugDescription)")
    precondition(request.path.utf8.first == UInt8(ascii: "/"), "path \(request.path.debugDescription)")
    precondition(request.body.isEmpty, "a body from a head")
    for (name, _) in request.headers {
        precondition(!name.isEmpty && !name.utf8.contains(UInt8(ascii: ":")) && !name.utf8.contains(UInt8(ascii: " ")) && name == name.lowercased(),
                     "header name \(name.debugDescription)")
    }
    var head = request.method + " " + fullyEncoded(request.path, keeping: "/")
    if !request.query.isEmpty {
        head += "?" + request.query.map { fullyEncoded($0.name) + "=" + fullyEncoded($0.value) }.joined(separator: "&")
    }
    head += " HTTP/1.1" + request.headers.map { "\r\n\($0.name): \($0.value)" }.joined()
    let again: HTTPRequest
    do throws(HTTPResponse) { again = try HTTPRequest.parse(head: Array(head.utf8)) } catch {
        fatalError("a request written again does not parse (\(String(decoding: error.body, as: UTF8.self))): \(head.debugDescription)")
    }
    precondition(again.method == request.method && again.path == request.path, "method or path changed: \(head.debugDescription)")
    precondition(again.query.map(\.name) == request.query.map(\.name) && again.query.map(\.value) == request.query.map(\.value),
                 "query changed: \(head.debugDescription)")
    precondition(again.headers.map(\.name) == request.headers.map { $0.name.lowercased() } && again.headers.map(\.value) == request.headers.map(\.value),
                 "headers changed: \(head.debugDescription)")
}

/// `percentDecoded`'s properties for `text`, as a path and as a query part.
private func checkPercentDecoding(_ text: Substring) {
    let decoded = HTTPRequest.percentDecoded(text)
    let query = HTTPRequest.percentDecoded(text, plusIsSpace: true)
    let u = Array(text.utf8)
    if !u.contains(UInt8(ascii: "%")) {
        precondition(decoded == String(text), "text without % changed: \(text.debugDescription) → \(String(describing: decoded))")
        let spaced = String(decoding: u.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        precondition(query == spaced, "a query without % decoded otherwise: \(text.debugDescription)")
    }
    let wellFormed = u.indices.allSatisfy { i in
        u[i] != UInt8(ascii: "%") || (i + 2 < u.count && isHexDigit(u[i + 1]) && isHexDigit(u[i + 2]))
    }
    for result in [decoded, query] {
        guard let result else { continue }
        precondition(wellFormed, "a broken percent-encoding decoded: \(text.debugDescription)")
        precondition(HTTPRequest.percentDecoded(fullyEncoded(result)[...]) == result, "the full encoding of \(result.debugDescription) does not decode back")
    }
}

/// Every byte of `text` as `%XX`, but ASCII letters, digits, `-._~` and the characters of `keeping`.
private func fullyEncoded(_ text: String, keeping: String = "") -> String {
    text.utf8.map { b -> String in
        let c = Character(Unicode.Scalar(b))
        return b < 0x80 && (c.isLetter || c.isNumber || "-._~".contains(c) || keeping.contains(c)) ? String(c) : String(format: "%%%02X", b)
    }.joined()
}

private func isHexDigit(_ b: UInt8) -> Bool { b < 0x80 && Character(Unicode.Scalar(b)).isHexDigit }
