#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an animation encoder puts its bytes.
public enum AnimationDestination: Equatable, Sendable {
    /// Keep the encoded file in memory; read it from the encoder's `encodedBytes` after `finish()`.
    case memory
    /// Write the file at this path. Bytes go to a temporary file beside it (`.<name>.partial`),
    /// renamed to `path` by a successful `finish()`, so a failed encode never leaves a truncated
    /// animation behind.
    case file(path: String)
}

/// An append-only byte sink behind an `AnimationDestination`. Not thread-safe.
final class AnimationByteSink {
    let destination: AnimationDestination
    private(set) var bytes: [UInt8] = []
    private(set) var byteCount = 0
    private var file: UnsafeMutablePointer<FILE>?
    private let partialPath: String?
    /// The first write failure, kept so a C callback (which can only return a count) can report it.
    private(set) var failure: AnimationEncodingError?

    /// - Throws: `AnimationEncodingError.writeFailed` when the temporary file cannot be created.
    init(_ destination: AnimationDestination) throws {
        self.destination = destination
        switch destination {
        case .memory:
            partialPath = nil
        case let .file(path):
            let partial = AnimationByteSink.partialPath(for: path)
            guard let handle = fopen(partial, "wb") else {
                throw AnimationEncodingError.writeFailed(path: path, message: AnimationByteSink.systemMessage())
            }
            file = handle
            partialPath = partial
        }
    }

    deinit {
        if let file {
            fclose(file)
        }
        if let partialPath, failure != nil || file != nil {
            unlink(partialPath)
        }
    }

    /// Appends `buffer`. Returns false (and remembers why) when the file cannot be written.
    @discardableResult
    func write(_ buffer: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        switch destination {
        case .memory:
            bytes.append(contentsOf: buffer)
        case let .file(path):
            guard let file else { return false }
            if buffer.count > 0, fwrite(buffer.baseAddress, 1, buffer.count, file) != buffer.count {
                failure = .writeFailed(path: path, message: AnimationByteSink.systemMessage())
                return false
            }
        }
        byteCount += buffer.count
        return true
    }

    /// Appends `bytes` (see `write(_:)`).
    func write(_ bytes: [UInt8]) throws {
        bytes.withUnsafeBytes { _ = write($0) }
        if let failure { throw failure }
    }

    /// Flushes and closes the file and moves it to its final path.
    /// - Throws: `AnimationEncodingError.writeFailed` with the system's reason.
    func commit() throws {
        if let failure { throw failure }
        guard case let .file(path) = destination, let partialPath, let handle = file else { return }
        file = nil
        // A full disk may only show when buffered bytes are flushed; keep the first reason.
        let flushError = fflush(handle) == 0 ? nil : AnimationByteSink.systemMessage()
        let closeError = fclose(handle) == 0 ? nil : AnimationByteSink.systemMessage()
        if let message = flushError ?? closeError {
            failure = .writeFailed(path: path, message: message)
            throw failure!
        }
        if rename(partialPath, path) != 0 {
            failure = .writeFailed(path: path, message: AnimationByteSink.systemMessage())
            throw failure!
        }
    }

    private static func partialPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return directory + "." + name + ".partial"
    }

    private static func systemMessage() -> String {
        String(cString: strerror(errno))
    }
}
