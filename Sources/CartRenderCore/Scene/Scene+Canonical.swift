import Foundation

extension Scene {
    /// The scene as a complete scene file with every default written out and keys in a fixed
    /// order; its SHA-256 identifies the scene in manifests. Image files appear relative to the
    /// scene's directory, so the identity does not depend on where a checkout lives.
    public var canonicalJSON: JSONValue {
        func image(_ i: ImageSource) -> JSONValue {
            switch i {
            case .symbol: return .string(i.text)
            case .file(let p):
                let base = baseDirectory.hasSuffix("/") ? baseDirectory : baseDirectory + "/"
                return .string(p.hasPrefix(base) ? String(p.dropFirst(base.count)) : p)
            }
        }
        let deviceJSON: JSONValue = self.device.name.flatMap { Device.presets[$0] } == self.device ? .string(self.device.name!) : self.device.canonicalMembers
        // In the order of `SceneFields.top`. `scale` is the device's; the members written only
        // when not their default are so that the scenes made before them keep their identity
        // (the manifest's `scene` hash).
        let F = SceneFields.self
        var members: [(String, JSONValue)] = []
        for field in F.top {
            switch field.key {
            case F.version.key: members.append((field.key, .int(version)))
            case F.screen.key: members.append((field.key, .string(screenName)))
            case F.device.key: members.append((field.key, deviceJSON))
            case F.colorScheme.key: members.append((field.key, .string(colorScheme.rawValue)))
            case F.reduceMotion.key: members.append((field.key, .bool(reduceMotion)))
            case F.systemChrome.key: if systemChrome { members.append((field.key, .bool(true))) }
            case F.locale.key: members.append((field.key, .string(locale)))
            // Only when not the locale's own direction: a scene without the key and one that
            // spells out its locale's direction are the same scene.
            case F.layoutDirection.key:
                if layoutDirection != LayoutDirection(locale: locale) { members.append((field.key, .string(layoutDirection.rawValue))) }
            case F.dynamicTypeSize.key: if dynamicTypeSize != .large { members.append((field.key, .string(dynamicTypeSize.rawValue))) }
            case F.tint.key: members.append((field.key, .string(tint.text)))
            case F.fps.key: members.append((field.key, .int(fps)))
            case F.duration.key: members.append((field.key, duration.map { .num($0) } ?? .null))
            case F.fonts.key: if !fonts.isEmpty { members.append((field.key, .array(fonts.map { image(.file($0.file)) }))) }
            default: break
            }
        }
        members.append((screenName, content.canonicalJSON(image: image)))
        members.append(("events", .array(events.map { e in
            .object([("at", .num(e.at))] + e.action.canonicalMembers)
        })))
        return .object(members)
    }
}

extension Device {
    /// The device written out, as a scene's canonical JSON writes one that is not an unchanged
    /// preset (a preset with another scale is written so): `{"width", "height", "scale",
    /// "safeArea": {"top", "bottom"}}`, in points and device pixels per point.
    public var canonicalMembers: JSONValue {
        .object([
            ("width", .num(width)), ("height", .num(height)), ("scale", .num(scale)),
            ("safeArea", .object([("top", .num(safeAreaTop)), ("bottom", .num(safeAreaBottom))])),
        ])
    }
}
