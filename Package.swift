// swift-tools-version:6.0
// cartrender: scene file → validated scene → motion → layout (display list) → raster → encoders → outputs.
import PackageDescription

/// The pkg-config file in `Sources/TARGET/`, by absolute path (SwiftPM reads a .pc file named so),
/// or `system` when the package's path has a space (SwiftPM splits pkgConfig at spaces). CPango's
/// and CRsvg's own files leave out the `-pthread` that gio-2.0 adds to Pango's and librsvg's flags,
/// which SwiftPM drops with a warning in every build; see the files.
func localPkgConfig(_ target: String, system: String) -> String {
    let path = Context.packageDirectory + "/Sources/\(target)/\(target).pc"
    return path.contains(" ") ? system : path
}

let package = Package(
    name: "cartrender",
    products: [
        .library(name: "CartRender", targets: ["CartRender"]),
        // `try assertFrames(of: "Scenes/fly.json")` for Swift Testing (imports Testing, so apart
        // from CartRender, which the cartrender binary links through CartRenderCLI).
        .library(name: "CartRenderTesting", targets: ["CartRenderTesting"]),
        .executable(name: "cartrender", targets: ["cartrender"]),
        // `swift package --allow-writing-to-package-directory cartrender ARGUMENTS…` in a package
        // that depends on cartrender: runs the cartrender executable in that package's directory.
        .plugin(name: "CartRenderPlugin", targets: ["CartRenderPlugin"]),
    ],
    targets: [
        // C libraries from Debian, one module per library family. Only CartRenderRaster imports them.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // Cairo's own pixel library: the Gaussian convolution of blurred groups.
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(name: "CPango", pkgConfig: localPkgConfig("CPango", system: "pangocairo pangoft2 fontconfig"), providers: [.apt(["libpango1.0-dev", "libfontconfig-dev"])]),
        .systemLibrary(name: "CRsvg", pkgConfig: localPkgConfig("CRsvg", system: "librsvg-2.0"), providers: [.apt(["librsvg2-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev", "zlib1g-dev", "libdeflate-dev"])]),
        // libpng reports errors by longjmp, which Swift cannot catch: this small C target wraps
        // the write path and returns a status instead.
        .target(name: "CPNGWriter", dependencies: ["CPNG"]),
        .systemLibrary(name: "CGif", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
        // libwebp's demuxer and animation decoder: only the test-support target reads WebP.
        .systemLibrary(name: "CWebPDemux", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        // FFmpeg 5.1's libavformat (MP4, WebM), libavcodec (libx264, libvpx), libswscale and libavutil,
        // loaded with dlopen when a video is encoded or decoded (not linked: see ffmpeg_runtime.h).
        // Headers from libavformat-dev, libavcodec-dev, libswscale-dev and libavutil-dev.
        .target(name: "CFFmpegRuntime"),

        // Scene, motion and layout: pure Swift, no C, no file access (scene bytes in; timelines,
        // layouts and display lists out). CorePurityTests keeps it so.
        .target(name: "CartRenderCore"),
        // Glibc file access: the one file reader, directory handles, scene files and the folder
        // rule for the files a scene names (AssetFolder, the decoder's SceneFileResolver).
        .target(name: "CartRenderFiles", dependencies: ["CartRenderCore"]),
        // Raster (Cairo, pixman, Pango, librsvg), encoders (libpng, giflib, libimagequant, libwebp, FFmpeg)
        // and the PNG decoder that verify and diff use.
        .target(
            name: "CartRenderRaster",
            dependencies: ["CartRenderCore", "CartRenderFiles", "CCairo", "CPixman", "CPango", "CRsvg", "CPNG", "CPNGWriter", "CGif", "CImageQuant", "CWebP", "CFFmpegRuntime"]
        ),
        // Frame pipeline, outputs (frames, manifest, report) and snapshot diffs. CARTRENDER_TEST_HOOKS,
        // in debug builds only, compiles what the tests need in the binary they run (the
        // CARTRENDER_TEST_PAUSE hook, the kill points of a commit, extra sinks of a render); a release build has none of it.
        .target(name: "CartRender", dependencies: ["CartRenderCore", "CartRenderFiles", "CartRenderRaster"],
                swiftSettings: [.define("CARTRENDER_TEST_HOOKS", .when(configuration: .debug))]),
        // The command line: every command, its help, completions and man page, progress on stderr,
        // signal handling and the review server. Only the cartrender executable and the CLI tests use it.
        .target(name: "CartRenderCLI", dependencies: ["CartRenderCore", "CartRenderRaster", "CartRender"],
                swiftSettings: [.define("CARTRENDER_TEST_HOOKS", .when(configuration: .debug))]),
        .executableTarget(name: "cartrender", dependencies: ["CartRenderCLI", "CartRender", "CartRenderRaster"]),
        .target(name: "CartRenderTesting", dependencies: ["CartRender", "CartRenderCore"]),
        .plugin(
            name: "CartRenderPlugin",
            capability: .command(
                intent: .custom(verb: "cartrender", description: "Render a scene with cartrender (its arguments, relative to the package's directory)"),
                permissions: [.writeToPackageDirectory(reason: "cartrender writes the frames into the --out directory of the package")]
            ),
            dependencies: ["cartrender"]
        ),
        // What only the tests and the bench use: the GIF, WebP and video decoders, SSIM and the
        // cairo_surface_write_to_png baseline. Not a product, and `cartrender` does not depend on
        // it, so the product binary carries none of it. It is the one target besides
        // CartRenderRaster that imports C modules (CCairo, CGif, CWebPDemux, CFFmpegRuntime).
        .target(name: "CartRenderTestSupport", dependencies: ["CartRender", "CartRenderRaster", "CCairo", "CGif", "CWebPDemux", "CFFmpegRuntime"]),
        // Prints pipeline figures: `swift run -c release cartrender-bench`. Not part of `swift test`.
        .executableTarget(name: "cartrender-bench", dependencies: ["CartRender", "CartRenderTestSupport"], path: "Benchmarks/cartrender-bench"),

        .testTarget(name: "CartRenderCoreTests", dependencies: ["CartRenderCore"]),
        .testTarget(name: "CartRenderFilesTests", dependencies: ["CartRenderFiles"]),
        .testTarget(name: "CartRenderRasterTests", dependencies: ["CartRenderRaster", "CartRenderTestSupport"]),
        .testTarget(name: "CartRenderTests", dependencies: ["CartRender", "CartRenderTestSupport", "CartRenderTesting"], exclude: ["Goldens"]),
        .testTarget(name: "CLITests", dependencies: ["CartRenderCLI", "CartRender", "CartRenderTestSupport"], exclude: ["Corpus"]),
    ],
    swiftLanguageModes: [.v5]
)
