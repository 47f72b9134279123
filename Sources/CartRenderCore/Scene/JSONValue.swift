import Foundation

/// A JSON value for output (manifests, reports, canonical scenes), with object members kept in
/// the order given, so that written bytes never depend on hashing order.
public indirect enum JSONValue: Equatable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    /// An object: members written in this order (keys are not sorted or deduplicated).
    case object([(String, JSONValue)])
    /// An array.
    case array([JSONValue])
    /// A string, escaped as JSON requires when written.
    case string(String)
    /// An integer, written without a fraction.
    case int(Int)
    /// A finite number, written with at most `decimals` fraction digits (trailing zeros dropped).
    case number(Double, decimals: Int)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// A number written exactly as this text (numbers read back from a JSON file).
    case numberText(String)

    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value, written without a fraction.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array of the given elements.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// A number rounded to 6 fraction digits (µs for seconds, µpt for points).
    public static func num(_ v: Double) -> JSONValue { .number(v, decimals: 6) }

    /// Equal when their serialized JSON texts are equal (so `1.50` with 2 decimals equals `1.5`).
    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }

    /// UTF-8 JSON text. `pretty` indents by two spaces and ends with a newline.
    public func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(into: &out, pretty: pretty, indent: 0)
        if pretty { out += "\n" }
        return out
    }

    /// JSON text of this value as it appears nested `indent` levels deep in a pretty document
    /// (two spaces a level; the first line not indented, no final newline), for writing a
    /// document piece by piece.
    public func serialized(prettyAt indent: Int) -> String {
        var out = ""
        write(into: &out, pretty: true, indent: indent)
        return out
    }

    private func write(into out: inout String, pretty: Bool, indent: Int) {
        let nl = pretty ? "\n" : ""
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let endPad = pretty ? String(repeating: "  ", count: indent) : ""
        switch self {
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{" + nl
            for (i, (k, v)) in members.enumerated() {
                out += pad
                JSONValue.string(k).write(into: &out, pretty: false, indent: 0)
                out += pretty ? ": " : ":"
                v.write(into: &out, pretty: pretty, indent: indent + 1)
                if i < members.count - 1 { out += "," }
                out += nl
            }
            out += endPad + "}"
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            // Arrays of scalars stay on one line.
            let flat = pretty && items.allSatisfy { if case .object = $0 { return false }; if case .array = $0 { return false }; return true }
            if flat || !pretty {
                out += "["
                for (i, v) in items.enumerated() {
                    if i > 0 { out += pretty ? ", " : "," }
                    v.write(into: &out, pretty: false, indent: 0)
                }
                out += "]"
                return
            }
            out += "[" + nl
            for (i, v) in items.enumerated() {
                out += pad
                v.write(into: &out, pretty: pretty, indent: indent + 1)
                if i < items.count - 1 { out += "," }
                out += nl
            }
            out += endPad + "]"
        case .string(let s):
            out += "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
                default: out.unicodeScalars.append(u)
                }
            }
            out += "\""
        case .int(let i): out += String(i)
        case .number(let v, let decimals):
            out += JSONValue.format(v, decimals: decimals)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .numberText(let t): out += t
        }
    }

    /// The value of a parsed JSON node, numbers kept as their source text.
    public init(_ node: JSONNode) {
        switch node.value {
        case .object(let members): self = .object(members.map { ($0.key, JSONValue($0.value)) })
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .string(let s): self = .string(s)
        case .number(_, let text): self = .numberText(text)
        case .bool(let b): self = .bool(b)
        case .null: self = .null
        }
    }

    /// `v` with at most `decimals` fraction digits, no exponent, no trailing zeros, no "-0".
    public static func format(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "null" }
        var s = String(format: "%.\(decimals)f", v)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        if s == "-0" { s = "0" }
        return s
    }
}
