import CartRender
import CartRenderCore
import CartRenderRaster

extension Help {
    /// `cartrender --version` and `cartrender version`: cartrender's version (the file VERSION)
    /// on the first line, then one line per C library that draws or encodes, with the version in
    /// use and what it is used for. FFmpeg, loaded only for video, is loaded to read its version;
    /// when it cannot be, its line says why instead (the command still succeeds).
    public static var version: String {
        let ffmpeg: String
        switch LibraryVersions.ffmpeg {
        case .success(let v): ffmpeg = "FFmpeg \(v) (MP4, WebM; loaded at run time)"
        case .failure(let e): ffmpeg = "FFmpeg not loaded (MP4, WebM): \(e.message)"
        }
        return """
            cartrender \(Manifest.version)
            Cairo \(LibraryVersions.cairo) (drawing)
            Pango \(LibraryVersions.pango) (text)
            librsvg \(LibraryVersions.librsvg) (SVG images and icons)
            libpng \(LibraryVersions.libpng), zlib \(LibraryVersions.zlib) (PNG, APNG)
            giflib \(LibraryVersions.giflib), libimagequant \(LibraryVersions.libimagequant) (GIF)
            libwebp \(LibraryVersions.libwebp) (WebP)
            \(ffmpeg)
            """
    }
}
