/// The settings of the output formats of a render, each format's value (`GIFOptions`,
/// `VP9Options`…) kept under the format's name. A format's file declares the typed property
/// that reads and writes its own (`settings.gif`), so a new format adds its settings without
/// touching this type or ``RenderOptions`` (which forwards them: `options.gif`). A format whose
/// settings were never set reads its defaults.
public struct FormatSettings: Sendable {
    private var values: [String: any Sendable] = [:]

    /// Every format at its defaults.
    public init() {}

    /// The settings stored for `format`, or nil when none were (the format's property gives its
    /// defaults then).
    subscript<Value: Sendable>(format: OutputFormat) -> Value? {
        get { values[format.name] as? Value }
        set { values[format.name] = newValue }
    }
}
