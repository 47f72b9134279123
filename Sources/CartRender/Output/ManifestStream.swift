import CartRenderCore
import Foundation

/// The manifest of a render in progress: frame entries arrive in index order while frames are
/// rendered and go straight to a hidden file in the staging directory, so memory does not grow
/// with the number of frames; `finish` writes the manifest around them. The bytes are the same
/// as serializing a `Manifest` that holds every frame.
final class ManifestStream {
    private let staging: StagingArea
    /// The manifest's file name, which errors name: the partial file is an internal detail.
    private let name: String
    private let partName = ".frames.json.partial"
    private var part: Int32 = -1
    /// Frames written so far.
    private(set) var count = 0
    /// Names of the frame files the written frames list, in order (for `StagingArea.commit`).
    private(set) var fileNames: [String] = []

    /// - Parameter name: the manifest's file name (`manifest.json` or a shard's).
    init(staging: StagingArea, name: String) { self.staging = staging; self.name = name }

    deinit { if part >= 0 { close(part) } }

    /// Text of appended frames not written yet (written in blocks of about 64 KiB).
    private var buffered = ""

    /// Appends frame entries; call in index order.
    /// - Throws: `OutputError` when the staging file cannot be written; what encoding a frame's
    ///   state throws.
    func append(_ frames: [Manifest.Frame]) throws {
        for f in frames {
            buffered += (count == 0 ? "" : ",\n") + "    " + (try JSONValue(encoding: f)).serialized(prettyAt: 2)
            count += 1
            fileNames += f.files.map(\.name)
        }
        if buffered.utf8.count >= 1 << 16 { try flush() }
    }

    private func flush() throws {
        guard !buffered.isEmpty else { return }
        if part < 0 {
            part = FileSystemPath.open(staging.url(partName), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard part >= 0 else { throw staging.failure(name, errno) }
        }
        try write(Array(buffered.utf8), to: part)
        buffered = ""
    }

    /// Writes `manifest` (without frames of its own) with the appended frames as the staged
    /// manifest, and removes the partial file.
    /// - Throws: `OutputError` naming the manifest when a file cannot be written or read back.
    func finish(_ manifest: Manifest) throws {
        precondition(manifest.frames.isEmpty, "ManifestStream.finish: the frames were streamed")
        try flush()
        if part >= 0 { close(part); part = -1 }
        let fd = FileSystemPath.open(staging.url(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw staging.failure(name, errno) }
        defer { close(fd) }
        try manifest.serialized(streamingFrames: count,
                                writeHead: { try write(Array($0.utf8), to: fd) },
                                writeFrames: { try copyPart(to: fd) },
                                writeTail: { try write(Array($0.utf8), to: fd) })
        _ = FileSystemPath.unlink(staging.url(partName))
    }

    private func copyPart(to fd: Int32) throws {
        let src = FileSystemPath.open(staging.url(partName), O_RDONLY | O_CLOEXEC)
        guard src >= 0 else { throw staging.failure(name, errno) }
        defer { close(src) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(src, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw staging.failure(name, errno) }
            if n == 0 { return }
            try write(Array(buffer[0..<n]), to: fd)
        }
    }

    private func write(_ bytes: [UInt8], to fd: Int32) throws {
        var offset = 0
        try bytes.withUnsafeBytes { buf in
            while offset < buf.count {
                let n = Foundation.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 { if errno == EINTR { continue }; throw staging.failure(name, errno) }
                offset += n
            }
        }
    }
}
