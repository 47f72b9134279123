import CPango
import Foundation

/// The fonts renders may use, and nothing else: a fontconfig configuration confined to Inter
/// (Debian `fonts-inter`) and the named Noto fallbacks (SPEC.md §3), so that frames do not depend
/// on what else a machine has installed. Shared by all workers.
public final class FontEnvironment: @unchecked Sendable {
    /// Held while laying out, measuring or drawing text (Pango, and librsvg documents with text).
    /// Each worker has its own Pango font map, but with two threads laying out text at once the
    /// font stack below it (fontconfig, HarfBuzz, cairo's FreeType faces) measured narrow wrapped
    /// text differently from run to run, so frames depended on thread timing. Text is a small
    /// part of a frame; everything else draws in parallel.
    static let layoutLock = NSRecursiveLock()

    /// A font file in the environment and the Debian package it comes from.
    public struct FontFile: Equatable, Sendable {
        public var path: String
        public var package: String
    }

    /// Inter: required (it stands in for SF Pro).
    public static let interDirectory = "/usr/share/fonts/opentype/inter"
    /// Fallbacks for glyphs Inter lacks, loaded when present: emoji, Arabic, Hebrew, Devanagari,
    /// Thai, and Noto Sans for other Latin, Greek and Cyrillic.
    public static let fallbackFiles: [FontFile] = [
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", package: "fonts-noto-cjk"),
        FontFile(path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", package: "fonts-noto-cjk"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", package: "fonts-noto-color-emoji"),
    ]

    /// The fontconfig configuration (`FcConfig *`).
    let config: OpaquePointer
    /// The font files loaded, Inter first, in a fixed order (listed in manifests).
    public let files: [FontFile]

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedEnvironment: FontEnvironment?

    /// The environment every render of this process uses, built on first use.
    ///
    /// The fonts do not change while cartrender runs, and fontconfig and Pango keep part of a
    /// configuration's memory (its font patterns and character sets, about 0.5 MB with the Noto
    /// fallbacks) after it is destroyed, so one environment per render would grow a process
    /// that renders many scenes (found with `Scripts/asan-render.sh`).
    /// - Throws: as `init()`; a failure is not remembered.
    public static func shared() throws -> FontEnvironment {
        try sharedLock.withLock {
            if let e = sharedEnvironment { return e }
            let e = try FontEnvironment()
            sharedEnvironment = e
            return e
        }
    }

    /// Builds the confined configuration.
    /// - Throws: `RasterError.missingDependency` naming `fonts-inter` when Inter is not installed —
    ///   never a silent fallback to another font.
    public init() throws {
        let fm = FileManager.default
        let inter = ((try? fm.contentsOfDirectory(atPath: Self.interDirectory)) ?? [])
            .filter { $0.hasPrefix("Inter") && $0.hasSuffix(".otf") && !$0.contains("Italic") }
            .sorted()
        guard inter.contains("Inter-Regular.otf"), inter.contains("InterDisplay-Bold.otf") else {
            throw RasterError(.missingDependency, "the Inter font is not installed (\(Self.interDirectory)); install the Debian package fonts-inter")
        }
        guard let cfg = FcConfigCreate() else { throw RasterError(.library, "FcConfigCreate failed") }
        var loaded: [FontFile] = []
        for name in inter {
            let path = Self.interDirectory + "/" + name
            if FcConfigAppFontAddFile(cfg, path) == FcTrue { loaded.append(FontFile(path: path, package: "fonts-inter")) }
        }
        for f in Self.fallbackFiles where fm.fileExists(atPath: f.path) {
            if FcConfigAppFontAddFile(cfg, f.path) == FcTrue { loaded.append(f) }
        }
        guard FcConfigBuildFonts(cfg) == FcTrue else {
            FcConfigDestroy(cfg)
            throw RasterError(.library, "fontconfig could not build its font list")
        }
        config = cfg
        files = loaded
    }

    deinit { FcConfigDestroy(config) }
}
