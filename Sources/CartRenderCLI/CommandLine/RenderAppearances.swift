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

extension CLI {
    /// `--color-scheme light,dark -o docs/fly.gif`: one render per appearance in this process,
    /// each to its file (``NamedOutput/path(_:variant:)``: `docs/fly-light.gif`,
    /// `docs/fly-dark.gif`; `--manifest m.json` likewise), then the ``PictureElement`` on
    /// standard output, or into `--picture-html FILE`.
    /// - Throws: `UsageError` for a scene with a `"variants"` matrix; what a render throws.
    static func renderAppearances(_ command: RenderCommand) throws -> ExitCode {
        guard let file = command.options.outputFile else { preconditionFailure("RenderCommand.parse requires a named file") }
        if try command.scene.selectedVariants() != nil {
            throw UsageError("--color-scheme \(command.scene.colorSchemes.map(\.rawValue).joined(separator: ",")): \(command.scene.sceneName) has a \"variants\" matrix; give it a colorScheme axis instead")
        }
        // Every file of every appearance, and the page, checked before the first frame is drawn
        // and replaced together after the last.
        let schemes = command.scene.colorSchemes
        let paths = schemes.flatMap { scheme in
            [NamedOutput.path(file, variant: scheme.rawValue)] + (command.options.manifestFile.map { [NamedOutput.path($0, variant: scheme.rawValue)] } ?? [])
        } + (command.pictureHTML.map { [$0] } ?? [])
        let named = try namedFiles(for: command, paths)
        var sources: [(scheme: ColorScheme, path: String)] = []
        var size = (width: 0, height: 0), alt = ""
        do {
            for scheme in schemes {
                var one = command
                one.scene.colorScheme = scheme
                one.scene.colorSchemes = [scheme]
                one.options.outputFile = NamedOutput.path(file, variant: scheme.rawValue)
                one.options.manifestFile = command.options.manifestFile.map { NamedOutput.path($0, variant: scheme.rawValue) }
                one.options.namedFiles = named
                let renderer = try one.scene.makeRenderer()
                let status = try render(one, renderer: renderer)
                guard status == .success else { named.discard(); return status }
                if sources.isEmpty {
                    size = (Int(renderer.scene.device.width.rounded()), Int(renderer.scene.device.height.rounded()))
                    alt = renderer.textAlternative(worker: try renderer.makeWorker())
                }
                sources.append((scheme, one.options.outputFile!))
            }
            if let page = command.pictureHTML { sources = sources.map { ($0.scheme, PictureElement.path($0.path, from: page)) } }
            let picture = PictureElement(sources: sources, width: size.width, height: size.height, alt: alt).html
            if let path = command.pictureHTML { try named.stage(Array(picture.utf8), as: path, cancellation: nil) }
            try named.commit(cancellation: nil)
            if let path = command.pictureHTML {
                if !command.quiet { Stderr.line("wrote the <picture> element to \(path)") }
            } else {
                StandardOutput.print(picture, terminator: "")
            }
        } catch {
            named.discard()
            throw error
        }
        return .success
    }
}
