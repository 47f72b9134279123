/// glibc's `mallopt(3)`, declared here because Swift's Glibc module does not include `<malloc.h>`.
@_silgen_name("mallopt")
private func glibcMallopt(_ param: Int32, _ value: Int32) -> Int32

/// Process-wide allocator settings for rendering.
public enum MemoryTuning {
    /// glibc's `mallopt` parameters (`<malloc.h>`).
    private static let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3, arenaMax: Int32 = -8

    /// Sets glibc's allocator up for a render: one arena, buffers up to 32 MiB from the heap, and
    /// up to 256 MiB of freed heap kept for reuse. Call once at startup, before other threads.
    ///
    /// libwebp's lossless encoder and libimagequant allocate and free several buffers of 1–22 MB
    /// for every rectangle they compress. Given their own mappings (glibc's default above its
    /// mmap threshold), each is faulted in and zeroed by the kernel page by page, and unmapped
    /// again: about 2.3 GB of fresh pages and 1.4 s of system time for `--format webp` of the
    /// default scene at 3x (`perf stat -e page-faults`). From the heap they reuse memory already
    /// mapped. One arena, shared by every thread, keeps the peak flat in the frame count: with
    /// an arena per thread each one grows to its own high-water mark, and threads that the
    /// encoders start later pick other arenas. (`--format webp` of a 10 s scene at 3x peaked
    /// at 323, 307 and 319 MB for 61, 601 and 2401 frames; `Scripts/rss-render.sh` checks the
    /// PNG and SVG frames.)
    public static func configureAllocator() {
        _ = glibcMallopt(arenaMax, 1)
        _ = glibcMallopt(mmapThreshold, 32 << 20)
        _ = glibcMallopt(trimThreshold, 256 << 20)
    }
}
