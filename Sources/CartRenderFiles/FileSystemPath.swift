import CartRenderCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File system paths as Swift strings that keep every byte, so that any name the file system
/// accepts works: Linux names are bytes, and not every sequence of bytes is UTF-8
/// (`$'bad\xff\xfename'`), while a `String` holds only Unicode.
///
/// - A path read from the command line (``commandLineArguments()``) or a directory
///   (``contentsOfDirectory(_:)``) is decoded as UTF-8, except that each byte that is not part
///   of valid UTF-8 becomes the scalar U+10FF00 + byte (U+10FF80 … U+10FFFF, the end of the
///   last private use plane). So that the decoding can be undone, a name that holds one of those
///   scalars as valid UTF-8 has the four bytes of it decoded the same way.
/// - ``bytes(_:)`` undoes it: those scalars become their byte again, everything else its UTF-8.
///   Every call below hands the file system exactly the bytes the user gave; strings without
///   such scalars (all valid UTF-8 names) are passed as they are.
/// - ``display(_:)`` writes each such byte as `\xFF` for messages.
///
/// A scene file is JSON, hence Unicode: a path in it that holds U+10FF80 … U+10FFFF names the
/// bytes those scalars stand for.
///
/// ```swift
/// let out = FileSystemPath.string(fromBytes: [0x62, 0xFF])    // "b\u{10FFFF}"
/// FileSystemPath.bytes(out)                                   // [0x62, 0xFF]
/// FileSystemPath.display(out)                                 // "b\xFF"
/// ```
public enum FileSystemPath {
    /// The scalar that stands for byte 0: byte `b` (≥ 0x80) is `base + b`.
    static let base: UInt32 = 0x10FF00
    /// Scalars that stand for a byte.
    static let escapes: ClosedRange<UInt32> = 0x10FF80...0x10FFFF

    /// The string for a name's bytes (without a terminating NUL).
    /// - Complexity: O(bytes).
    public static func string<Bytes: Collection>(fromBytes bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let b = Array(bytes)
        var scalars = String.UnicodeScalarView()
        func escape(_ byte: UInt8) { scalars.append(Unicode.Scalar(base + UInt32(byte))!) }
        var i = 0
        while i < b.count {
            let lead = b[i]
            if lead < 0x80 { scalars.append(Unicode.Scalar(lead)); i += 1; continue }
            // The length of the sequence `lead` starts, and the bits it holds (RFC 3629).
            let length: Int, bits: UInt32
            switch lead {
            case 0xC2...0xDF: length = 2; bits = UInt32(lead & 0x1F)
            case 0xE0...0xEF: length = 3; bits = UInt32(lead & 0x0F)
            case 0xF0...0xF4: length = 4; bits = UInt32(lead & 0x07)
            default: escape(lead); i += 1; continue
            }
            var value = bits
            var valid = i + length <= b.count
            if valid {
                for k in 1..<length {
                    guard b[i + k] & 0xC0 == 0x80 else { valid = false; break }
                    value = value << 6 | UInt32(b[i + k] & 0x3F)
                }
            }
            // Overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8.
            if valid && ((length == 3 && value < 0x800) || (length == 4 && value < 0x10000) || (0xD800...0xDFFF).contains(value) || value > 0x10FFFF) {
                valid = false
            }
            guard valid, let scalar = Unicode.Scalar(value) else { escape(lead); i += 1; continue }
            if escapes.contains(value) { b[i..<i + length].forEach(escape) } else { scalars.append(scalar) }
            i += length
        }
        return String(scalars)
    }

    /// The bytes `path` stands for (see the type's documentation), without a terminating NUL.
    public static func bytes(_ path: String) -> [UInt8] {
        guard needsDecoding(path) else { return Array(path.utf8) }
        var out: [UInt8] = []
        for u in path.unicodeScalars {
            if escapes.contains(u.value) { out.append(UInt8(u.value - base)) } else { out += Array(String(u).utf8) }
        }
        return out
    }

    /// Calls `body` with `path` as the NUL-terminated bytes the file system gets.
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        guard needsDecoding(path) else { return try path.withCString(body) }
        let bytes = self.bytes(path).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// `path` for a message: each byte that is not UTF-8 as `\xFF`.
    public static func display(_ text: String) -> String {
        guard needsDecoding(text) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            if escapes.contains(u.value) {
                out.append(contentsOf: String(format: "\\x%02X", u.value - base).unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    /// Whether `text` holds a scalar that stands for a byte (U+10FF80 … U+10FFFF: UTF-8
    /// F4 8F BE 80 … F4 8F BF BF).
    static func needsDecoding(_ text: String) -> Bool {
        text.utf8.contains(0xF4) && text.unicodeScalars.contains { escapes.contains($0.value) }
    }

    /// The working directory, decoded as a path (`FileManager.currentDirectoryPath` would replace
    /// bytes that are not UTF-8); "." when it cannot be found.
    public static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return string(fromBytes: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }

    /// `path` made absolute against the working directory (unchanged when it starts with `/`).
    public static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : currentDirectory() + "/" + path
    }

    /// The program's arguments without its name, each decoded as a path
    /// (`CommandLine.arguments` would replace bytes that are not UTF-8 with U+FFFD); none when
    /// the runtime could not read them (no /proc).
    public static func commandLineArguments() -> [String] {
        (1..<max(1, Int(CommandLine.argc))).compactMap { i in
            CommandLine.unsafeArgv[i].map { string(fromBytes: UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) }
        }
    }
}

/// The system calls cartrender makes on paths, taking them as ``FileSystemPath`` strings: each
/// returns what the C call returns and leaves `errno` as it left it.
extension FileSystemPath {
    /// `open(2)` of `path` with `flags` and, for a new file, `mode`: a descriptor, or -1 and `errno`.
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        withCString(path) { Glibc.open($0, flags, mode) }
    }

    /// `rename(2)`: 0, or -1 and `errno`.
    public static func rename(_ from: String, _ to: String) -> Int32 {
        withCString(from) { f in withCString(to) { t in Glibc.rename(f, t) } }
    }

    /// `unlink(2)`: 0, or -1 and `errno`.
    public static func unlink(_ path: String) -> Int32 { withCString(path) { Glibc.unlink($0) } }

    /// `mkdir(2)` with permission bits `mode`: 0, or -1 and `errno`.
    public static func mkdir(_ path: String, _ mode: mode_t) -> Int32 { withCString(path) { Glibc.mkdir($0, mode) } }

    /// `rmdir(2)`: 0, or -1 and `errno`.
    public static func rmdir(_ path: String) -> Int32 { withCString(path) { Glibc.rmdir($0) } }

    /// `stat(2)` into `info`, following links: 0, or -1 and `errno`.
    public static func stat(_ path: String, _ info: inout Glibc.stat) -> Int32 { withCString(path) { cStat($0, &info) } }

    /// `lstat(2)` into `info`, not following a link: 0, or -1 and `errno`.
    public static func lstat(_ path: String, _ info: inout Glibc.stat) -> Int32 { withCString(path) { cLstat($0, &info) } }

    /// `access(2)` for `mode` (`F_OK`, `R_OK`…): 0, or -1 and `errno`.
    public static func access(_ path: String, _ mode: Int32) -> Int32 { withCString(path) { Glibc.access($0, mode) } }

    /// `readlink(2)`: the target of the symbolic link at `path` as stored; nil when `path` is
    /// not a link (or cannot be read), with `errno` set.
    public static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let n = withCString(path) { p in buffer.withUnsafeMutableBufferPointer { Glibc.readlink(p, $0.baseAddress!, $0.count) } }
        guard n >= 0 else { return nil }
        return string(fromBytes: buffer[..<n].map { UInt8(bitPattern: $0) })
    }

    /// `mkdtemp(3)` on `template` (ending in `XXXXXX`): the directory made, or nil with `errno` set.
    public static func makeTemporaryDirectory(_ template: String) -> String? {
        var bytes = self.bytes(template).map { CChar(bitPattern: $0) } + [0]
        return bytes.withUnsafeMutableBufferPointer { buf in
            Glibc.mkdtemp(buf.baseAddress!).map { string(fromBytes: UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) }
        }
    }

    /// Whether `path` (following symbolic links) is a directory; nil when nothing is there (or
    /// it cannot be looked at).
    public static func isDirectory(_ path: String) -> Bool? {
        var info = Glibc.stat()
        guard Self.stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// The names in the directory at `path` (not `.` and `..`), sorted by their bytes, decoded
    /// as paths; nil when it cannot be listed (missing, not a directory, no permission).
    public static func contentsOfDirectory(_ path: String) -> [String]? {
        DirectoryHandle(path: path)?.names()
    }

    /// Writes all of `bytes` to the open descriptor `fd`, retrying after `EINTR`.
    /// - Returns: 0, or the `errno` of the write that failed (`ENOSPC`, `EFBIG`, `EPIPE`…).
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32 {
        var offset = 0
        return bytes.withUnsafeBytes { buf in
            while offset < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 { if errno == EINTR { continue }; return errno }
                offset += n
            }
            return 0
        }
    }
}

// `stat` and `lstat` by name inside `FileSystemPath` would be the struct's initializer.
private func cStat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { stat(path, &info) }
private func cLstat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { lstat(path, &info) }
