import CartRender
import CartRenderCore
import Foundation

extension RenderCommand {
    /// Renders each variant as a complete render into its subdirectory of `--out`, then writes
    /// `variants.json` there (and with `--viewer` the matrix's `index.html`, ``VariantsIndexPage``). Stops at the first variant that does not succeed (interrupted):
    /// the variants before it are complete, `variants.json` is not written.
    /// With a named animation file (`-o docs/fly.gif`) each variant is its own file beside it,
    /// named after the variant (``NamedOutput/path(_:variant:)``: `docs/fly-dark-rtl.gif`), and
    /// no `variants.json` is written.
    /// - Throws: what a render throws.
    func renderVariants(_ variants: [SceneVariant]) throws -> ExitCode {
        // Every variant's canvas is checked before the first is drawn (a `device` variant may be larger).
        for variant in variants {
            let size = Renderer.pixelSize(of: variant.scene)
            try OutputFormat.checkCanvas(options.formats, width: size.width, height: size.height, setBy: variant.scene.canvasMember)
        }
        if let file = options.outputFile {
            // Every variant's files checked before the first frame, replaced together after the last.
            let paths = variants.flatMap { v in
                [NamedOutput.path(file, variant: v.name)] + (options.manifestFile.map { [NamedOutput.path($0, variant: v.name)] } ?? [])
            }
            let named = try namedFiles(paths)
            do {
                for variant in variants {
                    var one = self
                    one.options.outputFile = NamedOutput.path(file, variant: variant.name)
                    one.options.manifestFile = options.manifestFile.map { NamedOutput.path($0, variant: variant.name) }
                    one.options.namedFiles = named
                    let status = try one.render(renderer: try scene.makeRenderer(for: variant.scene))
                    guard status == .success else { named.discard(); return status }
                }
                try named.commit(cancellation: nil)
            } catch {
                named.discard()
                throw error
            }
            return .success
        }
        let top = try OutputDirectory(path: options.outputDirectory)
        var rendered: [(variant: SceneVariant, frames: Int)] = []
        for variant in variants {
            var one = self
            one.options.outputDirectory = try OutputDirectory.subdirectory(variant.name, of: top.path)
            let renderer = try scene.makeRenderer(for: variant.scene)
            let status = try one.render(renderer: renderer)
            guard status == .success else { return status }
            rendered.append((variant, options.shard == nil ? renderer.frameCount : 0))
        }
        let listing = VariantsFile.json(rendered)
        var files = [(name: VariantsFile.name, bytes: Array(listing.serialized(pretty: true).utf8))]
        if options.viewer { files.append((ViewerSink.fileName, Array(VariantsIndexPage.html(for: try VariantsFile.Listing(listing)).utf8))) }
        try StagingArea.writeFiles(files, into: top)
        return .success
    }
}
