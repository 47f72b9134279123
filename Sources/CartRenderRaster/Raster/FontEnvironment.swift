import CPango
import Foundation

/// The fonts renders may use, and nothing else: a fontconfig configuration confined to Inter
/// (Debian `fonts-inter`), Jost (installed by the setup, `ProjectData`), the named Noto
/// fallbacks (docs/motion-and-look.md, “Text and fonts”) and the font files the scene registers, so that frames do not depend
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
        /// The font file's path.
        public var path: String
        /// The Debian package that installs it (`fonts-inter`).
        public var package: String
    }

    /// Inter: required (it stands in for SF Pro).
    public static let interDirectory = "/usr/share/fonts/opentype/inter"
    /// Jost 3.710 (OFL-1.1), a variable font (weights 100…900), in `ProjectData.fontDirectory()`:
    /// required (the cart page is set in it).
    public static let jostFile = "Jost[wght].ttf"
    /// Fallbacks for glyphs Inter lacks, loaded when present: emoji, Arabic, Hebrew, Devanagari,
    /// Thai, and Noto Sans for other Latin, Greek and Cyrillic.
    public static let fallbackFiles: [FontFile] = [
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansHebrew-Bold.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Bold.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoSansThai-Bold.ttf", package: "fonts-noto-core"),
        FontFile(path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", package: "fonts-noto-cjk"),
        FontFile(path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", package: "fonts-noto-cjk"),
        FontFile(path: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", package: "fonts-noto-color-emoji"),
    ]

    /// The rules of the configuration: bitmap fonts are scaled to the size asked for.
    /// Noto Color Emoji has a single strike of 109 px; without the first two rules (those of
    /// fontconfig's own `10-scale-bitmap-fonts.conf`, which a confined configuration does not
    /// read) it is drawn at 109 px whatever the text's size, and its lines are that tall. With
    /// them, an emoji has the size of the text around it: the font's matrix is scaled by the
    /// pixel size asked for over the strike's. The third scales color fonts by a further
    /// 0.985, so that an emoji's line (ascent 0.928, descent 0.244 em, 0.914 and 0.2405 after
    /// it) lies inside Inter's (0.969 and 0.2415 em) and Jost's (1.07 and 0.375 em): drawn on
    /// its line's baseline (lines take their font's height whatever draws them, `TextEngine`),
    /// an emoji stays within its line, as on iOS.
    static let bitmapScaling = """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
        <fontconfig>
          <match target="font">
            <test name="outline" compare="eq"><bool>false</bool></test>
            <edit name="pixelsizefixupfactor" mode="assign">
              <divide><name target="pattern">pixelsize</name><name target="font">pixelsize</name></divide>
            </edit>
          </match>
          <match target="font">
            <test name="outline" compare="eq"><bool>false</bool></test>
            <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
            <edit name="matrix" mode="assign">
              <times><name>matrix</name><matrix><name>pixelsizefixupfactor</name><double>0</double><double>0</double><name>pixelsizefixupfactor</name></matrix></times>
            </edit>
            <edit name="size" mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit>
          </match>
          <match target="font">
            <test name="color" compare="eq"><bool>true</bool></test>
            <edit name="matrix" mode="assign">
              <times><name>matrix</name><matrix><double>0.985</double><double>0</double><double>0</double><double>0.985</double></matrix></times>
            </edit>
          </match>
        </fontconfig>
        """

    /// The fontconfig configuration (`FcConfig *`).
    let config: OpaquePointer
    /// The font files loaded, Inter first, then Jost, the fallbacks and the scene's, in a fixed
    /// order (listed in manifests).
    public let files: [FontFile]

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedEnvironments: [[String]: FontEnvironment] = [:]

    /// The environment every render of this process with the same scene fonts uses, built on
    /// first use.
    ///
    /// The fonts do not change while cartrender runs, and fontconfig and Pango keep part of a
    /// configuration's memory (its font patterns and character sets, about 0.5 MB with the Noto
    /// fallbacks) after it is destroyed, so one environment per render would grow a process
    /// that renders many scenes (found with `Scripts/asan-render.sh`).
    /// - Parameter sceneFonts: the absolute paths of the font files a scene registers
    ///   (`Scene.fonts`), in the scene's order.
    /// - Throws: as `init(sceneFonts:)`; a failure is not remembered.
    /// - Parameter folder: the folder the scene's files must lie in, as `init(sceneFonts:folder:)`.
    public static func shared(sceneFonts: [String] = [], folder: AssetFolder? = nil) throws -> FontEnvironment {
        try sharedLock.withLock {
            let key = sceneFonts.isEmpty ? [] : sceneFonts + [folder.map { "\u{0}\($0.directory)\u{0}\($0.allowsOutside)" } ?? "\u{0}"]
            if let e = sharedEnvironments[key] { return e }
            let e = try FontEnvironment(sceneFonts: sceneFonts, folder: folder)
            sharedEnvironments[key] = e
            return e
        }
    }

    /// Builds the confined configuration.
    /// - Parameter sceneFonts: font files a scene registers, absolute paths (listed in
    ///   manifests with the package `scene`).
    /// - Throws: `RasterError.missingDependency` naming `fonts-inter` when Inter is not
    ///   installed, and the setup when Jost is not — never a silent fallback to another font;
    ///   `RasterError.invalidInput` naming a scene font that fontconfig cannot load.
    /// - Parameter folder: the folder the scene's font files must lie in: each is opened through
    ///   it (no link followed, ``AssetFolder/openFile(_:)``) and fontconfig is given the open
    ///   descriptor (`/proc/self/fd/N`), so the file checked is the file loaded even when a link is
    ///   put at its name meanwhile. The descriptors stay open for the process's life: cairo keeps
    ///   faces by file name, and a name that meant another file later would give the wrong one.
    ///   Nil: the paths are handed to fontconfig as they are (a caller that checked nothing).
    public init(sceneFonts: [String] = [], folder: AssetFolder? = nil) throws {
        let fm = FileManager.default
        let inter = ((try? fm.contentsOfDirectory(atPath: Self.interDirectory)) ?? [])
            .filter { $0.hasPrefix("Inter") && $0.hasSuffix(".otf") && !$0.contains("Italic") }
            .sorted()
        guard inter.contains("Inter-Regular.otf"), inter.contains("InterDisplay-Bold.otf") else {
            throw RasterError(.missingDependency, "the Inter font is not installed (\(Self.interDirectory)); install the Debian package fonts-inter")
        }
        guard let cfg = FcConfigCreate() else { throw RasterError(.library, "FcConfigCreate failed") }
        guard FcConfigParseAndLoadFromMemory(cfg, Self.bitmapScaling, FcTrue) == FcTrue else {
            FcConfigDestroy(cfg)
            throw RasterError(.library, "fontconfig refused the bitmap scaling rule")
        }
        var loaded: [FontFile] = []
        for name in inter {
            let path = Self.interDirectory + "/" + name
            if FcConfigAppFontAddFile(cfg, path) == FcTrue { loaded.append(FontFile(path: path, package: "fonts-inter")) }
        }
        let jost = try ProjectData.fontDirectory() + "/" + Self.jostFile
        guard FcConfigAppFontAddFile(cfg, jost) == FcTrue else {
            FcConfigDestroy(cfg)
            throw RasterError(.missingDependency, "the Jost font \(jost) is missing or cannot be loaded; \(ProjectData.setup)")
        }
        loaded.append(FontFile(path: jost, package: "fontpkg-jost"))
        for f in Self.fallbackFiles where fm.fileExists(atPath: f.path) {
            if FcConfigAppFontAddFile(cfg, f.path) == FcTrue { loaded.append(f) }
        }
        for path in sceneFonts {
            var loadPath = path
            if let folder {
                let fd: Int32
                do { fd = try folder.openFile(path) } catch {
                    FcConfigDestroy(cfg)
                    throw RasterError(.invalidInput, "font file \(path) \(error.reason(folder: folder, notA: "a font"))")
                }
                loadPath = "/proc/self/fd/\(fd)"
            }
            guard FcConfigAppFontAddFile(cfg, loadPath) == FcTrue else {
                FcConfigDestroy(cfg)
                throw RasterError(.invalidInput, "font file \(path) cannot be loaded by fontconfig")
            }
            loaded.append(FontFile(path: path, package: "scene"))
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
