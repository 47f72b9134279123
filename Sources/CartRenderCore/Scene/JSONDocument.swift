import Foundation

/// A position in a text file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Equatable, Sendable, CustomStringConvertible {
    /// Line number, 1-based.
    public var line: Int
    /// Column, 1-based, in Unicode scalars from the start of the line.
    public var column: Int
    /// The position at `line`:`column` (both 1-based).
    public init(line: Int, column: Int) { self.line = line; self.column = column }
    /// `line:column`, as error messages print it (`12:9`).
    public var description: String { "\(line):\(column)" }
}

/// A parsed JSON value that remembers where it starts in the source, so that scene errors can
/// name a line and column. Object members keep their source order.
public struct JSONNode: Sendable {
    /// A JSON value (RFC 8259), with the positions of its children and of object keys.
    public indirect enum Value: Sendable {
        /// An object: its members in source order, each with where its key starts.
        case object([(key: String, keyLocation: SourceLocation, value: JSONNode)])
        /// An array, its elements in order.
        case array([JSONNode])
        /// A string, escapes resolved.
        case string(String)
        /// A number with its source text (so integers are not rounded through `Double`).
        case number(Double, text: String)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null
    }
    /// The value and its children.
    public var value: Value
    /// Where the value's first character is in the source.
    public var location: SourceLocation

    /// A short name of the value's JSON type, for error messages ("a string", "an object").
    public var typeName: String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}

/// A syntax error in a JSON document, at a line and column.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    /// Where the problem is in the source (1-based line and column).
    public var location: SourceLocation
    /// JSON path of the value being read when the problem was found (`events[3].at`): the value
    /// at fault (`NaN`, a number out of a `Double`'s range, a bad escape in a string), or the
    /// object or array whose syntax is broken (a missing comma); empty at the top level. Cut
    /// after the last whole key or index within ``echoedLength`` characters, and `…`: a path 256
    /// levels deep is long.
    public var path: String = ""
    /// What is wrong, as the end of a sentence (`expected ',' or '}'`).
    public var message: String
}

/// A strict RFC 8259 JSON parser that records source locations.
///
/// Accepts a leading UTF-8 byte order mark. Rejects UTF-16 and UTF-32 (naming them), invalid
/// UTF-8, comments, trailing commas, duplicate keys, `NaN`/`Infinity`, numbers out of the range
/// of a `Double` (beyond ±1.8e308, or so small that they would round to 0 while written with a
/// nonzero digit, such as `1e-400`; the error names their JSON path), and nesting deeper than 256
/// levels (so hostile input cannot exhaust the stack).
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private static let maxDepth = 256
    /// The keys and indices from the root to the value being parsed, for errors about a value.
    private var path: [PathComponent] = []
    private enum PathComponent { case key(String), index(Int) }

    /// Parses a complete document.
    /// - Throws: `JSONSyntaxError` with the line and column of the first problem.
    public static func parse(_ data: [UInt8]) throws -> JSONNode {
        var parser = JSONParser(bytes: data)
        return try parser.document()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Where `column` was last counted: columns are counted forward from there, so finding the
    /// location of every value costs O(n) for the whole document even when it is one long line
    /// (minified JSON), instead of O(n) per value.
    private var countedTo = 0
    private var countedColumn = 1

    private var location: SourceLocation {
        mutating get {
            // Columns count scalars: skip UTF-8 continuation bytes between line start and index.
            if countedTo < lineStart || countedTo > index { countedTo = lineStart; countedColumn = 1 }
            while countedTo < index && countedTo < bytes.count {
                if bytes[countedTo] & 0xC0 != 0x80 { countedColumn += 1 }
                countedTo += 1
            }
            return SourceLocation(line: line, column: countedColumn)
        }
    }

    /// The error `message` at `at` (default: the current location), at the current JSON path,
    /// cut after the last whole key or index that fits in ``echoedLength`` characters (a first
    /// key longer than that is cut itself).
    private mutating func fail(_ message: String, at: SourceLocation? = nil) -> JSONSyntaxError {
        var p = ""
        for c in path {
            let next: String
            switch c {
            case .key(let k): next = p.isEmpty ? k : "." + k
            case .index(let i): next = "[\(i)]"
            }
            if p.count + next.count > echoedLength {
                p = p.isEmpty ? echoed(next) : p + "…"
                break
            }
            p += next
        }
        return JSONSyntaxError(location: at ?? location, path: p, message: message)
    }

    private mutating func document() throws -> JSONNode {
        if let encoding = Self.wideEncoding(bytes) {
            throw fail("the file is \(encoding), not UTF-8; save it as UTF-8")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3; lineStart = 3 }
        if let bad = Self.firstInvalidUTF8(bytes, from: index) {
            advance(to: bad)
            throw fail(String(format: "the file is not valid UTF-8 (byte 0x%02X); save it as UTF-8", bytes[bad]))
        }
        try skipWhitespace()
        guard index < bytes.count else {
            let blank = bytes.count > (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
            if blank { index = 0; line = 1; lineStart = 0 }
            throw fail(blank ? "the file holds only white space; expected a JSON object" : "the file is empty; expected a JSON object")
        }
        let node = try value()
        try skipWhitespace()
        if index < bytes.count { throw fail("unexpected \(describe(bytes[index])) after the end of the JSON value") }
        return node
    }

    /// "UTF-16" or "UTF-32" when the bytes start with that encoding's byte order mark, or with a
    /// JSON text character (printable ASCII or whitespace) and the zero bytes it has in that
    /// encoding (editors on Windows save "Unicode" this way). Other data with zero bytes (a
    /// binary file) is left to the parser, which names the byte it cannot read.
    static func wideEncoding(_ b: [UInt8]) -> String? {
        if b.starts(with: [0xFF, 0xFE, 0, 0]) || b.starts(with: [0, 0, 0xFE, 0xFF]) { return "UTF-32" }
        if b.starts(with: [0xFF, 0xFE]) || b.starts(with: [0xFE, 0xFF]) { return "UTF-16" }
        func text(_ c: UInt8) -> Bool { (0x20...0x7E).contains(c) || c == 0x09 || c == 0x0A || c == 0x0D }
        if b.count >= 4, (b[0] == 0 && b[1] == 0 && b[2] == 0 && text(b[3])) || (text(b[0]) && b[1] == 0 && b[2] == 0 && b[3] == 0) {
            return "UTF-32"
        }
        if b.count >= 2, (b[0] == 0 && text(b[1])) || (text(b[0]) && b[1] == 0) { return "UTF-16" }
        return nil
    }

    /// The offset of the first byte that does not belong to a valid UTF-8 sequence, or nil.
    static func firstInvalidUTF8(_ b: [UInt8], from start: Int) -> Int? {
        var i = start
        while i < b.count {
            let c = b[i]
            let n: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch c {
            case 0x00...0x7F: i += 1; continue
            case 0xC2...0xDF: n = 1
            case 0xE0: n = 2; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: n = 2
            case 0xED: n = 2; upper = 0x9F
            case 0xF0: n = 3; lower = 0x90
            case 0xF1...0xF3: n = 3
            case 0xF4: n = 3; upper = 0x8F
            default: return i
            }
            for k in 1...n {
                guard i + k < b.count else { return i }
                let cc = b[i + k]
                if k == 1 { guard cc >= lower && cc <= upper else { return i } } else { guard cc & 0xC0 == 0x80 else { return i } }
            }
            i += n + 1
        }
        return nil
    }

    private mutating func advance(to target: Int) {
        while index < target {
            if bytes[index] == UInt8(ascii: "\n") { line += 1; lineStart = index + 1 }
            index += 1
        }
    }

    private func describe(_ b: UInt8) -> String {
        if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
        return String(format: "byte 0x%02X", b)
    }

    private mutating func skipWhitespace() throws {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"): index += 1; line += 1; lineStart = index
            case UInt8(ascii: "/") where index + 1 < bytes.count && (bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")):
                throw fail("comments are not allowed in JSON")
            default: return
            }
        }
    }

    private mutating func value() throws -> JSONNode {
        let start = location
        guard index < bytes.count else { throw fail("unexpected end of file; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONNode(value: try object(), location: start)
        case UInt8(ascii: "["): return JSONNode(value: try array(), location: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try string()), location: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(value: .bool(true), location: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(value: .bool(false), location: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(value: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(value: try number(), location: start)
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw fail("NaN and Infinity are not JSON numbers; times and sizes must be finite")
        default: throw unexpectedValue()
        }
    }

    private mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw unexpectedValue()
        }
        index += w.count
    }

    /// The error for something that cannot start a value: names a bare word (`True`, `indigo`)
    /// or a single quote, which are the usual slips of hand-written JSON.
    private mutating func unexpectedValue() -> JSONSyntaxError {
        if bytes[index] == UInt8(ascii: "'") { return fail("JSON strings need double quotes, not single quotes") }
        if bytes[index] == UInt8(ascii: "+") { return fail("JSON numbers have no plus sign") }
        if bytes[index] == UInt8(ascii: "."), index + 1 < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]) {
            return fail("a number needs a digit before its decimal point (0.5, not .5)")
        }
        var end = index
        while end < bytes.count, end - index < 40, Self.isWordByte(bytes[end]) { end += 1 }
        guard end > index else { return fail("unexpected \(describe(bytes[index])); expected a value") }
        let word = String(decoding: bytes[index..<end], as: UTF8.self)
        if ["true", "false", "null"].contains(word.lowercased()) {
            return fail("unexpected \(word); JSON writes it \(word.lowercased())")
        }
        return fail("unexpected \(word); expected a value (strings need double quotes)")
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }

    /// Whether `b` can start a JSON value (used to tell a missing comma from other mistakes).
    private static func startsValue(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "\"") || b == UInt8(ascii: "{") || b == UInt8(ascii: "[") || b == UInt8(ascii: "-")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "t") || b == UInt8(ascii: "f") || b == UInt8(ascii: "n")
    }

    private mutating func enter() throws {
        depth += 1
        if depth > Self.maxDepth { throw fail("nesting is deeper than \(Self.maxDepth) levels") }
    }

    private mutating func object() throws -> JSONNode.Value {
        try enter(); defer { depth -= 1 }
        index += 1
        var members: [(key: String, keyLocation: SourceLocation, value: JSONNode)] = []
        var seen = Set<String>()
        try skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        var comma: SourceLocation?
        while true {
            try skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of file inside an object; expected '}'") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}"), let comma { throw fail("trailing comma before '}'", at: comma) }
                if bytes[index] == UInt8(ascii: "'") { throw fail("JSON keys need double quotes, not single quotes") }
                throw fail("unexpected \(describe(bytes[index])); expected a quoted key")
            }
            let keyLocation = location
            let key = try string()
            if seen.contains(key) {
                index -= 1
                throw fail("duplicate key \(echoedQuoted(key))", at: keyLocation)
            }
            seen.insert(key)
            try skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw fail(index < bytes.count ? "unexpected \(describe(bytes[index])); expected ':' after the key" : "unexpected end of file; expected ':'")
            }
            index += 1
            try skipWhitespace()
            path.append(.key(key))
            let v = try value()
            path.removeLast()
            members.append((key, keyLocation, v))
            let afterValue = location
            try skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of file inside an object; expected '}'") }
            if bytes[index] == UInt8(ascii: ",") { comma = location; index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            if Self.startsValue(bytes[index]) { throw fail("missing ',' after the value of \(echoedQuoted(key))", at: afterValue) }
            throw fail("unexpected \(describe(bytes[index])); expected ',' or '}'")
        }
    }

    private mutating func array() throws -> JSONNode.Value {
        try enter(); defer { depth -= 1 }
        index += 1
        var items: [JSONNode] = []
        try skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        var comma: SourceLocation?
        while true {
            try skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]"), let comma {
                throw fail("trailing comma before ']'", at: comma)
            }
            path.append(.index(items.count))
            items.append(try value())
            path.removeLast()
            let afterValue = location
            try skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of file inside an array; expected ']'") }
            if bytes[index] == UInt8(ascii: ",") { comma = location; index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            if Self.startsValue(bytes[index]) { throw fail("missing ',' after item \(items.count - 1) of the array", at: afterValue) }
            throw fail("unexpected \(describe(bytes[index])); expected ',' or ']'")
        }
    }

    private mutating func string() throws -> String {
        index += 1
        var out = [UInt8]()
        while true {
            guard index < bytes.count else { throw fail("unexpected end of file inside a string") }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("unexpected end of file inside a string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("unpaired UTF-16 surrogate in \\u escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired UTF-16 surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("unpaired UTF-16 surrogate in \\u escape")
                    }
                    out.append(contentsOf: Array(String(Character(UnicodeScalar(scalar)!)).utf8))
                default:
                    index -= 1
                    if e > 0x20 && e < 0x7F { throw fail("invalid escape '\\\(Character(UnicodeScalar(e)))' in a string") }
                    throw fail(String(format: "invalid escape: a backslash before byte 0x%02X in a string", e))
                }
            case 0x00..<0x20:
                throw fail("control character \(String(format: "0x%02X", b)) inside a string (escape it, e.g. \\n)")
            default:
                out.append(b)
                index += 1
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("unexpected end of file in a \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in a \\u escape")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }

    private mutating func number() throws -> JSONNode.Value {
        let start = index
        func digits() -> Int {
            let s = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - s
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw fail("unexpected end of file in a number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw fail("numbers must not have leading zeros")
            }
        } else if digits() == 0 {
            if index < bytes.count && (bytes[index] == UInt8(ascii: "I") || bytes[index] == UInt8(ascii: "N")) {
                throw fail("NaN and Infinity are not JSON numbers; times and sizes must be finite")
            }
            throw fail("invalid number")
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 { throw fail("a decimal point must be followed by digits") }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            if digits() == 0 { throw fail("an exponent must have digits") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            index = start
            throw fail("the number \(echoed(text)) is out of the range of a double (at most about 1.8e308 in magnitude)")
        }
        // `Double` rounds 1e-400 to 0: a number written with a nonzero digit must not become 0.
        if v == 0, text.prefix(while: { $0 != "e" && $0 != "E" }).contains(where: { ("1"..."9").contains($0) }) {
            index = start
            throw fail("the number \(echoed(text)) is too small to represent as a double (below about 4.9e-324 in magnitude); write 0 for zero")
        }
        return .number(v, text: text)
    }
}
