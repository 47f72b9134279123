import CartRenderCore
import CartRenderRaster

/// A render option that sets a format's settings: one of its own (`--gif-speed`), or one that
/// several formats take (`--loop`, declared once below), each storing the value in its own
/// settings. The render's table has one row per spelling (``OutputFormat/optionRows``); its help
/// text starts with the formats that take it (`GIF/WebP/APNG: play N times …`).
///
/// Given without a format that takes it in `--format`, an option is a usage error (it would do
/// nothing): `--dither only applies to GIF: add gif to --format`.
struct FormatOption {
    /// The row, storing into ``FormatSettings``; its help leaves out the formats.
    let row: Option<FormatSettings>
    /// Whether giving the option with no format that takes it is a usage error.
    let needsItsFormat: Bool
    /// For a format that takes the option and is in `--format`: nil when the option does
    /// something with these settings, else the sentence of the usage error when no other format
    /// in `--format` uses it (`--crf has no effect on a lossless WebM: …`).
    /// - Throws: `UsageError` for a value this format refuses (`--crf 52` for an MP4).
    let check: (FormatSettings) throws -> String?

    /// An option with a value: `value` parses the text, `set` stores it.
    init<Value>(_ name: String, _ placeholder: String, _ help: String, _ value: OptionValue<Value>, needsItsFormat: Bool = true,
                _ set: @escaping (inout FormatSettings, Value) -> Void) {
        row = Option(name, placeholder, help, value, set)
        self.needsItsFormat = needsItsFormat
        check = { _ in nil }
    }

    /// A flag.
    init(_ name: String, _ help: String, _ set: @escaping (inout FormatSettings) -> Void) {
        row = Option(name, help, set)
        needsItsFormat = true
        check = { _ in nil }
    }

    private init(row: Option<FormatSettings>, needsItsFormat: Bool, check: @escaping (FormatSettings) throws -> String?) {
        self.row = row; self.needsItsFormat = needsItsFormat; self.check = check
    }

    /// This option with `check` deciding, for this format, whether it has an effect.
    func checked(_ check: @escaping (FormatSettings) throws -> String?) -> FormatOption {
        FormatOption(row: row, needsItsFormat: needsItsFormat, check: check)
    }
}

// Options several formats take: the spelling, value and help once; each format says where the
// value goes.
extension FormatOption {
    /// `--loop N`: how many times an animation plays, 0 = forever.
    static func loop(_ set: @escaping (inout FormatSettings, Int) -> Void) -> FormatOption {
        FormatOption("--loop", "N", "play N times, 0 = forever (default 0).",
                     .int(0...65535, expected: "a whole number from 0 (forever) to 65535"), set)
    }

    /// `--crf N`: a video's constant rate factor, checked against the codec's own range by the
    /// format (``checked(_:)``).
    static func crf(_ set: @escaping (inout FormatSettings, Int) -> Void) -> FormatOption {
        FormatOption("--crf", "N", "quality, lower is better and larger: H.264 0…51 (default 18), VP9 0…63 (default 30).",
                     .int(VP9Options.crfRange, expected: "a whole number from 0 to 51 (mp4) or 63 (webm)"), set)
    }

    /// `--png-compression fast|default|small`: zlib's speed/size trade-off for PNG data.
    /// Accepted whatever the formats.
    static func pngCompression(_ set: @escaping (inout FormatSettings, PNGEncoder.Compression) -> Void) -> FormatOption {
        FormatOption("--png-compression", "fast|default|small", "speed/size trade-off (default: default).", .oneOf,
                     needsItsFormat: false, set)
    }
}

extension OutputFormat {
    /// The render's rows for the options of every format: one per spelling, in the order the
    /// formats of ``all`` first take them, its help led by the titles of the formats that take
    /// it (`GIF/WebP/APNG: `), storing the value into each of their settings in turn.
    package static var optionRows: [Option<FormatSettings>] {
        var names: [String] = []
        for format in all { for option in format.options where !names.contains(option.row.name) { names.append(option.row.name) } }
        return names.map { name in
            let takers = all.filter { $0.options.contains { $0.row.name == name } }
            let rows = takers.map { format in format.options.first { $0.row.name == name }!.row }
            let first = rows[0]
            return Option(name: name, short: nil, placeholder: first.placeholder,
                          help: takers.map(\.title).joined(separator: "/") + ": " + first.help, repeatable: false) { settings, text in
                for row in rows { try row.apply(&settings, text) }
            }
        }
    }

    /// Checks the format options given against the formats chosen, in the order they were given.
    /// - Parameters:
    ///   - given: the spellings of the options on the command line.
    ///   - formats: `--format`'s formats.
    /// - Throws: `UsageError` for an option no chosen format takes (`--loop only applies to GIF,
    ///   WebP, APNG and animated SVG: add gif, webp, apng or animated-svg to --format`), one that does nothing with the
    ///   settings given (the format's sentence), or a value a chosen format refuses.
    package static func checkOptions(given: [String], formats: [OutputFormat], settings: FormatSettings) throws {
        var checked: Set<String> = []
        for name in given where checked.insert(name).inserted {
            let takers = all.filter { $0.options.contains { $0.row.name == name } }
            guard let first = takers.first?.options.first(where: { $0.row.name == name }), first.needsItsFormat else { continue }
            var noEffect: String?
            var used = false
            for format in formats {
                guard let option = format.options.first(where: { $0.row.name == name }) else { continue }
                if let reason = try option.check(settings) { noEffect = noEffect ?? reason } else { used = true }
            }
            if used { continue }
            throw UsageError(noEffect ?? "\(name) only applies to \(listed(takers.map(\.title), "and")): add \(listed(takers.map(\.name), "or")) to --format")
        }
    }
}
