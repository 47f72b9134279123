import Foundation

/// A failure to write outputs (exit 73).
public struct OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// The directory a render writes into. Every file is written atomically: to a temporary file
/// in the same directory, then renamed over the final name, so a reader never sees half a file.
public struct OutputDirectory: Sendable {
    public let path: String

    /// Creates the directory (and parents) when missing and checks that it is writable.
    /// - Throws: `OutputError` when the path is a file or cannot be created or written.
    public init(path: String) throws {
        self.path = path
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw OutputError(path: path, reason: "exists and is not a directory") }
        } else {
            do { try fm.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                throw OutputError(path: path, reason: "cannot create the output directory (\(Self.reason(error)))")
            }
        }
        guard fm.isWritableFile(atPath: path) else { throw OutputError(path: path, reason: "the output directory is not writable") }
    }

    /// The full path of a file in the directory.
    public func url(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Writes `bytes` to `name` atomically.
    /// - Throws: `OutputError` (disk full, permissions…); the temporary file is removed.
    public func write(_ bytes: [UInt8], to name: String) throws {
        let final = url(name)
        let temp = url(".\(name).tmp-\(getpid())")
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw OutputError(path: final, reason: "cannot be written (\(String(cString: strerror(errno))))") }
        var offset = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buf in
            while offset < buf.count {
                let n = Foundation.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                offset += n
            }
        }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure != 0 {
            unlink(temp)
            throw OutputError(path: final, reason: "cannot be written (\(String(cString: strerror(failure))))")
        }
        guard rename(temp, final) == 0 else {
            let e = errno
            unlink(temp)
            throw OutputError(path: final, reason: "cannot be written (\(String(cString: strerror(e))))")
        }
    }

    /// Removes a file this program wrote earlier; a missing file is not an error.
    public func remove(_ name: String) {
        unlink(url(name))
    }

    static func reason(_ error: Error) -> String {
        if let e = error as? CocoaError, let u = e.userInfo[NSUnderlyingErrorKey] as? NSError {
            return String(cString: strerror(Int32(u.code)))
        }
        return (error as NSError).localizedDescription
    }
}
