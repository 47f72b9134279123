import Foundation

/// The files the setup installs besides the Debian packages (`make assets`, part of `make deps`):
/// Bootstrap Icons 1.11.3 (MIT) in `bootstrap-icons/` and Jost 3.710 (OFL-1.1) in `fonts/`, from
/// PyPI, under a directory `share/cartrender`.
///
/// The directory is looked for, in this order:
/// 1. `../share/cartrender` relative to the executable's directory: `PREFIX/bin/cartrender`
///    finds `PREFIX/share/cartrender` (`make install PREFIX=…`, the Debian package's
///    `/usr/bin/cartrender` finds `/usr/share/cartrender`);
/// 2. for a binary of a SwiftPM build tree alone (an executable or test bundle with a `.build`
///    directory in its path: `.build/release/cartrender`, the tests, a package that depends on
///    this checkout), this checkout's `.build/share/cartrender`, where `make deps` puts it;
/// 3. `/usr/local/share/cartrender`, then `/usr/share/cartrender`.
///
/// The first that holds both subdirectories is used. A binary copied elsewhere without its
/// `share/cartrender` finds none and stops with exit 69 (``iconDirectory()``, ``fontDirectory()``).
public enum ProjectData {
    /// How to install the directory, for messages.
    static let setup = "install cartrender with its data (the Debian package of `make deb`, or `make install PREFIX=…`, which puts it in PREFIX/share/cartrender), or run `make deps` in the checkout for a binary in its .build"

    /// The directories looked in, in order, for the running executable.
    public static var candidates: [String] {
        candidates(executable: CommandLine.arguments.first.map(Self.executablePath) ?? "/")
    }

    /// The directories looked in, in order and each once, for an executable at `executable` (an
    /// absolute path).
    public static func candidates(executable: String) -> [String] {
        let bin = URL(fileURLWithPath: executable).deletingLastPathComponent()
        var out = [bin.deletingLastPathComponent().appendingPathComponent("share/cartrender").path]
        if isInBuildTree(executable) { out.append(checkoutData) }
        for prefix in ["/usr/local/share/cartrender", "/usr/share/cartrender"] where !out.contains(prefix) { out.append(prefix) }
        return out
    }

    /// This checkout's `.build/share/cartrender` (from this file's path at compile time:
    /// Sources/CartRenderRaster/Raster/ProjectData.swift).
    static var checkoutData: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/share/cartrender").path
    }

    /// Whether `path` lies in a SwiftPM build tree: one of its directories is named `.build`.
    static func isInBuildTree(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().contains(".build")
    }

    /// The running executable's path: `/proc/self/exe` (symbolic links resolved), else `argv0`.
    private static func executablePath(_ argv0: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? argv0
    }

    /// The directory found, computed once (nil when none has both subdirectories).
    public static let directory: String? = candidates.first { dir in
        var isDir: ObjCBool = false
        return ["bootstrap-icons", "fonts"].allSatisfy {
            FileManager.default.fileExists(atPath: dir + "/" + $0, isDirectory: &isDir) && isDir.boolValue
        }
    }

    /// Bootstrap Icons' SVG files (`bag-fill.svg`, …).
    /// - Throws: `RasterError(.missingDependency)` (exit 69) naming the directories looked in
    ///   and how to install them when no directory was found.
    public static func iconDirectory() throws -> String { try subdirectory("bootstrap-icons", what: "Bootstrap Icons") }

    /// The setup's font files (`Jost[wght].ttf`).
    /// - Throws: `RasterError(.missingDependency)` (exit 69) naming the directories looked in
    ///   and how to install them when no directory was found.
    public static func fontDirectory() throws -> String { try subdirectory("fonts", what: "the Jost font") }

    private static func subdirectory(_ name: String, what: String) throws -> String {
        guard let d = directory else { throw missing(what, name, in: candidates) }
        return d + "/" + name
    }

    /// The error of a missing data directory: one sentence naming what is missing, where it was
    /// looked for, and how to install it.
    static func missing(_ what: String, _ name: String, in candidates: [String]) -> RasterError {
        let places = candidates.count < 2 ? candidates.joined()
            : candidates.dropLast().joined(separator: ", ") + " or " + candidates.last!
        return RasterError(.missingDependency, "\(what) is not installed: no share/cartrender/\(name) in \(places); \(setup)")
    }
}
