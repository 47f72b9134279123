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
        let device: [(String, JSONValue)] = [
            ("width", .num(self.device.width)), ("height", .num(self.device.height)), ("scale", .num(self.device.scale)),
            ("safeArea", .object([("top", .num(self.device.safeAreaTop)), ("bottom", .num(self.device.safeAreaBottom))])),
        ]
        let deviceJSON: JSONValue = self.device.name.flatMap { Device.presets[$0] } == self.device ? .string(self.device.name!) : .object(device)
        var members: [(String, JSONValue)] = [
            ("version", .int(version)), ("screen", .string(screenName)), ("device", deviceJSON),
            ("colorScheme", .string(colorScheme.rawValue)), ("reduceMotion", .bool(reduceMotion)),
            ("locale", .string(locale)), ("tint", .string(tint.text)), ("fps", .int(fps)),
            ("duration", duration.map { .num($0) } ?? .null),
        ]
        // Written only when it is not the locale's own direction, so that a scene without the
        // key and one that spells out its locale's direction are the same scene.
        if layoutDirection != LayoutDirection(locale: locale) {
            members.insert(("layoutDirection", .string(layoutDirection.rawValue)), at: 6)
        }
        // Written only when not the default, so that the scenes of every other size keep their identity.
        if dynamicTypeSize != .large {
            members.insert(("dynamicTypeSize", .string(dynamicTypeSize.rawValue)), at: members.firstIndex { $0.0 == "tint" }!)
        }
        // Written only when on, so that scenes without chrome keep their identity.
        if systemChrome { members.insert(("systemChrome", .bool(true)), at: members.firstIndex { $0.0 == "reduceMotion" }! + 1) }
        // Written only when the scene registers fonts, so that other scenes keep their identity.
        if !fonts.isEmpty { members.append(("fonts", .array(fonts.map { image(.file($0.file)) }))) }
        members.append((screenName, content.canonicalJSON(image: image)))
        members.append(("events", .array(events.map { e in
            .object([("at", .num(e.at))] + e.action.canonicalMembers)
        })))
        return .object(members)
    }
}
