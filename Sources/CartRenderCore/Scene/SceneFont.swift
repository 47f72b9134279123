import Foundation

/// A font file a scene registers (`"fonts": ["fonts/Brand-Bold.ttf"]`), as an app lists its
/// fonts under `UIAppFonts`: its family can then be named by `"cart": {"font": …}` and
/// `"shop": {"font": …}`.
public struct SceneFont: Equatable, Sendable {
    /// The file's absolute path.
    public var file: String
    /// The family the file declares (its `name` table: the typographic family, ID 16, else the
    /// family, ID 1), as fontconfig and Pango match it.
    public var family: String
    /// Where the scene names it (`fonts[1]`) and the position of the value in the scene file.
    public var path: String
    /// 1-based line and column of the value in the scene file; nil for fonts not from a file.
    public var location: SourceLocation?
    /// A registered font file `file` declaring `family`, named by the scene at `path`.
    public init(file: String, family: String, path: String, location: SourceLocation?) {
        self.file = file; self.family = family; self.path = path; self.location = location
    }

    /// Largest font file accepted (bytes); Noto CJK's collections are 20 MB.
    public static let maxBytes = 32 << 20

    /// The family a TrueType or OpenType file declares, read from its `name` table: the
    /// typographic family (name ID 16) if it has one, else the family (ID 1); Windows Unicode
    /// names (platform 3, US English first), then Unicode (platform 0), then Mac Roman
    /// (platform 1, ASCII only).
    /// - Returns: nil when the bytes are not a TrueType (`0x00010000`, `true`) or OpenType
    ///   (`OTTO`) font with a family name — a collection (`ttcf`) included.
    /// - Complexity: O(n) in the size of the table directory and the `name` table.
    public static func family(ofFontData bytes: [UInt8]) -> String? {
        func u16(_ o: Int) -> Int? { o >= 0 && o + 2 <= bytes.count ? Int(bytes[o]) << 8 | Int(bytes[o + 1]) : nil }
        func u32(_ o: Int) -> Int? { guard let a = u16(o), let b = u16(o + 2) else { return nil }; return a << 16 | b }
        guard let tag = u32(0) else { return nil }
        var font = 0
        if tag == 0x7474_6366 {  // 'ttcf': the first font of the collection
            guard let first = u32(12) else { return nil }
            font = first
        } else if tag != 0x0001_0000 && tag != 0x4F54_544F && tag != 0x7472_7565 {  // 'OTTO', 'true'
            return nil
        }
        guard let sfnt = u32(font), sfnt == 0x0001_0000 || sfnt == 0x4F54_544F || sfnt == 0x7472_7565,
              let tables = u16(font + 4), tables > 0 else { return nil }
        var nameTable: Int?
        for i in 0..<tables {
            let record = font + 12 + 16 * i
            guard let t = u32(record) else { return nil }
            if t == 0x6E61_6D65, let offset = u32(record + 8) { nameTable = offset }  // 'name'
        }
        guard let table = nameTable, let count = u16(table + 2), let storage = u16(table + 4).map({ table + $0 }) else { return nil }
        // (rank, name): lower ranks win.
        var best: (rank: Int, name: String)?
        for i in 0..<count {
            let r = table + 6 + 12 * i
            guard let platform = u16(r), let encoding = u16(r + 2), let language = u16(r + 4), let id = u16(r + 6),
                  let length = u16(r + 8), let offset = u16(r + 10), id == 16 || id == 1 else { continue }
            let start = storage + offset
            guard start + length <= bytes.count, length > 0 else { continue }
            let raw = bytes[start..<start + length]
            let name: String?
            let platformRank: Int
            switch (platform, encoding) {
            case (3, 1), (3, 10):
                platformRank = language == 0x409 ? 0 : 1
                name = utf16BigEndian(raw)
            case (0, _):
                platformRank = 2
                name = utf16BigEndian(raw)
            case (1, 0):
                platformRank = 3
                name = raw.allSatisfy { $0 < 0x80 } ? String(decoding: raw, as: UTF8.self) : nil
            default: continue
            }
            guard let n = name?.trimmingCharacters(in: .whitespaces), !n.isEmpty, !n.contains("\u{0}") else { continue }
            let rank = (id == 16 ? 0 : 10) + platformRank
            if best == nil || rank < best!.rank { best = (rank, n) }
        }
        return best?.name
    }

    private static func utf16BigEndian(_ raw: ArraySlice<UInt8>) -> String? {
        guard raw.count % 2 == 0 else { return nil }
        let units = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
        return String(decoding: units, as: UTF16.self)
    }
}

/// The font family a screen's text is set in (`"font"` of a screen's section).
public enum FontFamily: Hashable, Sendable {
    /// The system font: Inter standing in for SF Pro, Inter Display at 20 pt and above.
    case system
    /// A family by name: Jost (installed by the setup) or a family a scene registers.
    case named(String)

    /// The scene-file spelling: `system` or the family name.
    public var text: String {
        switch self { case .system: return "system"; case .named(let n): return n }
    }

    /// Jost (OFL-1.1), the cart page's font (seed 003 sets it in `Jost-Bold` and `Jost-Regular`).
    public static let jost = FontFamily.named("Jost")
    /// The families every scene may name besides those it registers.
    public static let builtIn: [FontFamily] = [.system, .jost]
}
