import CFFmpegRuntime

/// FFmpeg's functions (libavformat, libavcodec, libswscale, libavutil), loaded with dlopen the
/// first time a video is encoded or decoded, not linked: a render without video starts without
/// FFmpeg and the hundred libraries it brings (see `ffmpeg_runtime.h`).
package enum FFmpeg {
    private static let loaded: Result<cr_ffmpeg, RasterError> = {
        var message = [CChar](repeating: 0, count: 512)
        guard let table = cr_ffmpeg_load(&message, message.count) else {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            guard cr_ffmpeg_load_failure_is_missing() != 0 else {
                // Installed but not loadable: most often a memory or address-space limit.
                return .failure(RasterError(.library, "\(reason): it is installed but could not be mapped (out of memory, or an address-space limit such as ulimit -v); raise the limit or free memory"))
            }
            return .failure(RasterError(.missingDependency, "\(reason); install the Debian packages libavformat-dev, libavcodec-dev, libswscale-dev and libavutil-dev"))
        }
        return .success(table.pointee)
    }()

    /// Loads the libraries and their functions, once per process.
    /// - Throws: `RasterError(.missingDependency)` (69) naming the library or function that is
    ///   missing; `RasterError(.library)` (70) when a library is installed but dlopen could not
    ///   load it (out of memory or address space).
    package static func load() throws { _ = try loaded.get() }

    /// The functions, after `load()` has succeeded (every use of FFmpeg starts with it).
    package static var functions: cr_ffmpeg {
        guard case .success(let table) = loaded else { preconditionFailure("FFmpeg.functions before FFmpeg.load()") }
        return table
    }
}
