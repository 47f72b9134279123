import Foundation

/// The files the setup installs besides the Debian packages (`make assets`, part of `make deps`):
/// Bootstrap Icons 1.11.3 (MIT) in `bootstrap-icons/` and Jost 3.710 (OFL-1.1) in `fonts/`, from
/// PyPI, under a directory `share/cartrender`.
///
/// The directory is looked for, in this order: `share/cartrender` in the executable's directory
/// and its three parents (`PREFIX/bin/cartrender` finds `PREFIX/share/cartrender` after
/// `make install`; `.build/release/cartrender`, `.build/<triple>/debug/…` and the test bundles
/// find `.build/share/cartrender`), then this checkout's `.build/share/cartrender` (a package
/// that depends on a checkout of cartrender by path), then `/usr/local/share/cartrender` and
/// `/usr/share/cartrender`. The first that holds both subdirectories is used.
public enum ProjectData {
    /// What the setup installs, for messages.
    static let setup = "run `make deps` in the cartrender checkout (or `make install`)"

    /// The directories looked in, in order.
    public static var candidates: [String] {
        var out: [String] = []
        var dir = URL(fileURLWithPath: CommandLine.arguments.first.map(Self.executablePath) ?? "/").deletingLastPathComponent()
        for _ in 0..<4 {
            out.append(dir.appendingPathComponent("share/cartrender").path)
            dir = dir.deletingLastPathComponent()
        }
        // Sources/CartRenderRaster/Raster/ProjectData.swift → the checkout.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        out.append(checkout.appendingPathComponent(".build/share/cartrender").path)
        out += ["/usr/local/share/cartrender", "/usr/share/cartrender"]
        return out
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
    /// - Throws: `RasterError(.missingDependency)` naming the setup when no directory was found.
    public static func iconDirectory() throws -> String { try subdirectory("bootstrap-icons", what: "Bootstrap Icons") }

    /// The setup's font files (`Jost[wght].ttf`).
    /// - Throws: `RasterError(.missingDependency)` naming the setup when no directory was found.
    public static func fontDirectory() throws -> String { try subdirectory("fonts", what: "the Jost font") }

    private static func subdirectory(_ name: String, what: String) throws -> String {
        guard let d = directory else {
            throw RasterError(.missingDependency, "\(what) is not installed (looked for share/cartrender/\(name) in \(candidates.joined(separator: ", "))); \(setup)")
        }
        return d + "/" + name
    }
}
