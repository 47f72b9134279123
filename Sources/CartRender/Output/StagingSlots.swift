import CartRenderCore
import Foundation

/// Fixed storage, allocated once, that the fatal-signal handler can read without allocating:
/// for each staging directory of this process, the descriptors of `DIR` and of the staging
/// directory, its name's bytes, and whether it is being filled or committed.
package enum StagingSlots {
    package struct Slot {
        /// 0 free, 1 being filled, 2 being committed.
        var state: Int32
        var directory: Int32
        var staging: Int32
        /// The staging directory's name, NUL-terminated.
        var name: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                   UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    }
    static let capacity = 64
    nonisolated(unsafe) package static let table: UnsafeMutablePointer<Slot> = {
        let p = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        p.initialize(repeating: Slot(state: 0, directory: -1, staging: -1, name: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), count: capacity)
        return p
    }()
    /// A buffer for `getdents64`.
    nonisolated(unsafe) static let entries = UnsafeMutableRawPointer.allocate(byteCount: 16 << 10, alignment: 8)
    private static let lock = NSLock()

    /// Changes slot `i` from `old` to `new` state; nothing when it is in another state.
    static func change(_ i: Int?, from old: Int32, to new: Int32) {
        guard let i else { return }
        lock.withLock { if table[i].state == old { table[i].state = new } }
    }

    /// Takes a slot for a staging directory; nil when all are taken (the handler then cannot
    /// remove it, and the next run does).
    static func take(directory: Int32, staging: Int32, name: String) -> Int? {
        let bytes = FileSystemPath.bytes(name)
        guard bytes.count < 127 else { return nil }
        return lock.withLock {
            for i in 0..<capacity where table[i].state == 0 {
                table[i].directory = directory
                table[i].staging = staging
                withUnsafeMutableBytes(of: &table[i].name) { raw in
                    raw.initializeMemory(as: UInt8.self, repeating: 0)
                    raw.copyBytes(from: bytes)
                }
                table[i].state = 1
                return i
            }
            return nil
        }
    }

    /// Marks slot `i` as being committed (1 → 2) or filled again (2 → 1), or frees it (0).
    static func set(_ i: Int?, _ state: Int32) {
        guard let i else { return }
        lock.withLock { table[i].state = state }
    }

    /// In the signal handler: empties and removes every staging directory being filled.
    /// - Returns: false when a commit was under way.
    package static func removeAllFilling() -> Bool {
        var committing = false
        for i in 0..<capacity {
            let slot = table[i]
            if slot.state == 2 { committing = true }
            guard slot.state == 1 else { continue }
            _ = lseek(slot.staging, 0, SEEK_SET)
            while true {
                let n = glibcGetdents64(slot.staging, entries, 16 << 10)
                if n <= 0 { break }
                var offset = 0
                while offset < n {
                    let record = entries + offset
                    let length = Int(record.load(fromByteOffset: 16, as: UInt16.self))
                    let entryName = record.advanced(by: 19).assumingMemoryBound(to: CChar.self)
                    if !(entryName[0] == 46 && (entryName[1] == 0 || (entryName[1] == 46 && entryName[2] == 0))) {
                        _ = unlinkat(slot.staging, entryName, 0)
                    }
                    offset += length
                }
            }
            withUnsafeBytes(of: table[i].name) { raw in
                _ = unlinkat(slot.directory, raw.baseAddress!.assumingMemoryBound(to: CChar.self), AT_REMOVEDIR)
            }
        }
        return !committing
    }
}

/// glibc's `getdents64(2)` wrapper (2.30 and later), which Swift's Glibc module does not declare.
@_silgen_name("getdents64")
private func glibcGetdents64(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int
