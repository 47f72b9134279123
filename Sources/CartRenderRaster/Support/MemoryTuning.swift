import CartRenderCore
import Glibc

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

/// How many drawing workers fit in the address space the process may use (`ulimit -v`,
/// `RLIMIT_AS`), so that a run under a limit uses fewer workers, or stops at once with a sentence
/// (exit 70), instead of dying in a library that cannot allocate (GLib aborts when it cannot
/// start a thread, libdispatch retries a thread forever, the Swift runtime traps).
///
/// The figures were measured as the smallest `ulimit -v` under which a render of the demo at 2
/// fps succeeds (debug build, Debian 12): 213 MB with one worker at 1x, 234 MB with one at 3x,
/// 266 MB with two at 3x, 308 MB with four at 3x. ``baseBytes`` and ``workerBytes(canvasPixels:)``
/// are those figures rounded up; encoders that hold more (GIF, WebP, video) can still run out,
/// which ``FatalSignals`` in the command line reports.
public enum MemoryBudget {
    /// Address space a render needs besides its drawing workers: the Swift runtime, Foundation,
    /// GLib, fontconfig's font set, Pango and Cairo, the main thread (bytes).
    public static let baseBytes = 200 << 20

    /// Address space one drawing worker needs: its 8 MiB stack, its Pango context and glyph
    /// caches, and its canvas and a copy of it (4 bytes per pixel each) (bytes).
    public static func workerBytes(canvasPixels: Int) -> Int { (12 << 20) + 8 * canvasPixels }

    /// The soft address-space limit of the process (bytes); nil when there is none.
    public static var addressSpaceLimit: Int? {
        var limit = rlimit()
        guard getrlimit(RLIMIT_AS_VALUE, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// `requested` workers, or as many as fit under ``addressSpaceLimit`` (at least one).
    /// - Parameters:
    ///   - requested: workers asked for (`--jobs`, or the number of cores).
    ///   - canvasPixels: pixels of one frame (width × height in px).
    ///   - what: what the run is, for the error ("a render of 1179×2556 px frames").
    ///   - limit: the address-space limit (bytes); nil for none.
    /// - Throws: ``OutOfMemoryError`` (exit 70) when not even one worker fits.
    public static func workers(requested: Int, canvasPixels: Int, what: String, limit: Int? = addressSpaceLimit) throws -> Int {
        guard let limit else { return max(1, requested) }
        let perWorker = workerBytes(canvasPixels: canvasPixels)
        let fitting = (limit - baseBytes) / perWorker
        guard fitting >= 1 else {
            throw OutOfMemoryError(what: what, neededBytes: baseBytes + perWorker, limitBytes: limit)
        }
        return max(1, min(requested, fitting))
    }

    // Glibc imports RLIMIT_AS as an enum case of `__rlimit_resource`.
    private static let RLIMIT_AS_VALUE = __rlimit_resource_t(RLIMIT_AS.rawValue)
}

/// The process cannot get the memory a run needs (exit 70): what, how much and the limit.
public struct OutOfMemoryError: ReportableError, Equatable, Sendable, CustomStringConvertible {
    /// What could not be allocated ("a render of 1179×2556 px frames").
    public var what: String
    /// Address space it needs (bytes).
    public var neededBytes: Int
    /// The limit in force (bytes).
    public var limitBytes: Int
    /// The sentence: what needs how many MB, and the limit when there is one.
    public var description: String {
        guard limitBytes > 0 else { return "out of memory: the system cannot give \(what) the \(neededBytes >> 20) MB it needs" }
        return "out of memory: \(what) needs about \(neededBytes >> 20) MB of address space, and the limit (ulimit -v) is \(limitBytes >> 20) MB; raise the limit or render at a smaller --scale"
    }
    /// 70 (`EX_SOFTWARE`).
    public var exitCode: ExitCode { .software }

    /// The error for `what`, needing `neededBytes` under a limit of `limitBytes` (0: no limit).
    public init(what: String, neededBytes: Int, limitBytes: Int) {
        self.what = what; self.neededBytes = neededBytes; self.limitBytes = limitBytes
    }
}
