/// glibc's `mallopt(3)`, declared here because Swift's Glibc module does not include `<malloc.h>`.
@_silgen_name("mallopt")
private func glibcMallopt(_ param: Int32, _ value: Int32) -> Int32

/// Process-wide allocator settings for rendering.
public enum MemoryTuning {
    /// Frames are multi-megabyte pixel buffers allocated and freed by several threads. glibc
    /// raises its mmap threshold after the first such buffers are freed and then serves them
    /// from the heap, where fragmentation makes resident memory grow with the number of frames.
    /// A fixed 1 MiB threshold (`M_MMAP_THRESHOLD`, -3) keeps large buffers in their own
    /// mappings, returned to the system when freed. Call once at startup.
    public static func keepLargeBuffersMapped() {
        _ = glibcMallopt(-3, 1 << 20)
    }
}
