import CartRenderCore
import Foundation

/// One row of a command's option table: the option's spelling, the placeholder of its value in
/// help, its help text, and how its value goes into the command's `Options` value.
///
///     Option("--fps", "N", "Frames per second, 1…240.", .int(1...240)) { $0.fps = $1 }
///     Option("--mask", "X,Y,W,H", "Ignore this rectangle.", .pointRect, repeatable: true) { $0.masks.append($1) }
///     Option("--quiet", "No progress bar.") { $0.quiet = true }
package struct Option<Options> {
    /// `--fps`.
    package let name: String
    /// A one-letter spelling (`-o`), parsed as ``name``.
    package let short: String?
    /// Placeholder of the value in help (`N`), or nil for a flag.
    package let placeholder: String?
    package let help: String
    /// Whether the option may be given more than once, each value applied in order (`--mask`
    /// adds a rectangle each time). Another option given twice is a usage error.
    package let repeatable: Bool
    /// Parses the option's text (`""` for a flag) and stores it.
    package let apply: (inout Options, String) throws -> Void

    /// An option with a value: `value` turns the text into a `Value` (or throws the option's
    /// `UsageError`), `set` stores it.
    package init<Value>(_ name: String, short: String? = nil, _ placeholder: String, _ help: String, _ value: OptionValue<Value>,
                repeatable: Bool = false, _ set: @escaping (inout Options, Value) throws -> Void) {
        self.name = name; self.short = short; self.placeholder = placeholder; self.help = help; self.repeatable = repeatable
        apply = { options, text in try set(&options, value.parse(name, text)) }
    }

    /// A flag: an option without a value.
    package init(_ name: String, short: String? = nil, _ help: String, _ set: @escaping (inout Options) -> Void) {
        self.name = name; self.short = short; self.placeholder = nil; self.help = help; self.repeatable = false
        apply = { options, _ in set(&options) }
    }

    /// A row from its parts: `apply` parses the text (`""` for a flag, when `placeholder` is nil) and stores it.
    package init(name: String, short: String?, placeholder: String?, help: String, repeatable: Bool,
         apply: @escaping (inout Options, String) throws -> Void) {
        self.name = name; self.short = short; self.placeholder = placeholder; self.help = help; self.repeatable = repeatable
        self.apply = apply
    }

    /// This option, storing into the part of a larger value at `path` (the scene options of a
    /// render, the tolerance of a verify).
    package func pullback<Whole>(_ path: WritableKeyPath<Whole, Options>) -> Option<Whole> {
        let apply = self.apply
        return Option<Whole>(name: name, short: short, placeholder: placeholder, help: help, repeatable: repeatable) { whole, text in
            try apply(&whole[keyPath: path], text)
        }
    }

    /// `-h, --help`: answered by `CLI.run` before any parsing; a row for the help text.
    package static var help: Option { Option("--help", short: "-h", "Show help.") { _ in } }
}

/// A command's options in the order of its help: parses a command line into `Options` and
/// writes the OPTIONS lines of the help.
package struct OptionTable<Options> {
    package let rows: [Option<Options>]

    package init(_ rows: [Option<Options>]) { self.rows = rows }

    /// The rows of `self`, then those of `part` storing into `path`.
    package func including<Part>(_ part: OptionTable<Part>, at path: WritableKeyPath<Options, Part>) -> OptionTable {
        OptionTable(rows + part.rows.map { $0.pullback(path) })
    }

    package func row(_ spelling: String) -> Option<Options>? {
        rows.first { $0.name == spelling || ($0.short != nil && $0.short == spelling) }
    }

    /// Parses `arguments` (after the command's name) into `options`: `--opt value`,
    /// `--opt=value` and the short spellings; `--` ends options and `-` is a positional. Every
    /// option is found first, then `checkPositionals` sees the positionals, then the values are
    /// parsed and applied in order.
    /// - Returns: the positionals, and the names of the options given, in order.
    /// - Throws: `UsageError` for an unknown option (with the nearest known one), a missing
    ///   value, a value given to a flag, what `checkPositionals` throws, a value the option's
    ///   parser refuses, and an option that is not repeatable given more than once.
    package func parse(_ arguments: [String], into options: inout Options,
               checkPositionals: ([String]) throws -> Void = { _ in }) throws -> (positionals: [String], given: [String]) {
        var positionals: [String] = []
        var found: [(Option<Options>, String)] = []
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" { positionals.append(arg); continue }
            if arg == "--" { onlyPositionals = true; continue }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "=") { name = String(arg[..<eq]); inline = String(arg[arg.index(after: eq)...]) }
            guard let option = row(name) else {
                let hint = nearestKey(to: name, in: rows.map(\.name)).map { "; did you mean \($0)?" } ?? ""
                throw UsageError("unknown option \(echoed(name))\(hint)")
            }
            if let placeholder = option.placeholder {
                if let v = inline { found.append((option, v)); continue }
                // `--fps --scale 2`: the value is missing, not "--scale".
                guard i < arguments.count, !rows.contains(where: { arguments[i] == $0.name || arguments[i] == $0.short || arguments[i].hasPrefix($0.name + "=") }) else {
                    throw UsageError("\(option.name) needs a value (\(placeholder))")
                }
                found.append((option, arguments[i]))
                i += 1
            } else {
                if inline != nil { throw UsageError("\(option.name) does not take a value") }
                found.append((option, ""))
            }
        }
        try checkPositionals(positionals)
        for (option, text) in found { try option.apply(&options, text) }
        let given = found.map(\.0.name)
        if let twice = found.first(where: { option, _ in !option.repeatable && given.filter { $0 == option.name }.count > 1 }) {
            throw UsageError("\(twice.0.name) is given more than once")
        }
        return (positionals, given)
    }

    /// `arguments` without this table's options and their values (`--port 8123`,
    /// `--port=8123`), the rest in order: what a second table parses of a command line both
    /// share (review's own options, then verify's).
    package func removing(from arguments: [String]) -> [String] {
        var rest: [String] = []
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if arg == "--" { rest += arguments[(i - 1)...]; break }
            let name = arg.firstIndex(of: "=").map { String(arg[..<$0]) } ?? arg
            guard arg.hasPrefix("-"), let option = row(name) else { rest.append(arg); continue }
            if option.placeholder != nil && name == arg { i += 1 }
        }
        return rest
    }

    /// The OPTIONS lines of the help, aligned: `  -o, --out DIR   Output directory …`.
    package var help: String {
        var s = ""
        for option in rows {
            let left = "  " + (option.short.map { $0 + ", " } ?? "") + option.name + (option.placeholder.map { " " + $0 } ?? "")
            s += left.padding(toLength: max(left.count + 2, 30), withPad: " ", startingAt: 0) + option.help + "\n"
        }
        return s
    }
}

/// How the text of an option becomes a value. A text it refuses is a `UsageError` naming the
/// option, most often `--NAME: expected WHAT, got "TEXT"` (``UsageError/expected(_:_:got:)``).
package struct OptionValue<Value> {
    /// (option name, text) → value.
    package let parse: (String, String) throws -> Value

    /// The value that `parse` makes of (option name, text).
    package init(parse: @escaping (String, String) throws -> Value) { self.parse = parse }

    /// Texts that `convert` turns into a value; any other is `--NAME: expected EXPECTED, got "TEXT"`.
    package static func checked(_ expected: String, _ convert: @escaping (String) -> Value?) -> OptionValue {
        OptionValue { name, text in
            guard let value = convert(text) else { throw UsageError.expected(name, expected, got: text) }
            return value
        }
    }
}

extension OptionValue where Value == String {
    /// Any text, the empty one included.
    package static var text: OptionValue { OptionValue { _, text in text } }

    /// A text that is not empty; the empty one is `--NAME needs WHAT` (`--out needs a directory`).
    package static func nonEmpty(_ what: String) -> OptionValue {
        OptionValue { name, text in
            guard !text.isEmpty else { throw UsageError("\(name) needs \(what)") }
            return text
        }
    }
}

extension OptionValue where Value == Int {
    /// A whole number in `range`; the error says `expected` (default: `a whole number from A to B`).
    package static func int(_ range: ClosedRange<Int>, expected: String? = nil) -> OptionValue {
        checked(expected ?? "a whole number from \(range.lowerBound) to \(range.upperBound)") { Int($0).flatMap { range.contains($0) ? $0 : nil } }
    }

    /// A whole number ≥ `minimum`.
    package static func int(atLeast minimum: Int) -> OptionValue {
        checked("a whole number ≥ \(minimum)") { Int($0).flatMap { $0 >= minimum ? $0 : nil } }
    }

    /// `--jobs N`: 1…256 worker threads.
    package static var jobs: OptionValue { int(1...256) }
}

extension OptionValue where Value: BinaryFloatingPoint & LosslessStringConvertible {
    /// A finite number in `range`, parsed as `Value` (Double or Float); the error says
    /// `expected` (default: `a number from A to B`).
    package static func number(_ range: ClosedRange<Value>, expected: String? = nil) -> OptionValue {
        checked(expected ?? "a number from \(plain(range.lowerBound)) to \(plain(range.upperBound))") { text in
            Value(text).flatMap { $0.isFinite && range.contains($0) ? $0 : nil }
        }
    }

    /// A finite number ≥ `minimum`; the error says `expected`.
    package static func number(atLeast minimum: Value, expected: String) -> OptionValue {
        checked(expected) { text in Value(text).flatMap { $0.isFinite && $0 >= minimum ? $0 : nil } }
    }

    /// `1` for 1.0, `0.5` for 0.5.
    private static func plain(_ x: Value) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : x.description
    }
}

extension OptionValue where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the cases by its raw value: `--color-scheme: expected light or dark, got "sepia"`.
    package static var oneOf: OptionValue {
        checked(listed(Value.allCases.map(\.rawValue), "or")) { Value(rawValue: $0) }
    }
}

/// `a, b or c` (`conjunction` "or"), `a and b`, `a`: items for a sentence.
package func listed(_ items: [String], _ conjunction: String) -> String {
    items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
}

extension OptionValue where Value == FrameSelection {
    /// `--frames A-B`: frame indices A through B inclusive.
    package static var frameRange: OptionValue {
        checked("A-B with 0 ≤ A ≤ B (frame indices)") { text in
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count <= 2, let a = Int(parts[0]), a >= 0, let b = parts.count == 2 ? Int(parts[1]) : a, b >= a else { return nil }
            return .range(a, b)
        }
    }

    /// `--at TIME`: one frame at exactly TIME seconds, `start` (0 s) or `end` (``FrameSelection/end``).
    package static var time: OptionValue {
        checked("a time in seconds ≥ 0, start or end") { text in
            switch text {
            case "start": return .at(0)
            case "end": return .end
            default: return Double(text).flatMap { $0.isFinite && $0 >= 0 ? .at($0) : nil }
            }
        }
    }
}
