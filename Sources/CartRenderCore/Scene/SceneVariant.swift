/// One combination of the values of a scene file's `"variants"` matrix (docs/scene-file.md,
/// “Variant matrix”): a complete
/// scene, named by its values.
public struct SceneVariant: Equatable, Sendable {
    /// One value of the combination: the matrix key and how the value appears in the name.
    public struct Value: Equatable, Sendable {
        /// The matrix key (`colorScheme`, `locale`, …).
        public var key: String
        /// How the value appears in the variant's name (`dark`, `de_DE`).
        public var text: String
    }
    /// The combination's values, in the order of the matrix's keys in the scene file.
    public var values: [Value]
    /// The scene with these values in place of the file's own.
    public var scene: Scene

    /// The values joined with `-`: `light-en_US-large`. The name of the variant's subdirectory.
    public var name: String { values.map(\.text).joined(separator: "-") }

    /// How a value of `key` appears in a name: the color scheme, locale (as the scene holds it,
    /// `ar_SA`) and text size by their scene-file spelling, a device preset by its name and a
    /// custom device as `WIDTHxHEIGHT@SCALE` (pt, `390x844@3`), Reduce Motion as `reduceMotion`
    /// or `motion`. `scene` is the variant before the command line's overrides.
    static func text(of key: String, in scene: Scene, node: JSONNode) -> String {
        switch key {
        case "colorScheme": return scene.colorScheme.rawValue
        case "locale": return scene.locale
        case "dynamicTypeSize": return scene.dynamicTypeSize.rawValue
        case "reduceMotion": return scene.reduceMotion ? "reduceMotion" : "motion"
        default:
            if case .string(let name) = node.value { return name }
            let d = scene.device
            func n(_ v: Double) -> String { JSONValue.format(v, decimals: 3) }
            return "\(n(d.width))x\(n(d.height))@\(n(d.scale))"
        }
    }
}
