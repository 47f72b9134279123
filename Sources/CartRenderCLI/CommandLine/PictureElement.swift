import CartRender
import CartRenderCore
import Foundation

/// The `<picture>` element that shows a render's light or dark file as the reader's system
/// appearance asks (`prefers-color-scheme`), as GitHub READMEs and documentation sites switch
/// pictures: a `<source>` per appearance, then an `<img>` of the first file for browsers
/// without `<picture>`, sized in points (CSS px) so a 2x or 3x file is sharp on such displays.
struct PictureElement: Equatable {
    /// Each appearance's file as the page refers to it (the paths as given on the command line,
    /// or relative to the page's folder: ``path(_:from:)``).
    var sources: [(scheme: ColorScheme, path: String)]
    /// The screen's size in points.
    var width: Int
    var height: Int
    /// The image's text alternative.
    var alt: String

    static func == (a: PictureElement, b: PictureElement) -> Bool { a.html == b.html }

    /// `file` as the page `page` (`--picture-html docs/snippet.html`) refers to it: a URL path
    /// relative to the page's folder (`fly-light.gif`, `../img/fly-light.gif`), both paths
    /// resolved against the working directory; each component percent-encoded.
    static func path(_ file: String, from page: String) -> String {
        func folder(_ path: String) -> String {
            let d = (path as NSString).deletingLastPathComponent
            return d.isEmpty ? "." : d
        }
        let name = (file as NSString).lastPathComponent
        return HTMLReport.relativeDirectory(from: folder(page), to: folder(file))
            + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)
    }

    var html: String {
        var lines = ["<picture>"]
        for s in sources {
            lines.append("  <source media=\"(prefers-color-scheme: \(s.scheme.rawValue))\" srcset=\"\(Escaping.html(s.path))\">")
        }
        lines.append("  <img alt=\"\(Escaping.html(alt))\" src=\"\(Escaping.html(sources[0].path))\" width=\"\(width)\" height=\"\(height)\">")
        lines.append("</picture>")
        return lines.joined(separator: "\n") + "\n"
    }
}
