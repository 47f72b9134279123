import CartRender
import CartRenderCore
import Foundation

extension RenderCommand {
    /// `--color-scheme light,dark -o docs/fly.gif`: one render per appearance in this process,
    /// each to its file (``NamedOutput/path(_:variant:)``: `docs/fly-light.gif`,
    /// `docs/fly-dark.gif`; `--manifest m.json` likewise), then the ``PictureElement`` on
    /// standard output, or into `--picture-html FILE`.
    /// - Throws: `UsageError` for a scene with a `"variants"` matrix; what a render throws.
    func renderAppearances() throws -> ExitCode {
        guard let file = options.outputFile else { preconditionFailure("RenderCommand.parse requires a named file") }
        if try scene.selectedVariants() != nil {
            throw UsageError("--color-scheme \(scene.colorSchemes.map(\.rawValue).joined(separator: ",")): \(scene.sceneName) has a \"variants\" matrix; give it a colorScheme axis instead")
        }
        // Every file of every appearance, and the page, checked before the first frame is drawn
        // and replaced together after the last.
        let schemes = scene.colorSchemes
        let paths = schemes.flatMap { scheme in
            [NamedOutput.path(file, variant: scheme.rawValue)] + (options.manifestFile.map { [NamedOutput.path($0, variant: scheme.rawValue)] } ?? [])
        } + (pictureHTML.map { [$0] } ?? [])
        let named = try namedFiles(paths)
        var sources: [(scheme: ColorScheme, path: String)] = []
        var size = (width: 0, height: 0), alt = ""
        do {
            for scheme in schemes {
                var one = self
                one.scene.colorScheme = scheme
                one.scene.colorSchemes = [scheme]
                one.options.outputFile = NamedOutput.path(file, variant: scheme.rawValue)
                one.options.manifestFile = options.manifestFile.map { NamedOutput.path($0, variant: scheme.rawValue) }
                one.options.namedFiles = named
                let renderer = try one.scene.makeRenderer()
                let status = try one.render(renderer: renderer)
                guard status == .success else { named.discard(); return status }
                if sources.isEmpty {
                    size = (Int(renderer.scene.device.width.rounded()), Int(renderer.scene.device.height.rounded()))
                    alt = renderer.textAlternative(worker: try renderer.makeWorker())
                }
                sources.append((scheme, one.options.outputFile!))
            }
            if let page = pictureHTML { sources = sources.map { ($0.scheme, PictureElement.path($0.path, from: page)) } }
            let picture = PictureElement(sources: sources, width: size.width, height: size.height, alt: alt).html
            if let path = pictureHTML { try named.stage(Array(picture.utf8), as: path, cancellation: nil) }
            try named.commit(cancellation: nil)
            if let path = pictureHTML {
                if !quiet { Stderr.line("wrote the <picture> element to \(path)") }
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
