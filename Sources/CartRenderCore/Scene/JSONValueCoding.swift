import Foundation

/// Turns `Encodable` values into `JSONValue`s, whose serializer then decides the bytes.
///
/// - Object members come in the order they are encoded (a synthesized `Encodable` encodes its
///   stored properties in declaration order); encoding a key again replaces its value in place.
/// - `Double` and `Float` become numbers with at most 6 fraction digits (`JSONValue.num`: µs for
///   seconds, µpt for points), integers are exact, `nil` optionals are left out (as
///   `encodeIfPresent` does) unless written with `encodeNil`.
/// - A `JSONValue` inside the value is kept as it is (numbers read from a file keep their text).
///
/// Outputs are written through this encoder rather than Foundation's `JSONEncoder`, whose number
/// formatting and member order are not ours to choose. `JSONValueDecoder` reads them back.
public struct JSONValueEncoder {
    /// An encoder with no options: member order and number formats come from the values.
    public init() {}

    /// The JSON value of `value`.
    /// - Throws: what `value`'s own `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let slot = EncodingSlot()
        try slot.encode(value, path: [])
        return slot.value
    }
}

extension JSONValue {
    /// The JSON value of `value` (`JSONValueEncoder`).
    public init<T: Encodable>(encoding value: T) throws { self = try JSONValueEncoder().encode(value) }
}

/// Reads `Decodable` values from `JSONValue`s (as `JSONValue(node)` gives them from a parsed
/// file): numbers are read from their text, so integers up to `Int.max` are exact and a number
/// with a fraction is never taken for an integer; unknown object members are ignored (as a
/// synthesized `Decodable` does); a `JSONValue` inside the value is taken as it is.
///
/// Errors are `DecodingError`s; `DecodingError.jsonPath` and `.reason` make them a sentence.
public struct JSONValueDecoder {
    /// A decoder with no options: unknown members are ignored, numbers are read from their text.
    public init() {}

    /// Decodes a `T` from `value`.
    /// - Throws: `DecodingError` at the first member that is missing or of the wrong type.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try DecodingSlot(value: value, codingPath: []).decode(type)
    }
}

extension DecodingError {
    /// Where the error is, as a JSON path (`frames[3].file`; empty for the whole value).
    public var jsonPath: String {
        switch self {
        case .keyNotFound(let key, let c): return JSONPathKey.path(c.codingPath + [key])
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): return JSONPathKey.path(c.codingPath)
        @unknown default: return ""
        }
    }

    /// What is wrong, as a clause to follow the path: `is missing`, `expected a string, got a number`.
    public var reason: String {
        switch self {
        case .keyNotFound(_, let c):
            return c.debugDescription.isEmpty || c.debugDescription == "is missing" ? "is missing" : "is missing (\(c.debugDescription))"
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): return c.debugDescription
        @unknown default: return "cannot be read"
        }
    }
}

/// The coding key of an array element (`[3]` in a path) or of an object member read by name.
struct JSONPathKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.stringValue = "Index \(intValue)"; self.intValue = intValue }

    /// `frames[3].file` for the keys frames, 3, file.
    static func path(_ keys: [CodingKey]) -> String {
        var out = ""
        for k in keys {
            if let key = k as? JSONPathKey, let i = key.intValue { out += "[\(i)]"; continue }
            out += (out.isEmpty ? "" : ".") + k.stringValue
        }
        return out
    }
}

extension JSONValue: Codable {
    /// Writes the value through any encoder. `JSONValueEncoder` keeps it as it is instead;
    /// other encoders get `.number` and `.numberText` as `Double`s.
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .object(let members):
            var c = encoder.container(keyedBy: JSONPathKey.self)
            for (k, v) in members { try c.encode(v, forKey: JSONPathKey(stringValue: k)) }
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for v in items { try c.encode(v) }
        case .string(let s): var c = encoder.singleValueContainer(); try c.encode(s)
        case .int(let i): var c = encoder.singleValueContainer(); try c.encode(i)
        case .number(let v, _): var c = encoder.singleValueContainer(); try c.encode(v)
        case .bool(let b): var c = encoder.singleValueContainer(); try c.encode(b)
        case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .numberText(let t):
            var c = encoder.singleValueContainer()
            if let i = Int(t) { try c.encode(i) } else { try c.encode(Double(t) ?? 0) }
        }
    }

    /// Reads any JSON value. `JSONValueDecoder` gives the value as it is instead; from other
    /// decoders object members come in the order of their `allKeys`.
    public init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: JSONPathKey.self) {
            self = .object(try keyed.allKeys.map { ($0.stringValue, try keyed.decode(JSONValue.self, forKey: $0)) })
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !list.isAtEnd { items.append(try list.decode(JSONValue.self)) }
            self = .array(items)
        } else {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let i = try? c.decode(Int.self) { self = .int(i) }
            else if let d = try? c.decode(Double.self) { self = .num(d) }
            else { self = .string(try c.decode(String.self)) }
        }
    }
}

// MARK: - Encoding

/// A value being built: set by a single-value container, or filled by a keyed or unkeyed one.
private final class EncodingSlot {
    private enum Kind { case empty, scalar, object, array }
    private var kind = Kind.empty
    private var scalar = JSONValue.null
    private var keys: [String] = []
    private var members: [String: EncodingSlot] = [:]
    private var elements: [EncodingSlot] = []

    /// What was encoded; a value that encoded nothing is an empty object.
    var value: JSONValue {
        switch kind {
        case .empty: return .object([])
        case .scalar: return scalar
        case .object: return .object(keys.map { ($0, members[$0]!.value) })
        case .array: return .array(elements.map(\.value))
        }
    }

    func set(_ v: JSONValue) { kind = .scalar; scalar = v }
    func makeObject() { if kind != .object { kind = .object; keys = []; members = [:] } }
    func makeArray() { if kind != .array { kind = .array; elements = [] } }

    /// The slot of member `key`, added at the end the first time.
    func member(_ key: String) -> EncodingSlot {
        if let s = members[key] { return s }
        let s = EncodingSlot()
        keys.append(key)
        members[key] = s
        return s
    }

    func append() -> EncodingSlot {
        let s = EncodingSlot()
        elements.append(s)
        return s
    }

    func encode<T: Encodable>(_ value: T, path: [CodingKey]) throws {
        if let json = value as? JSONValue { set(json); return }
        try value.encode(to: ValueEncoder(slot: self, codingPath: path))
    }

    static func json<T: BinaryInteger>(_ v: T) -> JSONValue { Int(exactly: v).map(JSONValue.int) ?? .numberText(String(v)) }
}

private struct ValueEncoder: Encoder {
    let slot: EncodingSlot
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.makeObject()
        return KeyedEncodingContainer(KeyedEncoding<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        slot.makeArray()
        return UnkeyedEncoding(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { SingleEncoding(slot: slot, codingPath: codingPath) }
}

private struct KeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: EncodingSlot
    let codingPath: [CodingKey]

    private func put(_ v: JSONValue, _ key: Key) { slot.member(key.stringValue).set(v) }
    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ v: Bool, forKey key: Key) throws { put(.bool(v), key) }
    mutating func encode(_ v: String, forKey key: Key) throws { put(.string(v), key) }
    mutating func encode(_ v: Double, forKey key: Key) throws { put(.num(v), key) }
    mutating func encode(_ v: Float, forKey key: Key) throws { put(.num(Double(v)), key) }
    mutating func encode(_ v: Int, forKey key: Key) throws { put(.int(v), key) }
    mutating func encode(_ v: Int8, forKey key: Key) throws { put(EncodingSlot.json(v), key) }
    mutating func encode(_ v: Int16, forKey key: Key) throws { put(EncodingSlot.json(v), key) }
    mutating func encode(_ v: Int32, forKey key: Key) throws { put(EncodingSlot.json(v), key) }
    mutating func encode(_ v: Int64, forKey key: Key) throws { put(EncodingSlot.json(v), key) }
    mutating func encode(_ v: UInt, forKey key: Key) throws { put(EncodingSlot.json(v), key) }
    mutating func encode(_ v: UInt8, forKey key: Key) throws { put(EncodingSlot.json(v), key) }
    mutating func encode(_ v: UInt16, forKey key: Key) throws { put(EncodingSlot.json(v), key) }
    mutating func encode(_ v: UInt32, forKey key: Key) throws { put(EncodingSlot.json(v), key) }
    mutating func encode(_ v: UInt64, forKey key: Key) throws { put(EncodingSlot.json(v), key) }
    mutating func encode<T: Encodable>(_ v: T, forKey key: Key) throws {
        try slot.member(key.stringValue).encode(v, path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        ValueEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        ValueEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder {
        ValueEncoder(slot: slot.member("super"), codingPath: codingPath + [JSONPathKey(stringValue: "super")])
    }

    mutating func superEncoder(forKey key: Key) -> Encoder {
        ValueEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedEncoding: UnkeyedEncodingContainer {
    let slot: EncodingSlot
    let codingPath: [CodingKey]
    private(set) var count = 0

    init(slot: EncodingSlot, codingPath: [CodingKey]) { self.slot = slot; self.codingPath = codingPath }

    private mutating func next() -> (EncodingSlot, [CodingKey]) {
        defer { count += 1 }
        return (slot.append(), codingPath + [JSONPathKey(intValue: count)])
    }
    private mutating func put(_ v: JSONValue) { next().0.set(v) }
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ v: Bool) throws { put(.bool(v)) }
    mutating func encode(_ v: String) throws { put(.string(v)) }
    mutating func encode(_ v: Double) throws { put(.num(v)) }
    mutating func encode(_ v: Float) throws { put(.num(Double(v))) }
    mutating func encode(_ v: Int) throws { put(.int(v)) }
    mutating func encode(_ v: Int8) throws { put(EncodingSlot.json(v)) }
    mutating func encode(_ v: Int16) throws { put(EncodingSlot.json(v)) }
    mutating func encode(_ v: Int32) throws { put(EncodingSlot.json(v)) }
    mutating func encode(_ v: Int64) throws { put(EncodingSlot.json(v)) }
    mutating func encode(_ v: UInt) throws { put(EncodingSlot.json(v)) }
    mutating func encode(_ v: UInt8) throws { put(EncodingSlot.json(v)) }
    mutating func encode(_ v: UInt16) throws { put(EncodingSlot.json(v)) }
    mutating func encode(_ v: UInt32) throws { put(EncodingSlot.json(v)) }
    mutating func encode(_ v: UInt64) throws { put(EncodingSlot.json(v)) }
    mutating func encode<T: Encodable>(_ v: T) throws {
        let (s, path) = next()
        try s.encode(v, path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let (s, path) = next()
        return ValueEncoder(slot: s, codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let (s, path) = next()
        return ValueEncoder(slot: s, codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder {
        let (s, path) = next()
        return ValueEncoder(slot: s, codingPath: path)
    }
}

private struct SingleEncoding: SingleValueEncodingContainer {
    let slot: EncodingSlot
    let codingPath: [CodingKey]

    mutating func encodeNil() throws { slot.set(.null) }
    mutating func encode(_ v: Bool) throws { slot.set(.bool(v)) }
    mutating func encode(_ v: String) throws { slot.set(.string(v)) }
    mutating func encode(_ v: Double) throws { slot.set(.num(v)) }
    mutating func encode(_ v: Float) throws { slot.set(.num(Double(v))) }
    mutating func encode(_ v: Int) throws { slot.set(.int(v)) }
    mutating func encode(_ v: Int8) throws { slot.set(EncodingSlot.json(v)) }
    mutating func encode(_ v: Int16) throws { slot.set(EncodingSlot.json(v)) }
    mutating func encode(_ v: Int32) throws { slot.set(EncodingSlot.json(v)) }
    mutating func encode(_ v: Int64) throws { slot.set(EncodingSlot.json(v)) }
    mutating func encode(_ v: UInt) throws { slot.set(EncodingSlot.json(v)) }
    mutating func encode(_ v: UInt8) throws { slot.set(EncodingSlot.json(v)) }
    mutating func encode(_ v: UInt16) throws { slot.set(EncodingSlot.json(v)) }
    mutating func encode(_ v: UInt32) throws { slot.set(EncodingSlot.json(v)) }
    mutating func encode(_ v: UInt64) throws { slot.set(EncodingSlot.json(v)) }
    mutating func encode<T: Encodable>(_ v: T) throws { try slot.encode(v, path: codingPath) }
}

// MARK: - Decoding

/// A value being read, with its place in the whole.
private struct DecodingSlot {
    let value: JSONValue
    let codingPath: [CodingKey]

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self, let v = value as? T { return v }
        return try T(from: ValueDecoder(slot: self))
    }

    func mismatch(_ expected: String) -> DecodingError {
        DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), got \(kind)"))
    }

    /// What the value is, for messages.
    var kind: String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .int, .number, .numberText: return "a number"
        case .bool: return "true or false"
        case .null: return "null"
        }
    }

    var isNull: Bool { if case .null = value { return true }; return false }

    func bool() throws -> Bool {
        guard case .bool(let b) = value else { throw mismatch("true or false") }
        return b
    }

    func string() throws -> String {
        guard case .string(let s) = value else { throw mismatch("a string") }
        return s
    }

    func double() throws -> Double {
        switch value {
        case .number(let v, _): return v
        case .int(let i): return Double(i)
        case .numberText(let t): if let v = Double(t) { return v }
        default: break
        }
        throw mismatch("a number")
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let exact: T?
        switch value {
        case .int(let i): exact = T(exactly: i)
        case .number(let v, _): exact = T(exactly: v)
        case .numberText(let t): exact = T(t) ?? Double(t).flatMap { T(exactly: $0) }
        default: throw mismatch("an integer")
        }
        guard let i = exact else {
            throw DecodingError.typeMismatch(T.self, .init(codingPath: codingPath, debugDescription: "expected an integer from \(T.min) to \(T.max), got \(value.serialized())"))
        }
        return i
    }
}

private struct ValueDecoder: Decoder {
    let slot: DecodingSlot
    var codingPath: [CodingKey] { slot.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = slot.value else { throw slot.mismatch("an object") }
        return KeyedDecodingContainer(KeyedDecoding<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .array(let items) = slot.value else { throw slot.mismatch("an array") }
        return UnkeyedDecoding(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { SingleDecoding(slot: slot) }
}

private struct KeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let codingPath: [CodingKey]
    let allKeys: [Key]
    private let values: [String: JSONValue]

    init(members: [(String, JSONValue)], codingPath: [CodingKey]) {
        var values: [String: JSONValue] = [:]
        var keys: [Key] = []
        for (k, v) in members where values[k] == nil {
            values[k] = v
            if let key = Key(stringValue: k) { keys.append(key) }
        }
        self.values = values
        self.allKeys = keys
        self.codingPath = codingPath
    }

    func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }

    private func slot(_ key: Key) throws -> DecodingSlot {
        guard let v = values[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "is missing"))
        }
        return DecodingSlot(value: v, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try slot(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try slot(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try slot(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try slot(key).double() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try slot(key).double()) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try slot(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try slot(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try slot(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try slot(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try slot(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try slot(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try slot(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try slot(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try slot(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try slot(key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try slot(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(slot: slot(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try ValueDecoder(slot: slot(key)).unkeyedContainer()
    }

    func superDecoder() throws -> Decoder {
        ValueDecoder(slot: DecodingSlot(value: values["super"] ?? .null, codingPath: codingPath + [JSONPathKey(stringValue: "super")]))
    }

    func superDecoder(forKey key: Key) throws -> Decoder { ValueDecoder(slot: try slot(key)) }
}

private struct UnkeyedDecoding: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [CodingKey]
    private(set) var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    init(items: [JSONValue], codingPath: [CodingKey]) { self.items = items; self.codingPath = codingPath }

    private mutating func next() throws -> DecodingSlot {
        let path = codingPath + [JSONPathKey(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: path, debugDescription: "is missing (the array has \(items.count) elements)"))
        }
        defer { currentIndex += 1 }
        return DecodingSlot(value: items[currentIndex], codingPath: path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, DecodingSlot(value: items[currentIndex], codingPath: []).isNull else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().bool() }
    mutating func decode(_ type: String.Type) throws -> String { try next().string() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().double() }
    mutating func decode(_ type: Float.Type) throws -> Float { Float(try next().double()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().integer(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(slot: next()).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        try ValueDecoder(slot: next()).unkeyedContainer()
    }

    mutating func superDecoder() throws -> Decoder { ValueDecoder(slot: try next()) }
}

private struct SingleDecoding: SingleValueDecodingContainer {
    let slot: DecodingSlot
    var codingPath: [CodingKey] { slot.codingPath }

    func decodeNil() -> Bool { slot.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try slot.bool() }
    func decode(_ type: String.Type) throws -> String { try slot.string() }
    func decode(_ type: Double.Type) throws -> Double { try slot.double() }
    func decode(_ type: Float.Type) throws -> Float { Float(try slot.double()) }
    func decode(_ type: Int.Type) throws -> Int { try slot.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try slot.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try slot.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try slot.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try slot.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try slot.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try slot.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try slot.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try slot.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try slot.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try slot.decode(type) }
}
