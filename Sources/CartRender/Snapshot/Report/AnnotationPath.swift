import CartRenderCore
import CartRenderRaster
import Foundation

/// A path as CI annotations want it (JUnit's `file`, the action's `::error file=`): relative to
/// the job's workspace, so that GitHub, GitLab and the JUnit reporters find the file in the
/// repository. `./scenes/a.json`, `/work/repo/scenes/a.json` and `scenes/sub/../a.json` all
/// give `scenes/a.json`.
///
/// `.` and `..` are resolved by the text of the path, links are not followed (as
/// `realpath -ms`, which the action's script uses for the same rule); a path outside the
/// workspace stays absolute.
package enum AnnotationPath {
    /// The environment variable GitHub Actions sets to the checkout's directory.
    static let workspaceVariable = "GITHUB_WORKSPACE"

    /// `GITHUB_WORKSPACE` when set (and not empty), else the working directory: the one place
    /// the default workspace is decided (``relative(_:to:)`` with nil asks it of this process's
    /// environment).
    package static func workspace(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let w = environment[workspaceVariable], !w.isEmpty { return w }
        return FileSystemPath.currentDirectory()
    }

    /// `path` relative to `workspace` (both taken from the working directory when relative;
    /// nil: ``workspace(_:)``), normalised; absolute and normalised when it is not inside
    /// `workspace`.
    package static func relative(_ path: String, to workspace: String?) -> String {
        let full = AssetFolder.components(FileSystemPath.absolute(path))
        let base = AssetFolder.components(FileSystemPath.absolute(workspace ?? Self.workspace()))
        guard full.count >= base.count, Array(full.prefix(base.count)) == base else { return "/" + full.joined(separator: "/") }
        return full.count == base.count ? "." : full.dropFirst(base.count).joined(separator: "/")
    }
}
