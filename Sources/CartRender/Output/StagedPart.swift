import CartRenderCore
import CartRenderRaster
import Foundation

/// Text that grows with a render's frames (a manifest's frame entries, the viewer's frame data),
/// kept in a hidden file of the staging directory instead of memory: appended in frame order,
/// written in blocks of about 64 KiB, then copied into a staged file between a head and a tail
/// (``StagedPart/writeFile(head:tail:)``), so memory does not grow with the number of frames.
final class StagedPart {
    private let staging: StagingArea
    /// The part's file name in the staging directory (hidden: an internal detail).
    private let partName: String
    /// The staged file the part goes into, which errors name.
    private let name: String
    private var part: Int32 = -1
    /// Text appended and not written yet.
    private var buffered = ""

    /// - Parameters:
    ///   - name: the staged file the part ends in (`manifest.json`, `index.html`); errors name it.
    ///   - partName: the hidden file that holds the part meanwhile.
    init(staging: StagingArea, name: String, partName: String) {
        self.staging = staging; self.name = name; self.partName = partName
    }

    deinit { if part >= 0 { close(part) } }

    /// Appends `text`.
    /// - Throws: `OutputError` naming ``name`` when the part cannot be written.
    func append(_ text: String) throws {
        buffered += text
        if buffered.utf8.count >= 1 << 16 { try flush() }
    }

    private func flush() throws {
        guard !buffered.isEmpty else { return }
        if part < 0 {
            part = try staging.create(partName, naming: name)
        }
        try write(Array(buffered.utf8), to: part, hasher: nil)
        buffered = ""
    }

    /// Writes the staged file ``name``: `head`, the part, `tail`; then removes the part.
    /// - Returns: the SHA-256 of the file written.
    /// - Throws: `OutputError` naming ``name`` when a file cannot be written or read back.
    @discardableResult
    func writeFile(head: String, tail: String) throws -> String {
        try flush()
        if part >= 0 { close(part); part = -1 }
        let fd = try staging.create(name, naming: name)
        defer { close(fd) }
        let hasher = Checksum.Hasher()
        try write(Array(head.utf8), to: fd, hasher: hasher)
        try copyPart(to: fd, hasher: hasher)
        try write(Array(tail.utf8), to: fd, hasher: hasher)
        staging.removeStaged(partName)
        let sha256 = hasher.finish()
        staging.register(name, sha256: sha256)
        return sha256
    }

    private func copyPart(to fd: Int32, hasher: Checksum.Hasher) throws {
        let src = staging.openStaged(partName)
        if src < 0 && errno == ENOENT { return }  // nothing was appended
        guard src >= 0 else { throw staging.failure(name, errno) }
        defer { close(src) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(src, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw staging.failure(name, errno) }
            if n == 0 { return }
            try write(Array(buffer[0..<n]), to: fd, hasher: hasher)
        }
    }

    private func write(_ bytes: [UInt8], to fd: Int32, hasher: Checksum.Hasher?) throws {
        let e = FileSystemPath.writeAll(bytes, to: fd)
        if e != 0 { throw staging.failure(name, e) }
        hasher?.update(bytes)
    }
}
