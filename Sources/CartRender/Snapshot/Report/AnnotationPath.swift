import CartRenderCore
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

    /// `GITHUB_WORKSPACE` when set (and not empty), else the working directory.
    package static func workspace(_ environment: [String: String]) -> String {
        if let w = environment[workspaceVariable], !w.isEmpty { return w }
        return FileSystemPath.currentDirectory()
    }

    /// `path` relative to `workspace` (both taken from the working directory when relative),
    /// normalised; absolute and normalised when it is not inside `workspace`.
    package static func relative(_ path: String, to workspace: String) -> String {
        let cwd = FileSystemPath.currentDirectory()
        let full = normalised(path.hasPrefix("/") ? path : cwd + "/" + path)
        let base = normalised(workspace.hasPrefix("/") ? workspace : cwd + "/" + workspace)
        if full == base { return "." }
        let prefix = base == "/" ? "/" : base + "/"
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
    }

    /// An absolute path with `.`, `..` and repeated `/` resolved by its text.
    static func normalised(_ absolute: String) -> String {
        var parts: [Substring] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
